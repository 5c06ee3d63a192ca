/* model_record.h — where `crosscheck model run` records its results: a run of its own,
 * or (join) an existing run of the same build on the same machine, so that the suite's op
 * cases and its models form one run that report, compare, history and the exports read
 * as one unit. Either way every target is probed in a forked worker first and stored
 * with its real status: available with its device, or unavailable with the reason. */
#ifndef CC_MODEL_RECORD_H
#define CC_MODEL_RECORD_H

#include "model_run.h"
#include "run_lock.h"

typedef struct cc_model_record {
    cc_db *store;
    int64_t run_id;               /* 0 until cc_model_record_begin */
    int64_t join_id;              /* the run to join (0: a run of its own) */
    char join_status[16];         /* that run's status before joining */
    int available[CC_RUN_MAX_TARGETS];          /* per target of the options, after begin */
    char why[CC_RUN_MAX_TARGETS][CC_REASON_MAX]; /* why a target is unavailable */
    cc_run_lock lock;             /* held while the run is written (run_lock.h) */
} cc_model_record;

/* When o->join_run is set: opens the database, resolves the run (cc_store_resolve_run's
 * forms: an id, latest, latest~N, a tag, a uid prefix) and checks, before anything is
 * computed or written, that the run exists, is not running, and was made by this build
 * (git commit and libraries) on this machine (host, CPU model, cores), and takes the run's
 * lock (refused when another process executes it). CC_ERR_ARG with one line otherwise; CC_ERR_DB for the database. Nothing is written; without a join
 * nothing is opened either (the caller checks its model first, and a bad model creates
 * no database). On error rec holds nothing to close. */
cc_status cc_model_record_open(const cc_model_run_options *o, cc_model_record *rec, cc_err *err);

/* Starts recording (opening the database if cc_model_record_open did not): a new run (info as filled by the caller) or, joining, marks the
 * joined run running again. Then probes every target of o in a worker process and stores
 * it: a new run gets every target; a joined run keeps the rows it has and gains the
 * targets it lacks. rec->available / rec->why tell the caller what the probe found. */
cc_status cc_model_record_begin(const cc_model_run_options *o, cc_model_record *rec, const cc_run_info *info,
                                cc_err *err);

/* Ends recording: stores the conditions at the end and the status ("interrupted" when
 * interrupted or when the joined run was interrupted before, else "finished"). */
cc_status cc_model_record_end(cc_model_record *rec, int interrupted, const cc_env_mark *mark_start, cc_err *err);

/* For the commands whose results are not model runs (conformance, scan): fills *mo with
 * what the record needs (the database, targets, a join or a tag, the probe's timeout, the
 * build's identity; model names the command), then opens and begins the record with a run
 * whose config is `config`, as cc_model_record_open and cc_model_record_begin do. The
 * output folder "out" is made when the database is under it. rec is reset first. */
cc_status cc_model_record_start(cc_model_run_options *mo, cc_model_record *rec, const char *command,
                                const char *db_path, int n_targets, const cc_target_iface *const *targets,
                                const char *const *devices, const char *join, const char *tag, double probe_timeout_s,
                                const char *config, const char *command_line, const char *libraries,
                                const char *git_commit, const char *version, cc_err *err);

/* Closes the database and releases the run's lock. Accepts a record never opened. */
void cc_model_record_close(cc_model_record *rec);

#endif
