/* test_report.c — the Markdown report of a synthetic run (2 targets, 5 ops, 2 dtypes,
 * all 7 verdicts, hostile characters in case ids and reasons) parsed back with cmark-gfm:
 * the compact support matrix and each target's collapsed op x dtype table have the
 * expected shape and cells, the support rates at a glance match numbers computed here
 * from the stored data, every failure's repro line is there, and the HTML page holds real
 * tables with no broken rows, passes the report's collapsed blocks and no other raw HTML. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/cctest.h"
#include "md_ast.h"
#include "reports/report.h"

/* The synthetic run: one row per stored result. */
typedef struct row {
    const char *case_id, *op, *dtype, *target;
    cc_regime regime;
    cc_verdict verdict;
    const char *reason;
    double median;       /* 0: not timed */
} row;

#define C1 "Conv(x=1x3x8x8:f32,w=4x3x3x3,pads=[1,1,1,1])"
#define C2 "Conv(x=1x3x8x8:f32,w=4x3x3x3,strides=[2,2])"
#define C3 "Conv(x=1x3x8x8:f16,w=4x3x3x3)"
#define R1 "Relu(x=2x3:f32)"
#define R2 "Relu(x=1024:f32)"
#define M1 "MatMul(a=4x8:f32,b=8x4)"
#define M2 "MatMul(a=64x64:f32,b=64x64)"
#define M3 "MatMul(a=1x1:f32,b=1x1)"
#define W1 "Weird(x=2:f32,mode=a|b)"
#define G1 "Gelu(x=16:f16)"
#define PIPE_REASON "want 1 | got 2 `tick`"
#define UNSUP_REASON "fp16 conv not implemented"

static const row rows[] = {
    { C1, "Conv", "f32", "ref", CC_REGIME_EXACT, CC_PASSED, "", 0 },
    { C1, "Conv", "f32", "ref", CC_REGIME_RANDOM, CC_PASSED, "", 4e-3 },
    { C1, "Conv", "f32", "cpu", CC_REGIME_EXACT, CC_PASSED, "", 0 },
    { C1, "Conv", "f32", "cpu", CC_REGIME_RANDOM, CC_PASSED, "", 1e-3 },
    { C2, "Conv", "f32", "ref", CC_REGIME_EXACT, CC_PASSED, "", 0 },
    { C2, "Conv", "f32", "ref", CC_REGIME_RANDOM, CC_PASSED, "", 0 },
    { C2, "Conv", "f32", "cpu", CC_REGIME_EXACT, CC_PASSED, "", 0 },
    { C2, "Conv", "f32", "cpu", CC_REGIME_RANDOM, CC_FAILED, "worst at [7]: got 0.5, want 0.25", 0 },
    { C3, "Conv", "f16", "ref", CC_REGIME_RANDOM, CC_PASSED, "", 0 },
    { C3, "Conv", "f16", "cpu", CC_REGIME_EXACT, CC_UNSUPPORTED, UNSUP_REASON, 0 },
    { C3, "Conv", "f16", "cpu", CC_REGIME_RANDOM, CC_UNSUPPORTED, UNSUP_REASON, 0 },
    { R1, "Relu", "f32", "ref", CC_REGIME_RANDOM, CC_PASSED, "", 0 },
    { R1, "Relu", "f32", "cpu", CC_REGIME_EXACT, CC_PASSED, "", 0 },
    { R1, "Relu", "f32", "cpu", CC_REGIME_RANDOM, CC_MISTRUSTED, "output is constant", 0 },
    { R2, "Relu", "f32", "ref", CC_REGIME_RANDOM, CC_PASSED, "", 2e-3 },
    { R2, "Relu", "f32", "cpu", CC_REGIME_RANDOM, CC_PASSED, "", 4e-3 },
    { M1, "MatMul", "f32", "ref", CC_REGIME_EXACT, CC_PASSED, "", 0 },
    { M1, "MatMul", "f32", "cpu", CC_REGIME_EXACT, CC_ERROR, "prepare: out of <device> memory", 0 },
    { M2, "MatMul", "f32", "ref", CC_REGIME_EXACT, CC_PASSED, "", 0 },
    { M2, "MatMul", "f32", "cpu", CC_REGIME_EXACT, CC_CRASHED, "signal 11 (SIGSEGV)", 0 },
    { M3, "MatMul", "f32", "ref", CC_REGIME_EXACT, CC_PASSED, "", 0 },
    { M3, "MatMul", "f32", "cpu", CC_REGIME_EXACT, CC_TIMEOUT, "over 10 s", 0 },
    { W1, "Weird", "f32", "ref", CC_REGIME_EXACT, CC_PASSED, "", 0 },
    { W1, "Weird", "f32", "cpu", CC_REGIME_EXACT, CC_FAILED, PIPE_REASON, 0 },
    { G1, "Gelu", "f16", "ref", CC_REGIME_EXACT, CC_PASSED, "", 0 },
};
#define N_ROWS ((int)(sizeof rows / sizeof rows[0]))

/* Expected compact matrix, worked out by hand from rows[]: op, then ref, cpu. A cell
 * groups the dtypes by the worst verdict over their cases, best group first. */
static const char *const expect_matrix[][3] = {
    { "Conv", "✅ f32 f16", "⛔ f16 · ❌ f32" },
    { "Relu", "✅ f32", "⚠️ f32" },
    { "MatMul", "✅ f32", "💥 f32" },
    { "Weird", "✅ f32", "❌ f32" },
    { "Gelu", "✅ f16", "·" },
};
static const char *const expect_header[3] = { "op", "ref", "cpu" };

/* Expected per-target tables (op, f32, f16): worst symbol and passed / the run's cases of
 * that op and dtype; only the ops the target has cases of. */
static const char *const expect_ref[][3] = {
    { "Conv", "✅ 2/2", "✅ 1/1" },
    { "Relu", "✅ 2/2", "·" },
    { "MatMul", "✅ 3/3", "·" },
    { "Weird", "✅ 1/1", "·" },
    { "Gelu", "·", "✅ 1/1" },
};
static const char *const expect_cpu[][3] = {
    { "Conv", "❌ 1/2", "⛔ 0/1" },
    { "Relu", "⚠️ 1/2", "·" },
    { "MatMul", "💥 0/3", "·" },
    { "Weird", "❌ 0/1", "·" },
};

static char path[256];

static cc_status build_store(int64_t *run_id)
{
    cc_db *s = NULL;
    cc_err err = {0};
    cc_status st = cc_store_open(path, 0, &s, &err);
    if (st != CC_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return st;
    }
    static cc_run_info info;
    cc_env_collect(&info);
    snprintf(info.tag, sizeof info.tag, "night|ly `x`");
    snprintf(info.config, sizeof info.config, "targets=ref,cpu;quick=1");
    snprintf(info.version, sizeof info.version, "0.1.0");
    snprintf(info.command, sizeof info.command, "crosscheck run --quick");
    info.seed = 7;
    st = cc_store_run_begin(s, &info, run_id, &err);
    cc_device_desc d = { .name = "Synthetic CPU", .library = "OpenBLAS 0.3", .peak_gflops = 50 };
    if (st == CC_OK) st = cc_store_put_target(s, *run_id, "ref", &d, 1, NULL, &err);
    if (st == CC_OK) st = cc_store_put_target(s, *run_id, "cpu", &d, 1, NULL, &err);
    for (int i = 0; i < N_ROWS && st == CC_OK; i++) {
        const row *w = &rows[i];
        cc_result r;
        memset(&r, 0, sizeof r);
        snprintf(r.case_id, sizeof r.case_id, "%s", w->case_id);
        snprintf(r.op, sizeof r.op, "%s", w->op);
        snprintf(r.dtype, sizeof r.dtype, "%s", w->dtype);
        snprintf(r.target, sizeof r.target, "%s", w->target);
        snprintf(r.reason, sizeof r.reason, "%s", w->reason);
        r.regime = w->regime;
        r.verdict = w->verdict;
        r.seed = 42;
        if (w->verdict == CC_PASSED || w->verdict == CC_FAILED || w->verdict == CC_MISTRUSTED)
            r.metrics = (cc_metrics){ .n = 10, .max_abs = 0.25, .max_rel = NAN, .max_ulp = 3,
                                      .bound_ratio = w->verdict == CC_FAILED ? 4.5 : 0.5 };
        r.flops = 1e6 * (i + 1);
        r.bytes = 1e5;
        double samples[3];
        int n = 0;
        if (w->median > 0) {
            r.timing = (cc_timing){ .n_samples = 3, .median = w->median, .cv = 0.01 };
            samples[0] = samples[1] = samples[2] = w->median;
            n = 3;
        }
        st = cc_store_put_result(s, *run_id, &r, samples, n, &err);
    }
    if (st == CC_OK) st = cc_store_run_end(s, *run_id, "finished", &err);
    if (st != CC_OK) fprintf(stderr, "%s\n", err.msg);
    cc_store_close(s);
    return st;
}

/* ---- checks ------------------------------------------------------------------------- */

/* Table t has n_cols columns, the header want_header and exactly the body rows of want
 * (matched by their first cell), each with the expected cells. */
static void check_table(cmark_node *t, const char *what, int n_cols, const char *const *want_header,
                        const char *const *want, int n_want)
{
    CHECK(t != NULL);
    if (!t) return;
    CHECK(cmark_gfm_extensions_get_table_columns(t) == n_cols);
    int n_rows = 0;
    char buf[256];
    for (cmark_node *r = cmark_node_first_child(t); r; r = cmark_node_next(r)) {
        int cells = 0;
        for (cmark_node *c = cmark_node_first_child(r); c; c = cmark_node_next(c)) cells++;
        CHECK(cells == n_cols);
        if (cmark_gfm_extensions_get_table_row_is_header(r)) {
            for (int k = 0; k < n_cols; k++) {
                cell_text(r, k, buf, sizeof buf);
                CHECK(strcmp(buf, want_header[k]) == 0);
            }
            continue;
        }
        n_rows++;
        cell_text(r, 0, buf, sizeof buf);
        int found = 0;
        for (int e = 0; e < n_want; e++) {
            const char *const *w = &want[e * n_cols];
            if (strcmp(buf, w[0]) != 0) continue;
            found = 1;
            for (int k = 1; k < n_cols; k++) {
                cell_text(r, k, buf, sizeof buf);
                if (strcmp(buf, w[k]) != 0) {
                    fprintf(stderr, "%s %s col %d: got '%s', want '%s'\n", what, w[0], k, buf, w[k]);
                    CHECK(0);
                }
            }
        }
        CHECK(found);
    }
    CHECK(n_rows == n_want);
}

static void check_matrix(cmark_node *doc)
{
    check_table(find_table(doc, "op", "ref"), "matrix", 3, expect_header, &expect_matrix[0][0],
                (int)(sizeof expect_matrix / sizeof expect_matrix[0]));
    /* the old 35-column layout is gone: no header cell names a target and a dtype */
    CHECK(find_table(doc, "op", "ref f32") == NULL);
    static const char *const per_target_header[3] = { "op", "f32", "f16" };
    check_table(details_table(doc, "<details><summary>ref "), "ref", 3, per_target_header, &expect_ref[0][0],
                (int)(sizeof expect_ref / sizeof expect_ref[0]));
    check_table(details_table(doc, "<details><summary>cpu "), "cpu", 3, per_target_header, &expect_cpu[0][0],
                (int)(sizeof expect_cpu / sizeof expect_cpu[0]));
}

/* Support rates computed from rows[] directly: a case passes on a target when the target
 * has results for it and all of them passed; it is claimed when none is unsupported. */
static void check_support(cmark_node *doc)
{
    const char *cases[N_ROWS];
    int n_cases = 0;
    for (int i = 0; i < N_ROWS; i++) {
        int seen = 0;
        for (int k = 0; k < n_cases; k++) seen |= strcmp(cases[k], rows[i].case_id) == 0;
        if (!seen) cases[n_cases++] = rows[i].case_id;
    }
    CHECK(n_cases == 10);
    char head[64];
    snprintf(head, sizeof head, "op cases passed / all %d", n_cases);
    cmark_node *t = find_table_at(doc, "target", 2, head);
    CHECK(t != NULL);
    if (!t) return;
    const char *targets[2] = { "ref", "cpu" };
    for (int g = 0; g < 2; g++) {
        int passed = 0, claimed = 0;
        for (int k = 0; k < n_cases; k++) {
            int any = 0, all_pass = 1, unsup = 0;
            for (int i = 0; i < N_ROWS; i++) {
                if (strcmp(rows[i].case_id, cases[k]) || strcmp(rows[i].target, targets[g])) continue;
                any = 1;
                all_pass &= rows[i].verdict == CC_PASSED;
                unsup |= rows[i].verdict == CC_UNSUPPORTED;
            }
            passed += any && all_pass;
            claimed += any && !unsup;
        }
        char want_all[64], want_claimed[64], buf[256];
        snprintf(want_all, sizeof want_all, "%.1f%% (%d/%d)", 100.0 * passed / n_cases, passed, n_cases);
        snprintf(want_claimed, sizeof want_claimed, "%.1f%% (%d/%d)", 100.0 * passed / claimed,
                 passed, claimed);
        int found = 0;
        for (cmark_node *r = cmark_node_first_child(t); r; r = cmark_node_next(r)) {
            cell_text(r, 0, buf, sizeof buf);
            if (strcmp(buf, targets[g]) != 0) continue;
            found = 1;
            cell_text(r, 2, buf, sizeof buf);
            CHECK(strcmp(buf, want_all) == 0);
            cell_text(r, 3, buf, sizeof buf);
            CHECK(strcmp(buf, want_claimed) == 0);
        }
        CHECK(found);
    }
}

static void check_failures(cmark_node *doc)
{
    int n_fail = 0;
    for (int i = 0; i < N_ROWS; i++) {
        if (rows[i].verdict == CC_PASSED || rows[i].verdict == CC_UNSUPPORTED) continue;
        n_fail++;
        char repro[700];
        snprintf(repro, sizeof repro, "crosscheck run --case '%s' --targets %s --seed 7", rows[i].case_id,
                 rows[i].target);
        if (!has_code(doc, repro)) {
            fprintf(stderr, "missing repro: %s\n", repro);
            CHECK(0);
        }
    }
    CHECK(n_fail == 6);
    cmark_node *t = find_table(doc, "verdict", "target");
    CHECK(t != NULL);
    if (!t) return;
    int body = 0, pipe_reason = 0;
    char buf[512];
    for (cmark_node *r = cmark_node_first_child(t); r; r = cmark_node_next(r)) {
        if (cmark_gfm_extensions_get_table_row_is_header(r)) continue;
        body++;
        cell_text(r, 8, buf, sizeof buf);
        pipe_reason += strcmp(buf, PIPE_REASON) == 0;
    }
    CHECK(body == 6);
    CHECK(pipe_reason == 1);
    /* Worst first: the crash leads. */
    cmark_node *first = cmark_node_next(cmark_node_first_child(t));
    cell_text(first, 0, buf, sizeof buf);
    CHECK(strcmp(buf, "💥 crashed") == 0);
}

static void check_other_sections(cmark_node *doc)
{
    char buf[512];
    cmark_node *t = find_table(doc, "target", "reason");
    CHECK(t != NULL);
    if (t) {
        cmark_node *r = cmark_node_next(cmark_node_first_child(t));
        cell_text(r, 1, buf, sizeof buf);
        CHECK(strcmp(buf, UNSUP_REASON) == 0);
        cell_text(r, 2, buf, sizeof buf);
        CHECK(strcmp(buf, "2") == 0);
        CHECK(cmark_node_next(r) == NULL);
    }
    /* Performance: C1 took 4 ms on ref and 1 ms on cpu; R2 2 ms and 4 ms. */
    t = find_table(doc, "case", "target");
    CHECK(t != NULL);
    int fast = 0, slow = 0;
    for (cmark_node *r = t ? cmark_node_first_child(t) : NULL; r; r = cmark_node_next(r)) {
        cell_text(r, 1, buf, sizeof buf);
        if (strcmp(buf, "cpu") != 0) continue;
        cell_text(r, 7, buf, sizeof buf);
        fast += strcmp(buf, "4.00×") == 0;
        slow += strcmp(buf, "0.50×") == 0;
    }
    CHECK(fast == 1 && slow == 1);
    CHECK(has_code(doc, C1));
    /* The tag holds a pipe and a backtick: a code span carries it intact. */
    CHECK(has_code(doc, "night|ly `x`"));
}

static void check_html(const char *md, cmark_node *doc)
{
    char *html = NULL;
    cc_err err = {0};
    CHECK(cc_report_html(md, "crosscheck <report>", &html, &err) == CC_OK);
    if (!html) return;
    int tables = 0;
    for (const char *p = html; (p = strstr(p, "<table")) != NULL; p++) tables++;
    CHECK(tables == count_type(doc, "table"));
    CHECK(tables >= 6);
    CHECK(strstr(html, "<title>crosscheck &lt;report&gt;</title>") != NULL);
    CHECK(strstr(html, "<style>") != NULL);
    CHECK(strstr(html, "<link") == NULL && strstr(html, "src=") == NULL &&
          strstr(html, "http") == NULL);
    CHECK(strstr(html, "\\|") == NULL);        /* no escape left over */
    CHECK(strstr(html, "<p>|") == NULL);       /* no table that fell apart into text */
    CHECK(strstr(html, "<td>" "want 1 | got 2 `tick`" "</td>") != NULL);
    CHECK(strstr(html, "mode=a|b") != NULL);
    CHECK(strstr(html, "&lt;device&gt;") != NULL);
    CHECK(strstr(html, "✅ 2/2") != NULL);
    free(html);
    CHECK(cc_report_html(NULL, NULL, &html, &err) == CC_ERR_ARG);
    /* Raw HTML in the Markdown is not passed through. */
    html = NULL;
    CHECK(cc_report_html("a <script>alert(1)</script> b\n\n<div onclick=x>y</div>\n", NULL,
                         &html, &err) == CC_OK);
    CHECK(html && !strstr(html, "<script>") && !strstr(html, "onclick"));
    free(html);
    /* The report's own collapsed blocks pass through; look-alikes carrying more do not. */
    html = NULL;
    CHECK(cc_report_html("<details><summary>a &amp; b</summary>\n\n| x |\n| --- |\n| 1 |\n\n</details>\n",
                         NULL, &html, &err) == CC_OK);
    CHECK(html && strstr(html, "<details><summary>a &amp; b</summary>") && strstr(html, "</details>") &&
          strstr(html, "<td>1</td>"));
    free(html);
    static const char *const lookalikes[] = {
        "<details open onclick=x><summary>y</summary>\n\nz\n",
        "<details><summary>a<img src=x onerror=y></summary>\n\nz\n",
        "<details><summary>ok</summary><script>alert(1)</script>\n\nz\n",
        "<details><summary>a > b</summary>\n\nz\n",
        "</details><script>alert(1)</script>\n",
    };
    for (size_t i = 0; i < sizeof lookalikes / sizeof lookalikes[0]; i++) {
        html = NULL;
        CHECK(cc_report_html(lookalikes[i], NULL, &html, &err) == CC_OK);
        CHECK(html && !strstr(html, "<details") && !strstr(html, "</details>") && !strstr(html, "onclick") &&
              !strstr(html, "onerror") && !strstr(html, "<script>"));
        free(html);
    }
}

/* The overall line counts the op results (no model results here) by verdict. */
static void check_overall(cmark_node *doc)
{
    int passed = 0, unsupported = 0;
    for (int i = 0; i < N_ROWS; i++) {
        passed += rows[i].verdict == CC_PASSED;
        unsupported += rows[i].verdict == CC_UNSUPPORTED;
    }
    char want[256], got[1024];
    snprintf(want, sizeof want, "Overall: ❌ %d of %d supported op results did not pass — op results: 💥 1 crashed",
             N_ROWS - unsupported - passed, N_ROWS - unsupported);
    paragraph(doc, "Overall:", got, sizeof got);
    if (strncmp(got, want, strlen(want)) != 0) {
        fprintf(stderr, "overall: got '%s', want '%s…'\n", got, want);
        CHECK(0);
    }
    snprintf(want, sizeof want, "✅ %d passed · ⛔ %d unsupported.", passed, unsupported);
    CHECK(strlen(got) > strlen(want) && strcmp(got + strlen(got) - strlen(want), want) == 0);
    CHECK(strstr(got, "model") == NULL);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/cc_report_%d.db", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    unlink(path);
    int64_t run = 0;
    CHECK(build_store(&run) == CC_OK);

    cc_db *s = NULL;
    cc_err err = {0};
    CHECK(cc_store_open(path, 1, &s, &err) == CC_OK);
    if (!s) return CC_TEST_RESULT();
    char *md = NULL;
    cc_report_options opt;
    cc_report_options_default(&opt);
    opt.title = "Synthetic | run";
    CHECK(cc_report_markdown(s, 0, &opt, &md, &err) == CC_OK);
    CHECK(cc_report_markdown(s, run + 7, NULL, &md, &err) == CC_ERR_ARG);
    if (md) {
        if (getenv("CC_REPORT_DUMP")) fputs(md, stdout);
        cmark_parser *p = NULL;
        cmark_node *doc = parse(md, &p);
        check_overall(doc);
        check_matrix(doc);
        check_support(doc);
        check_failures(doc);
        check_other_sections(doc);
        check_html(md, doc);
        cmark_node_free(doc);
        cmark_parser_free(p);
        free(md);
    }
    cc_store_close(s);

    /* An empty database has no run to report. */
    char empty[300];
    snprintf(empty, sizeof empty, "%s.empty", path);
    unlink(empty);
    s = NULL;
    CHECK(cc_store_open(empty, 0, &s, &err) == CC_OK);
    md = NULL;
    CHECK(cc_report_markdown(s, 0, NULL, &md, &err) == CC_ERR_ARG && md == NULL);
    cc_store_close(s);

    const char *suffix[] = { "", "-wal", "-shm" };
    for (int i = 0; i < 3; i++) {
        char f[320];
        snprintf(f, sizeof f, "%s%s", path, suffix[i]);
        unlink(f);
        snprintf(f, sizeof f, "%s%s", empty, suffix[i]);
        unlink(f);
    }
    return CC_TEST_RESULT();
}
