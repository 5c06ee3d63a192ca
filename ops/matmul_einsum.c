/* matmul_einsum.c — Einsum (opset 12), in the matmul family: 1 to 8 operands of one dtype
 * (float or integer) and an equation "term,term,...->output" that gives every axis of each
 * operand a label, a letter (a-z, A-Z: numpy's letters, ONNX names the lower case ones) or
 * one of the dims of an ellipsis "..." (at most one per term). The output holds, for each
 * combination of the output's labels, the sum over every combination of the other labels
 * of the product of the operands' elements those labels select:
 *  - a letter repeated in one term takes that operand's diagonal; every occurrence of a
 *    letter must have the same dim;
 *  - the ellipses of the terms stand for the operands' dims not named by letters, aligned
 *    from the right and broadcast numpy-style (equal, or 1);
 *  - without "->" the output is implicit: the ellipsis dims, then the letters that appear
 *    exactly once in the equation in alphabetical (ASCII) order; an explicit output names
 *    each label at most once and must keep the ellipsis ("...") where there is one;
 *  - spaces are ignored.
 * Integers wrap as numpy's einsum does (every product and sum modulo 2^64, the result
 * wrapped to the dtype).
 *
 * Golden: the equation parsed into a label per axis, then one loop over every combination
 * of every label, each product added to its output element in double. S = sum |product|;
 * each term is a product of N operands (N - 1 roundings) and the sum adds P of them per
 * output (P the product of the summed labels' dims): whichever order a target multiplies
 * and adds them in (pairwise contractions included), a term meets at most N - 1 + P - 1
 * roundings on its way, so K = P + N - 2 (at least 1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matmul.h"
#include "sweep.h"

#define EINSUM_MAX_IN 8
#define LETTERS 52
#define MAX_LABELS (CC_MAX_RANK + LETTERS)
#define MAX_WORK ((int64_t)1 << 62)

/* An equation applied to its operands' shapes. Labels 0 .. ell - 1 are the ellipsis dims
 * (the broadcast of the terms' ellipses, right-aligned), then ell + k is letter k of
 * "A..Za..z". */
typedef struct einsum_eq {
    int ell;
    int used[MAX_LABELS];                    /* 1: some operand has the label */
    int64_t dim[MAX_LABELS];
    int axis_label[EINSUM_MAX_IN][CC_MAX_RANK];
    int out_rank, out_label[CC_MAX_RANK];
} einsum_eq;

static int letter_code(char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return 26 + c - 'a';
    return -1;
}

static char code_letter(int k) { return (char)(k < 26 ? 'A' + k : 'a' + k - 26); }

/* One term of the equation: its tokens, each a letter's code or -1 for the ellipsis. */
typedef struct term {
    int n, ell_at; /* tokens; the ellipsis' token, -1 if none */
    int code[CC_MAX_RANK + 1];
} term;

static int term_letters(const term *t) { return t->n - (t->ell_at >= 0); }

/* Reads text[0..len) (letters and dots) as a term. Returns 0, or -1 with the reason in why. */
static int term_parse(const char *text, size_t len, term *t, char *why, size_t n)
{
    t->n = 0;
    t->ell_at = -1;
    for (size_t i = 0; i < len;) {
        if (t->n == CC_MAX_RANK + 1) return snprintf(why, n, "a term has more than %d letters", CC_MAX_RANK), -1;
        if (text[i] != '.') {
            t->code[t->n++] = letter_code(text[i++]);
            continue;
        }
        if (i + 3 > len || text[i + 1] != '.' || text[i + 2] != '.') return snprintf(why, n, "a '.' outside '...'"), -1;
        if (t->ell_at >= 0) return snprintf(why, n, "a term has two ellipses"), -1;
        t->ell_at = t->n;
        t->code[t->n++] = -1;
        i += 3;
    }
    return 0;
}

/* Parses the node's equation against the operands xs[0..n). CC_ERR_ARG with a one-line
 * reason starting "Einsum: ". */
static cc_status einsum_parse(const char *equation, const cc_tensor *const *xs, int n, einsum_eq *q, cc_err *err)
{
    char buf[CC_ATTR_STR], why[96] = "";
    size_t len = 0;
    memset(q, 0, sizeof *q);
    for (const char *p = equation; *p; p++) {
        if (*p == ' ') continue;
        if (letter_code(*p) < 0 && !strchr(",.->", *p))
            return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s': '%c' is not a letter, ',', '...', '->' or a space",
                              equation, *p);
        buf[len++] = *p;
    }
    buf[len] = '\0';
    const char *arrow = strstr(buf, "->");
    for (size_t i = 0; i < len; i++)
        if ((buf[i] == '-' && buf[i + 1] != '>') || (buf[i] == '>' && (i == 0 || buf[i - 1] != '-')))
            return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s': a '-' or '>' outside '->'", equation);
    if (arrow && strstr(arrow + 2, "->"))
        return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s' has more than one '->'", equation);
    size_t lhs_len = arrow ? (size_t)(arrow - buf) : len;
    if (arrow && strchr(arrow + 2, ','))
        return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s': the output has a ','", equation);

    /* the terms, one per operand */
    term terms[EINSUM_MAX_IN];
    int n_terms = 0;
    for (size_t a = 0;; n_terms++) {
        size_t b = a;
        while (b < lhs_len && buf[b] != ',') b++;
        if (n_terms < n && term_parse(buf + a, b - a, &terms[n_terms], why, sizeof why))
            return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s': %s", equation, why);
        if (b == lhs_len) {
            n_terms++;
            break;
        }
        a = b + 1;
    }
    if (n_terms != n)
        return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s' has %d terms for %d inputs", equation, n_terms, n);
    for (int i = 0; i < n; i++) {
        int letters = term_letters(&terms[i]), r = xs[i]->shape.rank;
        if (terms[i].ell_at < 0 ? letters != r : letters > r)
            return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s': term %d has %d letters%s for x%d of rank %d",
                              equation, i, letters, terms[i].ell_at < 0 ? "" : " and '...'", i, r);
        if (terms[i].ell_at >= 0 && r - letters > q->ell) q->ell = r - letters;
    }

    /* every axis's label and every label's dim */
    int first[MAX_LABELS], count[MAX_LABELS] = { 0 };
    for (int i = 0; i < n; i++) {
        const term *t = &terms[i];
        const cc_shape *s = &xs[i]->shape;
        int e = s->rank - term_letters(t), axis = 0;
        for (int k = 0; k < t->n; k++) {
            if (t->code[k] < 0) {
                for (int j = 0; j < e; j++, axis++) {
                    int l = q->ell - e + j;
                    int64_t d = s->dims[axis];
                    q->axis_label[i][axis] = l;
                    if (!q->used[l] || q->dim[l] == 1) {
                        if (!q->used[l]) first[l] = i;
                        q->dim[l] = d;
                    } else if (d != 1 && d != q->dim[l]) {
                        return cc_err_set(err, CC_ERR_ARG,
                                          "Einsum: the ellipsis dims of x%d and x%d do not broadcast (%lld and %lld)",
                                          first[l], i, (long long)q->dim[l], (long long)d);
                    }
                    q->used[l] = 1;
                }
                continue;
            }
            int l = q->ell + t->code[k];
            int64_t d = s->dims[axis];
            q->axis_label[i][axis++] = l;
            if (q->used[l] && q->dim[l] != d)
                return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s': letter '%c' is %lld in x%d and %lld in x%d",
                                  equation, code_letter(t->code[k]), (long long)q->dim[l], first[l], (long long)d, i);
            if (!q->used[l]) first[l] = i;
            q->used[l] = 1;
            q->dim[l] = d;
            count[l]++;
        }
    }

    /* the output's labels */
    int in_out[MAX_LABELS] = { 0 };
    if (arrow) {
        term t;
        const char *rhs = arrow + 2;
        if (term_parse(rhs, strlen(rhs), &t, why, sizeof why))
            return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s': the output: %s", equation, why);
        if (t.ell_at < 0 && q->ell > 0)
            return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s': the output needs '...' for the inputs' %d ellipsis dims",
                              equation, q->ell);
        for (int k = 0; k < t.n; k++) {
            if (t.code[k] < 0) {
                if (q->out_rank + q->ell > CC_MAX_RANK)
                    return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s': the output has more than %d dims", equation,
                                      CC_MAX_RANK);
                for (int l = 0; l < q->ell; l++) q->out_label[q->out_rank++] = l;
                continue;
            }
            int code = t.code[k], l = q->ell + code;
            if (!q->used[l])
                return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s': output letter '%c' is in no input", equation,
                                  code_letter(code));
            if (in_out[l])
                return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s': output letter '%c' appears twice", equation,
                                  code_letter(code));
            if (q->out_rank == CC_MAX_RANK)
                return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s': the output has more than %d dims", equation,
                                  CC_MAX_RANK);
            in_out[l] = 1;
            q->out_label[q->out_rank++] = l;
        }
    } else {
        for (int l = 0; l < q->ell + LETTERS; l++) {
            if (l >= q->ell && count[l] != 1) continue;
            if (q->out_rank == CC_MAX_RANK)
                return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s': the output has more than %d dims", equation,
                                  CC_MAX_RANK);
            q->out_label[q->out_rank++] = l;
        }
    }
    /* what the golden model and a target walk: every combination of every label */
    int64_t work = 1;
    for (int l = 0; l < q->ell + LETTERS; l++) {
        if (!q->used[l] || q->dim[l] == 0) continue;
        if (q->dim[l] > MAX_WORK / work)
            return cc_err_set(err, CC_ERR_ARG, "Einsum: equation '%s' multiplies more than 2^62 combinations of labels",
                              equation);
        work *= q->dim[l];
    }
    return CC_OK;
}

/* The operands in order: the node's inputs must be x0, x1, ... without a gap. */
static cc_status einsum_operands(const cc_node *node, const cc_tensor *const *in, const cc_tensor **xs, int *n,
                                 cc_err *err)
{
    int k = 0;
    for (int i = 0; i < node->n_in && i < CC_MAX_IO; i++) {
        if (!in[i]) continue;
        if (i >= EINSUM_MAX_IN)
            return cc_err_set(err, CC_ERR_ARG, "Einsum: %d inputs, at most %d are supported", node->n_in, EINSUM_MAX_IN);
        if (i != k) return cc_err_set(err, CC_ERR_ARG, "Einsum: x%d is absent but x%d is given", k, i);
        xs[k++] = in[i];
    }
    if (k == 0) return cc_err_set(err, CC_ERR_ARG, "Einsum: needs at least 1 input");
    *n = k;
    return CC_OK;
}

#define EINSUM_DTYPES                                                                                    \
    (CC_DTYPES_FLOAT | CC_DTYPE_BIT(CC_F64) | CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8) |                  \
     CC_DTYPE_BIT(CC_I16) | CC_DTYPE_BIT(CC_U16) | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_U32) |             \
     CC_DTYPE_BIT(CC_I64) | CC_DTYPE_BIT(CC_U64))

/* Reads the node: its operands xs[0..*n), their dtype and the equation applied to them. */
static cc_status einsum_read(const cc_node *node, const cc_tensor *const *in, const cc_tensor **xs, int *n,
                             einsum_eq *q, cc_err *err)
{
    cc_status st = einsum_operands(node, in, xs, n, err);
    if (st) return st;
    cc_dtype dt = xs[0]->dtype;
    if ((unsigned)dt >= CC_DTYPE_COUNT || !(EINSUM_DTYPES & CC_DTYPE_BIT(dt)))
        return cc_err_set(err, CC_ERR_ARG, "Einsum: dtype %s is not allowed (float and integer types)", cc_dtype_name(dt));
    for (int i = 1; i < *n; i++)
        if (xs[i]->dtype != dt)
            return cc_err_set(err, CC_ERR_ARG, "Einsum: x%d is %s but x0 is %s (must match)", i,
                              cc_dtype_name(xs[i]->dtype), cc_dtype_name(dt));
    return einsum_parse(cc_attr_s(node, "equation"), xs, *n, q, err);
}

static cc_status einsum_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "Einsum: has 1 output, asked for %d", n_out);
    const cc_tensor *xs[EINSUM_MAX_IN];
    einsum_eq q;
    int n;
    cc_status st = einsum_read(node, in, xs, &n, &q, err);
    if (st) return st;
    int64_t dims[CC_MAX_RANK];
    for (int a = 0; a < q.out_rank; a++) dims[a] = q.dim[q.out_label[a]];
    out[0].dtype = xs[0]->dtype;
    out[0].shape = cc_shape_make(q.out_rank, dims);
    out[0].data = NULL;
    return CC_OK;
}

/* Element i of integer tensor t, exactly (a u64 past 2^63 as its two's complement). */
static uint64_t load_int(const cc_tensor *t, int64_t i)
{
    if (t->dtype == CC_I64) return (uint64_t)((const int64_t *)t->data)[i];
    if (t->dtype == CC_U64) return ((const uint64_t *)t->data)[i];
    return (uint64_t)cc_load_i64(t->data, t->dtype, (size_t)i);
}

/* v modulo 2^bits of integer dtype d, as the dtype reads it. */
static double wrap_int(uint64_t v, cc_dtype d)
{
    int bits = 8 * (int)cc_dtype_size(d);
    int is_signed = d == CC_I8 || d == CC_I16 || d == CC_I32 || d == CC_I64;
    if (bits < 64) {
        v &= ((uint64_t)1 << bits) - 1;
        if (is_signed && (v >> (bits - 1))) return (double)(int64_t)v - ldexp(1.0, bits);
        return (double)v;
    }
    return is_signed ? (double)(int64_t)v : (double)v;
}

static cc_status einsum_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *xs[EINSUM_MAX_IN];
    einsum_eq q;
    int n;
    cc_status st = einsum_read(node, in, xs, &n, &q, err);
    if (st) return st;
    cc_dtype dt = xs[0]->dtype;
    int is_int = !cc_dtype_is_float(dt);
    int64_t out_count = cc_shape_numel(&out[0].shape), per_output = 1, total = 1;
    int labels[MAX_LABELS], n_labels = 0, in_out[MAX_LABELS] = { 0 };
    for (int a = 0; a < q.out_rank; a++) in_out[q.out_label[a]] = 1;
    for (int l = 0; l < q.ell + LETTERS; l++) {
        if (!q.used[l]) continue;
        labels[n_labels++] = l;
        total *= q.dim[l];
        if (!in_out[l]) per_output *= q.dim[l];
    }
    uint64_t *acc = is_int ? calloc((size_t)(out_count ? out_count : 1), sizeof *acc) : NULL;
    if (is_int && !acc) return cc_err_set(err, CC_ERR_NOMEM, "Einsum: out of memory");
    for (int64_t o = 0; o < out_count; o++) out[0].value[o] = out[0].mag[o] = 0;
    int64_t c[MAX_LABELS] = { 0 };
    for (int64_t step = 0; step < total; step++) {
        int64_t o = 0;
        for (int a = 0; a < q.out_rank; a++) o = o * q.dim[q.out_label[a]] + c[q.out_label[a]];
        double p = 1;
        uint64_t ip = 1;
        for (int i = 0; i < n; i++) {
            const cc_shape *s = &xs[i]->shape;
            int64_t at = 0;
            for (int j = 0; j < s->rank; j++) {
                int l = q.axis_label[i][j];
                at = at * s->dims[j] + (s->dims[j] == 1 ? 0 : c[l]); /* a broadcast ellipsis dim of 1 */
            }
            if (is_int) ip *= load_int(xs[i], at);
            else p *= cc_load(xs[i]->data, dt, (size_t)at);
        }
        if (is_int) {
            acc[o] += ip;
            p = (double)(int64_t)ip;
        } else {
            out[0].value[o] += p;
        }
        out[0].mag[o] += fabs(p);
        for (int k = n_labels - 1; k >= 0; k--) {
            if (++c[labels[k]] < q.dim[labels[k]]) break;
            c[labels[k]] = 0;
        }
    }
    if (is_int)
        for (int64_t o = 0; o < out_count; o++) out[0].value[o] = wrap_int(acc[o], dt);
    free(acc);
    double k = (double)per_output + n - 2;
    out[0].k = k < 1 ? 1 : k;
    return CC_OK;
}

static void einsum_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                        double *bytes)
{
    (void)n_out;
    const cc_tensor *xs[EINSUM_MAX_IN];
    einsum_eq q;
    int n;
    cc_err e;
    *flops = 0;
    *bytes = (double)cc_tensor_bytes(&out[0]);
    if (einsum_read(node, in, xs, &n, &q, &e)) return;
    double total = 1;
    for (int l = 0; l < q.ell + LETTERS; l++)
        if (q.used[l]) total *= (double)q.dim[l];
    *flops = total * n; /* per product: N - 1 multiplications and an addition */
    for (int i = 0; i < n; i++) *bytes += (double)cc_tensor_bytes(xs[i]);
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* clang-format off */
static const cc_sweep_row einsum_sweep[] = {
    { Q, "x0=8x16,x1=16x12", "equation=\"ij,jk->ik\"", 0 },                   /* matmul */
    { Q, "x0=4x5x6,x1=4x6x3", "equation=\"bij,bjk->bik\"", 0 },               /* batched matmul */
    { Q, "x0=2x3x5x6,x1=6x4", "equation=\"...ij,jk->...ik\"", 0 },
    { Q, "x0=2x1x5x6,x1=3x6x4", "equation=\"...ij,...jk->...ik\"", 0 },       /* ellipsis 2x1 against 3 */
    { Q, "x0=5x7", "equation=\"ij->ji\"", 0 },                                /* transpose */
    { Q, "x0=6x6", "equation=\"ii\"", 0 },                                    /* trace (implicit: a scalar) */
    { Q, "x0=3x5x5", "equation=\"...ii->...i\"", 0 },                         /* batch diagonal */
    { Q, "x0=17,x1=17", "equation=\"i,i\"", 0 },                              /* inner product */
    { Q, "x0=5,x1=7", "equation=\"i,j->ij\"", 0 },                            /* outer product */
    { Q, "x0=4x6", "equation=\"ij->\"", 0 },                                  /* to a scalar */
    { Q, "x0=4x5,x1=5x6,x2=6x3", "equation=\"ij,jk,kl->il\"", 0 },            /* a chain of three */
    { Q, "x0=3x4,x1=4x5", "equation=\"ij,jk\"", 0 },                          /* implicit: ik */
    { Q, "x0=6x5", "equation=\" b a -> a b \"", 0 },                          /* spaces */
    { 0, "x0=2x3x4", "equation=\"ijk->kji\"", 0 },
    { 0, "x0=4x3,x1=4x3", "equation=\"ij,ij->ij\"", 0 },                      /* elementwise product */
    { 0, "x0=3x4,x1=3,x2=4", "equation=\"ij,i,j->\"", 0 },                    /* a bilinear form */
    { 0, "x0=2x3x4,x1=2x4x5", "equation=\"bij,bjk->bki\"", 0 },
    { 0, "x0=4x4x4", "equation=\"iii->i\"", 0 },
    { 0, "x0=4x4x3", "equation=\"iij->ji\"", 0 },
    { 0, "x0=4x5,x1=5x4", "equation=\"ij,ji->\"", 0 },                        /* trace of a product */
    { 0, "x0=6x3x4,x1=6x4x5", "equation=\"bij,bjk->ik\"", 0 },                /* summed over the batch too */
    { 0, "x0=3x4", "equation=\"ij->i\"", 0 },
    { 0, "x0=2x3x4x5", "equation=\"...ij->...ji\"", 0 },
    { 0, "x0=3x4,x1=4x2,x2=2x5,x3=5x3", "equation=\"ab,bc,cd,da->\"", 0 },    /* four operands: a ring's trace */
    { 0, "x0=2x6,x1=3x6", "equation=\"Ai,Bi->AB\"", 0 },                      /* upper-case letters */
    { 0, "x0=7x2", "equation=\"ba\"", 0 },                                    /* implicit: alphabetical, ab */
    { EDGE, "x0=scalar,x1=3", "equation=\",i->i\"", 0 },                      /* a scalar operand (0 in 1 of 9 draws) */
    { Q | EDGE, "x0=scalar", "equation=\"->\"", 0 },
    { EDGE, "x0=4x5,x1=5", "equation=\"...ij,...j->...i\"", 0 },              /* an ellipsis of no dims */
    { EDGE, "x0=1x7", "equation=\"ij->ji\"", 0 },
    { EDGE, "x0=1x1,x1=1x1", "equation=\"ij,jk->ik\"", 0 },
    { EDGE, "x0=0x4,x1=4x3", "equation=\"ij,jk->ik\"", 0 },                   /* an empty output */
    { EDGE, "x0=3x1x4,x1=5x4", "equation=\"...i,...i->...i\"", 0 },           /* ellipsis dims of 1 broadcast */
    { MODEL, "x0=1x12x128x64,x1=1x12x128x64", "equation=\"bhqd,bhkd->bhqk\"", 0 }, /* BERT-base attention scores */
    { MODEL, "x0=1x12x128x128,x1=1x12x128x64", "equation=\"bhqk,bhkd->bhqd\"", 0 }, /* and the weighted values */
    { MODEL, "x0=1x128x768,x1=768x768", "equation=\"bsd,de->bse\"", 0 },      /* a projection */
};
/* clang-format on */

const cc_op_def cc_op_Einsum = {
    .id = CC_OP_ID_Einsum, .name = "Einsum", .domain = "", .since_version = 12, .family = "matmul",
    /* integers in [-4, 4] in both regimes: products of a few of them summed over the sweep's
     * reductions stay far within int32 and within float32's exact integers */
    .n_inputs = EINSUM_MAX_IN,
    .inputs = {
        { .name = "x0", .role = CC_IN_DATA, .lo = -1, .hi = 1, .ilo = -4, .ihi = 4 },
        { .name = "x1", .role = CC_IN_DATA, .optional = 1, .lo = -1, .hi = 1, .ilo = -4, .ihi = 4 },
        { .name = "x2", .role = CC_IN_DATA, .optional = 1, .lo = -1, .hi = 1, .ilo = -4, .ihi = 4 },
        { .name = "x3", .role = CC_IN_DATA, .optional = 1, .lo = -1, .hi = 1, .ilo = -4, .ihi = 4 },
        { .name = "x4", .role = CC_IN_DATA, .optional = 1, .lo = -1, .hi = 1, .ilo = -4, .ihi = 4 },
        { .name = "x5", .role = CC_IN_DATA, .optional = 1, .lo = -1, .hi = 1, .ilo = -4, .ihi = 4 },
        { .name = "x6", .role = CC_IN_DATA, .optional = 1, .lo = -1, .hi = 1, .ilo = -4, .ihi = 4 },
        { .name = "x7", .role = CC_IN_DATA, .optional = 1, .lo = -1, .hi = 1, .ilo = -4, .ihi = 4 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Einsum, 12), .attrs = { CC_ONNX_ATTRS(Einsum, 12) },
    .dtypes = CC_DTYPES_FLOAT | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64),
    .infer = einsum_infer, .cost = einsum_cost, .golden = einsum_golden, CC_SWEEP(einsum_sweep),
};
