/* schema.c — the results database schema as migration steps, and the code that applies
 * them. A step is never edited once released: a schema change is a new step appended to
 * the list (and CC_STORE_SCHEMA_VERSION raised to its number). */
#include "schema.h"

#include "store.h"

/* Version 1: runs, their machine, their targets, cases, results and timing samples. */
static const char schema_v1[] =
    "PRAGMA application_id = 1667453523;\n" /* CC_STORE_APPLICATION_ID, "ccRS" */
    "CREATE TABLE runs (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  uid TEXT NOT NULL UNIQUE,\n"
    "  started_at TEXT NOT NULL,\n"
    "  finished_at TEXT,\n"
    "  status TEXT NOT NULL CHECK (status IN ('running','finished','interrupted')),\n"
    "  tag TEXT NOT NULL DEFAULT '',\n"
    "  config TEXT NOT NULL,\n"
    "  seed INTEGER NOT NULL,\n"
    "  quick INTEGER NOT NULL,\n"
    "  command TEXT NOT NULL,\n"
    "  version TEXT NOT NULL,\n"
    "  git_commit TEXT NOT NULL,\n"
    "  libraries TEXT NOT NULL\n"
    ");\n"
    "CREATE INDEX runs_by_config ON runs(config, status);\n"
    "CREATE TABLE environments (\n"
    "  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  cpu_model TEXT NOT NULL,\n"
    "  cpu_flags TEXT NOT NULL,\n"
    "  cores INTEGER NOT NULL,\n"
    "  memory_bytes INTEGER NOT NULL,\n"
    "  os TEXT NOT NULL,\n"
    "  hostname TEXT NOT NULL,\n"
    "  compiler TEXT NOT NULL\n"
    ");\n"
    "CREATE TABLE run_targets (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  name TEXT NOT NULL,\n"
    "  available INTEGER NOT NULL,\n"
    "  reason TEXT NOT NULL,\n"
    "  device TEXT NOT NULL,\n"
    "  driver TEXT NOT NULL,\n"
    "  library TEXT NOT NULL,\n"
    "  peak_gflops REAL,\n"
    "  peak_gbps REAL,\n"
    "  UNIQUE (run_id, name)\n"
    ");\n"
    "CREATE TABLE cases (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  case_id TEXT NOT NULL UNIQUE,\n"
    "  op TEXT NOT NULL,\n"
    "  dtype TEXT NOT NULL\n"
    ");\n"
    "CREATE INDEX cases_by_op ON cases(op, dtype);\n"
    "CREATE TABLE results (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  case_ref INTEGER NOT NULL REFERENCES cases(id),\n"
    "  target TEXT NOT NULL,\n"
    "  regime TEXT NOT NULL CHECK (regime IN ('exact','random')),\n"
    "  seed INTEGER NOT NULL,\n"
    "  verdict TEXT NOT NULL CHECK (verdict IN ('passed','failed','mistrusted',\n"
    "                               'unsupported','error','crashed','timeout')),\n"
    "  reason TEXT NOT NULL,\n"
    "  n INTEGER, n_bad INTEGER,\n"
    "  max_abs REAL, max_rel REAL, max_ulp REAL, nmse REAL, cosine REAL, bound_ratio REAL,\n"
    "  worst_index INTEGER, worst_got REAL, worst_want REAL,\n"
    "  n_samples INTEGER, device_timer INTEGER,\n"
    "  t_median REAL, t_mean REAL, t_stddev REAL, t_mad REAL, t_min REAL, t_max REAL,\n"
    "  t_p90 REAL, t_p99 REAL, t_cv REAL, t_ci_lo REAL, t_ci_hi REAL,\n"
    "  gflops REAL, gbps REAL,\n"
    "  flops REAL, bytes REAL,\n"
    "  plan TEXT NOT NULL,\n"
    "  tol_c REAL, tol_r REAL, tol_atol REAL, policy_version INTEGER,\n"
    "  created_at TEXT NOT NULL,\n"
    "  UNIQUE (run_id, case_ref, target, regime)\n"
    ");\n"
    "CREATE INDEX results_by_case ON results(case_ref, target);\n"
    "CREATE TABLE timing_samples (\n"
    "  result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,\n"
    "  idx INTEGER NOT NULL,\n"
    "  seconds REAL,\n"
    "  PRIMARY KEY (result_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "PRAGMA user_version = 1;\n";

/* Version 2: model results. */
static const char schema_v2[] =
    "CREATE TABLE model_results (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  model TEXT NOT NULL, target TEXT NOT NULL, precision TEXT NOT NULL,\n"
    "  n_images INTEGER NOT NULL,\n"
    "  verdict TEXT NOT NULL CHECK (verdict IN ('passed','failed','mistrusted',\n"
    "                               'unsupported','error','crashed','timeout')),\n"
    "  reason TEXT NOT NULL,\n"
    "  conf_cosine REAL, conf_sqnr_db REAL, conf_top1 REAL,\n"
    "  top1 REAL, top5 REAL, cosine REAL, sqnr_db REAL,\n"
    "  det_precision REAL, det_recall REAL, det_map50 REAL,\n"
    "  n_nodes INTEGER, n_fallback INTEGER, fallback_ops TEXT NOT NULL, support_rate REAL,\n"
    "  lat_samples INTEGER, lat_p50 REAL, lat_p90 REAL, lat_p99 REAL,\n"
    "  tp_batch INTEGER, throughput REAL, gflops REAL, peak_share REAL,\n"
    "  layers TEXT NOT NULL, divergent TEXT NOT NULL, seed INTEGER,\n"
    "  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),\n"
    "  UNIQUE (run_id, model, target, precision)\n"
    ");\n"
    "PRAGMA user_version = 2;\n";

/* Version 3: a run's volatile conditions (load average, frequency governor and clocks at
 * the start and at the end, the share of the machine other processes used, busy). NULL
 * and '' are unknown: runs stored before version 3 have none. */
static const char schema_v3[] =
    "ALTER TABLE environments ADD COLUMN load_start REAL;\n"
    "ALTER TABLE environments ADD COLUMN governor_start TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE environments ADD COLUMN mhz_start REAL;\n"
    "ALTER TABLE environments ADD COLUMN max_mhz_start REAL;\n"
    "ALTER TABLE environments ADD COLUMN load_end REAL;\n"
    "ALTER TABLE environments ADD COLUMN governor_end TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE environments ADD COLUMN mhz_end REAL;\n"
    "ALTER TABLE environments ADD COLUMN max_mhz_end REAL;\n"
    "ALTER TABLE environments ADD COLUMN others_cpu REAL;\n"
    "ALTER TABLE environments ADD COLUMN busy INTEGER CHECK (busy IN (0, 1));\n"
    "PRAGMA user_version = 3;\n";

/* Version 4: what each model job's target chose (its describe_plan text) and the raw
 * latency samples of model runs (batch 1, in the order taken), so that compare can test
 * model latencies on their samples. Model results stored before version 4 have no plan
 * ('') and no samples. */
static const char schema_v4[] =
    "ALTER TABLE model_results ADD COLUMN plan TEXT NOT NULL DEFAULT '';\n"
    "CREATE TABLE model_samples (\n"
    "  model_result_id INTEGER NOT NULL REFERENCES model_results(id) ON DELETE CASCADE,\n"
    "  idx INTEGER NOT NULL,\n"
    "  seconds REAL,\n"
    "  PRIMARY KEY (model_result_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "PRAGMA user_version = 4;\n";

/* Version 5: how each target's peak was found (measured by a probe, or estimated from the
 * device's properties; '' unknown), and each model result's own settings (model, images,
 * batch, size, seed), so that model results can join the op cases' run of a suite. */
static const char schema_v5[] =
    "ALTER TABLE run_targets ADD COLUMN peak_source TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE model_results ADD COLUMN config TEXT NOT NULL DEFAULT '';\n"
    "PRAGMA user_version = 5;\n";

/* Version 6: whether a model's latencies are device-side times (OpenCL profiling
 * events, CUDA events), as op results say with device_timer. */
static const char schema_v6[] =
    "ALTER TABLE model_results ADD COLUMN lat_device_timer INTEGER NOT NULL DEFAULT 0;\n"
    "PRAGMA user_version = 6;\n";

/* Version 7: the median time of the reference loop timed after each sample (t_ref,
 * seconds; NULL where none: device timings, results stored before): compare divides a
 * machine's own slow periods out of host timings with it. */
static const char schema_v7[] =
    "ALTER TABLE results ADD COLUMN t_ref REAL;\n"
    "PRAGMA user_version = 7;\n";

/* Version 8: the official ONNX node tests run on targets (`crosscheck conformance`): one
 * row per (run, test, target) with the op the test is about, its verdict, the largest
 * difference from the test's expected outputs as a share of the allowed bound, and the
 * reason. */
static const char schema_v8[] =
    "CREATE TABLE conformance_results (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  test TEXT NOT NULL,\n"
    "  op TEXT NOT NULL,\n"
    "  target TEXT NOT NULL,\n"
    "  verdict TEXT NOT NULL CHECK (verdict IN ('passed','failed','mistrusted',\n"
    "                               'unsupported','error','crashed','timeout')),\n"
    "  ratio REAL,\n"
    "  reason TEXT NOT NULL,\n"
    "  UNIQUE (run_id, test, target)\n"
    ");\n"
    "PRAGMA user_version = 8;\n";

/* Version 9: model results compared with recorded outputs (an ONNX test-data folder's
 * output_*.pb, the framework's on the original machine): sets compared, the verdict of
 * that comparison ('' none), the SQNR of the target and of the golden model against them,
 * the largest difference and the reason. */
static const char schema_v9[] =
    "ALTER TABLE model_results ADD COLUMN rec_sets INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE model_results ADD COLUMN rec_verdict TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE model_results ADD COLUMN rec_sqnr_db REAL;\n"
    "ALTER TABLE model_results ADD COLUMN rec_golden_sqnr_db REAL;\n"
    "ALTER TABLE model_results ADD COLUMN rec_max_abs REAL;\n"
    "ALTER TABLE model_results ADD COLUMN rec_reason TEXT NOT NULL DEFAULT '';\n"
    "PRAGMA user_version = 9;\n";

/* Version 10: model scans (`crosscheck scan`): per (run, model, target, op type) how
 * many of the model's nodes of that op the target would run, before running anything;
 * target '' holds whether the catalog has the op at all. */
static const char schema_v10[] =
    "CREATE TABLE scan_results (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  model TEXT NOT NULL,\n"
    "  target TEXT NOT NULL,\n"
    "  op TEXT NOT NULL,\n"
    "  nodes INTEGER NOT NULL,\n"
    "  supported INTEGER NOT NULL,\n"
    "  reason TEXT NOT NULL,\n"
    "  UNIQUE (run_id, model, target, op)\n"
    ");\n"
    "PRAGMA user_version = 10;\n";

/* Version 11: the shard a run is (`run --shard I/N`, or a scheduler's array task: Slurm's
 * SLURM_ARRAY_TASK_ID, a Kubernetes Indexed Job's JOB_COMPLETION_INDEX), where that came
 * from ('option', 'slurm', 'kubernetes'; '' not a shard) and the scheduler's names of the
 * tasks that ran it (a resubmitted shard resumes its run: one name per session). Shards
 * stored before version 11 said so only in their config text (";shard=I/N", its end):
 * they are read from there, with the source 'option', the only one there was. */
static const char schema_v11[] =
    "ALTER TABLE runs ADD COLUMN shard_index INTEGER;\n"
    "ALTER TABLE runs ADD COLUMN shard_count INTEGER;\n"
    "ALTER TABLE runs ADD COLUMN shard_source TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE runs ADD COLUMN scheduler_jobs TEXT NOT NULL DEFAULT '';\n"
    "UPDATE runs SET\n"
    "  shard_index = CAST(substr(substr(config, instr(config, ';shard=') + 7), 1,\n"
    "                     instr(substr(config, instr(config, ';shard=') + 7), '/') - 1) AS INTEGER),\n"
    "  shard_count = CAST(substr(substr(config, instr(config, ';shard=') + 7),\n"
    "                     instr(substr(config, instr(config, ';shard=') + 7), '/') + 1) AS INTEGER),\n"
    "  shard_source = 'option'\n"
    " WHERE instr(config, ';shard=') > 0\n"
    "   AND substr(config, instr(config, ';shard=') + 7) GLOB '[0-9]*/[0-9]*'\n"
    "   AND substr(config, instr(config, ';shard=') + 7) NOT GLOB '*[^0-9/]*'\n"
    "   AND substr(config, instr(config, ';shard=') + 7) NOT GLOB '*/*/*';\n"
    "PRAGMA user_version = 11;\n";

const cc_migration cc_schema_steps[] = {
    { 1, "create the initial tables", schema_v1 },
    { 2, "add model results", schema_v2 },
    { 3, "add the volatile conditions of runs", schema_v3 },
    { 4, "add model plans and model latency samples", schema_v4 },
    { 5, "add peak sources and model result settings", schema_v5 },
    { 6, "add the timer of model latencies", schema_v6 },
    { 7, "add the reference loop's time of op results", schema_v7 },
    { 8, "add conformance results (ONNX node tests)", schema_v8 },
    { 9, "add model results' comparison with recorded outputs", schema_v9 },
    { 10, "add model scans", schema_v10 },
    { 11, "add the shard of each run and the scheduler tasks that ran it", schema_v11 },
};
const int cc_schema_step_count = (int)(sizeof cc_schema_steps / sizeof cc_schema_steps[0]);

_Static_assert(sizeof cc_schema_steps / sizeof cc_schema_steps[0] == CC_STORE_SCHEMA_VERSION,
               "CC_STORE_SCHEMA_VERSION must equal the number of migration steps");

cc_status cc_schema_version(sqlite3 *db, const char *path, int *version, cc_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        cc_status s = cc_err_set(err, CC_ERR_DB, "results database '%s': reading the schema version: %s",
                                 path, sqlite3_errmsg(db));
        sqlite3_finalize(st);
        return s;
    }
    *version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return CC_OK;
}

cc_status cc_schema_migrate(sqlite3 *db, const char *path, const cc_migration *steps, int n,
                            cc_err *err)
{
    for (int i = 0; i < n; i++)
        if (steps[i].version != i + 1)
            return cc_err_set(err, CC_ERR_INTERNAL,
                              "results database: migration step %d is numbered %d", i + 1,
                              steps[i].version);

    int version = 0;
    cc_status s = cc_schema_version(db, path, &version, err);
    if (s != CC_OK) return s;

    for (int i = version; i < n; i++) {
        const cc_migration *m = &steps[i];
        char *msg = NULL;
        if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK) {
            s = cc_err_set(err, CC_ERR_DB,
                           "results database '%s': upgrading to schema version %d: %s", path,
                           m->version, msg ? msg : sqlite3_errmsg(db));
            sqlite3_free(msg);
            return s;
        }
        /* another process may have applied this step between the version read above and
         * this write lock (two runs creating one database): read it again under the lock */
        int now = -1;
        s = cc_schema_version(db, path, &now, err);
        if (s != CC_OK) goto fail;
        if (now >= m->version) {
            if (sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK) {
                s = cc_err_set(err, CC_ERR_DB, "results database '%s': %s", path, msg ? msg : sqlite3_errmsg(db));
                sqlite3_free(msg);
                return s;
            }
            continue;
        }
        if (sqlite3_exec(db, m->sql, NULL, NULL, &msg) != SQLITE_OK) {
            s = cc_err_set(err, CC_ERR_DB,
                           "results database '%s': schema step %d (%s) failed: %s", path,
                           m->version, m->what, msg ? msg : sqlite3_errmsg(db));
            sqlite3_free(msg);
            goto fail;
        }
        s = cc_schema_version(db, path, &now, err);
        if (s != CC_OK) goto fail;
        if (now != m->version) {
            s = cc_err_set(err, CC_ERR_INTERNAL,
                           "results database '%s': schema step %d (%s) left user_version at %d",
                           path, m->version, m->what, now);
            goto fail;
        }
        if (sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK) {
            s = cc_err_set(err, CC_ERR_DB,
                           "results database '%s': committing schema step %d (%s): %s", path,
                           m->version, m->what, msg ? msg : sqlite3_errmsg(db));
            sqlite3_free(msg);
            goto fail;
        }
    }
    return CC_OK;

fail:
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return s;
}
