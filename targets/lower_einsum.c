/* lower_einsum.c — Einsum's equation as the stride tables the built-in backends walk
 * (lower.h's cc_lower_einsum): one stride per operand and label, a label repeated in an
 * operand adding up the strides of its axes. */
#include <stdio.h>
#include <string.h>

#include "lower.h"

#define LETTERS 52
/* label ids: the letters "A..Za..z" 0..51, then ellipsis dim k (of the broadcast ellipsis,
 * right-aligned) LETTERS + k */
#define LABELS (LETTERS + CC_MAX_RANK)

static int letter_id(char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
    return -1;
}

/* The labels of the axes a term names, its ellipsis (written '.' here, once per term)
 * expanded to the ell_dims dims it stands for: ids[0..*n). -1 on a malformed term. */
static int term_labels(const char *t, size_t len, int ell_dims, int ell_total, int *ids, int *n)
{
    int k = 0, seen = 0;
    for (size_t i = 0; i < len; i++) {
        if (t[i] == '.') {
            if (seen++ || k + ell_dims > CC_MAX_RANK) return -1;
            for (int j = 0; j < ell_dims; j++) ids[k++] = LETTERS + ell_total - ell_dims + j;
            continue;
        }
        int id = letter_id(t[i]);
        if (id < 0 || k == CC_MAX_RANK) return -1;
        ids[k++] = id;
    }
    *n = k;
    return 0;
}

static int term_letters(const char *t, size_t len, int *has_ell)
{
    int n = 0;
    *has_ell = 0;
    for (size_t i = 0; i < len; i++) {
        if (t[i] == '.') *has_ell = 1;
        else n++;
    }
    return n;
}

cc_status cc_lower_einsum(const cc_node *node, const cc_tensor *const *in, cc_lower_einsum_geom *e, cc_err *err)
{
    /* the equation without spaces, "..." as one '.', "->" as '>' */
    char eq[CC_ATTR_STR];
    size_t len = 0;
    const char *src = cc_attr_s(node, "equation");
    for (const char *p = src; *p && len + 1 < sizeof eq; p++) {
        if (*p == ' ') continue;
        if (p[0] == '.' && p[1] == '.' && p[2] == '.') p += 2;
        else if (p[0] == '-' && p[1] == '>') p++;
        else if (letter_id(*p) < 0 && *p != ',') return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s' is malformed", src);
        eq[len++] = *p;
    }
    eq[len] = '\0';
    const char *arrow = strchr(eq, '>');
    size_t lhs = arrow ? (size_t)(arrow - eq) : len;

    memset(e, 0, sizeof *e);
    int n = 0;
    while (n < node->n_in && n < CC_MAX_IO && in[n]) n++;
    if (n < 1 || n > CC_LOWER_EINSUM_MAX_IN)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "Einsum: %d operands (1 to %d are lowered)", n, CC_LOWER_EINSUM_MAX_IN);
    e->n_in = n;

    /* the terms: where each starts, and the ellipsis' extent */
    size_t start[CC_LOWER_EINSUM_MAX_IN + 1];
    int n_terms = 0, ell_total = 0;
    for (size_t i = 0; i <= lhs; i++) {
        if (i == 0 || eq[i - 1] == ',') {
            if (n_terms == n) return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s' has more terms than operands", src);
            start[n_terms++] = i;
        }
    }
    if (n_terms != n) return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s' has fewer terms than operands", src);
    start[n] = lhs + 1;
    for (int t = 0; t < n; t++) {
        int has_ell, letters = term_letters(eq + start[t], start[t + 1] - 1 - start[t], &has_ell);
        int extra = in[t]->shape.rank - letters;
        if (extra < 0 || (extra > 0 && !has_ell))
            return cc_err_set(err, CC_ERR_ARG, "Einsum: term %d of '%s' does not fit operand %d's rank", t, src, t);
        if (extra > ell_total) ell_total = extra;
    }

    /* each label's dim and each operand's stride along it; how often each letter appears */
    int64_t dim[LABELS];
    int used[LABELS] = { 0 }, count[LABELS] = { 0 };
    int64_t stride[CC_LOWER_EINSUM_MAX_IN][LABELS];
    memset(stride, 0, sizeof stride);
    for (int t = 0; t < n; t++) {
        const cc_shape *s = &in[t]->shape;
        int ids[CC_MAX_RANK], k, has_ell;
        int letters = term_letters(eq + start[t], start[t + 1] - 1 - start[t], &has_ell);
        if (term_labels(eq + start[t], start[t + 1] - 1 - start[t], s->rank - letters, ell_total, ids, &k) || k != s->rank)
            return cc_err_set(err, CC_ERR_ARG, "Einsum: term %d of '%s' is malformed", t, src);
        int64_t st = 1;
        for (int a = s->rank - 1; a >= 0; a--) {
            int l = ids[a];
            int64_t d = s->dims[a];
            if (l < LETTERS) count[l]++;
            if (!used[l] || (l >= LETTERS && dim[l] == 1)) dim[l] = d;
            else if (d != dim[l] && !(l >= LETTERS && d == 1))
                return cc_err_set(err, CC_ERR_ARG, "Einsum: operand %d's dims disagree with '%s'", t, src);
            used[l] = 1;
            if (d != 1) stride[t][l] += st; /* a dim of 1 is read at 0: a broadcast ellipsis dim */
            st *= d;
        }
    }

    /* the output's labels, then the summed ones (dims of 1 dropped: read at 0) */
    int axis_label[CC_LOWER_EINSUM_MAX_AXES], in_out[LABELS] = { 0 };
    if (arrow) {
        for (const char *p = arrow + 1; *p; p++) {
            int first = *p == '.' ? LETTERS : letter_id(*p), last = *p == '.' ? LETTERS + ell_total : first + 1;
            if (first < 0) return cc_err_set(err, CC_ERR_ARG, "Einsum: the output of '%s' is malformed", src);
            for (int l = first; l < last; l++) {
                if (!used[l] || in_out[l] || e->n_out == CC_MAX_RANK)
                    return cc_err_set(err, CC_ERR_ARG, "Einsum: the output of '%s' is malformed", src);
                in_out[l] = 1;
                axis_label[e->n_out++] = l;
            }
        }
    } else {
        for (int l = LETTERS; l < LETTERS + ell_total; l++) {
            in_out[l] = 1;
            axis_label[e->n_out++] = l;
        }
        for (int l = 0; l < LETTERS; l++)
            if (count[l] == 1) {
                if (e->n_out == CC_MAX_RANK) return cc_err_set(err, CC_ERR_ARG, "Einsum: the output of '%s' is malformed", src);
                in_out[l] = 1;
                axis_label[e->n_out++] = l;
            }
    }
    for (int l = 0; l < LABELS; l++) {
        if (!used[l] || in_out[l] || dim[l] == 1) continue;
        if (e->n_sum == CC_LOWER_EINSUM_MAX_SUM)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "Einsum: '%s' sums over more than %d labels", src,
                              CC_LOWER_EINSUM_MAX_SUM);
        axis_label[e->n_out + e->n_sum++] = l;
    }
    e->out_count = e->sum_count = 1;
    for (int a = 0; a < e->n_out + e->n_sum; a++) {
        int l = axis_label[a];
        e->dims[a] = dim[l];
        for (int t = 0; t < n; t++) e->stride[t][a] = stride[t][l];
        if (a < e->n_out) e->out_count *= dim[l];
        else e->sum_count *= dim[l];
    }
    return CC_OK;
}
