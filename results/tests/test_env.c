/* test_env.c — a run's volatile conditions: the state sampled from /proc and /sys, the
 * share of the CPU other processes used (worked by hand from marks), the busy rule, the
 * store's round trip of the conditions, and a version-2 database (stored before the
 * conditions existed) migrated with its runs' conditions unknown. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "harness/cctest.h"
#include "synth.h"

static void test_sample(void)
{
    cc_env_state s;
    cc_env_sample(&s);
    if (access("/proc/loadavg", R_OK) == 0) CHECK(s.load1 >= 0);
    if (access("/sys/devices/system/cpu/cpu0/cpufreq", F_OK) != 0) {
        /* no cpufreq (many virtual machines): unknown, never made up */
        CHECK(s.governor[0] == '\0' && isnan(s.mhz) && isnan(s.max_mhz));
    } else {
        CHECK(isnan(s.mhz) || s.mhz > 0);
        CHECK(isnan(s.max_mhz) || s.max_mhz > 0);
    }
    cc_run_info *info = calloc(1, sizeof *info);
    if (!info) return;
    cc_env_collect(info);
    CHECK(isnan(info->at_end.load1) && isnan(info->at_end.mhz) && info->at_end.governor[0] == '\0');
    CHECK(isnan(info->others_cpu) && info->busy == -1);
    free(info);
}

static void test_others_share(void)
{
    /* 10 s on 2 CPUs: 20 CPU-seconds of capacity; the machine worked 10, this process 4:
     * the others 6, a share of 0.3 */
    cc_env_mark a = { 100, 50, 2, 2 }, b = { 110, 60, 6, 2 };
    CHECK_NEAR(cc_env_others_share(&a, &b), 0.3, 1e-12);
    b.own = 20;                           /* more than the machine did: clamped to 0 */
    CHECK(cc_env_others_share(&a, &b) == 0);
    b = (cc_env_mark){ 110, 90, 2, 2 };   /* 40 busy seconds in 20 of capacity: clamped to 1 */
    CHECK(cc_env_others_share(&a, &b) == 1);
    b.machine_busy = NAN;
    CHECK(isnan(cc_env_others_share(&a, &b)));
    b = (cc_env_mark){ 100, 60, 6, 2 };   /* no time elapsed */
    CHECK(isnan(cc_env_others_share(&a, &b)));
    b = (cc_env_mark){ 110, 60, 6, 0 };
    CHECK(isnan(cc_env_others_share(&a, &b)));

    /* real marks around 50 ms of this process's own CPU time (spun until the process clock
     * says so, so a loaded machine only makes it take longer): getrusage saw most of it, and
     * at least as much wall time passed */
    cc_env_mark m0, m1;
    cc_env_mark_take(&m0);
    volatile double x = 0;
    struct timespec t0, t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    do {
        for (int i = 0; i < 10000; i++) x += 1e-9 * i;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    } while ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) < 0.05);
    cc_env_mark_take(&m1);
    CHECK(m1.own - m0.own > 0.03);
    CHECK(m1.wall - m0.wall >= 0.8 * (m1.own - m0.own));
    CHECK(m1.cpus >= 1);
    double share = cc_env_others_share(&m0, &m1);
    if (!isnan(m0.machine_busy)) CHECK(share >= 0 && share <= 1);
}

static void test_busy(void)
{
    CHECK(cc_env_is_busy(0.30, NAN, 2) == 1);
    CHECK(cc_env_is_busy(CC_ENV_BUSY_SHARE, NAN, 2) == 1);
    CHECK(cc_env_is_busy(0.10, 5.0, 2) == 0);   /* the measured share wins over the load */
    CHECK(cc_env_is_busy(NAN, 1.0, 2) == 1);    /* no share: load at least half the cores */
    CHECK(cc_env_is_busy(NAN, 0.9, 2) == 0);
    CHECK(cc_env_is_busy(NAN, NAN, 2) == -1);
    CHECK(cc_env_is_busy(NAN, 1.0, 0) == -1);
}

static void test_store_conditions(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "env.db");
    cc_err err = { 0 };
    if (!db) return;
    static cc_run_info info, back;
    synth_run_info(&info, "t", "c1");              /* 8 cores, load 0.5 at the start */
    int64_t run = 0, run2 = 0;
    CHECK_OK(cc_store_run_begin(db, &info, &run, &err));
    CHECK_OK(cc_store_get_run(db, run, &back, &err));
    CHECK(back.at_start.load1 == 0.5 && strcmp(back.at_start.governor, "performance") == 0);
    CHECK(back.at_start.mhz == 2900 && back.at_start.max_mhz == 3500);
    CHECK(isnan(back.at_end.load1) && isnan(back.at_end.mhz) && back.at_end.governor[0] == '\0');
    CHECK(isnan(back.others_cpu) && back.busy == -1);

    cc_env_state end = { .load1 = 1.25, .governor = "powersave", .mhz = 800, .max_mhz = 3500 };
    CHECK_OK(cc_store_run_conditions(db, run, &end, 0.1, &err));
    CHECK_OK(cc_store_get_run(db, run, &back, &err));
    CHECK(back.at_end.load1 == 1.25 && strcmp(back.at_end.governor, "powersave") == 0 && back.at_end.mhz == 800);
    CHECK(back.others_cpu == 0.1 && back.busy == 0);
    CHECK_OK(cc_store_run_conditions(db, run, &end, 0.5, &err));   /* recorded again: replaced */
    CHECK_OK(cc_store_get_run(db, run, &back, &err));
    CHECK(back.others_cpu == 0.5 && back.busy == 1);

    /* no share measured: the start load decides (4.0 on 8 cores is half: busy) */
    info.at_start.load1 = 4.0;
    CHECK_OK(cc_store_run_begin(db, &info, &run2, &err));
    CHECK_OK(cc_store_run_conditions(db, run2, &end, NAN, &err));
    CHECK_OK(cc_store_get_run(db, run2, &back, &err));
    CHECK(isnan(back.others_cpu) && back.busy == 1);

    CHECK(cc_store_run_conditions(db, 9999, &end, 0.1, &err) == CC_ERR_ARG);
    CHECK(strstr(err.msg, "9999") != NULL);
    CHECK(cc_store_run_conditions(db, run, NULL, 0.1, &err) == CC_ERR_ARG);
    cc_store_close(db);
}

/* A version-2 database: refused read-only, migrated on a writable open, its run intact
 * with unknown conditions, which can then be recorded. */
static void test_migration_from_v2(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "v2.db");
    cc_err err = { 0 };
    if (!db) return;
    synth_row row = { "Relu(x=8:f32)", "Relu", "f32", "cpu", CC_PASSED, 0.1, 1e-6, 0.02, 10 };
    static cc_run_info info, back;
    synth_run_info(&info, "before", "c0");
    cc_rng rng;
    cc_rng_seed(&rng, 4);
    int64_t run = synth_store_run(db, &info, "dev", &row, 1, &rng);
    cc_store_close(db);
    sqlite3 *raw = NULL;
    CHECK(sqlite3_open(path, &raw) == SQLITE_OK);
    CHECK(sqlite3_exec(raw, "PRAGMA journal_mode = DELETE;" SYNTH_DOWNGRADE_TO_V2, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(raw);

    db = NULL;
    CHECK(cc_store_open(path, 1, &db, &err) == CC_ERR_DB && strstr(err.msg, "older") != NULL);
    CHECK_OK(cc_store_open(path, 0, &db, &err));
    if (!db) return;
    CHECK(cc_store_schema_version(db) == CC_STORE_SCHEMA_VERSION);
    CHECK_OK(cc_store_get_run(db, run, &back, &err));
    CHECK(strcmp(back.tag, "before") == 0 && strcmp(back.cpu_model, info.cpu_model) == 0);
    CHECK(isnan(back.at_start.load1) && back.at_start.governor[0] == '\0' && isnan(back.at_start.mhz));
    CHECK(isnan(back.others_cpu) && back.busy == -1);
    int64_t n = 0;
    CHECK_OK(cc_store_count_results(db, run, -1, &n, &err));
    CHECK(n == 2);
    cc_env_state end = { .load1 = 0.2, .mhz = NAN, .max_mhz = NAN };
    CHECK_OK(cc_store_run_conditions(db, run, &end, NAN, &err));
    CHECK_OK(cc_store_get_run(db, run, &back, &err));
    CHECK(back.at_end.load1 == 0.2 && back.busy == -1);   /* neither share nor start load known */
    cc_store_close(db);
}

int main(void)
{
    synth_init();
    test_sample();
    test_others_share();
    test_busy();
    test_store_conditions();
    test_migration_from_v2();
    return CC_TEST_RESULT();
}
