/* history.c — change points over a series of times (optimal partitioning with an
 * absolute-deviation cost on log-times, see history.h) and a case's history over the runs
 * of a database, one series per machine and target. */
#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "compare.h"

void cc_changepoint_options_default(cc_changepoint_options *opt)
{
    opt->min_segment = 3;
    opt->penalty = 3.0;
    opt->min_shift = 0.05;
    opt->sigma_floor = 0.005;
}

/* A growing segment y[s..t] kept sorted, with the sum of its lower half, so that its
 * absolute-deviation cost about the median is O(1) after each O(length) insertion. */
typedef struct sorted_run {
    double *a;
    int len;
    double sum, sum_lo;    /* all values; the lowest floor(len / 2) */
} sorted_run;

static void run_insert(sorted_run *r, double v)
{
    int h = r->len / 2, p = r->len;
    while (p > 0 && r->a[p - 1] > v) p--;
    memmove(r->a + p + 1, r->a + p, sizeof *r->a * (size_t)(r->len - p));
    /* the old lower half a[0..h-1]: if v lands inside it, its largest element leaves */
    if (p < h) r->sum_lo += v - r->a[h];   /* a[h] is the old a[h-1] after the shift */
    r->a[p] = v;
    r->len++;
    r->sum += v;
    int h2 = r->len / 2;
    if (h2 > h) r->sum_lo += r->a[h];
}

static double run_cost(const sorted_run *r)
{
    double c = r->sum - 2 * r->sum_lo;
    if (r->len % 2) c -= r->a[r->len / 2];
    return c;
}

static double median_of(const double *y, int n, double *scratch)
{
    memcpy(scratch, y, sizeof *y * (size_t)n);
    gsl_sort(scratch, 1, (size_t)n);
    return gsl_stats_median_from_sorted_data(scratch, 1, (size_t)n);
}

/* sigma from successive differences: 1.4826 * MAD(diff) / sqrt(2). */
static double noise_scale(const double *y, int n, double *scratch)
{
    if (n < 3) return 0;
    for (int i = 1; i < n; i++) scratch[i - 1] = y[i] - y[i - 1];
    gsl_sort(scratch, 1, (size_t)(n - 1));
    double med = gsl_stats_median_from_sorted_data(scratch, 1, (size_t)(n - 1));
    for (int i = 0; i < n - 1; i++) scratch[i] = fabs(scratch[i] - med);
    gsl_sort(scratch, 1, (size_t)(n - 1));
    double mad = gsl_stats_median_from_sorted_data(scratch, 1, (size_t)(n - 1));
    return 1.4826 * mad / sqrt(2.0);
}

cc_status cc_changepoints(const double *x, int n, const cc_changepoint_options *opt,
                          cc_segment **segs, int *n_segs, cc_err *err)
{
    cc_changepoint_options o;
    if (opt) o = *opt;
    else cc_changepoint_options_default(&o);
    if (!x || !segs || !n_segs || n < 1)
        return cc_err_set(err, CC_ERR_ARG, "change points: need at least one value");
    if (o.min_segment < 1 || !(o.penalty >= 0) || !(o.min_shift >= 0) || !(o.sigma_floor >= 0))
        return cc_err_set(err, CC_ERR_ARG, "change points: bad options");
    for (int i = 0; i < n; i++)
        if (!(x[i] > 0) || isinf(x[i]))
            return cc_err_set(err, CC_ERR_ARG, "change points: value %d is %g, not a positive time", i, x[i]);

    cc_status st = CC_OK;
    double *y = malloc(sizeof *y * (size_t)n), *scratch = malloc(sizeof *y * (size_t)n);
    double *best = malloc(sizeof *best * (size_t)(n + 1));
    int *from = malloc(sizeof *from * (size_t)(n + 1));
    sorted_run r = { malloc(sizeof(double) * (size_t)n), 0, 0, 0 };
    cc_segment *out = malloc(sizeof *out * (size_t)n);
    if (!y || !scratch || !best || !from || !r.a || !out) {
        st = cc_err_set(err, CC_ERR_NOMEM, "change points: out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++) y[i] = log(x[i]);

    int m = o.min_segment;
    int k = 0;
    if (n < 2 * m) {
        from[n] = 0;
    } else {
        double sigma = fmax(o.sigma_floor, noise_scale(y, n, scratch));
        /* ln(n) floored at ln(20): short series get the penalty of 20 points, since their
         * noise estimate rests on few differences */
        double beta = o.penalty * sigma * log(n > 20 ? (double)n : 20.0);
        /* best[t]: least cost of y[0..t-1]; a segment starting at s is extended to every
         * admissible end once best[s] is final (all segments ending at s - 1 start before s) */
        for (int t = 0; t <= n; t++) {
            best[t] = INFINITY;
            from[t] = -1;
        }
        best[0] = -beta;
        for (int s = 0; s + m <= n; s++) {
            if (isinf(best[s])) continue;
            r.len = 0;
            r.sum = r.sum_lo = 0;
            for (int t = s; t < n; t++) {
                run_insert(&r, y[t]);
                if (t - s + 1 < m) continue;
                if (n - (t + 1) > 0 && n - (t + 1) < m) continue; /* the rest could not fit */
                double c = best[s] + run_cost(&r) + beta;
                if (c < best[t + 1] - 1e-12) {
                    best[t + 1] = c;
                    from[t + 1] = s;
                }
            }
        }
    }
    /* walk back from n to recover the segments (in reverse) */
    for (int t = n; t > 0; t = from[t]) {
        out[k].first = from[t];
        out[k].n = t - from[t];
        k++;
    }
    for (int i = 0; i < k / 2; i++) {
        cc_segment tmp = out[i];
        out[i] = out[k - 1 - i];
        out[k - 1 - i] = tmp;
    }
    /* merge neighbours closer than min_shift, the closest pair first */
    for (;;) {
        for (int i = 0; i < k; i++) out[i].level = median_of(y + out[i].first, out[i].n, scratch);
        int pick = -1;
        double smallest = INFINITY;
        for (int i = 0; i + 1 < k; i++) {
            double d = fabs(out[i + 1].level - out[i].level);
            if (d < log1p(o.min_shift) && d < smallest) {
                smallest = d;
                pick = i;
            }
        }
        if (pick < 0) break;
        out[pick].n += out[pick + 1].n;
        memmove(out + pick + 1, out + pick + 2, sizeof *out * (size_t)(k - pick - 2));
        k--;
    }
    for (int i = 0; i < k; i++) out[i].level = exp(out[i].level);
    *segs = out;
    *n_segs = k;
    out = NULL;
done:
    free(y);
    free(scratch);
    free(best);
    free(from);
    free(r.a);
    free(out);
    return st;
}

/* ---- a case's history ------------------------------------------------------------------ */

void cc_history_free(cc_history *h)
{
    if (!h) return;
    for (int i = 0; i < h->n_series; i++) {
        free(h->series[i].pts);
        free(h->series[i].segs);
    }
    free(h->series);
    free(h->runs);
    free(h->machines);
    free(h);
}

static int find_run(const cc_history *h, int64_t id)
{
    for (int i = 0; i < h->n_runs; i++)
        if (h->runs[i].id == id) return i;
    return -1;
}

/* Splits the points of one target by machine and appends one series per machine. */
static cc_status add_series(cc_history *h, const char *target, const cc_series_point *pts, int n,
                            const int *run_machine, const cc_changepoint_options *opt, cc_err *err)
{
    for (int mi = 0; mi < h->n_machines; mi++) {
        int count = 0;
        for (int i = 0; i < n; i++) {
            int r = find_run(h, pts[i].run_id);
            if (r >= 0 && run_machine[r] == mi) count++;
        }
        if (!count) continue;
        cc_history_series *grown = realloc(h->series, sizeof *grown * (size_t)(h->n_series + 1));
        if (!grown) return cc_err_set(err, CC_ERR_NOMEM, "history: out of memory");
        h->series = grown;
        cc_history_series *s = &h->series[h->n_series++];
        memset(s, 0, sizeof *s);
        snprintf(s->target, sizeof s->target, "%s", target);
        s->machine = mi;
        s->pts = calloc((size_t)count, sizeof *s->pts);
        double *x = malloc(sizeof *x * (size_t)count);
        int *where = malloc(sizeof *where * (size_t)count);
        if (!s->pts || !x || !where) {
            free(x);
            free(where);
            return cc_err_set(err, CC_ERR_NOMEM, "history: out of memory");
        }
        int nt = 0;
        for (int i = 0; i < n; i++) {
            int r = find_run(h, pts[i].run_id);
            if (r < 0 || run_machine[r] != mi) continue;
            cc_history_point *hp = &s->pts[s->n++];
            hp->p = pts[i];
            hp->run = r;
            hp->segment = -1;
            if (pts[i].n_samples > 0 && pts[i].median > 0 && !isinf(pts[i].median)) {
                x[nt] = pts[i].median;
                where[nt++] = s->n - 1;
            }
        }
        cc_status st = CC_OK;
        if (nt > 0) {
            cc_segment *segs = NULL;
            int ns = 0;
            st = cc_changepoints(x, nt, opt, &segs, &ns, err);
            if (st == CC_OK) {
                for (int k = 0; k < ns; k++) {
                    int a = where[segs[k].first], b = where[segs[k].first + segs[k].n - 1];
                    for (int j = segs[k].first; j < segs[k].first + segs[k].n; j++)
                        s->pts[where[j]].segment = k;
                    if (k > 0) s->pts[a].change = 1;
                    segs[k].first = a;
                    segs[k].n = b - a + 1;
                }
                s->segs = segs;
                s->n_segs = ns;
            }
        }
        free(x);
        free(where);
        if (st != CC_OK) return st;
    }
    return CC_OK;
}

/* The history object with its runs and machine keys; run_machine[r] is run r's machine. */
static cc_status history_new(cc_db *store, const char *name, cc_history **out, int **run_machine,
                             cc_err *err)
{
    cc_history *h = calloc(1, sizeof *h);
    if (!h) return cc_err_set(err, CC_ERR_NOMEM, "history: out of memory");
    snprintf(h->name, sizeof h->name, "%s", name);
    cc_status st = cc_store_list_runs(store, &h->runs, &h->n_runs, err);
    if (st != CC_OK) {
        cc_history_free(h);
        return st;
    }
    int *rm = malloc(sizeof *rm * (size_t)(h->n_runs ? h->n_runs : 1));
    h->machines = malloc(sizeof *h->machines * (size_t)(h->n_runs ? h->n_runs : 1));
    if (!rm || !h->machines) {
        free(rm);
        cc_history_free(h);
        return cc_err_set(err, CC_ERR_NOMEM, "history: out of memory");
    }
    for (int r = 0; r < h->n_runs; r++) {
        char key[512];
        cc_env_machine_key(&h->runs[r], key, sizeof key);
        int m = 0;
        while (m < h->n_machines && strcmp(h->machines[m], key) != 0) m++;
        if (m == h->n_machines) snprintf(h->machines[h->n_machines++], sizeof h->machines[0], "%s", key);
        rm[r] = m;
    }
    *out = h;
    *run_machine = rm;
    return CC_OK;
}

/* Orders the series by machine, keeping the order of series names within a machine. */
static void sort_series(cc_history *h)
{
    for (int i = 1; i < h->n_series; i++) {
        cc_history_series s = h->series[i];
        int j = i - 1;
        while (j >= 0 && h->series[j].machine > s.machine) {
            h->series[j + 1] = h->series[j];
            j--;
        }
        h->series[j + 1] = s;
    }
}

cc_status cc_history_case(cc_db *store, const char *case_id, const char *target,
                          const cc_changepoint_options *opt, cc_history **out, cc_err *err)
{
    if (!store || !case_id || !out) return cc_err_set(err, CC_ERR_ARG, "cc_history_case: NULL argument");
    cc_history *h = NULL;
    int *run_machine = NULL, n_targets = 0;
    char(*targets)[CC_NAME_MAX] = NULL;
    cc_status st = history_new(store, case_id, &h, &run_machine, err);
    if (st != CC_OK) return st;
    if (target) {
        targets = malloc(sizeof *targets);
        if (!targets) {
            st = cc_err_set(err, CC_ERR_NOMEM, "history: out of memory");
            goto done;
        }
        snprintf(targets[0], sizeof targets[0], "%s", target);
        n_targets = 1;
    } else {
        st = cc_store_case_targets(store, case_id, &targets, &n_targets, err);
    }
    for (int t = 0; st == CC_OK && t < n_targets; t++) {
        cc_series_point *pts = NULL;
        int n = 0;
        st = cc_store_case_series(store, case_id, targets[t], &pts, &n, err);
        if (st == CC_OK) st = add_series(h, targets[t], pts, n, run_machine, opt, err);
        free(pts);
    }
    sort_series(h);
done:
    free(targets);
    free(run_machine);
    if (st != CC_OK) {
        cc_history_free(h);
        return st;
    }
    *out = h;
    return CC_OK;
}

cc_status cc_history_model(cc_db *store, const char *model, const char *target,
                           const cc_changepoint_options *opt, cc_history **out, cc_err *err)
{
    if (!store || !model || !out) return cc_err_set(err, CC_ERR_ARG, "cc_history_model: NULL argument");
    cc_history *h = NULL;
    int *run_machine = NULL, n_keys = 0;
    char(*keys)[CC_NAME_MAX] = NULL;
    cc_status st = history_new(store, model, &h, &run_machine, err);
    if (st != CC_OK) return st;
    h->is_model = 1;
    st = cc_store_model_keys(store, model, &keys, &n_keys, err);
    for (int k = 0; st == CC_OK && k < n_keys; k++) {
        const char *tg = keys[2 * k], *prec = keys[2 * k + 1];
        if (target && strcmp(target, tg) != 0) continue;
        cc_series_point *pts = NULL;
        int n = 0;
        char label[CC_NAME_MAX];
        snprintf(label, sizeof label, "%.40s %.16s", tg, prec);
        st = cc_store_model_series(store, model, tg, prec, &pts, &n, err);
        if (st == CC_OK) st = add_series(h, label, pts, n, run_machine, opt, err);
        free(pts);
    }
    sort_series(h);
    free(keys);
    free(run_machine);
    if (st != CC_OK) {
        cc_history_free(h);
        return st;
    }
    *out = h;
    return CC_OK;
}
