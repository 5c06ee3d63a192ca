/* test_suite_report.c — the report of a suite run, one run holding op results and model
 * results (as scripts/run-suite.sh makes it), and of a run holding only model results,
 * parsed back with cmark-gfm: the overall line counts both kinds, at a glance shows each
 * target's status and support rate and each model's throughput and accuracy per
 * precision, the targets table shows an unavailable target's reason and each peak's
 * source, the compact matrix groups dtypes by verdict, each target has its collapsed op x
 * dtype table, model failures carry a repro line, and the JUnit export holds the models.
 * A target only the model jobs used shows no op figures (no zeros, no matrix column).
 * A model-only run never says "no results" and shows no op tables of zeros. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/cctest.h"
#include "md_ast.h"
#include "reports/junit.h"
#include "reports/report.h"
#include "results/model_result.h"

#define GPU_REASON "no CUDA device: cudaGetDeviceCount returned 100"
#define CPU_PEAK "measured: FMA loop, 2 threads"
#define NPU_PEAK "estimate: 8 cores x 16 lanes x 0.6 GHz"
#define NPU "np<u>"  /* a hostile target name: it must never become a tag */
#define RESNET_CONFIG "model=resnet50;images=2;batch=2;size=64;seed=1"
#define YOLO_CONFIG "model=yolov5s;images=2;batch=2;size=64;seed=1"

/* Op results of the suite run. */
typedef struct op_row {
    const char *case_id, *op, *dtype, *target;
    cc_regime regime;
    cc_verdict verdict;
} op_row;

static const op_row ops[] = {
    { "Add(a=4:f32,b=4)", "Add", "f32", "cpu", CC_REGIME_EXACT, CC_PASSED },
    { "Add(a=4:f32,b=4)", "Add", "f32", "cpu", CC_REGIME_RANDOM, CC_PASSED },
    { "Add(a=4:f32,b=4)", "Add", "f32", "gpu", CC_REGIME_EXACT, CC_UNSUPPORTED },
    { "Add(a=4:f32,b=4)", "Add", "f32", NPU, CC_REGIME_EXACT, CC_PASSED },
    { "Add(a=4:f16,b=4)", "Add", "f16", "cpu", CC_REGIME_EXACT, CC_PASSED },
    { "Add(a=4:f16,b=4)", "Add", "f16", "cpu", CC_REGIME_RANDOM, CC_FAILED },
    { "Add(a=4:f16,b=4)", "Add", "f16", "gpu", CC_REGIME_EXACT, CC_UNSUPPORTED },
    { "Relu(x=8:f32)", "Relu", "f32", "cpu", CC_REGIME_RANDOM, CC_PASSED },
    { "Relu(x=8:bf16)", "Relu", "bf16", "cpu", CC_REGIME_RANDOM, CC_UNSUPPORTED },
};
#define N_OPS ((int)(sizeof ops / sizeof ops[0]))

/* Model results of the suite run. */
typedef struct model_row {
    const char *model, *target, *precision, *config;
    cc_verdict verdict;
    double throughput, top1, map50, peak_share;
} model_row;

static const model_row models[] = {
    { "resnet50", "cpu", "f32", RESNET_CONFIG, CC_PASSED, 25.5, 1.0, NAN, 0.19 },
    { "resnet50", "cpu", "f16", RESNET_CONFIG, CC_PASSED, 16.8, 1.0, NAN, 0.13 },
    { "resnet50", "cpu", "int8", RESNET_CONFIG, CC_FAILED, 20, 0.625, NAN, 0.2 },
    { "resnet50", "gpu", "f32", RESNET_CONFIG, CC_UNSUPPORTED, 0, NAN, NAN, 0 },
    { "resnet50", "xnn", "f32", RESNET_CONFIG, CC_PASSED, 31, 1.0, NAN, 0 },
    { "yolov5s", "cpu", "f32", YOLO_CONFIG, CC_PASSED, 70, NAN, 0.998, 0.3 },
};
#define N_MODELS ((int)(sizeof models / sizeof models[0]))

static char path[256];
static int64_t mistrusted_run;

static cc_status put_model(cc_db *s, int64_t run, const model_row *m, cc_err *err)
{
    static cc_model_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.model, sizeof r.model, "%s", m->model);
    snprintf(r.target, sizeof r.target, "%s", m->target);
    snprintf(r.precision, sizeof r.precision, "%s", m->precision);
    snprintf(r.config, sizeof r.config, "%s", m->config);
    r.verdict = m->verdict;
    if (m->verdict == CC_FAILED) snprintf(r.reason, sizeof r.reason, "top-1 agreement 62.5%% < budget 99%%");
    if (m->verdict == CC_UNSUPPORTED) snprintf(r.reason, sizeof r.reason, "target unavailable");
    r.n_images = 2;
    r.seed = 1;
    r.top1 = m->top1;
    r.top5 = isnan(m->top1) ? NAN : 1.0;
    r.det_map50 = m->map50;
    r.det_precision = r.det_recall = isnan(m->map50) ? NAN : 0.99;
    r.cosine = r.sqnr_db = r.conf_cosine = r.conf_sqnr_db = r.conf_top1 = NAN;
    r.n_nodes = 175;
    r.support_rate = 1;
    r.throughput = m->throughput;
    r.tp_batch = 2;
    r.lat_p50 = r.lat_p90 = r.lat_p99 = m->throughput > 0 ? 1 / m->throughput : NAN;
    r.gflops = m->throughput > 0 ? 15.8 : NAN;
    r.peak_share = m->peak_share;
    return cc_store_put_model_result(s, run, &r, NULL, 0, err);
}

/* The suite run (op results and model results) and a model-only run after it. */
static cc_status build_store(int64_t *suite, int64_t *model_only)
{
    cc_db *s = NULL;
    cc_err err = { 0 };
    cc_status st = cc_store_open(path, 0, &s, &err);
    if (st != CC_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return st;
    }
    static cc_run_info info;
    cc_env_collect(&info);
    snprintf(info.config, sizeof info.config, "targets=cpu,gpu,np<u>;quick=1");
    snprintf(info.version, sizeof info.version, "0.1.0");
    info.seed = 1;
    cc_device_desc cpu = { .name = "Synthetic CPU", .peak_gflops = 229 }, npu = { .name = "NPU", .peak_gflops = 10 };
    snprintf(cpu.peak_source, sizeof cpu.peak_source, "%s", CPU_PEAK);
    snprintf(npu.peak_source, sizeof npu.peak_source, "%s", NPU_PEAK);
    st = cc_store_run_begin(s, &info, suite, &err);
    if (st == CC_OK) st = cc_store_put_target(s, *suite, "cpu", &cpu, 1, NULL, &err);
    if (st == CC_OK) st = cc_store_put_target(s, *suite, "gpu", NULL, 0, GPU_REASON, &err);
    if (st == CC_OK) st = cc_store_put_target(s, *suite, NPU, &npu, 1, NULL, &err);
    /* a target only the model jobs used (they list the targets the run lacks) */
    if (st == CC_OK) st = cc_store_put_target(s, *suite, "xnn", &cpu, 1, NULL, &err);
    for (int i = 0; i < N_OPS && st == CC_OK; i++) {
        static cc_result r;
        memset(&r, 0, sizeof r);
        snprintf(r.case_id, sizeof r.case_id, "%s", ops[i].case_id);
        snprintf(r.op, sizeof r.op, "%s", ops[i].op);
        snprintf(r.dtype, sizeof r.dtype, "%s", ops[i].dtype);
        snprintf(r.target, sizeof r.target, "%s", ops[i].target);
        r.regime = ops[i].regime;
        r.verdict = ops[i].verdict;
        if (r.verdict == CC_UNSUPPORTED) snprintf(r.reason, sizeof r.reason, "target unavailable");
        if (r.verdict == CC_FAILED) snprintf(r.reason, sizeof r.reason, "worst at [1]");
        r.seed = 1;
        st = cc_store_put_result(s, *suite, &r, NULL, 0, &err);
    }
    if (st == CC_OK) st = cc_store_run_end(s, *suite, "finished", &err);
    /* the suite's model jobs append their results to the op cases' run */
    for (int i = 0; i < N_MODELS && st == CC_OK; i++) st = put_model(s, *suite, &models[i], &err);

    /* a run whose only results short of passed are mistrusted ones: it passes */
    if (st == CC_OK) st = cc_store_run_begin(s, &info, &mistrusted_run, &err);
    if (st == CC_OK) st = cc_store_put_target(s, mistrusted_run, "cpu", &cpu, 1, NULL, &err);
    for (int i = 0; i < 2 && st == CC_OK; i++) {
        static cc_result r;
        memset(&r, 0, sizeof r);
        snprintf(r.case_id, sizeof r.case_id, "Relu(x=%d:f32)", 8 + i);
        snprintf(r.op, sizeof r.op, "Relu");
        snprintf(r.dtype, sizeof r.dtype, "f32");
        snprintf(r.target, sizeof r.target, "cpu");
        r.regime = CC_REGIME_RANDOM;
        r.verdict = i ? CC_MISTRUSTED : CC_PASSED;
        if (i) snprintf(r.reason, sizeof r.reason, "golden output is constant (every element 0)");
        r.seed = 1;
        st = cc_store_put_result(s, mistrusted_run, &r, NULL, 0, &err);
    }
    if (st == CC_OK) st = put_model(s, mistrusted_run, &models[0], &err);
    if (st == CC_OK) st = cc_store_run_end(s, mistrusted_run, "finished", &err);

    snprintf(info.config, sizeof info.config, "%s", RESNET_CONFIG);
    if (st == CC_OK) st = cc_store_run_begin(s, &info, model_only, &err);
    if (st == CC_OK) st = cc_store_put_target(s, *model_only, "cpu", &cpu, 1, NULL, &err);
    for (int i = 0; i < 2 && st == CC_OK; i++) st = put_model(s, *model_only, &models[i], &err);
    if (st == CC_OK) st = cc_store_run_end(s, *model_only, "finished", &err);
    if (st != CC_OK) fprintf(stderr, "%s\n", err.msg);
    cc_store_close(s);
    return st;
}

/* Cell col of the row (c0, c1) of table t equals want. */
static void check_cell(cmark_node *t, const char *c0, const char *c1, int col, const char *want)
{
    char buf[512];
    cmark_node *r = find_row(t, c0, c1);
    if (!r) {
        fprintf(stderr, "no row %s %s\n", c0, c1 ? c1 : "");
        CHECK(0);
        return;
    }
    cell_text(r, col, buf, sizeof buf);
    if (strcmp(buf, want) != 0) {
        fprintf(stderr, "row %s %s col %d: got '%s', want '%s'\n", c0, c1 ? c1 : "", col, buf, want);
        CHECK(0);
    }
}

/* ---- the suite run ------------------------------------------------------------------ */

static void check_overall(cmark_node *doc)
{
    int op_pass = 0, op_unsup = 0, m_pass = 0, m_unsup = 0;
    for (int i = 0; i < N_OPS; i++) {
        op_pass += ops[i].verdict == CC_PASSED;
        op_unsup += ops[i].verdict == CC_UNSUPPORTED;
    }
    for (int i = 0; i < N_MODELS; i++) {
        m_pass += models[i].verdict == CC_PASSED;
        m_unsup += models[i].verdict == CC_UNSUPPORTED;
    }
    char want[512], got[1024];
    snprintf(want, sizeof want,
             "Overall: ❌ %d of %d supported op results and %d of %d supported model results did not pass — "
             "op results: ❌ 1 failed · ✅ %d passed · ⛔ %d unsupported; "
             "model results: ❌ 1 failed · ✅ %d passed · ⛔ %d unsupported.",
             N_OPS - op_unsup - op_pass, N_OPS - op_unsup, N_MODELS - m_unsup - m_pass, N_MODELS - m_unsup,
             op_pass, op_unsup, m_pass, m_unsup);
    paragraph(doc, "Overall:", got, sizeof got);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "overall: got '%s'\n          want '%s'\n", got, want);
        CHECK(0);
    }
}

static void check_glance(cmark_node *doc)
{
    CHECK(has_heading(doc, 2, "At a glance"));
    /* 4 distinct cases: Add f32, Add f16, Relu f32, Relu bf16 */
    cmark_node *t = find_table_at(doc, "target", 2, "op cases passed / all 4");
    CHECK(t != NULL);
    check_cell(t, "cpu", NULL, 2, "50.0% (2/4)");      /* Add f32, Relu f32 */
    check_cell(t, "cpu", NULL, 3, "66.7% (2/3)");      /* Relu bf16 unsupported */
    check_cell(t, "gpu", NULL, 2, "0.0% (0/4)");
    check_cell(t, "gpu", NULL, 3, "—");
    check_cell(t, NPU, NULL, 2, "25.0% (1/4)");
    check_cell(t, "xnn", NULL, 2, "no op cases run");
    check_cell(t, "xnn", NULL, 3, "—");
    char buf[512];
    cmark_node *r = find_row(t, "gpu", NULL);
    if (r) cell_text(r, 1, buf, sizeof buf);
    CHECK(r && strstr(buf, "unavailable") && strstr(buf, GPU_REASON));

    /* models: one row per (model, target), one column per precision in use */
    t = find_table(doc, "model", "target");
    CHECK(t != NULL);
    if (t) {
        cmark_node *head = cmark_node_first_child(t);
        const char *want[] = { "model", "target", "f32", "f16", "int8" };
        CHECK(cmark_gfm_extensions_get_table_columns(t) == 5);
        for (int k = 0; k < 5; k++) {
            cell_text(head, k, buf, sizeof buf);
            CHECK(strcmp(buf, want[k]) == 0);
        }
    }
    check_cell(t, "resnet50", "cpu", 2, "✅ 25.5 img/s · top-1 100.0%");
    check_cell(t, "resnet50", "cpu", 4, "❌ 20 img/s · top-1 62.5%");
    check_cell(t, "resnet50", "gpu", 2, "⛔ unsupported");
    check_cell(t, "resnet50", "gpu", 3, "·");
    check_cell(t, "resnet50", "xnn", 2, "✅ 31 img/s · top-1 100.0%");
    check_cell(t, "yolov5s", "cpu", 2, "✅ 70 img/s · mAP 0.998");
    check_cell(t, "yolov5s", "cpu", 4, "·");
}

static void check_targets(cmark_node *doc)
{
    cmark_node *t = find_table_at(doc, "target", 5, "peak GFLOP/s");
    CHECK(t != NULL);
    char buf[512];
    cmark_node *r = find_row(t, "gpu", NULL);
    if (r) cell_text(r, 1, buf, sizeof buf);
    CHECK(r && strstr(buf, "unavailable") && strstr(buf, GPU_REASON));
    CHECK(r && strncmp(buf, "⛔", strlen("⛔")) == 0);
    check_cell(t, "cpu", NULL, 1, "✅\xc2\xa0" "available");
    check_cell(t, "cpu", NULL, 5, "229 (" CPU_PEAK ")");
    check_cell(t, NPU, NULL, 5, "10 (" NPU_PEAK ")");
    check_cell(t, "gpu", NULL, 5, "—");

    /* verdict counts: op rows for every target, model rows where models ran */
    t = find_table(doc, "target", "results");
    CHECK(t != NULL);
    check_cell(t, "cpu", "op cases", 2, "4");          /* passed */
    check_cell(t, "cpu", "op cases", 9, "6");          /* total */
    check_cell(t, "cpu", "models", 2, "3");
    check_cell(t, "cpu", "models", 7, "1");            /* failed */
    check_cell(t, "gpu", "models", 3, "1");            /* unsupported */
    CHECK(find_row(t, NPU, "models") == NULL);
    CHECK(find_row(t, "xnn", "op cases") == NULL);        /* no row of op zeros */
    check_cell(t, "xnn", "models", 2, "1");
}

static void check_models(cmark_node *doc)
{
    CHECK(has_heading(doc, 2, "Models"));
    CHECK(has_heading(doc, 3, "Model resnet50"));
    CHECK(has_heading(doc, 3, "Model yolov5s"));
    CHECK(has_code(doc, RESNET_CONFIG) && has_code(doc, YOLO_CONFIG));
    /* the share of the peak says which kind of peak it is */
    cmark_node *t = find_table(doc, "target", "precision");
    CHECK(t != NULL);
    check_cell(t, "cpu", "f32", 5, "15.8 (19% of measured peak)");
    /* the failure's repro line, with the job's own settings */
    CHECK(has_code(doc, "crosscheck model run resnet50 --targets cpu --precisions int8 --images 2 --batch 2 "
                        "--size 64 --seed 1"));
    char buf[512];
    paragraph(doc, "1 model result(s) did not pass", buf, sizeof buf);
    CHECK(buf[0] != '\0');
}

static void check_matrix(cmark_node *doc)
{
    CHECK(has_heading(doc, 2, "Op support"));
    cmark_node *t = find_table(doc, "op", "cpu");
    CHECK(t != NULL && cmark_gfm_extensions_get_table_columns(t) == 4);   /* op, cpu, gpu, np<u>: no xnn */
    check_cell(t, "Add", NULL, 1, "✅ f32 · ❌ f16");
    check_cell(t, "Add", NULL, 2, "⛔ f32 f16");
    check_cell(t, "Add", NULL, 3, "✅ f32");
    check_cell(t, "Relu", NULL, 1, "✅ f32 · ⛔ bf16");
    check_cell(t, "Relu", NULL, 3, "·");
    /* each target's op x dtype detail, collapsed */
    t = details_table(doc, "<details><summary>cpu — op × dtype");
    CHECK(t != NULL && cmark_gfm_extensions_get_table_columns(t) == 4);
    check_cell(t, "Add", NULL, 1, "✅ 1/1");
    check_cell(t, "Add", NULL, 2, "❌ 0/1");
    check_cell(t, "Add", NULL, 3, "·");
    check_cell(t, "Relu", NULL, 3, "⛔ 0/1");
    CHECK(details_table(doc, "<details><summary>gpu — op × dtype") != NULL);
    /* the hostile name is escaped inside the summary, not read as a tag */
    CHECK(details_table(doc, "<details><summary>np&lt;u&gt; — op × dtype") != NULL);
    CHECK(details_table(doc, "<details><summary>xnn") == NULL);
}

static void check_html(const char *md)
{
    char *html = NULL;
    cc_err err = { 0 };
    CHECK(cc_report_html(md, NULL, &html, &err) == CC_OK);
    if (!html) return;
    int open = 0, close = 0;
    for (const char *p = html; (p = strstr(p, "<details><summary>")) != NULL; p++) open++;
    for (const char *p = html; (p = strstr(p, "</details>")) != NULL; p++) close++;
    CHECK(open == 3 && close == 3);        /* one per target with op results; no plans stored */
    CHECK(strstr(html, "<summary>cpu — op × dtype") != NULL);
    CHECK(strstr(html, "<u>") == NULL && strstr(html, "np&lt;u&gt;") != NULL);
    CHECK(strstr(html, "raw HTML omitted") == NULL);
    free(html);
}

static void check_junit(cc_db *s, int64_t run)
{
    char *xml = NULL;
    cc_err err = { 0 };
    CHECK(cc_report_junit(s, run, &xml, &err) == CC_OK);
    if (!xml) return;
    int n = 0;
    for (const char *p = xml; (p = strstr(p, "classname=\"crosscheck.cpu.model.resnet50\"")) != NULL; p++) n++;
    CHECK(n == 3);
    CHECK(strstr(xml, "name=\"resnet50 int8\"") != NULL);
    CHECK(strstr(xml, "top-1 agreement vs FP32 62.5%") != NULL);
    CHECK(strstr(xml, "repro: crosscheck model run resnet50 --targets cpu --precisions int8") != NULL);
    /* op cases: Add f32 and Add f16 on cpu and gpu, Add f32 on np<u>, Relu f32 and bf16 on
     * cpu (7); model results: 6 */
    CHECK(strstr(xml, "<testsuites name=\"crosscheck run ") != NULL);
    CHECK(strstr(xml, "tests=\"13\" failures=\"2\" errors=\"0\" skipped=\"4\">") != NULL);
    CHECK(strstr(xml, "<testsuite name=\"crosscheck.xnn\" tests=\"1\"") != NULL);
    CHECK(strstr(xml, "classname=\"crosscheck.np&lt;u&gt;.Add\"") != NULL);
    free(xml);
}

/* ---- the model-only run ------------------------------------------------------------ */

static void check_model_only(const char *md, cmark_node *doc)
{
    char buf[1024];
    paragraph(doc, "Overall:", buf, sizeof buf);
    CHECK(strcmp(buf, "Overall: ✅ all 2 supported model results passed (none unsupported).") == 0);
    CHECK(strstr(md, "no results") == NULL);
    /* no op tables of zeros: no op columns at a glance, no op rows in the verdict counts,
     * no op-support section */
    cmark_node *t = find_table(doc, "target", "status");
    CHECK(t != NULL && cmark_gfm_extensions_get_table_columns(t) == 2);
    t = find_table(doc, "target", "results");
    CHECK(t != NULL);
    CHECK(find_row(t, "cpu", "op cases") == NULL);
    check_cell(t, "cpu", "models", 2, "2");
    CHECK(!has_heading(doc, 2, "Op support") && !has_heading(doc, 2, "Failures"));
    CHECK(find_table(doc, "model", "target") != NULL);
    CHECK(has_heading(doc, 3, "Model resnet50"));
}

/* ---- the run with a mistrusted result ------------------------------------------------ */

static void check_mistrusted(const char *md, cmark_node *doc)
{
    char buf[1024];
    (void)md;
    paragraph(doc, "Overall:", buf, sizeof buf);
    const char *want = "Overall: ✅ no supported result failed — op results: ⚠️ 1 mistrusted · ✅ 1 passed; "
                       "model results: ✅ 1 passed.";
    if (strcmp(buf, want) != 0) fprintf(stderr, "overall: got '%s', want '%s'\n", buf, want);
    CHECK(strcmp(buf, want) == 0);
}

static void report(cc_db *s, int64_t run, void (*check)(const char *, cmark_node *))
{
    char *md = NULL;
    cc_err err = { 0 };
    cc_report_options opt;
    cc_report_options_default(&opt);
    opt.machines = -1;
    CHECK(cc_report_markdown(s, run, &opt, &md, &err) == CC_OK);
    if (!md) return;
    if (getenv("CC_REPORT_DUMP")) fputs(md, stdout);
    cmark_parser *p = NULL;
    cmark_node *doc = parse(md, &p);
    check(md, doc);
    cmark_node_free(doc);
    cmark_parser_free(p);
    free(md);
}

static void check_suite(const char *md, cmark_node *doc)
{
    check_overall(doc);
    check_glance(doc);
    check_targets(doc);
    check_models(doc);
    check_matrix(doc);
    check_html(md);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/cc_suite_report_%d.db", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    unlink(path);
    int64_t suite = 0, model_only = 0;
    CHECK(build_store(&suite, &model_only) == CC_OK);

    cc_db *s = NULL;
    cc_err err = { 0 };
    CHECK(cc_store_open(path, 1, &s, &err) == CC_OK);
    if (s) {
        report(s, suite, check_suite);
        check_junit(s, suite);
        report(s, model_only, check_model_only);
        report(s, mistrusted_run, check_mistrusted);
        /* the latest run is the model-only one */
        report(s, 0, check_model_only);
        cc_store_close(s);
    }
    const char *suffix[] = { "", "-wal", "-shm" };
    for (int i = 0; i < 3; i++) {
        char f[320];
        snprintf(f, sizeof f, "%s%s", path, suffix[i]);
        unlink(f);
    }
    return CC_TEST_RESULT();
}
