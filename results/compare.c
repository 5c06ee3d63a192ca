/* compare.c — a candidate run judged against a baseline: the environment check (stable
 * parts must match), the row-by-row join of the two runs' results, verdict and accuracy
 * changes, timing changes (the row test here: U test on raw samples plus an effect
 * threshold; the op-family confirmation in family.c), and the outcome. The rules are
 * documented in compare.h. */
#include "compare.h"
#include "conformance.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "compare_int.h"
#include "model_result.h"
#include "store_query.h"

void cc_compare_options_default(cc_compare_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->alpha = 0.01;
    opt->min_effect = 0.10;
    opt->noise_auto = 1;
    opt->noise_factor = 2.0;
    opt->noise_floor = 0.05;
    opt->min_samples = 5;
    opt->timing = 1;
    opt->acc_factor = 2.0;
    opt->acc_floor = 0.25;
    opt->model_acc_drop = 0.01;
    opt->lone_alpha = 1e-6;
    opt->lone_effect = 0.20;
    opt->lone_factor = 3.0;
}

int cc_compare_exit_code(cc_outcome o)
{
    switch (o) {
    case CC_OUTCOME_NO_CHANGE: return 0;
    case CC_OUTCOME_REGRESSION: return 1;
    case CC_OUTCOME_IMPROVEMENT: return 4;
    default: return 5; /* nothing to judge: harness/exit_codes.h */
    }
}

const char *cc_outcome_name(cc_outcome o)
{
    switch (o) {
    case CC_OUTCOME_NO_CHANGE: return "NO REGRESSION";
    case CC_OUTCOME_REGRESSION: return "REGRESSION";
    case CC_OUTCOME_IMPROVEMENT: return "IMPROVEMENT";
    default: return "NOT ENOUGH DATA";
    }
}

const char *cc_change_name(cc_change c)
{
    switch (c) {
    case CC_CHANGE_REGRESSION: return "regression";
    case CC_CHANGE_IMPROVEMENT: return "improvement";
    case CC_CHANGE_NEUTRAL: return "changed";
    default: return "";
    }
}

/* ---- environment ---------------------------------------------------------------------- */

void cc_env_machine_key(const cc_run_info *run, char *buf, size_t n)
{
    snprintf(buf, n, "%s | %d cores | %s", run->cpu_model[0] ? run->cpu_model : "unknown CPU",
             run->cores, run->libraries);
}

typedef struct diff_list {
    cc_env_diff *d;
    int n, cap, n_stable;
    int failed;
} diff_list;

static void add_diff(diff_list *l, int stable, const char *what, const char *a, const char *b)
{
    if (strcmp(a, b) == 0 || l->failed) return;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        cc_env_diff *p = realloc(l->d, sizeof *p * (size_t)cap);
        if (!p) {
            l->failed = 1;
            return;
        }
        l->d = p;
        l->cap = cap;
    }
    cc_env_diff *d = &l->d[l->n++];
    snprintf(d->what, sizeof d->what, "%s", what);
    snprintf(d->base, sizeof d->base, "%s", a);
    snprintf(d->cand, sizeof d->cand, "%s", b);
    d->stable = stable;
    l->n_stable += stable;
}

/* A target's device as the fingerprint sees it: its name, or why it was unavailable. */
static void device_text(const cc_run_target *t, char *buf, size_t n)
{
    if (t->available) snprintf(buf, n, "%s", t->desc.name);
    else snprintf(buf, n, "unavailable (%s)", t->reason);
}

cc_status cc_env_compare(const cc_run_info *a, const cc_run_target *ta, int na,
                         const cc_run_info *b, const cc_run_target *tb, int nb,
                         cc_env_diff **out, int *n, int *n_stable, cc_err *err)
{
    if (!a || !b || !out || !n || !n_stable)
        return cc_err_set(err, CC_ERR_ARG, "cc_env_compare: NULL argument");
    diff_list l = { 0 };
    char x[256], y[256];
    add_diff(&l, 1, "cpu model", a->cpu_model, b->cpu_model);
    snprintf(x, sizeof x, "%d", a->cores);
    snprintf(y, sizeof y, "%d", b->cores);
    add_diff(&l, 1, "cores", x, y);
    add_diff(&l, 1, "libraries", a->libraries, b->libraries);
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
            if (strcmp(ta[i].name, tb[j].name) != 0) continue;
            char what[80];
            snprintf(what, sizeof what, "device of target %.40s", ta[i].name);
            device_text(&ta[i], x, sizeof x);
            device_text(&tb[j], y, sizeof y);
            add_diff(&l, 1, what, x, y);
        }
    /* volatile parts: shown, never judged */
    add_diff(&l, 0, "hostname", a->hostname, b->hostname);
    add_diff(&l, 0, "os", a->os, b->os);
    snprintf(x, sizeof x, "%.1f GiB", (double)a->memory_bytes / (1 << 30));
    snprintf(y, sizeof y, "%.1f GiB", (double)b->memory_bytes / (1 << 30));
    add_diff(&l, 0, "memory", x, y);
    add_diff(&l, 0, "compiler", a->compiler, b->compiler);
    add_diff(&l, 0, "crosscheck version", a->version, b->version);
    add_diff(&l, 0, "git commit", a->git_commit, b->git_commit);
    snprintf(x, sizeof x, "%llu", (unsigned long long)a->seed);
    snprintf(y, sizeof y, "%llu", (unsigned long long)b->seed);
    add_diff(&l, 0, "seed", x, y);
    add_diff(&l, 0, "sweep", a->quick ? "quick" : "full", b->quick ? "quick" : "full");
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
            if (strcmp(ta[i].name, tb[j].name) != 0) continue;
            char what[80];
            snprintf(what, sizeof what, "driver of target %.40s", ta[i].name);
            add_diff(&l, 0, what, ta[i].desc.driver, tb[j].desc.driver);
            snprintf(what, sizeof what, "library of target %.40s", ta[i].name);
            add_diff(&l, 0, what, ta[i].desc.library, tb[j].desc.library);
        }
    if (l.failed) {
        free(l.d);
        return cc_err_set(err, CC_ERR_NOMEM, "cc_env_compare: out of memory");
    }
    *out = l.d;
    *n = l.n;
    *n_stable = l.n_stable;
    return CC_OK;
}

/* ---- rows ----------------------------------------------------------------------------- */

/* good (passed, mistrusted) 0 < unsupported 1 < bad 2 */
static int verdict_class(cc_verdict v)
{
    if (v == CC_PASSED || v == CC_MISTRUSTED) return 0;
    if (v == CC_UNSUPPORTED) return 1;
    return 2;
}

static int row_order(const cc_result *a, const cc_result *b)
{
    int k = strcmp(a->op, b->op);
    if (!k) k = strcmp(a->dtype, b->dtype);
    if (!k) k = strcmp(a->case_id, b->case_id);
    if (!k) k = strcmp(a->target, b->target);
    if (!k) k = (int)a->regime - (int)b->regime;
    return k;
}

static double median_of(const double *x, int n, double *scratch)
{
    memcpy(scratch, x, sizeof *x * (size_t)n);
    gsl_sort(scratch, 1, (size_t)n);
    return gsl_stats_median_from_sorted_data(scratch, 1, (size_t)n);
}

static void init_row(cc_compare_row *row, const cc_result *a, const cc_result *b)
{
    memset(row, 0, sizeof *row);
    snprintf(row->case_id, sizeof row->case_id, "%s", a->case_id);
    snprintf(row->op, sizeof row->op, "%s", a->op);
    snprintf(row->dtype, sizeof row->dtype, "%s", a->dtype);
    snprintf(row->target, sizeof row->target, "%s", a->target);
    row->regime = a->regime;
    row->base_verdict = a->verdict;
    row->cand_verdict = b->verdict;
    row->base_bound_ratio = a->metrics.bound_ratio;
    row->cand_bound_ratio = b->metrics.bound_ratio;
    row->base_max_rel = a->metrics.max_rel;
    row->cand_max_rel = b->metrics.max_rel;
    row->base_median = row->cand_median = row->change = row->p = row->threshold = NAN;
    row->family_change = row->family_threshold = row->own_spread = NAN;
    row->base_gflops = a->timing.gflops;
    row->cand_gflops = b->timing.gflops;
    int refs = a->timing.ref > 0 && b->timing.ref > 0 && !a->timing.device_timer && !b->timing.device_timer;
    row->speed = refs ? b->timing.ref / a->timing.ref : 1;
}

static void judge_verdict_and_accuracy(const cc_compare_options *o, cc_compare_row *row)
{
    int ca = verdict_class(row->base_verdict), cb = verdict_class(row->cand_verdict);
    if (cb > ca) row->verdict_change = CC_CHANGE_REGRESSION;
    else if (cb < ca) row->verdict_change = CC_CHANGE_IMPROVEMENT;
    else if (row->base_verdict != row->cand_verdict) row->verdict_change = CC_CHANGE_NEUTRAL;
    if (ca != 0 || cb != 0) return;
    double a = row->base_bound_ratio, b = row->cand_bound_ratio;
    if (isnan(a) || isnan(b)) return;
    if (b >= o->acc_floor && b >= o->acc_factor * a) row->accuracy_change = CC_CHANGE_REGRESSION;
    else if (a >= o->acc_floor && a >= o->acc_factor * b) row->accuracy_change = CC_CHANGE_IMPROVEMENT;
}

/* scaled holds the candidate's samples divided by the row's speed (room for the longest
 * sample set). */
static cc_status judge_timing(const cc_compare_options *o, cc_compare_row *row,
                              const cc_sample_set *sa, const double *xa, const cc_sample_set *sb,
                              const double *xb, double *scratch, double *scaled, cc_err *err)
{
    row->base_n = sa ? sa->n : 0;
    row->cand_n = sb ? sb->n : 0;
    if (!sa || !sb || sa->n < 1 || sb->n < 1) return CC_OK;
    const double *base = xa + sa->first;
    for (int i = 0; i < sb->n; i++) scaled[i] = xb[sb->first + i] / row->speed;
    row->base_median = median_of(base, sa->n, scratch);
    row->cand_median = median_of(scaled, sb->n, scratch);
    if (row->base_median > 0) row->change = row->cand_median / row->base_median - 1;
    if (!o->timing || sa->n < o->min_samples || sb->n < o->min_samples ||
        verdict_class(row->base_verdict) != 0 || verdict_class(row->cand_verdict) != 0 ||
        !(row->base_median > 0) || !(row->cand_median > 0))
        return CC_OK;
    cc_mwu t;
    cc_status st = cc_mann_whitney(base, sa->n, scaled, sb->n, &t, err);
    if (st != CC_OK) return st;
    row->p = t.p;
    double ratio = row->cand_median / row->base_median;
    if (t.p < o->alpha) {
        if (ratio - 1 > row->threshold) row->timing_change = CC_CHANGE_REGRESSION;
        else if (1 / ratio - 1 > row->threshold) row->timing_change = CC_CHANGE_IMPROVEMENT;
    }
    return CC_OK;
}

static void classify(cc_compare_row *row)
{
    cc_change parts[3] = { row->verdict_change, row->accuracy_change, row->timing_change };
    row->change_kind = CC_CHANGE_NONE;
    for (int i = 0; i < 3; i++)
        if (parts[i] == CC_CHANGE_REGRESSION) row->change_kind = CC_CHANGE_REGRESSION;
    if (row->change_kind) return;
    for (int i = 0; i < 3; i++)
        if (parts[i] == CC_CHANGE_IMPROVEMENT) row->change_kind = CC_CHANGE_IMPROVEMENT;
    if (!row->change_kind && row->verdict_change == CC_CHANGE_NEUTRAL)
        row->change_kind = CC_CHANGE_NEUTRAL;
}

/* Joins the two runs' results (both sorted by op, dtype, case id, target, regime). */
static cc_status join_rows(cc_comparison *c, const cc_result *ra, int na, const cc_result *rb,
                           int nb, cc_err *err)
{
    int cap = na < nb ? na : nb;
    c->rows = cap ? malloc(sizeof *c->rows * (size_t)cap) : NULL;
    if (cap && !c->rows) return cc_err_set(err, CC_ERR_NOMEM, "compare: out of memory");
    int i = 0, j = 0;
    while (i < na && j < nb) {
        int k = row_order(&ra[i], &rb[j]);
        if (k < 0) {
            c->only_base++;
            i++;
        } else if (k > 0) {
            c->only_cand++;
            j++;
        } else {
            init_row(&c->rows[c->n_rows++], &ra[i], &rb[j]);
            i++;
            j++;
        }
    }
    c->only_base += na - i;
    c->only_cand += nb - j;
    return CC_OK;
}

/* ---- models ------------------------------------------------------------------------------ */

static int model_order(const cc_model_result *a, const cc_model_result *b)
{
    int k = strcmp(a->model, b->model);
    if (!k) k = strcmp(a->target, b->target);
    if (!k) k = strcmp(a->precision, b->precision);
    return k;
}

/* Judges model rows a (baseline) and b (candidate); xa[0..na-1] and xb[0..nb-1] are their
 * raw latency samples (none for results stored before schema 4). */
static cc_status judge_model(const cc_compare_options *o, cc_compare_model_row *r, const cc_model_result *a,
                             const cc_model_result *b, const double *xa, int na, const double *xb, int nb,
                             cc_err *err)
{
    memset(r, 0, sizeof *r);
    snprintf(r->model, sizeof r->model, "%s", a->model);
    snprintf(r->target, sizeof r->target, "%s", a->target);
    snprintf(r->precision, sizeof r->precision, "%s", a->precision);
    r->base_verdict = a->verdict;
    r->cand_verdict = b->verdict;
    int ca = verdict_class(a->verdict), cb = verdict_class(b->verdict);
    if (cb > ca) r->verdict_change = CC_CHANGE_REGRESSION;
    else if (cb < ca) r->verdict_change = CC_CHANGE_IMPROVEMENT;
    else if (a->verdict != b->verdict) r->verdict_change = CC_CHANGE_NEUTRAL;
    r->base_acc = r->cand_acc = NAN;
    if (!isnan(a->top1) && !isnan(b->top1)) {
        snprintf(r->metric, sizeof r->metric, "top1");
        r->base_acc = a->top1;
        r->cand_acc = b->top1;
    } else if (!isnan(a->det_map50) && !isnan(b->det_map50)) {
        snprintf(r->metric, sizeof r->metric, "mAP50");
        r->base_acc = a->det_map50;
        r->cand_acc = b->det_map50;
    }
    int good = ca == 0 && cb == 0;
    if (good && r->metric[0]) {
        if (r->base_acc - r->cand_acc > o->model_acc_drop) r->accuracy_change = CC_CHANGE_REGRESSION;
        else if (r->cand_acc - r->base_acc > o->model_acc_drop) r->accuracy_change = CC_CHANGE_IMPROVEMENT;
    }
    int raw = na > 0 && nb > 0;
    r->base_n = raw ? na : a->lat_samples;
    r->cand_n = raw ? nb : b->lat_samples;
    r->base_p50 = a->lat_samples > 0 ? a->lat_p50 : NAN;
    r->cand_p50 = b->lat_samples > 0 ? b->lat_p50 : NAN;
    r->p = r->family_threshold = NAN;
    double *scratch = NULL;
    if (raw) {
        scratch = malloc(sizeof *scratch * (size_t)(na > nb ? na : nb));
        if (!scratch) return cc_err_set(err, CC_ERR_NOMEM, "compare: out of memory");
        r->base_p50 = median_of(xa, na, scratch);
        r->cand_p50 = median_of(xb, nb, scratch);
        free(scratch);
    }
    r->base_throughput = a->throughput;
    r->cand_throughput = b->throughput;
    r->threshold = o->min_effect;
    r->change = r->base_p50 > 0 && r->cand_p50 > 0 ? r->cand_p50 / r->base_p50 - 1 : NAN;
    int significant = 1;
    if (o->timing && good && r->base_n >= o->min_samples && r->cand_n >= o->min_samples && !isnan(r->change)) {
        if (raw) {
            cc_mwu t;
            cc_status st = cc_mann_whitney(xa, na, xb, nb, &t, err);
            if (st != CC_OK) return st;
            r->p = t.p;
            significant = t.p < o->alpha;
        }
        if (significant && r->change > r->threshold) r->timing_change = CC_CHANGE_REGRESSION;
        else if (significant && 1 / (1 + r->change) - 1 > r->threshold) r->timing_change = CC_CHANGE_IMPROVEMENT;
        r->family_threshold = o->noise_floor;   /* until cc_compare_model_families */
    }
    return CC_OK;
}

static void classify_model(cc_compare_model_row *r)
{
    cc_change parts[3] = { r->verdict_change, r->accuracy_change, r->timing_change };
    r->change_kind = CC_CHANGE_NONE;
    for (int i = 0; i < 3; i++)
        if (parts[i] == CC_CHANGE_REGRESSION) r->change_kind = CC_CHANGE_REGRESSION;
    for (int i = 0; i < 3 && !r->change_kind; i++)
        if (parts[i] == CC_CHANGE_IMPROVEMENT) r->change_kind = CC_CHANGE_IMPROVEMENT;
    if (!r->change_kind && r->verdict_change == CC_CHANGE_NEUTRAL) r->change_kind = CC_CHANGE_NEUTRAL;
}

static cc_status compare_models(cc_db *base_db, cc_db *cand_db, cc_comparison *c, cc_err *err)
{
    cc_model_result *ma = NULL, *mb = NULL;
    int na = 0, nb = 0;
    cc_status st = cc_store_load_model_results(base_db, c->base.id, &ma, &na, err);
    if (st == CC_OK) st = cc_store_load_model_results(cand_db, c->cand.id, &mb, &nb, err);
    if (st == CC_OK && na && nb) {
        c->mrows = malloc(sizeof *c->mrows * (size_t)(na < nb ? na : nb));
        if (!c->mrows) st = cc_err_set(err, CC_ERR_NOMEM, "compare: out of memory");
    }
    int i = 0, j = 0;
    while (st == CC_OK && i < na && j < nb) {
        int k = model_order(&ma[i], &mb[j]);
        if (k < 0) {
            c->only_base_models++, i++;
            continue;
        }
        if (k > 0) {
            c->only_cand_models++, j++;
            continue;
        }
        double *xa = NULL, *xb = NULL;
        int nxa = 0, nxb = 0;
        if (c->opt.timing) {
            st = cc_store_load_model_samples(base_db, c->base.id, ma[i].model, ma[i].target, ma[i].precision, &xa,
                                             &nxa, err);
            if (st == CC_OK)
                st = cc_store_load_model_samples(cand_db, c->cand.id, mb[j].model, mb[j].target, mb[j].precision,
                                                 &xb, &nxb, err);
        }
        if (st == CC_OK) st = judge_model(&c->opt, &c->mrows[c->n_mrows++], &ma[i], &mb[j], xa, nxa, xb, nxb, err);
        free(xa);
        free(xb);
        i++;
        j++;
    }
    c->only_base_models += na - i;
    c->only_cand_models += nb - j;
    free(ma);
    free(mb);
    if (st == CC_OK && c->opt.timing) st = cc_compare_model_families(base_db, c, err);
    for (int m = 0; st == CC_OK && m < c->n_mrows; m++) classify_model(&c->mrows[m]);
    return st;
}

static int conf_order(const cc_conformance_result *a, const cc_conformance_result *b)
{
    int k = strcmp(a->op, b->op);
    if (!k) k = strcmp(a->test, b->test);
    if (!k) k = strcmp(a->target, b->target);
    return k;
}

/* The node tests both runs hold, joined on (op, test, target) (both lists come sorted so),
 * each judged by its verdict class. */
static cc_status compare_conformance(cc_db *base_db, cc_db *cand_db, cc_comparison *c, cc_err *err)
{
    cc_conformance_result *ca = NULL, *cb = NULL;
    int na = 0, nb = 0;
    cc_status st = cc_store_load_conformance(base_db, c->base.id, &ca, &na, err);
    if (st == CC_OK) st = cc_store_load_conformance(cand_db, c->cand.id, &cb, &nb, err);
    if (st == CC_OK && na && nb) {
        c->crows = malloc(sizeof *c->crows * (size_t)(na < nb ? na : nb));
        if (!c->crows) st = cc_err_set(err, CC_ERR_NOMEM, "compare: out of memory");
    }
    int i = 0, j = 0;
    while (st == CC_OK && i < na && j < nb) {
        int k = conf_order(&ca[i], &cb[j]);
        if (k < 0) {
            c->only_base_conf++, i++;
            continue;
        }
        if (k > 0) {
            c->only_cand_conf++, j++;
            continue;
        }
        cc_compare_conf_row *r = &c->crows[c->n_crows++];
        memset(r, 0, sizeof *r);
        snprintf(r->test, sizeof r->test, "%s", ca[i].test);
        snprintf(r->op, sizeof r->op, "%s", ca[i].op);
        snprintf(r->target, sizeof r->target, "%s", ca[i].target);
        r->base_verdict = ca[i].verdict;
        r->cand_verdict = cb[j].verdict;
        int ka = verdict_class(r->base_verdict), kb = verdict_class(r->cand_verdict);
        r->change_kind = kb > ka   ? CC_CHANGE_REGRESSION
                         : kb < ka ? CC_CHANGE_IMPROVEMENT
                         : r->base_verdict != r->cand_verdict ? CC_CHANGE_NEUTRAL
                                                              : CC_CHANGE_NONE;
        i++;
        j++;
    }
    c->only_base_conf += na - i;
    c->only_cand_conf += nb - j;
    free(ca);
    free(cb);
    return st;
}

static cc_status load_run(cc_db *db, int64_t id, cc_run_info *info, cc_run_target **tg, int *nt,
                          cc_result **res, int *nr, cc_err *err)
{
    cc_status st = cc_store_get_run(db, id, info, err);
    if (st == CC_OK) st = cc_store_load_targets(db, id, tg, nt, err);
    if (st == CC_OK) st = cc_store_load_results(db, id, res, nr, err);
    return st;
}

cc_status cc_compare_runs(cc_db *base_db, int64_t base_run, cc_db *cand_db, int64_t cand_run,
                          const cc_compare_options *opt, cc_comparison **out, cc_err *err)
{
    if (!base_db || !cand_db || !out) return cc_err_set(err, CC_ERR_ARG, "cc_compare_runs: NULL argument");
    cc_compare_options o;
    if (opt) o = *opt;
    else cc_compare_options_default(&o);
    if (!(o.alpha > 0 && o.alpha < 1) || !(o.min_effect >= 0) || !(o.noise_factor >= 0) ||
        !(o.noise_floor >= 0) || o.min_samples < 1 || !(o.lone_alpha >= 0 && o.lone_alpha < 1) ||
        !(o.lone_effect >= 0) || !(o.lone_factor >= 0))
        return cc_err_set(err, CC_ERR_ARG, "compare: bad options (alpha in (0,1), thresholds >= 0, min samples >= 1)");

    cc_comparison *c = calloc(1, sizeof *c);
    if (!c) return cc_err_set(err, CC_ERR_NOMEM, "compare: out of memory");
    c->opt = o;
    cc_result *ra = NULL, *rb = NULL;
    int na = 0, nb = 0;
    cc_run_samples sa = { 0 }, sb = { 0 };
    double *scratch = NULL, *scaled = NULL;

    cc_status st = load_run(base_db, base_run, &c->base, &c->base_targets, &c->n_base_targets, &ra,
                            &na, err);
    if (st == CC_OK)
        st = load_run(cand_db, cand_run, &c->cand, &c->cand_targets, &c->n_cand_targets, &rb, &nb, err);
    if (st == CC_OK)
        st = cc_env_compare(&c->base, c->base_targets, c->n_base_targets, &c->cand, c->cand_targets,
                            c->n_cand_targets, &c->diffs, &c->n_diffs, &c->n_stable_diffs, err);
    if (st != CC_OK) goto fail;

    if (c->n_stable_diffs > 0 && !o.cross_env) {
        const cc_env_diff *d = &c->diffs[0];
        c->outcome = CC_OUTCOME_NO_DATA;
        snprintf(c->reason, sizeof c->reason,
                 "the runs are not like with like: %.50s differs ('%.50s' vs '%.50s'); "
                 "--cross-env compares anyway", d->what, d->base, d->cand);
        goto done;
    }
    /* the lone rule trusts one case's own samples: only from a candidate that ran on a quiet
     * machine (compare.h) */
    c->lone_rule = o.timing && o.lone_alpha > 0 && c->cand.busy == 0;
    st = join_rows(c, ra, na, rb, nb, err);
    if (st == CC_OK) st = compare_models(base_db, cand_db, c, err);
    if (st == CC_OK) st = compare_conformance(base_db, cand_db, c, err);
    if (st != CC_OK) goto fail;
    if (c->n_rows == 0 && c->n_mrows == 0 && c->n_crows == 0) {
        c->outcome = CC_OUTCOME_NO_DATA;
        snprintf(c->reason, sizeof c->reason,
                 "no (case, target, regime) in common (%d results only in the baseline, %d only in the candidate)",
                 c->only_base, c->only_cand);
        goto done;
    }

    if (o.timing) {
        st = cc_store_load_run_samples(base_db, base_run, &sa, err);
        if (st == CC_OK) st = cc_store_load_run_samples(cand_db, cand_run, &sb, err);
        if (st != CC_OK) goto fail;
    }
    int longest = 1;
    for (int i = 0; i < sa.n_sets; i++) longest = sa.sets[i].n > longest ? sa.sets[i].n : longest;
    for (int i = 0; i < sb.n_sets; i++) longest = sb.sets[i].n > longest ? sb.sets[i].n : longest;
    scratch = malloc(sizeof *scratch * (size_t)longest);
    scaled = malloc(sizeof *scaled * (size_t)longest);
    if (!scratch || !scaled) goto nomem;

    if (o.timing && (st = cc_compare_ref_check(base_db, c, err)) != CC_OK) goto fail;
    for (int i = 0; i < c->n_rows; i++) {
        cc_compare_row *row = &c->rows[i];
        row->threshold = o.min_effect;
        if (c->ref_unsteady) row->speed = 1;
        judge_verdict_and_accuracy(&o, row);
        if (o.timing) {
            st = judge_timing(&o, row, cc_run_samples_find(&sa, row->case_id, row->target, row->regime),
                              sa.samples, cc_run_samples_find(&sb, row->case_id, row->target, row->regime),
                              sb.samples, scratch, scaled, err);
            if (st != CC_OK) goto fail;
            if (!isnan(row->p)) c->n_timed++;
        }
    }
    if (o.timing) {
        st = cc_compare_families(base_db, c, err);
        if (st != CC_OK) goto fail;
    }
    for (int i = 0; i < c->n_rows; i++) {
        cc_compare_row *row = &c->rows[i];
        classify(row);
        c->n_unconfirmed += row->unconfirmed != 0;
        if (row->change_kind == CC_CHANGE_REGRESSION) c->n_regressions++;
        else if (row->change_kind == CC_CHANGE_IMPROVEMENT) c->n_improvements++;
        else if (row->change_kind == CC_CHANGE_NEUTRAL) c->n_neutral++;
    }
    for (int i = 0; i < c->n_mrows; i++) {
        c->n_unconfirmed += c->mrows[i].unconfirmed != 0;
        cc_change k = c->mrows[i].change_kind;
        c->n_regressions += k == CC_CHANGE_REGRESSION;
        c->n_improvements += k == CC_CHANGE_IMPROVEMENT;
        c->n_neutral += k == CC_CHANGE_NEUTRAL;
    }
    for (int i = 0; i < c->n_crows; i++) {
        cc_change k = c->crows[i].change_kind;
        c->n_regressions += k == CC_CHANGE_REGRESSION;
        c->n_improvements += k == CC_CHANGE_IMPROVEMENT;
        c->n_neutral += k == CC_CHANGE_NEUTRAL;
    }
    int n_compared = c->n_rows + c->n_mrows + c->n_crows;
    if (c->n_regressions) {
        c->outcome = CC_OUTCOME_REGRESSION;
        snprintf(c->reason, sizeof c->reason, "%d regression%s, %d improvement%s in %d compared results",
                 c->n_regressions, c->n_regressions == 1 ? "" : "s", c->n_improvements,
                 c->n_improvements == 1 ? "" : "s", n_compared);
    } else if (c->n_improvements) {
        c->outcome = CC_OUTCOME_IMPROVEMENT;
        snprintf(c->reason, sizeof c->reason, "no regression, %d improvement%s in %d compared results",
                 c->n_improvements, c->n_improvements == 1 ? "" : "s", n_compared);
    } else {
        c->outcome = CC_OUTCOME_NO_CHANGE;
        snprintf(c->reason, sizeof c->reason, "no regression and no improvement in %d compared results",
                 n_compared);
    }

done:
    free(ra);
    free(rb);
    free(scratch);
    free(scaled);
    cc_run_samples_free(&sa);
    cc_run_samples_free(&sb);
    *out = c;
    return CC_OK;

nomem:
    st = cc_err_set(err, CC_ERR_NOMEM, "compare: out of memory");
fail:
    free(ra);
    free(rb);
    free(scratch);
    free(scaled);
    cc_run_samples_free(&sa);
    cc_run_samples_free(&sb);
    cc_comparison_free(c);
    return st;
}

void cc_comparison_free(cc_comparison *c)
{
    if (!c) return;
    free(c->base_targets);
    free(c->cand_targets);
    free(c->diffs);
    free(c->rows);
    free(c->mrows);
    free(c->crows);
    free(c);
}
