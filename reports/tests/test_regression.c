/* test_regression.c — the reports over several runs, on synthetic runs with planted
 * changes: the regression report starts with the verdict line matching the exit code and
 * lists regressions before improvements before unchanged counts, with the evidence; its
 * charts are SVG documents referenced by file name and put inline in HTML; the history
 * report marks the planted step; the fleet report groups runs by machine; CSV exports
 * parse back with libcsv field for field (commas and quotes in case ids included); the
 * JUnit XML counts and escapes correctly; SVG bars have heights proportional to values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "harness/cctest.h"
#include "reports/csv.h"
#include "reports/junit.h"
#include "reports/regression.h"
#include "reports/report.h"
#include "reports/svg.h"
#include "results/store_query.h"
#include "../../results/tests/synth.h"

#define HOSTILE "Weird(x=2:f32,mode=\"a,b\"<&>)"

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle)) n++;
    return n;
}

/* ---- CSV read back through libcsv ------------------------------------------------------- */

typedef struct table {
    char cells[400][48][160];
    int cols[400];
    int rows;
} table;

static void on_field(void *s, size_t len, void *user)
{
    table *t = user;
    if (t->rows >= 400 || t->cols[t->rows] >= 48) return;
    char *cell = t->cells[t->rows][t->cols[t->rows]++];
    if (len >= 160) len = 159;
    memcpy(cell, s, len);
    cell[len] = '\0';
}

static void on_row(int c, void *user)
{
    (void)c;
    table *t = user;
    if (t->rows < 400) t->rows++;
}

static void parse_csv(const char *text, size_t len, table *t)
{
    struct csv_parser p;
    memset(t, 0, sizeof *t);
    csv_init(&p, CSV_STRICT | CSV_APPEND_NULL);
    size_t done = csv_parse(&p, text, len, on_field, on_row, t);
    CHECK(done == len);
    CHECK(csv_fini(&p, on_field, on_row, t) == 0);
    csv_free(&p);
}

static int column(const table *t, const char *name)
{
    for (int i = 0; i < t->cols[0]; i++)
        if (strcmp(t->cells[0][i], name) == 0) return i;
    return -1;
}

/* ---- the fixture --------------------------------------------------------------------------- */

static cc_db *db;
static int64_t run_a, run_b, run_c, run_other;
static char ids[12][96];

static void fixture(void)
{
    synth_init();
    char path[512];
    synth_path(path, sizeof path, "reports.db");
    cc_err err = { 0 };
    CHECK_OK(cc_store_open(path, 0, &db, &err));
    cc_rng rng;
    cc_rng_seed(&rng, 21);
    synth_row rows[12], mod[12];
    for (int i = 0; i < 12; i++) {
        const char *op = i < 4 ? "Conv" : i < 8 ? "MatMul" : "Relu";
        if (i == 11) snprintf(ids[i], sizeof ids[i], "%s", HOSTILE);
        else snprintf(ids[i], sizeof ids[i], "%s(x=%dx8:%s)", op, i + 1, i % 2 ? "f16" : "f32");
        rows[i] = (synth_row){ ids[i], i == 11 ? "Weird" : op, i % 2 ? "f16" : "f32", "cpu", CC_PASSED, 0.05,
                               1e-5 * (i + 1), 0.02, 100 };
    }
    cc_run_info info;
    synth_run_info(&info, "base", "c1");
    run_a = synth_store_run(db, &info, "Synthetic CPU", rows, 12, &rng);
    /* the candidate: Conv 40% slower, MatMul #5 fails, MatMul #4 40% slower alone (its
     * family does not move: unconfirmed), the Relu family 30% faster */
    memcpy(mod, rows, sizeof mod);
    for (int i = 0; i < 4; i++) mod[i].median *= 1.4;
    mod[5].verdict = CC_FAILED;
    mod[4].median *= 1.4;
    for (int i = 8; i < 11; i++) mod[i].median /= 1.3;
    synth_run_info(&info, "cand", "c2");
    run_b = synth_store_run(db, &info, "Synthetic CPU", mod, 12, &rng);
    run_c = synth_store_run(db, &info, "Synthetic CPU", mod, 12, &rng);
    synth_run_info(&info, "elsewhere", "c2");
    snprintf(info.cpu_model, sizeof info.cpu_model, "Other CPU");
    run_other = synth_store_run(db, &info, "Synthetic CPU", rows, 12, &rng);
}

static void test_regression_report(void)
{
    cc_comparison *c = NULL;
    cc_err err = { 0 };
    CHECK_OK(cc_compare_runs(db, run_a, db, run_b, NULL, &c, &err));
    if (!c) return;
    CHECK(c->outcome == CC_OUTCOME_REGRESSION);
    cc_regression_options o;
    cc_regression_options_default(&o);
    o.chart_prefix = "rep ort";              /* unsafe characters become '_' */
    o.history_db = db;
    char *md = NULL;
    cc_charts charts = { 0 };
    CHECK_OK(cc_report_regression(c, &o, &md, &charts, &err));
    if (!md) return;
    /* title, then the verdict line matching the exit code */
    const char *nl = strchr(md, '\n');
    CHECK(strncmp(md, "# crosscheck regression report\n\n", 32) == 0);
    CHECK(nl && strncmp(nl + 2, "**❌ REGRESSION**", strlen("**❌ REGRESSION**")) == 0);
    const char *line2 = nl + 2, *end2 = strchr(line2, '\n');
    char verdict_line[512];
    snprintf(verdict_line, sizeof verdict_line, "%.*s", (int)(end2 - line2), line2);
    CHECK(strstr(verdict_line, "exit code 1") != NULL);
    CHECK(strstr(verdict_line, "6 regressions") != NULL);  /* 4 Conv + MatMul #5 in 2 regimes */
    /* sections in order, with evidence */
    const char *reg = strstr(md, "## Regressions (6)"), *imp = strstr(md, "## Improvements (3)");
    const char *unch = strstr(md, "## Unchanged");
    CHECK(reg && imp && unch && reg < imp && imp < unch);
    CHECK(strstr(md, "verdict passed → **failed**") != NULL);
    CHECK(count(md, "| slower |") == 4);
    CHECK(count(md, "| faster |") == 3);
    CHECK(strstr(md, "(threshold +10%; family +") != NULL && strstr(md, " of 4, threshold +5%)") != NULL);
    /* faster rows: the thresholds as the decrease they stand for, 1/1.1 - 1 and 1/1.05 - 1 */
    CHECK(strstr(md, "(threshold -9.09%; family -") != NULL && strstr(md, " of 3, threshold -4.76%)") != NULL);
    CHECK(strstr(md, "- 1 result moved beyond 10% while its op family did not: unconfirmed") != NULL);
    CHECK(strstr(md, "its op family (the op's timed results on that target) moved the same way") != NULL);
    /* both runs' conditions, side by side */
    CHECK(strstr(md, "| conditions | load 0.50 → unknown (1 min) · governor performance · clock 2900 MHz → "
                     "unknown (max 3500 MHz)") != NULL);
    CHECK(strstr(md, "| 100 / 100 |") != NULL);
    /* charts: the throughput bars and history lines of the first regressions, referenced by name */
    CHECK(charts.n >= 2);
    for (int i = 0; i < charts.n; i++) {
        CHECK(strncmp(charts.c[i].name, "rep_ort-", 8) == 0);
        CHECK(strstr(md, charts.c[i].name) != NULL);
        CHECK(strncmp(charts.c[i].svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0);
        CHECK(strstr(charts.c[i].svg, "</svg>\n") != NULL);
    }
    CHECK(strcmp(charts.c[0].name, "rep_ort-throughput.svg") == 0);
    /* HTML with the charts inline: no image link left for them */
    char *html = NULL, *inl = NULL;
    CHECK_OK(cc_report_html(md, "t", &html, &err));
    CHECK_OK(cc_report_inline_charts(html, &charts, &inl, &err));
    if (inl) {
        CHECK(count(inl, "<svg xmlns") == charts.n);
        CHECK(strstr(inl, "<img src=\"rep_ort-") == NULL);
        CHECK(strstr(inl, "REGRESSION") != NULL);
    }
    free(html);
    free(inl);
    free(md);
    cc_charts_free(&charts);

    /* CSV of the comparison: header + one row per compared result, fields back intact */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK_OK(cc_csv_export_comparison(c, f, &err));
    fclose(f);
    static table t;
    parse_csv(buf, len, &t);
    CHECK(t.rows == 1 + c->n_rows);
    int jc = column(&t, "judgement"), cc = column(&t, "case_id");
    CHECK(jc >= 0 && cc >= 0);
    int uc = column(&t, "unconfirmed"), fc = column(&t, "family_change");
    CHECK(uc >= 0 && fc >= 0);
    int regressions = 0, hostile = 0, unconfirmed = 0;
    for (int r = 1; r < t.rows; r++) {
        regressions += strcmp(t.cells[r][jc], "regression") == 0;
        hostile += strcmp(t.cells[r][cc], HOSTILE) == 0;
        if (uc >= 0 && strcmp(t.cells[r][uc], "slower") == 0) {
            unconfirmed++;
            CHECK(strcmp(t.cells[r][cc], ids[4]) == 0 && strcmp(t.cells[r][jc], "unchanged") == 0);
        }
    }
    CHECK(regressions == 6);
    CHECK(unconfirmed == 1);
    CHECK(hostile == 2);
    free(buf);
    cc_comparison_free(c);

    /* a comparison that could not be made: the report says so, exit code 5 */
    CHECK_OK(cc_compare_runs(db, run_a, db, run_other, NULL, &c, &err));
    CHECK_OK(cc_report_regression(c, NULL, &md, NULL, &err));
    CHECK(strstr(md, "**⚠️ NOT ENOUGH DATA**") != NULL);
    CHECK(strstr(md, "exit code 5") != NULL);
    CHECK(strstr(md, "| cpu model | **stable** |") != NULL);
    CHECK(strstr(md, "## Regressions") == NULL);
    free(md);
    cc_comparison_free(c);

    /* A/A: no regression, exit 0 */
    CHECK_OK(cc_compare_runs(db, run_b, db, run_c, NULL, &c, &err));
    CHECK_OK(cc_report_regression(c, NULL, &md, NULL, &err));
    CHECK(strstr(md, "**✅ NO REGRESSION**") != NULL && strstr(md, "exit code 0") != NULL);
    CHECK(strstr(md, "![") == NULL);          /* no chart prefix: no image links */
    free(md);
    cc_comparison_free(c);
}

static void test_exports(void)
{
    cc_err err = { 0 };
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK_OK(cc_csv_export_results(db, run_b, f, &err));
    fclose(f);
    static table t;
    parse_csv(buf, len, &t);
    CHECK(t.rows == 1 + 24);
    int vc = column(&t, "verdict"), cc = column(&t, "case_id"), mc = column(&t, "median_s");
    int uc = column(&t, "run_uid");
    CHECK(vc >= 0 && cc >= 0 && mc >= 0 && uc >= 0);
    int failed = 0, timed = 0;
    for (int r = 1; r < t.rows; r++) {
        failed += strcmp(t.cells[r][vc], "failed") == 0;
        timed += t.cells[r][mc][0] != '\0';
        CHECK(t.cols[r] == t.cols[0]);
    }
    CHECK(failed == 2);
    CHECK(timed == 12);     /* every random-regime result is timed; exact-regime ones are not */
    int hostile = 0;
    for (int r = 1; r < t.rows; r++) hostile += strcmp(t.cells[r][cc], HOSTILE) == 0;
    CHECK(hostile == 2);
    free(buf);

    /* every run */
    f = open_memstream(&buf, &len);
    CHECK_OK(cc_csv_export_results(db, 0, f, &err));
    fclose(f);
    parse_csv(buf, len, &t);
    CHECK(t.rows == 1 + 4 * 24);
    free(buf);
    f = open_memstream(&buf, &len);
    CHECK(cc_csv_export_results(db, 999, f, &err) == CC_ERR_ARG);
    fclose(f);
    free(buf);
}

static void test_junit(void)
{
    cc_err err = { 0 };
    char *xml = NULL;
    CHECK_OK(cc_report_junit(db, run_b, &xml, &err));
    if (!xml) return;
    CHECK(strncmp(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", 50) == 0);
    CHECK(strstr(xml, "tests=\"12\" failures=\"1\" errors=\"0\" skipped=\"0\"") != NULL);
    CHECK(count(xml, "<testcase ") == 12);         /* one per (case, target) */
    CHECK(count(xml, "<failure type=\"failed\"") == 1);
    CHECK(strstr(xml, "bound ratio") != NULL);
    CHECK(strstr(xml, "repro: crosscheck run --case") != NULL);
    /* the hostile id, escaped */
    CHECK(strstr(xml, "name=\"Weird(x=2:f32,mode=&quot;a,b&quot;&lt;&amp;&gt;)\"") != NULL);
    CHECK(strstr(xml, HOSTILE) == NULL);
    free(xml);
    CHECK(cc_report_junit(db, 999, &xml, &err) == CC_ERR_ARG);
}

static void test_history_and_fleet(void)
{
    cc_err err = { 0 };
    cc_history *h = NULL;
    CHECK_OK(cc_history_case(db, ids[0], "cpu", NULL, &h, &err));
    char *md = NULL;
    cc_charts charts = { 0 };
    CHECK_OK(cc_report_history(h, "h", &md, &charts, &err));
    CHECK(h->n_series == 2);                 /* two machines */
    CHECK(strstr(md, "# History of `") != NULL);
    CHECK(count(md, "## cpu · ") == 2);
    CHECK(charts.n == 2 && strcmp(charts.c[0].name, "h-1.svg") == 0);
    CHECK(charts.n == 2 && strstr(charts.c[0].svg, "class=\"series\"") != NULL);
    free(md);
    cc_charts_free(&charts);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK_OK(cc_csv_export_history(h, f, &err));
    fclose(f);
    static table t;
    parse_csv(buf, len, &t);
    CHECK(t.rows == 1 + 4);
    free(buf);
    cc_history_free(h);

    CHECK_OK(cc_report_fleet(db, "fleet", &md, &charts, &err));
    CHECK(strstr(md, "4 runs on 2 machines") != NULL);
    CHECK(strstr(md, "## Machine 1: Synthetic CPU 9000") != NULL);
    CHECK(strstr(md, "## Machine 2: Other CPU") != NULL);
    CHECK(charts.n == 1 && strcmp(charts.c[0].name, "fleet-throughput.svg") == 0);
    /* two machines: support and throughput side by side */
    CHECK(strstr(md, "## Support and throughput per machine") != NULL);
    free(md);
    cc_charts_free(&charts);

    /* the report of one run carries the machines of the database */
    cc_report_options ro;
    cc_report_options_default(&ro);
    CHECK_OK(cc_report_markdown(db, run_other, &ro, &md, &err));
    if (!md) return;
    const char *sec = strstr(md, "## Machines in this database");
    CHECK(sec != NULL);
    if (sec) {
        CHECK(strstr(sec, "holds 4 runs of 2 machines") != NULL);
        CHECK(strstr(sec, "| M1 | Synthetic CPU 9000 · 8 cores |") != NULL);
        CHECK(strstr(sec, "| M2 | Other CPU · 8 cores |") != NULL);
        /* M1's latest build c2 ran twice with one selection: one run counted */
        CHECK(strstr(sec, "`c2` (1 run)") != NULL);
        /* support: M1 (the candidate build) lost MatMul #5 in both regimes, M2 did not */
        CHECK(strstr(sec, "| `cpu` | 91.7% (11/12) of 12 | 100.0% (12/12) of 12 |") != NULL);
        CHECK(strstr(sec, "| MatMul | ❌ 3/4 | ✅ 4/4 |") != NULL);
        CHECK(strstr(sec, "| Conv | ✅ 4/4 | ✅ 4/4 |") != NULL);
        /* throughput over the results both timed and passed: f32 and f16, MatMul #5 out */
        CHECK(strstr(sec, "| `cpu` | f32 | 6 |") != NULL);
        CHECK(strstr(sec, "| `cpu` | f16 | 5 |") != NULL);
    }
    CHECK(strstr(md, "- **Conditions** load 0.50 → unknown (1 min)") != NULL);
    free(md);
    ro.machines = -1;
    CHECK_OK(cc_report_markdown(db, run_other, &ro, &md, &err));
    CHECK(md && strstr(md, "## Machines in this database") == NULL);
    free(md);
}

/* Bar heights proportional to values; labels escaped. */
static void test_svg(void)
{
    const char *groups[2] = { "f32", "f16" }, *series[2] = { "cpu <fast>", "ref" };
    double values[4] = { 100, 50, 25, NAN };
    cc_svg_bars b = { "t & t", "GFLOP/s", 2, 2, groups, series, values };
    char *svg = NULL;
    cc_err err = { 0 };
    CHECK_OK(cc_svg_bar_chart(&b, &svg, &err));
    if (!svg) return;
    CHECK(count(svg, "<rect class=\"bar\"") == 3);
    CHECK(strstr(svg, "cpu &lt;fast&gt;") != NULL && strstr(svg, "<fast>") == NULL);
    CHECK(strstr(svg, "t &amp; t") != NULL);
    double h[3];
    const char *p = svg;
    for (int i = 0; i < 3; i++) {
        p = strstr(p, "<rect class=\"bar\"");
        const char *hh = strstr(p, "height=\"");
        h[i] = atof(hh + 8);
        p = hh;
    }
    CHECK_NEAR(h[1] / h[0], 0.5, 1e-3);
    CHECK_NEAR(h[2] / h[0], 0.25, 1e-3);
    free(svg);

    double y[6] = { 1e-3, 1.1e-3, NAN, 1e-3, 2e-3, 2e-3 };
    int changes[1] = { 4 }, bad[6] = { 0, 0, 0, 1, 0, 0 };
    cc_svg_level levels[2] = { { 0, 4, 1e-3 }, { 4, 2, 2e-3 } };
    cc_svg_line l = { "line", "s", 6, y, bad, NULL, 1, changes, 2, levels, 1 };
    CHECK_OK(cc_svg_line_chart(&l, &svg, &err));
    CHECK(count(svg, "class=\"series\"") == 2);    /* broken at the missing point */
    CHECK(count(svg, "class=\"change\"") == 1);
    CHECK(count(svg, "class=\"level\"") == 2);
    CHECK(count(svg, "class=\"point bad\"") == 1);
    free(svg);
    int far[1] = { 9 };
    l.changes = far;
    CHECK(cc_svg_line_chart(&l, &svg, &err) == CC_ERR_ARG);
    values[0] = -1;
    CHECK(cc_svg_bar_chart(&b, &svg, &err) == CC_ERR_ARG);
}

int main(void)
{
    fixture();
    test_regression_report();
    test_exports();
    test_junit();
    test_history_and_fleet();
    test_svg();
    cc_store_close(db);
    return CC_TEST_RESULT();
}
