/* junit.c — JUnit XML of a run: targets as test suites, (case, target) pairs and (model,
 * target, precision) results as test cases, verdicts as failures, errors and skips with
 * their figures and repro lines. A shard's run is read with every shard of its set (as the
 * Markdown report reads it), and each shard is a test case of its own that fails when the
 * shard is missing or did not finish. */
#include "junit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_data.h"
#include "xml.h"

/* A (case, target) pair: its results res[first .. first + n - 1], the worst of them. */
typedef struct outcome {
    int first, n, worst;
    double time;
} outcome;

static void attr_num(cc_text *t, const char *name, double v)
{
    cc_text_printf(t, " %s=\"%.6g\"", name, isnan(v) ? 0.0 : v);
}

static void figures(cc_text *t, const cc_result *r)
{
    char buf[512];
    const cc_metrics *m = &r->metrics;
    snprintf(buf, sizeof buf,
             "regime %s: %lld of %lld elements out of bound; max abs error %.6g, max rel error %.6g, "
             "max ULP error %.6g, bound ratio %.6g, NMSE %.6g, cosine %.6g; worst element [%lld]: got "
             "%.9g, want %.9g\n",
             cc_regime_name(r->regime), (long long)m->n_bad, (long long)m->n, m->max_abs, m->max_rel,
             m->max_ulp, m->bound_ratio, m->nmse, m->cosine, (long long)m->worst_index, m->worst_got,
             m->worst_want);
    cc_text_put(t, buf);
}

/* Ends an open <testcase ...> element by its verdict: passed closes it; mistrusted adds a
 * note; unsupported a <skipped>; failed a <failure> with the figures and the repro line;
 * error, crashed and timeout an <error> with the reason and the repro line. */
static void verdict_body(cc_text *t, cc_verdict v, const char *reason, const char *figures, const char *repro)
{
    switch (v) {
    case CC_PASSED:
        cc_text_put(t, "/>\n");
        return;
    case CC_MISTRUSTED:
        cc_text_put(t, ">\n      <system-out>mistrusted: ");
        cc_xml_text(t, reason);
        cc_text_put(t, "</system-out>\n    </testcase>\n");
        return;
    case CC_UNSUPPORTED:
        cc_text_put(t, ">\n      <skipped message=\"");
        cc_xml_text(t, reason);
        cc_text_put(t, "\"/>\n    </testcase>\n");
        return;
    case CC_FAILED:
        cc_text_put(t, ">\n      <failure type=\"failed\" message=\"");
        cc_xml_text(t, reason);
        cc_text_put(t, "\">");
        cc_xml_text(t, figures);
        cc_xml_text(t, repro);
        cc_text_put(t, "</failure>\n    </testcase>\n");
        return;
    default:
        cc_text_put(t, ">\n      <error type=\"");
        cc_xml_text(t, cc_verdict_name(v));
        cc_text_put(t, "\" message=\"");
        cc_xml_text(t, reason);
        cc_text_put(t, "\">");
        cc_xml_text(t, cc_verdict_name(v));
        cc_text_put(t, ": ");
        cc_xml_text(t, reason);
        cc_text_put(t, "\n");
        cc_xml_text(t, repro);
        cc_text_put(t, "</error>\n    </testcase>\n");
        return;
    }
}

static void testcase(cc_text *t, const cc_run_info *run, const cc_result *res, const outcome *o)
{
    const cc_result *w = &res[o->worst];
    cc_text_put(t, "    <testcase classname=\"crosscheck.");
    cc_xml_text(t, w->target);
    cc_text_put(t, ".");
    cc_xml_text(t, w->op);
    cc_text_put(t, "\" name=\"");
    cc_xml_text(t, w->case_id);
    cc_text_put(t, "\"");
    attr_num(t, "time", o->time);
    char repro[CC_CASE_ID_MAX + 200];
    snprintf(repro, sizeof repro, "repro: crosscheck run --case '%s' --targets %s --seed %llu\n",
             w->case_id, w->target, (unsigned long long)run->seed);
    cc_text fig = { 0 };
    if (w->verdict == CC_FAILED)
        for (int i = 0; i < o->n; i++)
            if (res[o->first + i].verdict == CC_FAILED) figures(&fig, &res[o->first + i]);
    if (fig.failed) t->failed = 1;
    verdict_body(t, w->verdict, w->reason, fig.s ? fig.s : "", repro);
    cc_text_free(&fig);
}

static void num_figure(cc_text *t, const char *name, double v, double scale, const char *unit)
{
    if (isnan(v)) return;
    cc_text_printf(t, "%s%s %.6g%s", t->len ? ", " : "", name, v * scale, unit);
}

/* A model result as a test case: classname "crosscheck.<target>.model.<model>", name
 * "<model> <precision>", time the median latency at batch 1 when measured. */
static void model_testcase(cc_text *t, const cc_model_result *r)
{
    cc_text_put(t, "    <testcase classname=\"crosscheck.");
    cc_xml_text(t, r->target);
    cc_text_put(t, ".model.");
    cc_xml_text(t, r->model);
    cc_text_put(t, "\" name=\"");
    cc_xml_text(t, r->model);
    cc_text_put(t, " ");
    cc_xml_text(t, r->precision);
    cc_text_put(t, "\"");
    attr_num(t, "time", r->lat_p50 > 0 ? r->lat_p50 : NAN);
    cc_text fig = { 0 }, repro = { 0 };
    if (r->verdict == CC_FAILED) {
        num_figure(&fig, "top-1 agreement vs FP32", r->top1, 100, "%");
        num_figure(&fig, "top-5 agreement vs FP32", r->top5, 100, "%");
        num_figure(&fig, "mAP@0.5 vs FP32", r->det_map50, 1, "");
        num_figure(&fig, "cosine vs FP32", r->cosine, 1, "");
        num_figure(&fig, "SQNR vs FP32", r->sqnr_db, 1, " dB");
        num_figure(&fig, "conformance cosine", r->conf_cosine, 1, "");
        if (r->divergent[0]) cc_text_printf(&fig, "%sfirst divergent node: %s", fig.len ? "; " : "", r->divergent);
        cc_text_put(&fig, "\n");
    }
    cc_text_put(&repro, "repro: ");
    cc_report_model_repro(&repro, r);
    cc_text_put(&repro, "\n");
    if (fig.failed || repro.failed) t->failed = 1;
    else verdict_body(t, r->verdict, r->reason, fig.s ? fig.s : "", repro.s);
    cc_text_free(&fig);
    cc_text_free(&repro);
}

/* Adds name to the target list when it is not there yet. */
static void add_name(const char **names, int *n, const char *name)
{
    for (int k = 0; k < *n; k++)
        if (strcmp(names[k], name) == 0) return;
    names[(*n)++] = name;
}

/* Counts one verdict into c[4]: tests, failures, errors, skipped. */
static void tally(int *c, cc_verdict v)
{
    c[0]++;
    c[1] += v == CC_FAILED;
    c[2] += v == CC_ERROR || v == CC_CRASHED || v == CC_TIMEOUT;
    c[3] += v == CC_UNSUPPORTED;
}

cc_status cc_report_junit(cc_db *store, int64_t run_id, char **out, cc_err *err)
{
    if (!store || !out) return cc_err_set(err, CC_ERR_ARG, "cc_report_junit: NULL argument");
    cc_status st = CC_OK;
    if (run_id <= 0) {
        st = cc_store_latest_run(store, &run_id, err);
        if (st != CC_OK) return st;
        if (run_id == 0) return cc_err_set(err, CC_ERR_ARG, "JUnit report: the database holds no run");
    }
    /* the run as the Markdown report reads it: a shard with every shard of its set */
    cc_rdata d;
    st = cc_rdata_load(store, run_id, NULL, &d, err);
    if (st != CC_OK) return st;
    const cc_run_info *run = d.run;
    const cc_result *res = d.res;
    const cc_model_result *mr = d.models;
    outcome *oc = NULL;
    const char **targets = NULL;
    int n_res = d.n_res, n_mr = d.n_models, n_oc = 0, n_targets = 0;
    cc_text t = { 0 };
    oc = malloc(sizeof *oc * (size_t)(n_res ? n_res : 1));
    targets = malloc(sizeof *targets * (size_t)(n_res + n_mr + 1));
    if (!oc || !targets) goto nomem;
    for (int i = 0; i < n_res;) {
        int j = i;
        while (j + 1 < n_res && strcmp(res[j + 1].case_id, res[i].case_id) == 0 &&
               strcmp(res[j + 1].target, res[i].target) == 0)
            j++;
        outcome *o = &oc[n_oc++];
        *o = (outcome){ i, j - i + 1, i, NAN };
        for (int k = i; k <= j; k++) {
            if (cc_report_verdict_rank(res[k].verdict) > cc_report_verdict_rank(res[o->worst].verdict))
                o->worst = k;
            if (res[k].timing.n_samples > 0) o->time = res[k].timing.median;
        }
        add_name(targets, &n_targets, res[i].target);
        i = j + 1;
    }
    for (int i = 0; i < n_mr; i++) add_name(targets, &n_targets, mr[i].target);
    /* sort targets by name (insertion sort: few targets) */
    for (int i = 1; i < n_targets; i++)
        for (int j = i; j > 0 && strcmp(targets[j - 1], targets[j]) > 0; j--) {
            const char *x = targets[j];
            targets[j] = targets[j - 1];
            targets[j - 1] = x;
        }

    int total[4] = { 0 }; /* tests, failures, errors, skipped */
    for (int i = 0; i < n_oc; i++) tally(total, res[oc[i].worst].verdict);
    for (int i = 0; i < n_mr; i++) tally(total, mr[i].verdict);
    const cc_shard_set *sh = &d.shards;
    for (int i = 0; i < sh->count; i++) {
        total[0]++;
        total[1] += strcmp(sh->members[i].status, "finished") != 0;
    }
    cc_text_put(&t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"crosscheck run ");
    cc_xml_text(&t, run->uid);
    cc_text_printf(&t, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n", total[0],
                   total[1], total[2], total[3]);
    for (int k = 0; k < n_targets; k++) {
        int c[4] = { 0 };
        double time = 0;
        for (int i = 0; i < n_oc; i++) {
            if (strcmp(res[oc[i].worst].target, targets[k]) != 0) continue;
            tally(c, res[oc[i].worst].verdict);
            if (!isnan(oc[i].time)) time += oc[i].time;
        }
        for (int i = 0; i < n_mr; i++) {
            if (strcmp(mr[i].target, targets[k]) != 0) continue;
            tally(c, mr[i].verdict);
            if (mr[i].lat_p50 > 0) time += mr[i].lat_p50;
        }
        cc_text_put(&t, "  <testsuite name=\"crosscheck.");
        cc_xml_text(&t, targets[k]);
        cc_text_printf(&t, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\"", c[0], c[1],
                       c[2], c[3]);
        attr_num(&t, "time", time);
        cc_text_put(&t, " timestamp=\"");
        cc_xml_text(&t, run->started_at);
        cc_text_put(&t, "\" hostname=\"");
        cc_xml_text(&t, run->hostname);
        cc_text_put(&t, "\">\n");
        for (int i = 0; i < n_oc; i++)
            if (strcmp(res[oc[i].worst].target, targets[k]) == 0) testcase(&t, run, res, &oc[i]);
        for (int i = 0; i < n_mr; i++)
            if (strcmp(mr[i].target, targets[k]) == 0) model_testcase(&t, &mr[i]);
        cc_text_put(&t, "  </testsuite>\n");
    }
    if (sh->count > 0) {
        /* a shard that is missing or did not finish fails, so that a merged report with a
         * shard lost is not green */
        int bad = sh->n_missing + sh->n_unfinished;
        cc_text_printf(&t, "  <testsuite name=\"crosscheck.shards\" tests=\"%d\" failures=\"%d\" errors=\"0\" "
                           "skipped=\"0\">\n", sh->count, bad);
        for (int i = 0; i < sh->count; i++) {
            const cc_shard_member *m = &sh->members[i];
            cc_text_printf(&t, "    <testcase classname=\"crosscheck.shards\" name=\"shard %d of %d\"", i + 1,
                           sh->count);
            if (strcmp(m->status, "finished") == 0) {
                cc_text_put(&t, "/>\n");
                continue;
            }
            cc_text_put(&t, ">\n      <failure message=\"");
            if (m->run_id == 0) cc_text_put(&t, "missing: no run of this shard in the database");
            else {
                cc_text_put(&t, "unfinished: its run is ");
                cc_xml_text(&t, m->status);
                cc_text_put(&t, " (crosscheck run --resume, as the same shard, finishes it)");
            }
            cc_text_put(&t, "\"/>\n    </testcase>\n");
        }
        cc_text_put(&t, "  </testsuite>\n");
    }
    cc_text_put(&t, "</testsuites>\n");
    if (t.failed) goto nomem;
    *out = t.s;
    t.s = NULL;
    goto done;

nomem:
    st = cc_err_set(err, CC_ERR_NOMEM, "JUnit report: out of memory");
done:
    cc_text_free(&t);
    cc_rdata_free(&d);
    free(oc);
    free(targets);
    return st;
}
