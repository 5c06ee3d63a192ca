/* synth.h — synthetic runs for the comparison, history, merge and report tests: a
 * temporary folder, and runs written through the store API with timing samples drawn
 * from a seeded log-normal distribution, so every test knows the truth it plants. */
#ifndef CC_TEST_SYNTH_H
#define CC_TEST_SYNTH_H

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ops/core/rng.h"
#include "results/store.h"
#include "schema_old.h"

static char synth_dir[256];

static int synth_rm(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static void synth_cleanup(void)
{
    if (synth_dir[0]) nftw(synth_dir, synth_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* Makes the temporary folder (removed at exit). */
static void synth_init(void)
{
    snprintf(synth_dir, sizeof synth_dir, "/tmp/cc-synth-XXXXXX");
    if (!mkdtemp(synth_dir)) {
        perror("mkdtemp");
        exit(1);
    }
    atexit(synth_cleanup);
}

static void synth_path(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", synth_dir, name);
}

/* Opens (creating) the store `name` in the synthetic directory, its path in buf; NULL
 * (and a failed CHECK) when it cannot be opened. */
static inline cc_db *synth_open(char *buf, size_t n, const char *name)
{
    synth_path(buf, n, name);
    cc_db *db = NULL;
    cc_err err = { 0 };
    CHECK_OK(cc_store_open(buf, 0, &db, &err));
    return db;
}

/* A run's description: machine fields fixed unless changed by the caller. */
static void synth_run_info(cc_run_info *info, const char *tag, const char *commit)
{
    memset(info, 0, sizeof *info);
    snprintf(info->tag, sizeof info->tag, "%s", tag);
    snprintf(info->config, sizeof info->config, "synthetic");
    info->seed = 1;
    info->quick = 1;
    snprintf(info->command, sizeof info->command, "crosscheck run --synthetic");
    snprintf(info->version, sizeof info->version, "0.1.0");
    snprintf(info->git_commit, sizeof info->git_commit, "%s", commit);
    snprintf(info->libraries, sizeof info->libraries, "SQLite x; GSL y");
    snprintf(info->cpu_model, sizeof info->cpu_model, "Synthetic CPU 9000");
    info->cores = 8;
    info->memory_bytes = (int64_t)16 << 30;
    snprintf(info->os, sizeof info->os, "Linux test");
    snprintf(info->hostname, sizeof info->hostname, "host-a");
    snprintf(info->compiler, sizeof info->compiler, "cc");
    info->at_start = (cc_env_state){ .load1 = 0.5, .governor = "performance", .mhz = 2900, .max_mhz = 3500 };
    info->at_end = (cc_env_state){ .load1 = NAN, .mhz = NAN, .max_mhz = NAN };
    info->others_cpu = NAN;
    info->busy = -1;
}

/* One result to store: case id, op, dtype, target, verdict, bound ratio, median time and
 * the log-normal spread of its samples (0 samples: not timed). */
typedef struct synth_row {
    const char *case_id, *op, *dtype, *target;
    cc_verdict verdict;
    double bound_ratio;
    double median;
    double sigma;
    int n_samples;
    double ref;   /* the reference loop's median (timing.ref); 0: none */
} synth_row;

static void synth_result(cc_result *r, const synth_row *row, cc_regime regime)
{
    memset(r, 0, sizeof *r);
    snprintf(r->case_id, sizeof r->case_id, "%s", row->case_id);
    snprintf(r->op, sizeof r->op, "%s", row->op);
    snprintf(r->dtype, sizeof r->dtype, "%s", row->dtype);
    snprintf(r->target, sizeof r->target, "%s", row->target);
    r->regime = regime;
    r->seed = 7;
    r->verdict = row->verdict;
    if (row->verdict != CC_PASSED) snprintf(r->reason, sizeof r->reason, "synthetic %s", cc_verdict_name(row->verdict));
    r->metrics.n = 100;
    r->metrics.bound_ratio = row->bound_ratio;
    r->metrics.max_abs = row->bound_ratio * 1e-6;
    r->metrics.max_rel = row->bound_ratio * 1e-6;
    r->metrics.cosine = 1;
    r->flops = 1e6;
    r->bytes = 1e5;
}

/* Stores a run holding rows[0..n-1] (timing in the random regime, an untimed exact-regime
 * result too) with samples drawn from rng; returns its id. target "cpu" is put with
 * device name `device`. */
static int64_t synth_store_run(cc_db *db, const cc_run_info *info, const char *device,
                               const synth_row *rows, int n, cc_rng *rng)
{
    int64_t id = 0;
    cc_err err = { 0 };
    if (cc_store_run_begin(db, info, &id, &err)) {
        fprintf(stderr, "synth: %s\n", err.msg);
        exit(1);
    }
    cc_device_desc desc;
    memset(&desc, 0, sizeof desc);
    snprintf(desc.name, sizeof desc.name, "%s", device);
    snprintf(desc.library, sizeof desc.library, "OpenBLAS test");
    cc_store_put_target(db, id, "cpu", &desc, 1, "", &err);
    static double samples[4096];
    for (int i = 0; i < n; i++) {
        cc_result r;
        synth_result(&r, &rows[i], CC_REGIME_EXACT);
        if (cc_store_put_result(db, id, &r, NULL, 0, &err)) {
            fprintf(stderr, "synth: %s\n", err.msg);
            exit(1);
        }
        synth_result(&r, &rows[i], CC_REGIME_RANDOM);
        int k = rows[i].n_samples;
        for (int s = 0; s < k; s++) samples[s] = rows[i].median * exp(rows[i].sigma * cc_rng_normal(rng));
        if (k > 0) {
            r.timing.n_samples = k;
            r.timing.median = rows[i].median;
            r.timing.gflops = r.flops / rows[i].median * 1e-9;
            r.timing.ref = rows[i].ref;
        }
        if (cc_store_put_result(db, id, &r, samples, k, &err)) {
            fprintf(stderr, "synth: %s\n", err.msg);
            exit(1);
        }
    }
    cc_store_run_end(db, id, "finished", &err);
    return id;
}

#endif
