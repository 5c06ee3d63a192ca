/* report_data.c — loads one run from the store and indexes it for the report sections:
 * display order of ops (catalog order), dtypes and targets; distinct cases; the worst
 * verdict of every case on every target; the model results and their targets. Also the
 * verdict symbols and ranks, and the small cells several sections share. */
#include "report_data.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Verdict table: matrix symbol and rank (worst is highest). */
static const struct {
    const char *symbol;
    int rank;
} verdicts[CC_VERDICT_COUNT] = {
    [CC_PASSED] = { "✅", 0 },      [CC_UNSUPPORTED] = { "⛔", 1 },
    [CC_MISTRUSTED] = { "⚠️", 2 },  [CC_ERROR] = { "❗", 3 },
    [CC_TIMEOUT] = { "⏱", 4 },      [CC_FAILED] = { "❌", 5 },
    [CC_CRASHED] = { "💥", 6 },
};

const cc_verdict cc_report_verdict_order[CC_VERDICT_COUNT] = {
    CC_PASSED, CC_UNSUPPORTED, CC_MISTRUSTED, CC_ERROR, CC_TIMEOUT, CC_FAILED, CC_CRASHED,
};

const char *const cc_report_precisions[CC_N_PRECISIONS] = { "f32", "f16", "bf16", "int8" };

int cc_report_precision_order(const char *precision)
{
    for (int i = 0; i < CC_N_PRECISIONS; i++)
        if (strcmp(cc_report_precisions[i], precision) == 0) return i;
    return CC_N_PRECISIONS;
}

const char *cc_report_verdict_symbol(int verdict)
{
    if (verdict < 0 || verdict >= CC_VERDICT_COUNT) return "·";
    return verdicts[verdict].symbol;
}

int cc_report_verdict_rank(int verdict)
{
    if (verdict < 0 || verdict >= CC_VERDICT_COUNT) return -1;
    return verdicts[verdict].rank;
}

void cc_report_options_default(cc_report_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->title = "crosscheck report";
    opt->baseline = "ref";
    opt->perf_cases = 20;
}

void cc_rdata_free(cc_rdata *d)
{
    free(d->run);
    free(d->targets);
    free(d->res);
    free(d->res_target);
    free(d->cases);
    free(d->oc);
    free(d->ops);
    free(d->dtypes);
    free(d->models);
    free(d->model_target);
    free(d->conf);
    free(d->scans);
    cc_shard_set_free(&d->shards);
    memset(d, 0, sizeof *d);
}

int cc_report_op_order(const char *name)
{
    int n = cc_catalog_count();
    for (int i = 0; i < n; i++) {
        const cc_op_def *op = cc_catalog_at(i);
        if (op && strcmp(op->name, name) == 0) return i;
    }
    return n;
}

int cc_report_dtype_order(const char *name)
{
    cc_dtype dt;
    return cc_dtype_parse(name, &dt) == 0 ? (int)dt : CC_DTYPE_COUNT;
}

/* Sorts names by (order(name), name) with insertion sort: the lists are short. */
static void sort_names(const char **names, int n, int (*order)(const char *))
{
    for (int i = 1; i < n; i++) {
        const char *x = names[i];
        int ox = order(x), j = i - 1;
        while (j >= 0) {
            int oj = order(names[j]);
            if (oj < ox || (oj == ox && strcmp(names[j], x) <= 0)) break;
            names[j + 1] = names[j];
            j--;
        }
        names[j + 1] = x;
    }
}

static int find_name(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

static int find_target(const cc_rdata *d, const char *name)
{
    for (int i = 0; i < d->n_targets; i++)
        if (strcmp(d->targets[i].name, name) == 0) return i;
    return -1;
}

/* Distinct values of a string field of the results (pointers into d->res). */
static cc_status distinct(const cc_rdata *d, size_t field, const char ***out, int *n_out,
                          cc_err *err)
{
    const char **names = malloc(((size_t)d->n_res + 1) * sizeof *names);
    if (!names) return cc_err_set(err, CC_ERR_NOMEM, "report: out of memory");
    int n = 0;
    for (int i = 0; i < d->n_res; i++) {
        const char *s = (const char *)&d->res[i] + field;
        if (find_name(names, n, s) < 0) names[n++] = s;
    }
    *out = names;
    *n_out = n;
    return CC_OK;
}

/* The index of target name, added (available -1: not in the run's list) when missing;
 * -1 when out of memory. */
static int add_target(cc_rdata *d, const char *name)
{
    int t = find_target(d, name);
    if (t >= 0) return t;
    cc_run_target *p = realloc(d->targets, ((size_t)d->n_targets + 1) * sizeof *p);
    if (!p) return -1;
    d->targets = p;
    t = d->n_targets++;
    memset(&p[t], 0, sizeof p[t]);
    snprintf(p[t].name, sizeof p[t].name, "%s", name);
    p[t].available = -1;
    return t;
}

static cc_status index_targets(cc_rdata *d, cc_err *err)
{
    d->res_target = malloc(((size_t)d->n_res + 1) * sizeof *d->res_target);
    d->model_target = malloc(((size_t)d->n_models + 1) * sizeof *d->model_target);
    if (!d->res_target || !d->model_target)
        return cc_err_set(err, CC_ERR_NOMEM, "report: out of memory");
    for (int i = 0; i < d->n_res; i++)
        if ((d->res_target[i] = add_target(d, d->res[i].target)) < 0)
            return cc_err_set(err, CC_ERR_NOMEM, "report: out of memory");
    for (int i = 0; i < d->n_models; i++)
        if ((d->model_target[i] = add_target(d, d->models[i].target)) < 0)
            return cc_err_set(err, CC_ERR_NOMEM, "report: out of memory");
    return CC_OK;
}

/* Cases and outcomes, relying on the store's order: op, dtype, case id, target, regime. */
static cc_status index_cases(cc_rdata *d, cc_err *err)
{
    size_t n = (size_t)d->n_res + 1;
    d->cases = malloc(n * sizeof *d->cases);
    d->oc = malloc(n * sizeof *d->oc);
    if (!d->cases || !d->oc) return cc_err_set(err, CC_ERR_NOMEM, "report: out of memory");
    for (int i = 0; i < d->n_res; i++) {
        const cc_result *r = &d->res[i];
        int new_case = i == 0 || strcmp(r->case_id, d->res[i - 1].case_id) != 0;
        if (new_case) {
            cc_rcase *c = &d->cases[d->n_cases++];
            c->first = i;
            c->op = find_name(d->ops, d->n_ops, r->op);
            c->dtype = find_name(d->dtypes, d->n_dtypes, r->dtype);
        }
        if (new_case || d->res_target[i] != d->res_target[i - 1]) {
            cc_routcome *o = &d->oc[d->n_oc++];
            o->first = i;
            o->n = 0;
            o->kase = d->n_cases - 1;
            o->target = d->res_target[i];
            o->worst = r->verdict;
        }
        cc_routcome *o = &d->oc[d->n_oc - 1];
        o->n++;
        if (cc_report_verdict_rank(r->verdict) > cc_report_verdict_rank(o->worst))
            o->worst = r->verdict;
    }
    return CC_OK;
}

/* Appends n items of size elem at src to *arr (holding *have of them); frees src. */
static int append(void **arr, int *have, void *src, int n, size_t elem)
{
    if (n == 0) {
        free(src);
        return 0;
    }
    void *p = realloc(*arr, ((size_t)*have + (size_t)n) * elem);
    if (!p) {
        free(src);
        return -1;
    }
    memcpy((char *)p + (size_t)*have * elem, src, (size_t)n * elem);
    free(src);
    *arr = p;
    *have += n;
    return 0;
}

/* Adds the results, targets, model results, node tests and scans of another shard's run. */
static cc_status add_shard_run(cc_db *store, cc_rdata *d, int64_t id, cc_err *err)
{
    cc_run_target *tg = NULL;
    cc_result *res = NULL;
    cc_model_result *models = NULL;
    cc_conformance_result *conf = NULL;
    cc_scan_result *scans = NULL;
    int nt = 0, nr = 0, nm = 0, nc = 0, ns = 0;
    cc_status s = cc_store_load_targets(store, id, &tg, &nt, err);
    if (s == CC_OK) s = cc_store_load_results(store, id, &res, &nr, err);
    if (s == CC_OK) s = cc_store_load_model_results(store, id, &models, &nm, err);
    if (s == CC_OK) s = cc_store_load_conformance(store, id, &conf, &nc, err);
    if (s == CC_OK) s = cc_store_load_scans(store, id, &scans, &ns, err);
    if (s == CC_OK) {
        for (int i = 0; i < nt; i++) {
            int known = 0;
            for (int k = 0; k < d->n_targets && !known; k++) known = strcmp(d->targets[k].name, tg[i].name) == 0;
            if (known) continue;
            cc_run_target *p = realloc(d->targets, ((size_t)d->n_targets + 1) * sizeof *p);
            if (!p) {
                s = cc_err_set(err, CC_ERR_NOMEM, "report: out of memory");
                break;
            }
            d->targets = p;
            d->targets[d->n_targets++] = tg[i];
        }
    }
    free(tg);
    if (s != CC_OK) {
        free(res);
        free(models);
        free(conf);
        free(scans);
        return s;
    }
    int bad = append((void **)&d->res, &d->n_res, res, nr, sizeof *res);
    bad |= append((void **)&d->models, &d->n_models, models, nm, sizeof *models);
    bad |= append((void **)&d->conf, &d->n_conf, conf, nc, sizeof *conf);
    bad |= append((void **)&d->scans, &d->n_scans, scans, ns, sizeof *scans);
    return bad ? cc_err_set(err, CC_ERR_NOMEM, "report: out of memory") : CC_OK;
}

/* The orders the store reads a run in (store.h, conformance.h, model_result.h): SQLite's
 * binary text order, which strcmp follows. */
static int result_order(const void *pa, const void *pb)
{
    const cc_result *a = pa, *b = pb;
    int k = strcmp(a->op, b->op);
    if (!k) k = strcmp(a->dtype, b->dtype);
    if (!k) k = strcmp(a->case_id, b->case_id);
    if (!k) k = strcmp(a->target, b->target);
    if (!k) k = strcmp(cc_regime_name(a->regime), cc_regime_name(b->regime));
    return k;
}

static int model_order(const void *pa, const void *pb)
{
    const cc_model_result *a = pa, *b = pb;
    int k = strcmp(a->model, b->model);
    if (!k) k = strcmp(a->target, b->target);
    if (!k) k = strcmp(a->precision, b->precision);
    return k;
}

static int conformance_order(const void *pa, const void *pb)
{
    const cc_conformance_result *a = pa, *b = pb;
    int k = strcmp(a->op, b->op);
    if (!k) k = strcmp(a->test, b->test);
    if (!k) k = strcmp(a->target, b->target);
    return k;
}

/* Every shard of run_id's set (when it is a shard) joins what d holds of run_id. */
static cc_status load_shards(cc_db *store, int64_t run_id, cc_rdata *d, cc_err *err)
{
    cc_status s = cc_store_shard_set(store, run_id, &d->shards, err);
    if (s != CC_OK || d->shards.count == 0) return s;
    cc_shard_member *own = &d->shards.members[d->run->shard_index - 1];
    if (own->run_id != run_id) {
        /* an older run of this shard was asked for: it stands for its shard here */
        own->run_id = run_id;
        snprintf(own->status, sizeof own->status, "%s", d->run->status);
        d->shards.n_finished = d->shards.n_unfinished = 0;
        for (int i = 0; i < d->shards.count; i++)
            if (d->shards.members[i].run_id) {
                if (strcmp(d->shards.members[i].status, "finished") == 0) d->shards.n_finished++;
                else d->shards.n_unfinished++;
            }
    }
    for (int i = 0; i < d->shards.count && s == CC_OK; i++) {
        int64_t id = d->shards.members[i].run_id;
        if (id && id != run_id) s = add_shard_run(store, d, id, err);
    }
    if (s != CC_OK) return s;
    if (d->n_res > 1) qsort(d->res, (size_t)d->n_res, sizeof *d->res, result_order);
    if (d->n_models > 1) qsort(d->models, (size_t)d->n_models, sizeof *d->models, model_order);
    if (d->n_conf > 1) qsort(d->conf, (size_t)d->n_conf, sizeof *d->conf, conformance_order);
    return CC_OK;
}

cc_status cc_rdata_load(cc_db *store, int64_t run_id, const cc_report_options *opt,
                        cc_rdata *d, cc_err *err)
{
    memset(d, 0, sizeof *d);
    cc_report_options_default(&d->opt);
    if (opt) {
        if (opt->title) d->opt.title = opt->title;
        if (opt->baseline) d->opt.baseline = opt->baseline;
        if (opt->perf_cases) d->opt.perf_cases = opt->perf_cases;
        d->opt.max_failures = opt->max_failures;
        d->opt.max_reasons = opt->max_reasons;
        d->opt.machines = opt->machines;
    }
    cc_status s = CC_OK;
    if (run_id <= 0) {
        s = cc_store_latest_run(store, &run_id, err);
        if (s != CC_OK) goto fail;
        if (run_id == 0) {
            s = cc_err_set(err, CC_ERR_ARG, "report: the database holds no run");
            goto fail;
        }
    }
    d->run = malloc(sizeof *d->run);
    if (!d->run) {
        s = cc_err_set(err, CC_ERR_NOMEM, "report: out of memory");
        goto fail;
    }
    s = cc_store_get_run(store, run_id, d->run, err);
    if (s == CC_OK) s = cc_store_load_targets(store, run_id, &d->targets, &d->n_targets, err);
    if (s == CC_OK) s = cc_store_load_results(store, run_id, &d->res, &d->n_res, err);
    if (s == CC_OK) s = cc_store_load_model_results(store, run_id, &d->models, &d->n_models, err);
    if (s == CC_OK) s = cc_store_load_conformance(store, run_id, &d->conf, &d->n_conf, err);
    if (s == CC_OK) s = cc_store_load_scans(store, run_id, &d->scans, &d->n_scans, err);
    if (s == CC_OK) s = load_shards(store, run_id, d, err);
    if (s != CC_OK) goto fail;
    d->n_listed = d->n_targets;

    s = index_targets(d, err);
    if (s == CC_OK) s = distinct(d, offsetof(cc_result, op), &d->ops, &d->n_ops, err);
    if (s == CC_OK) s = distinct(d, offsetof(cc_result, dtype), &d->dtypes, &d->n_dtypes, err);
    if (s != CC_OK) goto fail;
    sort_names(d->ops, d->n_ops, cc_report_op_order);
    sort_names(d->dtypes, d->n_dtypes, cc_report_dtype_order);
    s = index_cases(d, err);
    if (s != CC_OK) goto fail;
    d->baseline = find_target(d, d->opt.baseline);
    return CC_OK;

fail:
    cc_rdata_free(d);
    return s;
}

cc_rsupport cc_rdata_support(const cc_rdata *d, int g)
{
    cc_rsupport r = { 0, 0, 0 };
    for (int i = 0; i < d->n_oc; i++) {
        if (d->oc[i].target != g) continue;
        r.ran++;
        r.passed += d->oc[i].worst == CC_PASSED;
        r.claimed += d->oc[i].worst != CC_UNSUPPORTED;
    }
    return r;
}

void cc_report_target_status(cc_text *t, const cc_run_target *g)
{
    if (g->available > 0) {
        cc_text_put(t, "✅" CC_NBSP "available");
    } else if (g->available == 0) {
        cc_text_put(t, "⛔" CC_NBSP "unavailable: ");
        cc_text_md(t, g->reason[0] ? g->reason : "no reason given");
    } else {
        cc_text_put(t, "not in the run's target list");
    }
}

const char *cc_report_peak_kind(const char *peak_source)
{
    if (strncmp(peak_source, "measured", 8) == 0) return "measured peak";
    if (strncmp(peak_source, "estimate", 8) == 0) return "estimated peak";
    return "peak, source unknown";
}
