/* store.h — the results database: one SQLite file (WAL mode) holding runs with their
 * environment fingerprint, the targets each run saw, verdicts with error metrics and
 * timing statistics, and raw timing samples.
 *
 * Life of a run as the harness drives it:
 *   cc_store_open -> cc_store_find_resumable
 *     -> (none)  cc_store_run_begin            (new run, status "running")
 *     -> (found) cc_store_run_resume           (status back to "running")
 *   -> cc_store_put_target for every target selected
 *   -> for every (case, target, regime): cc_store_has_result (skip when resuming)
 *                                        cc_store_put_result (committed before it returns)
 *   -> cc_store_run_end(..., "finished" or "interrupted") -> cc_store_close
 *
 * Every result is its own transaction, committed before cc_store_put_result returns: a
 * process killed at any point loses only the result in flight, and the file stays valid.
 * A store handle belongs to one thread. All SQL is prepared once per handle and bound;
 * no value ever becomes part of an SQL text.
 *
 * Floating-point fields: NaN is stored as SQL NULL and read back as NaN; ±inf round-trip
 * as themselves. Seeds (uint64) are stored as the int64 with the same bits. */
#ifndef CC_STORE_H
#define CC_STORE_H

#include <stdint.h>

#include "../ops/core/device.h"
#include "result.h"

/* The schema version this code writes and understands (PRAGMA user_version). */
#define CC_STORE_SCHEMA_VERSION 11

/* An open results database. (Named cc_db, not cc_store: ops/core/dtype.h already has a
 * function cc_store.) */
typedef struct cc_db cc_db;

/* The volatile state of the machine at one moment: what changes from run to run on the
 * same machine and explains timing noise. Never part of the stable fingerprint. */
typedef struct cc_env_state {
    double load1;              /* 1-minute load average; NaN unknown */
    char governor[32];         /* CPU frequency governor ("performance", "powersave", ...;
                                  "a/b" when CPUs differ); "" unknown */
    double mhz;                /* current clock, mean over CPUs, MHz; NaN unknown */
    double max_mhz;            /* maximum clock, highest over CPUs, MHz; NaN unknown */
} cc_env_state;

/* One run: what the harness was asked to do, and the machine it ran on.
 * The store fills id, uid, started_at, finished_at and status; the harness fills the run
 * fields (tag .. git_commit, libraries) and cc_env_collect fills the machine fields and
 * the state at the start; cc_store_run_conditions records the state at the end.
 * Strings longer than their field are cut when read back. */
typedef struct cc_run_info {
    /* filled by the store (ignored by cc_store_run_begin) */
    int64_t id;                /* row id, local to this database file */
    char uid[33];              /* 128-bit random id in hex: unique across databases */
    char started_at[32];       /* ISO 8601 UTC, "2024-05-01T12:34:56Z" */
    char finished_at[32];      /* "" while running */
    char status[16];           /* "running", "finished", "interrupted" */

    /* filled by the harness */
    char tag[128];             /* free label from the command line, "" if none */
    char config[4096];         /* canonical text of the selection (targets, ops, dtypes,
                                  quick, seed): equal text means a resumable run */
    uint64_t seed;
    int quick;
    char command[2048];        /* the command line */
    char version[32];          /* crosscheck version */
    char git_commit[64];
    char libraries[1024];      /* library versions the binary was built/linked with */
    int shard_index;           /* the shard this run is, shard_index of shard_count (its */
    int shard_count;           /* config ends ";shard=I/N"); shard_count 0: not a shard */
    char shard_source[16];     /* where the shard came from: "option" (--shard), "slurm",
                                  "kubernetes" (harness/lib/shard.h); "" not a shard */
    char scheduler_jobs[256];  /* the scheduler's names of the tasks that ran this run,
                                  oldest first, ", " between ("slurm 12_3 (job 15), slurm
                                  20_3 (job 20)" for a resubmitted shard); "" none */

    /* filled by cc_env_collect */
    char cpu_model[256];
    char cpu_flags[4096];
    int cores;                 /* online logical processors */
    int64_t memory_bytes;      /* total physical memory */
    char os[256];              /* "Linux 6.1.0-18-amd64 #1 SMP ... x86_64" */
    char hostname[256];
    char compiler[256];        /* compiler that built crosscheck */

    /* volatile conditions: stored and shown, never compared */
    cc_env_state at_start;     /* filled by cc_env_collect */
    cc_env_state at_end;       /* unknown until cc_store_run_conditions */
    double others_cpu;         /* share (0..1) of the machine's CPU time that other processes
                                  used while the run ran; NaN unknown */
    int busy;                  /* 1: the machine was busy (cc_env_is_busy), 0: not, -1: unknown */
} cc_run_info;

/* One target as a run saw it (cc_store_put_target / cc_store_load_targets). */
typedef struct cc_run_target {
    char name[CC_NAME_MAX];
    int available;             /* 0: the target could not open; reason says why */
    char reason[CC_REASON_MAX];
    cc_device_desc desc;       /* zeroed when the target was not available */
} cc_run_target;

/* ---- opening -------------------------------------------------------------------- */

/* Opens the database at path. readonly == 0 creates the file when missing, sets WAL mode
 * and applies schema migrations up to CC_STORE_SCHEMA_VERSION (each step in its own
 * transaction). readonly != 0 opens an existing file without writing to it; its schema
 * must be current.
 * CC_ERR_DB with one line naming the path and the problem when: the path is a directory
 * or cannot be opened or created; the file is not a SQLite database or is a SQLite
 * database of something else; its schema is newer than this code; a migration fails (that
 * step is rolled back); or a writable open finds the file or its folder read-only.
 * A file the store does not understand is never modified. On success *out owns the
 * handle (free with cc_store_close); on error *out is untouched. */
cc_status cc_store_open(const char *path, int readonly, cc_db **out, cc_err *err);

/* Finalizes statements and closes the database. Accepts NULL. */
void cc_store_close(cc_db *store);

/* The schema version of the open database (CC_STORE_SCHEMA_VERSION after a writable open). */
int cc_store_schema_version(const cc_db *store);

/* ---- environment ------------------------------------------------------------------ */

/* Fills the machine fields of info (cpu_model, cpu_flags, cores, memory_bytes, os,
 * hostname, compiler) from /proc/cpuinfo, /proc/meminfo, uname(2) and sysconf, and the
 * volatile ones: at_start = cc_env_sample now, at_end, others_cpu and busy unknown. Leaves
 * every other field alone. Best effort: what cannot be found is "" or 0 (NaN, "" for the
 * volatile state). */
void cc_env_collect(cc_run_info *info);

/* The volatile state now: the 1-minute load average from /proc/loadavg; the governor, the
 * current and the maximum clock from /sys/devices/system/cpu/cpuN/cpufreq/ (absent on
 * many virtual machines: then "" and NaN). Never fails. */
void cc_env_sample(cc_env_state *out);

/* CPU time counters at one moment, to tell how much of the machine other processes used
 * over an interval (cc_env_others_share). */
typedef struct cc_env_mark {
    double wall;               /* monotonic clock, seconds */
    double machine_busy;       /* non-idle CPU seconds of the whole machine (/proc/stat); NaN unknown */
    double own;                /* CPU seconds of this process and its waited-for children */
    int cpus;                  /* online processors */
} cc_env_mark;

void cc_env_mark_take(cc_env_mark *out);

/* The share (0..1) of the machine's CPU capacity (b's cpus x elapsed time) that processes
 * other than this one and its waited-for children used between marks a and b; NaN when
 * unknown (no /proc/stat, no time elapsed). Children must have been waited for by the
 * time b is taken, or their time counts as others'. */
double cc_env_others_share(const cc_env_mark *a, const cc_env_mark *b);

/* Share of the machine that other processes must use for a run to count as busy. */
#define CC_ENV_BUSY_SHARE 0.25

/* The busy flag of a run: 1 when other processes used at least CC_ENV_BUSY_SHARE of the
 * machine while it ran; when that is unknown, 1 when the load average at the start was at
 * least half the cores; 0 otherwise; -1 when neither is known. */
int cc_env_is_busy(double others_cpu, double load_start, int cores);

/* ---- writing -------------------------------------------------------------------- */

/* Starts a run: stores info's run and machine fields and its state at_start with a fresh
 * uid, started_at = now and status "running" (at_end, others_cpu and busy unknown); writes the new run's id to *run_id. CC_ERR_DB on failure (nothing
 * stored), CC_ERR_ARG on NULL arguments. */
cc_status cc_store_run_begin(cc_db *store, const cc_run_info *info, int64_t *run_id,
                             cc_err *err);

/* Sets an existing run back to "running" and clears finished_at (resuming it).
 * CC_ERR_ARG when no run has that id. */
cc_status cc_store_run_resume(cc_db *store, int64_t run_id, cc_err *err);

/* Adds a scheduler task's name (cc_run_info.scheduler_jobs) to a run's list: nothing when
 * job is NULL or "" or already the last name; names past the column's 255 bytes are
 * dropped. CC_ERR_ARG when no run has that id. */
cc_status cc_store_run_add_job(cc_db *store, int64_t run_id, const char *job, cc_err *err);

/* Ends a run: status must be "finished" or "interrupted"; finished_at = now.
 * CC_ERR_ARG for another status or an unknown run. */
cc_status cc_store_run_end(cc_db *store, int64_t run_id, const char *status, cc_err *err);

/* Records the end of a run's volatile conditions: the state at_end (sampled after the
 * last result), others_cpu (cc_env_others_share over the run, NaN unknown) and the busy
 * flag derived from them (cc_env_is_busy with the stored start load and cores). A resumed
 * run's conditions describe its last session. CC_ERR_ARG for an unknown run or NULL end. */
cc_status cc_store_run_conditions(cc_db *store, int64_t run_id, const cc_env_state *at_end,
                                  double others_cpu, cc_err *err);

/* Records a target of a run. desc may be NULL (stored as empty), reason may be NULL
 * (stored as ""). Putting the same name again replaces the earlier row. Targets are read
 * back in the order they were first put. CC_ERR_ARG for an unknown run or empty name. */
cc_status cc_store_put_target(cc_db *store, int64_t run_id, const char *name,
                              const cc_device_desc *desc, int available, const char *reason,
                              cc_err *err);

/* Stores one result and its raw timing samples (samples may be NULL when n_samples is 0)
 * in one transaction, committed before it returns. A result with the same (run, case,
 * target, regime) is replaced, samples included. r->case_id, r->op, r->dtype and
 * r->target must be non-empty. CC_ERR_ARG for bad arguments, CC_ERR_DB when the database
 * refuses (nothing of this result is stored then). */
cc_status cc_store_put_result(cc_db *store, int64_t run_id, const cc_result *r,
                              const double *samples, int n_samples, cc_err *err);

/* ---- reading -------------------------------------------------------------------- */

/* The latest run (highest id) whose status is "running" or "interrupted" and whose config
 * text equals config; *run_id = 0 when there is none (still CC_OK). */
cc_status cc_store_find_resumable(cc_db *store, const char *config, int64_t *run_id,
                                  cc_err *err);

/* The latest run of any status; *run_id = 0 when the database holds no run. */
cc_status cc_store_latest_run(cc_db *store, int64_t *run_id, cc_err *err);

/* Reads one run. CC_ERR_ARG when no run has that id. */
cc_status cc_store_get_run(cc_db *store, int64_t run_id, cc_run_info *out, cc_err *err);

/* *has = 1 when the run holds a result for (case_id, target, regime), else 0. */
cc_status cc_store_has_result(cc_db *store, int64_t run_id, const char *case_id,
                              const char *target, cc_regime regime, int *has, cc_err *err);

/* Number of results of a run; with verdict_filter >= 0 only those with that verdict. */
cc_status cc_store_count_results(cc_db *store, int64_t run_id, int verdict_filter,
                                 int64_t *count, cc_err *err);

/* Every result of a run, ordered by op, dtype, case id, target, regime. *out is a
 * malloc'd array the caller frees with free() (NULL when *n is 0). A stored verdict or
 * regime this code does not know is CC_ERR_DB. */
cc_status cc_store_load_results(cc_db *store, int64_t run_id, cc_result **out, int *n,
                                cc_err *err);

/* Every target of a run in the order first put; *out malloc'd (NULL when *n is 0),
 * caller frees with free(). */
cc_status cc_store_load_targets(cc_db *store, int64_t run_id, cc_run_target **out, int *n,
                                cc_err *err);

/* The raw timing samples of one result in the order put; *out malloc'd (NULL when *n is
 * 0), caller frees with free(). A result that does not exist has no samples (*n = 0). */
cc_status cc_store_load_samples(cc_db *store, int64_t run_id, const char *case_id,
                                const char *target, cc_regime regime, double **out, int *n,
                                cc_err *err);

#endif
