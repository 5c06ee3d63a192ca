/* schema_old.h — SQL that takes a database of the current schema back to an older version,
 * as an older crosscheck wrote it, for the migration tests: version 10 does not say which
 * shard a run is (but in its config text), version 9 has no model scans,
 * version 8 no comparison
 * with recorded outputs, version 7 no conformance results, version 6 no reference loop
 * times of op results, version 5 does not say which
 * timer measured model latencies, version 4 has no peak sources
 * and no model result settings, version 3 no model plans
 * and no model latency samples, version 2 no run conditions either, version 1 no model
 * results at all. */
#ifndef CC_TEST_SCHEMA_OLD_H
#define CC_TEST_SCHEMA_OLD_H

#define SYNTH_DOWNGRADE_TO_V10                                                                  \
    "ALTER TABLE runs DROP COLUMN shard_index;"                                                 \
    "ALTER TABLE runs DROP COLUMN shard_count;"                                                 \
    "ALTER TABLE runs DROP COLUMN shard_source;"                                                \
    "ALTER TABLE runs DROP COLUMN scheduler_jobs;"                                              \
    "PRAGMA user_version = 10;"
#define SYNTH_DOWNGRADE_TO_V9 SYNTH_DOWNGRADE_TO_V10                                            \
    "DROP TABLE scan_results;"                                                                  \
    "PRAGMA user_version = 9;"
#define SYNTH_DOWNGRADE_TO_V8 SYNTH_DOWNGRADE_TO_V9                                             \
    "ALTER TABLE model_results DROP COLUMN rec_sets;"                                           \
    "ALTER TABLE model_results DROP COLUMN rec_verdict;"                                        \
    "ALTER TABLE model_results DROP COLUMN rec_sqnr_db;"                                        \
    "ALTER TABLE model_results DROP COLUMN rec_golden_sqnr_db;"                                 \
    "ALTER TABLE model_results DROP COLUMN rec_max_abs;"                                        \
    "ALTER TABLE model_results DROP COLUMN rec_reason;"                                         \
    "PRAGMA user_version = 8;"
#define SYNTH_DOWNGRADE_TO_V7 SYNTH_DOWNGRADE_TO_V8                                             \
    "DROP TABLE conformance_results;"                                                           \
    "PRAGMA user_version = 7;"
#define SYNTH_DOWNGRADE_TO_V6 SYNTH_DOWNGRADE_TO_V7                                             \
    "ALTER TABLE results DROP COLUMN t_ref;"                                                    \
    "PRAGMA user_version = 6;"
#define SYNTH_DOWNGRADE_TO_V5 SYNTH_DOWNGRADE_TO_V6                                             \
    "ALTER TABLE model_results DROP COLUMN lat_device_timer;"                                   \
    "PRAGMA user_version = 5;"
#define SYNTH_DOWNGRADE_TO_V4 SYNTH_DOWNGRADE_TO_V5                                             \
    "ALTER TABLE run_targets DROP COLUMN peak_source;"                                          \
    "ALTER TABLE model_results DROP COLUMN config;"                                             \
    "PRAGMA user_version = 4;"
#define SYNTH_DOWNGRADE_TO_V3 SYNTH_DOWNGRADE_TO_V4                                             \
    "DROP TABLE model_samples;"                                                                 \
    "ALTER TABLE model_results DROP COLUMN plan;"                                               \
    "PRAGMA user_version = 3;"
#define SYNTH_DOWNGRADE_TO_V2 SYNTH_DOWNGRADE_TO_V3                                             \
    "ALTER TABLE environments DROP COLUMN load_start;"                                          \
    "ALTER TABLE environments DROP COLUMN governor_start;"                                      \
    "ALTER TABLE environments DROP COLUMN mhz_start;"                                           \
    "ALTER TABLE environments DROP COLUMN max_mhz_start;"                                       \
    "ALTER TABLE environments DROP COLUMN load_end;"                                            \
    "ALTER TABLE environments DROP COLUMN governor_end;"                                        \
    "ALTER TABLE environments DROP COLUMN mhz_end;"                                             \
    "ALTER TABLE environments DROP COLUMN max_mhz_end;"                                         \
    "ALTER TABLE environments DROP COLUMN others_cpu;"                                          \
    "ALTER TABLE environments DROP COLUMN busy;"                                                \
    "PRAGMA user_version = 2;"
#define SYNTH_DOWNGRADE_TO_V1 SYNTH_DOWNGRADE_TO_V2 "DROP TABLE model_results; PRAGMA user_version = 1;"

#endif
