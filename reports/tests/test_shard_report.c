/* test_shard_report.c — the report of a shard covers its whole set: the results of every
 * shard's run (a failure stored by another shard is listed with its repro line, the
 * verdict counts add up over the shards), a table of the shards with the missing one
 * named, a warning that names missing and unfinished shards, an older run of a shard
 * standing for its shard when it is the one asked for, and nothing of the kind for a
 * complete set's or an unsharded run's report. The JUnit report covers the set too, a
 * missing shard a failing test case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "reports/junit.h"
#include "reports/report.h"
#include "results/tests/synth.h"

static char ids[8][64];
static synth_row rows[8];

static int64_t shard_run(cc_db *db, int index, int count, const char *tag, const char *status, int first)
{
    cc_run_info info;
    synth_run_info(&info, tag, "c1");
    snprintf(info.config, sizeof info.config, "targets=cpu;quick=1;shard=%d/%d", index, count);
    info.shard_index = index;
    info.shard_count = count;
    snprintf(info.shard_source, sizeof info.shard_source, "slurm");
    snprintf(info.scheduler_jobs, sizeof info.scheduler_jobs, "slurm 9_%d (job %d)", index, 9 + index);
    snprintf(info.hostname, sizeof info.hostname, "node%d", index);
    cc_rng rng;
    cc_rng_seed(&rng, (uint64_t)index);
    int64_t id = synth_store_run(db, &info, "dev", &rows[first], 2, &rng);
    if (strcmp(status, "finished") != 0) {
        cc_err err = { 0 };
        CHECK_OK(cc_store_run_resume(db, id, &err));
        CHECK_OK(cc_store_run_end(db, id, status, &err));
    }
    return id;
}

static char *report(cc_db *db, int64_t run)
{
    char *md = NULL;
    cc_err err = { 0 };
    cc_status s = cc_report_markdown(db, run, NULL, &md, &err);
    if (s != CC_OK) fprintf(stderr, "report: %s\n", err.msg);
    CHECK(s == CC_OK && md);
    return md ? md : calloc(1, 1);
}

/* The count in the verdict table's "cpu | op cases" row (its total column). */
static long cpu_op_total(const char *md)
{
    const char *row = strstr(md, "| `cpu` | op cases |");
    if (!row) return -1;
    const char *end = strchr(row, '\n');
    const char *last = end;
    while (last > row && last[-1] != '|') last--;
    while (last > row && last[-1] == '|') last--;
    const char *cell = last;
    while (cell > row && cell[-1] != '|') cell--;
    return strtol(cell, NULL, 10);
}

int main(void)
{
    synth_init();
    for (int i = 0; i < 8; i++) {
        snprintf(ids[i], sizeof ids[i], "Relu(x=%dx5:f32)", i + 1);
        rows[i] = (synth_row){ ids[i], "Relu", "f32", "cpu", CC_PASSED, 0.1, 1e-6, 0.05, 0 };
    }
    rows[0].verdict = CC_FAILED;   /* shard 1's */
    rows[2].verdict = CC_CRASHED;  /* the interrupted run of shard 2's */
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "fleet.db");
    if (!db) return CC_TEST_RESULT();

    /* 4 shards: 1 finished, 2 interrupted and then finished, 3 missing, 4 finished */
    shard_run(db, 1, 4, "fleet", "finished", 0);
    int64_t s2_old = shard_run(db, 2, 4, "fleet", "interrupted", 2);
    shard_run(db, 2, 4, "fleet", "finished", 4);
    int64_t s4 = shard_run(db, 4, 4, "fleet", "finished", 6);
    char *md = report(db, s4);
    CHECK(strstr(md, "- **Shards** this run is shard 4 of 4 (from slurm); this report covers the 3 shards of its "
                     "set in this database (same selection, tag and build): 3 finished, 0 unfinished, 1 missing"));
    CHECK(strstr(md, "> ⚠️ **1 of 4 shards** did not finish: shard 3 missing (no run in this database). The "
                     "results below are incomplete."));
    CHECK(strstr(md, "## Shards\n"));
    CHECK(strstr(md, "| 3 | — | ❓ missing | | | |\n"));
    CHECK(strstr(md, "| ✅ finished (2 runs) | node2 | slurm 9\\_2 (job 11) | 4 |\n"));
    CHECK(strstr(md, "- **Scheduler** slurm 9\\_4 (job 13)"));
    /* every shard's results: 3 runs x 2 cases x 2 regimes, shard 1's failure with its repro */
    CHECK(cpu_op_total(md) == 12);
    CHECK(strstr(md, "crosscheck run --case 'Relu(x=1x5:f32)' --targets cpu"));
    CHECK(!strstr(md, "Relu(x=3x5:f32)"));
    free(md);

    char *xml = NULL;
    cc_err err = { 0 };
    CHECK_OK(cc_report_junit(db, s4, &xml, &err));
    if (xml) {
        CHECK(strstr(xml, "<testsuites name=\"crosscheck run ") && strstr(xml, "tests=\"10\" failures=\"2\""));
        CHECK(strstr(xml, "<testcase classname=\"crosscheck.cpu.Relu\" name=\"Relu(x=1x5:f32)\""));
        CHECK(strstr(xml, "<testsuite name=\"crosscheck.shards\" tests=\"4\" failures=\"1\""));
        CHECK(strstr(xml, "<testcase classname=\"crosscheck.shards\" name=\"shard 3 of 4\">\n      <failure "
                          "message=\"missing: no run of this shard in the database\"/>"));
        CHECK(strstr(xml, "<testcase classname=\"crosscheck.shards\" name=\"shard 2 of 4\"/>"));
    }
    free(xml);

    /* the older, interrupted run of shard 2 asked for: it stands for shard 2 */
    md = report(db, s2_old);
    CHECK(strstr(md, "> ⚠️ **2 of 4 shards** did not finish: shard 3 missing (no run in this database); "
                     "shard 2 unfinished"));
    CHECK(strstr(md, "Relu(x=3x5:f32)"));
    CHECK(!strstr(md, "Relu(x=5x5:f32)"));
    CHECK(strstr(md, "| ⚠️ interrupted (2 runs) |"));
    CHECK(cpu_op_total(md) == 12);
    free(md);

    /* a complete set of 2: no warning, both shards' results */
    shard_run(db, 1, 2, "other", "finished", 0);
    int64_t o2 = shard_run(db, 2, 2, "other", "finished", 2);
    md = report(db, o2);
    CHECK(strstr(md, "2 finished, 0 unfinished, 0 missing"));
    CHECK(!strstr(md, "did not finish"));
    CHECK(cpu_op_total(md) == 8);
    free(md);

    /* not a shard: no shard line, section or warning */
    cc_run_info plain;
    synth_run_info(&plain, "plain", "c1");
    cc_rng rng;
    cc_rng_seed(&rng, 5);
    int64_t p = synth_store_run(db, &plain, "dev", rows, 8, &rng);
    md = report(db, p);
    CHECK(!strstr(md, "**Shards**") && !strstr(md, "## Shards") && !strstr(md, "did not finish"));
    CHECK(cpu_op_total(md) == 16);
    free(md);
    xml = NULL;
    CHECK_OK(cc_report_junit(db, p, &xml, &err));
    CHECK(xml && !strstr(xml, "crosscheck.shards"));
    free(xml);
    cc_store_close(db);
    return CC_TEST_RESULT();
}
