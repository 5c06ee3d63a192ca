/* metrics.c — classification agreement, cosine, SQNR and accuracy budgets (definitions
 * in metrics.h). */
#include "metrics.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a ranks above b (a, b indices into v) */
static int ranks_above(const float *v, int a, int b)
{
    if (isnan(v[b])) return !isnan(v[a]) || a < b;
    if (isnan(v[a])) return 0;
    return v[a] > v[b] || (v[a] == v[b] && a < b);
}

int cc_argmax(const float *v, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (ranks_above(v, i, best)) best = i;
    return best;
}

void cc_topk(const float *v, int n, int k, int *idx)
{
    /* insertion into a sorted list of k: k is small (5) */
    int len = 0;
    for (int i = 0; i < n; i++) {
        int pos = len;
        while (pos > 0 && ranks_above(v, i, idx[pos - 1])) pos--;
        if (pos >= k) continue;
        int end = len < k ? len : k - 1;
        for (int j = end; j > pos; j--) idx[j] = idx[j - 1];
        idx[pos] = i;
        if (len < k) len++;
    }
}

double cc_cosine(const float *a, const float *b, int64_t n)
{
    double ab = 0, aa = 0, bb = 0;
    for (int64_t i = 0; i < n; i++) {
        ab += (double)a[i] * b[i];
        aa += (double)a[i] * a[i];
        bb += (double)b[i] * b[i];
    }
    if (aa == 0 && bb == 0) return 1;
    if (aa == 0 || bb == 0) return 0;
    return ab / sqrt(aa * bb);
}

static double sqnr_of(double signal, double noise)
{
    if (noise == 0) return INFINITY;
    return 10 * log10(signal / noise);
}

double cc_sqnr_db(const float *ref, const float *x, int64_t n)
{
    double s = 0, e = 0;
    for (int64_t i = 0; i < n; i++) {
        double d = (double)ref[i] - x[i];
        s += (double)ref[i] * ref[i];
        e += d * d;
    }
    return sqnr_of(s, e);
}

void cc_class_metrics_init(cc_class_metrics *m)
{
    memset(m, 0, sizeof *m);
    m->cosine = m->cosine_min = 1;
    m->sqnr_db = INFINITY;
}

cc_status cc_class_metrics_add(cc_class_metrics *m, const float *golden, const float *cand, int n_inputs,
                               int n_classes, cc_err *err)
{
    if (n_classes < 1 || n_inputs < 0)
        return cc_err_set(err, CC_ERR_ARG, "classification metrics: %d inputs of %d classes", n_inputs, n_classes);
    int k5 = n_classes < 5 ? n_classes : 5, top[5];
    for (int i = 0; i < n_inputs; i++) {
        const float *g = golden + (size_t)i * (size_t)n_classes, *x = cand + (size_t)i * (size_t)n_classes;
        int gt = cc_argmax(g, n_classes);
        cc_topk(x, n_classes, k5, top);
        m->top1_agree += top[0] == gt;
        for (int j = 0; j < k5; j++)
            if (top[j] == gt) m->top5_agree++;
        double c = cc_cosine(g, x, n_classes);
        if (m->n == 0 || !(c >= m->cosine_min)) m->cosine_min = c;
        for (int j = 0; j < n_classes; j++) {
            double d = (double)g[j] - x[j];
            m->sum_gg += (double)g[j] * g[j];
            m->sum_xx += (double)x[j] * x[j];
            m->sum_gx += (double)g[j] * x[j];
            m->sum_ee += d * d;
        }
        m->n++;
    }
    if (m->n) {
        m->top1 = (double)m->top1_agree / m->n;
        m->top5 = (double)m->top5_agree / m->n;
    }
    if (m->sum_gg == 0 && m->sum_xx == 0) m->cosine = 1;
    else if (m->sum_gg == 0 || m->sum_xx == 0) m->cosine = 0;
    else m->cosine = m->sum_gx / sqrt(m->sum_gg * m->sum_xx);
    m->sqnr_db = sqnr_of(m->sum_gg, m->sum_ee);
    return CC_OK;
}

/* ---- budgets ---------------------------------------------------------------------- */

cc_budget cc_budget_default(cc_dtype dt)
{
    switch (dt) {
    case CC_F32: return (cc_budget){ .top1 = 0.99, .top5 = 0.999, .cosine = 0.99999, .sqnr_db = 50, .map50 = 0.99 };
    case CC_F16: return (cc_budget){ .top1 = 0.99, .top5 = 0.999, .cosine = 0.999, .sqnr_db = 30, .map50 = 0.98 };
    case CC_BF16: return (cc_budget){ .top1 = 0.99, .top5 = 0.999, .cosine = 0.995, .sqnr_db = 20, .map50 = 0.98 };
    default: return (cc_budget){ .top1 = 0.99, .top5 = 0.99, .cosine = 0.98, .sqnr_db = 14, .map50 = 0.90 };
    }
}

cc_status cc_budget_parse(const char *text, cc_budget *b, cc_err *err)
{
    static const struct { const char *key; size_t off; } keys[] = {
        { "top1", offsetof(cc_budget, top1) },     { "top5", offsetof(cc_budget, top5) },
        { "cosine", offsetof(cc_budget, cosine) }, { "sqnr", offsetof(cc_budget, sqnr_db) },
        { "map50", offsetof(cc_budget, map50) },
    };
    cc_budget nb = *b;
    const char *p = text ? text : "";
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char item[64];
        if (len == 0 || len >= sizeof item) return cc_err_set(err, CC_ERR_ARG, "budget: malformed item in '%s'", text);
        memcpy(item, p, len);
        item[len] = '\0';
        char *eq = strchr(item, '=');
        if (!eq) return cc_err_set(err, CC_ERR_ARG, "budget: expected key=value, got '%s'", item);
        *eq = '\0';
        size_t k = 0;
        while (k < sizeof keys / sizeof *keys && strcmp(keys[k].key, item) != 0) k++;
        if (k == sizeof keys / sizeof *keys)
            return cc_err_set(err, CC_ERR_ARG, "budget: unknown key '%s' (top1, top5, cosine, sqnr, map50)", item);
        double v;
        if (strcmp(eq + 1, "off") == 0) {
            v = -INFINITY;
        } else {
            char *e;
            v = strtod(eq + 1, &e);
            if (e == eq + 1 || *e || isnan(v))
                return cc_err_set(err, CC_ERR_ARG, "budget: %s must be a number or off, got '%s'", item, eq + 1);
        }
        *(double *)((char *)&nb + keys[k].off) = v;
        p = end ? end + 1 : p + len;
        if (end && !*p) return cc_err_set(err, CC_ERR_ARG, "budget: empty item at the end of '%s'", text);
    }
    if (!text || !text[0]) return cc_err_set(err, CC_ERR_ARG, "budget: empty");
    *b = nb;
    return CC_OK;
}

/* v meets a minimum (a disabled bound, -inf, accepts anything, NaN included). */
static int within(double v, double bound)
{
    return (isinf(bound) && bound < 0) || v >= bound;
}

/* Appends "; " + a formatted clause to reason. */
static void clause(char *reason, size_t n, size_t *len, const char *fmt, double a, double b)
{
    if (*len >= n) return;
    *len += (size_t)snprintf(reason + *len, n - *len, fmt, *len ? "; " : "", a, b);
}

int cc_budget_check_classify(const cc_budget *b, const cc_class_metrics *m, char *reason, size_t n)
{
    size_t len = 0;
    if (n) reason[0] = '\0';
    if (!within(m->top1, b->top1) && n) {
        len += (size_t)snprintf(reason + len, n - len, "top-1 agreement %.1f%% (%d/%d) < %.1f%%", 100 * m->top1,
                                m->top1_agree, m->n, 100 * b->top1);
    }
    if (!within(m->top5, b->top5) && n && len < n)
        len += (size_t)snprintf(reason + len, n - len, "%stop-5 agreement %.1f%% (%d/%d) < %.1f%%", len ? "; " : "",
                                100 * m->top5, m->top5_agree, m->n, 100 * b->top5);
    if (!within(m->cosine, b->cosine)) clause(reason, n, &len, "%scosine %.6g < %.6g", m->cosine, b->cosine);
    if (!within(m->sqnr_db, b->sqnr_db)) clause(reason, n, &len, "%sSQNR %.1f dB < %.1f dB", m->sqnr_db, b->sqnr_db);
    return within(m->top1, b->top1) && within(m->top5, b->top5) && within(m->cosine, b->cosine) &&
           within(m->sqnr_db, b->sqnr_db);
}
