/* csv.c — CSV exports of results (op cases and models), comparisons and histories through
 * libcsv: text fields go through csv_fwrite (quoted, quotes doubled), numbers are printed
 * round-trip exact. */
#include "csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "../results/model_result.h"
#include "../results/store_query.h"

/* A row being written: fields are separated by commas; the first write error sticks. */
typedef struct row {
    FILE *f;
    int n;
    int failed;
} row;

static void sep(row *r)
{
    if (r->n++ && fputc(',', r->f) == EOF) r->failed = 1;
}

static void text(row *r, const char *s)
{
    sep(r);
    if (csv_fwrite(r->f, s ? s : "", s ? strlen(s) : 0) != 0) r->failed = 1;
}

static void num(row *r, double v)
{
    sep(r);
    if (!isnan(v) && fprintf(r->f, "%.17g", v) < 0) r->failed = 1;
}

static void integer(row *r, long long v)
{
    sep(r);
    if (fprintf(r->f, "%lld", v) < 0) r->failed = 1;
}

static void end_row(row *r)
{
    if (fputs("\r\n", r->f) == EOF) r->failed = 1;
    r->n = 0;
}

static void header(row *r, const char *const *names, int n)
{
    for (int i = 0; i < n; i++) text(r, names[i]);
    end_row(r);
}

static cc_status io_status(row *r, cc_err *err)
{
    if (r->failed || ferror(r->f)) return cc_err_set(err, CC_ERR_IO, "CSV export: writing failed");
    return CC_OK;
}

/* The first six columns of every exported row: run_uid, run_id, started_at, tag,
 * git_commit, hostname. */
static void run_cells(row *w, const cc_run_info *run)
{
    text(w, run->uid);
    integer(w, run->id);
    text(w, run->started_at);
    text(w, run->tag);
    text(w, run->git_commit);
    text(w, run->hostname);
}

/* ---- results ---------------------------------------------------------------------------- */

static const char *const result_cols[] = {
    "run_uid", "run_id", "started_at", "tag", "git_commit", "hostname", "case_id", "op", "dtype",
    "target", "regime", "seed", "verdict", "reason", "n", "n_bad", "max_abs", "max_rel", "max_ulp",
    "nmse", "cosine", "bound_ratio", "worst_index", "worst_got", "worst_want", "n_samples",
    "device_timer", "median_s", "mean_s", "stddev_s", "mad_s", "min_s", "max_s", "p90_s", "p99_s",
    "cv", "ci_lo_s", "ci_hi_s", "gflops", "gbps", "flops", "bytes", "plan", "tol_c", "tol_r",
    "tol_atol", "policy_version",
};

static void result_row(row *w, const cc_run_info *run, const cc_result *r)
{
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed);
    run_cells(w, run);
    text(w, r->case_id);
    text(w, r->op);
    text(w, r->dtype);
    text(w, r->target);
    text(w, cc_regime_name(r->regime));
    text(w, seed);
    text(w, cc_verdict_name(r->verdict));
    text(w, r->reason);
    integer(w, r->metrics.n);
    integer(w, r->metrics.n_bad);
    const double m[] = { r->metrics.max_abs, r->metrics.max_rel, r->metrics.max_ulp,
                         r->metrics.nmse, r->metrics.cosine, r->metrics.bound_ratio };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) num(w, m[i]);
    integer(w, r->metrics.worst_index);
    num(w, r->metrics.worst_got);
    num(w, r->metrics.worst_want);
    integer(w, r->timing.n_samples);
    integer(w, r->timing.device_timer);
    const cc_timing *t = &r->timing;
    const double tv[] = { t->median, t->mean, t->stddev, t->mad, t->min, t->max, t->p90, t->p99,
                          t->cv, t->ci_lo, t->ci_hi, t->gflops, t->gbps, r->flops, r->bytes };
    for (size_t i = 0; i < sizeof tv / sizeof tv[0]; i++) num(w, t->n_samples > 0 || i >= 13 ? tv[i] : NAN);
    text(w, r->plan);
    num(w, r->tol_c);
    num(w, r->tol_r);
    num(w, r->tol_atol);
    integer(w, r->policy_version);
    end_row(w);
}

/* The runs an export covers: run_id, or every run when run_id <= 0; *runs malloc'd. */
static cc_status export_runs(cc_db *store, int64_t run_id, cc_run_info **runs, int *n_runs, cc_err *err)
{
    *runs = NULL;
    *n_runs = 0;
    if (run_id <= 0) return cc_store_list_runs(store, runs, n_runs, err);
    *runs = malloc(sizeof **runs);
    if (!*runs) return cc_err_set(err, CC_ERR_NOMEM, "CSV export: out of memory");
    *n_runs = 1;
    cc_status st = cc_store_get_run(store, run_id, *runs, err);
    if (st != CC_OK) {
        free(*runs);
        *runs = NULL;
        *n_runs = 0;
    }
    return st;
}

/* Writes the rows of one run's results (case results or model results). */
typedef cc_status (*run_rows_fn)(cc_db *store, const cc_run_info *run, row *w, cc_err *err);

static cc_status export_by_run(cc_db *store, int64_t run_id, FILE *f, const char *const *cols, int n_cols,
                               run_rows_fn rows, cc_err *err)
{
    if (!store || !f) return cc_err_set(err, CC_ERR_ARG, "CSV export: NULL argument");
    cc_run_info *runs = NULL;
    int n_runs = 0;
    cc_status st = export_runs(store, run_id, &runs, &n_runs, err);
    if (st != CC_OK) return st;
    row w = { f, 0, 0 };
    header(&w, cols, n_cols);
    for (int i = 0; i < n_runs && st == CC_OK && !w.failed; i++) st = rows(store, &runs[i], &w, err);
    free(runs);
    return st != CC_OK ? st : io_status(&w, err);
}

static cc_status result_rows(cc_db *store, const cc_run_info *run, row *w, cc_err *err)
{
    cc_result *res = NULL;
    int n = 0;
    cc_status st = cc_store_load_results(store, run->id, &res, &n, err);
    for (int k = 0; st == CC_OK && k < n; k++) result_row(w, run, &res[k]);
    free(res);
    return st;
}

cc_status cc_csv_export_results(cc_db *store, int64_t run_id, FILE *f, cc_err *err)
{
    return export_by_run(store, run_id, f, result_cols, (int)(sizeof result_cols / sizeof result_cols[0]),
                         result_rows, err);
}

/* ---- model results ------------------------------------------------------------------------ */

static const char *const model_cols[] = {
    "run_uid", "run_id", "started_at", "tag", "git_commit", "hostname", "model", "target", "precision",
    "seed", "n_images", "verdict", "reason", "conf_cosine", "conf_sqnr_db", "conf_top1", "top1", "top5",
    "cosine", "sqnr_db", "det_precision", "det_recall", "det_map50", "n_nodes", "n_fallback", "fallback_ops",
    "support_rate", "lat_samples", "lat_p50_s", "lat_p90_s", "lat_p99_s", "lat_device_timer", "tp_batch", "throughput",
    "gflops", "peak_share", "layers", "divergent", "plan",
};

static void model_row(row *w, const cc_run_info *run, const cc_model_result *r)
{
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed);
    run_cells(w, run);
    text(w, r->model);
    text(w, r->target);
    text(w, r->precision);
    text(w, seed);
    integer(w, r->n_images);
    text(w, cc_verdict_name(r->verdict));
    text(w, r->reason);
    num(w, r->conf_cosine);
    num(w, r->conf_sqnr_db);
    num(w, r->conf_top1);
    num(w, r->top1);
    num(w, r->top5);
    num(w, r->cosine);
    num(w, r->sqnr_db);
    num(w, r->det_precision);
    num(w, r->det_recall);
    num(w, r->det_map50);
    integer(w, r->n_nodes);
    integer(w, r->n_fallback);
    text(w, r->fallback_ops);
    num(w, r->support_rate);
    integer(w, r->lat_samples);
    num(w, r->lat_p50);
    num(w, r->lat_p90);
    num(w, r->lat_p99);
    integer(w, r->lat_device_timer);
    integer(w, r->tp_batch);
    num(w, r->throughput);
    num(w, r->gflops);
    num(w, r->peak_share);
    text(w, r->layers);
    text(w, r->divergent);
    text(w, r->plan);
    end_row(w);
}

static cc_status model_rows(cc_db *store, const cc_run_info *run, row *w, cc_err *err)
{
    cc_model_result *res = NULL;
    int n = 0;
    cc_status st = cc_store_load_model_results(store, run->id, &res, &n, err);
    for (int k = 0; st == CC_OK && k < n; k++) model_row(w, run, &res[k]);
    free(res);
    return st;
}

cc_status cc_csv_export_model_results(cc_db *store, int64_t run_id, FILE *f, cc_err *err)
{
    return export_by_run(store, run_id, f, model_cols, (int)(sizeof model_cols / sizeof model_cols[0]), model_rows,
                         err);
}

/* ---- comparisons -------------------------------------------------------------------------- */

/* The judgement columns of a comparison row (case or model): overall, by verdict,
 * accuracy and timing, then both verdicts. */
static void judgement(row *w, cc_change kind, cc_change verdict, cc_change accuracy, cc_change timing, cc_verdict base,
                      cc_verdict cand)
{
    text(w, kind ? cc_change_name(kind) : "unchanged");
    text(w, cc_change_name(verdict));
    text(w, cc_change_name(accuracy));
    text(w, cc_change_name(timing));
    text(w, cc_verdict_name(base));
    text(w, cc_verdict_name(cand));
}

static const char *unconfirmed_name(int u)
{
    return u > 0 ? "slower" : u < 0 ? "faster" : "";
}

static const char *const compare_cols[] = {
    "case_id", "op", "dtype", "target", "regime", "judgement", "verdict_change",
    "accuracy_change", "timing_change", "base_verdict", "cand_verdict", "base_bound_ratio",
    "cand_bound_ratio", "base_n", "cand_n", "base_median_s", "cand_median_s", "change",
    "p_value", "threshold", "noise_runs", "family_change", "family_threshold", "family_rows", "unconfirmed",
    "lone", "own_spread",
};

cc_status cc_csv_export_comparison(const cc_comparison *c, FILE *f, cc_err *err)
{
    if (!c || !f) return cc_err_set(err, CC_ERR_ARG, "CSV export: NULL argument");
    row w = { f, 0, 0 };
    header(&w, compare_cols, (int)(sizeof compare_cols / sizeof compare_cols[0]));
    for (int i = 0; i < c->n_rows && !w.failed; i++) {
        const cc_compare_row *r = &c->rows[i];
        text(&w, r->case_id);
        text(&w, r->op);
        text(&w, r->dtype);
        text(&w, r->target);
        text(&w, cc_regime_name(r->regime));
        judgement(&w, r->change_kind, r->verdict_change, r->accuracy_change, r->timing_change, r->base_verdict,
                  r->cand_verdict);
        num(&w, r->base_bound_ratio);
        num(&w, r->cand_bound_ratio);
        integer(&w, r->base_n);
        integer(&w, r->cand_n);
        num(&w, r->base_median);
        num(&w, r->cand_median);
        num(&w, r->change);
        num(&w, r->p);
        num(&w, r->threshold);
        integer(&w, r->noise_runs);
        num(&w, r->family_change);
        num(&w, r->family_threshold);
        integer(&w, r->family_rows);
        text(&w, unconfirmed_name(r->unconfirmed));
        integer(&w, r->lone);
        num(&w, r->own_spread);
        end_row(&w);
    }
    return io_status(&w, err);
}

static const char *const compare_model_cols[] = {
    "model", "target", "precision", "judgement", "verdict_change", "accuracy_change", "timing_change",
    "base_verdict", "cand_verdict", "metric", "base_accuracy", "cand_accuracy", "base_n", "cand_n",
    "base_p50_s", "cand_p50_s", "change", "p_value", "threshold", "family_threshold", "noise_runs",
    "unconfirmed", "base_throughput", "cand_throughput",
};

cc_status cc_csv_export_model_comparison(const cc_comparison *c, FILE *f, cc_err *err)
{
    if (!c || !f) return cc_err_set(err, CC_ERR_ARG, "CSV export: NULL argument");
    row w = { f, 0, 0 };
    header(&w, compare_model_cols, (int)(sizeof compare_model_cols / sizeof compare_model_cols[0]));
    for (int i = 0; i < c->n_mrows && !w.failed; i++) {
        const cc_compare_model_row *r = &c->mrows[i];
        text(&w, r->model);
        text(&w, r->target);
        text(&w, r->precision);
        judgement(&w, r->change_kind, r->verdict_change, r->accuracy_change, r->timing_change, r->base_verdict,
                  r->cand_verdict);
        text(&w, r->metric);
        num(&w, r->base_acc);
        num(&w, r->cand_acc);
        integer(&w, r->base_n);
        integer(&w, r->cand_n);
        num(&w, r->base_p50);
        num(&w, r->cand_p50);
        num(&w, r->change);
        num(&w, r->p);
        num(&w, r->threshold);
        num(&w, r->family_threshold);
        integer(&w, r->noise_runs);
        text(&w, unconfirmed_name(r->unconfirmed));
        num(&w, r->base_throughput);
        num(&w, r->cand_throughput);
        end_row(&w);
    }
    return io_status(&w, err);
}

/* ---- histories ----------------------------------------------------------------------------- */

static const char *const history_cols[] = {
    "case_id", "machine", "target", "run_uid", "run_id", "started_at", "tag", "git_commit",
    "verdict", "n_samples", "median_s", "ci_lo_s", "ci_hi_s", "gflops", "bound_ratio", "level_s",
    "change_point",
};

cc_status cc_csv_export_history(const cc_history *h, FILE *f, cc_err *err)
{
    if (!h || !f) return cc_err_set(err, CC_ERR_ARG, "CSV export: NULL argument");
    row w = { f, 0, 0 };
    header(&w, history_cols, (int)(sizeof history_cols / sizeof history_cols[0]));
    for (int s = 0; s < h->n_series && !w.failed; s++) {
        const cc_history_series *se = &h->series[s];
        for (int i = 0; i < se->n; i++) {
            const cc_history_point *p = &se->pts[i];
            const cc_run_info *run = &h->runs[p->run];
            text(&w, h->name);
            text(&w, h->machines[se->machine]);
            text(&w, se->target);
            text(&w, run->uid);
            integer(&w, run->id);
            text(&w, run->started_at);
            text(&w, run->tag);
            text(&w, run->git_commit);
            text(&w, cc_verdict_name(p->p.verdict));
            integer(&w, p->p.n_samples);
            num(&w, p->p.median);
            num(&w, p->p.ci_lo);
            num(&w, p->p.ci_hi);
            num(&w, p->p.gflops);
            num(&w, p->p.bound_ratio);
            num(&w, p->segment >= 0 ? se->segs[p->segment].level : NAN);
            integer(&w, p->change);
            end_row(&w);
        }
    }
    return io_status(&w, err);
}
