/* worker.h — isolation: cases run in a forked worker process with a per-case timeout and
 * a memory limit. The parent never opens a backend; a worker that dies costs one
 * `crashed` (or `timeout`) result and is replaced on the next request. */
#ifndef CC_WORKER_H
#define CC_WORKER_H

#include <sys/types.h>

#include "exec.h"

typedef struct cc_worker_config {
    const cc_case *cases;                  /* the run's cases (inherited by fork) */
    int n_cases;
    const cc_target_iface *const *targets; /* the run's targets */
    const char *const *devices;            /* device string per target ("" default) */
    int n_targets;
    cc_exec_params params;
    size_t mem_limit_mb;                   /* the most a case may need (cc_case.mem_need),
                                              and the worker's RLIMIT_DATA on top of the
                                              data it holds when forked; 0: none */
    volatile int *interrupt;               /* optional: set non-zero (by a signal handler) to
                                              stop waiting for a job at once */
} cc_worker_config;

typedef struct cc_worker cc_worker;

/* ---- isolation: what op-case workers and model jobs (model_run.c) share ------------ */

/* Forks a child for isolated work, stdio flushed first. In the child (returns 0) the
 * process dies with its parent, ignores SIGINT (the parent decides what an interrupt
 * means), has SIGPIPE's default action and the memory limit (cc_worker_limit_memory) of
 * mem_limit_mb. In the parent returns the child's pid; -1 with err when fork fails. */
pid_t cc_isolate_fork(size_t mem_limit_mb, cc_err *err);
/* Reads n bytes from fd before `deadline` (cc_now's clock): 0 when all came, 1 when the
 * deadline passed, -1 when the writer is gone, 2 when *interrupt became non-zero
 * (interrupt may be NULL; checked at least every 100 ms). */
int cc_isolate_read(int fd, void *p, size_t n, double deadline, volatile int *interrupt);
/* Kills pid with sig (0: none) and reaps it; its wait status in *status (may be NULL). */
void cc_isolate_reap(pid_t pid, int sig, int *status);
/* How the child `who` ended: "worker killed by signal 11 (Segmentation fault)", "job
 * exited with status 3". */
void cc_isolate_describe(int status, const char *who, char *buf, size_t n);

/* In a forked child: the backstop against a runaway target, RLIMIT_DATA at mem_limit_mb
 * MiB on top of the data the process holds now and the backends' own buffers. Whether a
 * case or model fits is judged beforehand from its shapes; this only stops what slips
 * past. 0: no limit. */
void cc_worker_limit_memory(size_t mem_limit_mb);

/* Writes a byte count for messages: "3.2 GiB" from 1 GiB on, else whole MiB rounded up. */
void cc_worker_format_bytes(double bytes, char *buf, size_t n);
/* The name a selected target's results are stored under: its name, or NAME:DEVICE when it
 * was opened with a device string (cuda:tf32, cuda:1), so that two devices or modes of one
 * backend never share a result row. Returns buf. */
const char *cc_target_label(const char *name, const char *device, char *buf, size_t n);

/* Creates a worker handle; the process is forked lazily on the first request. The
 * config (and what it points to) must outlive the worker. */
cc_status cc_worker_create(const cc_worker_config *cfg, cc_worker **out, cc_err *err);
/* Stops the process (if any) and frees the handle. Accepts NULL. */
void cc_worker_destroy(cc_worker *w);

/* Opens target t in the worker and reports whether it is available here, with its
 * device description or the reason it is not. A crash or hang while opening is reported
 * as unavailable with that reason. */
cc_status cc_worker_probe(cc_worker *w, int target, double timeout_s, int *available,
                          cc_device_desc *desc, char *reason, size_t reason_size, cc_err *err);

/* Runs case `ci` on target `t` in `regime` with `seed`. On return *res is complete:
 * a worker that crashed or exceeded timeout_s yields CC_CRASHED / CC_TIMEOUT with the
 * signal or limit in the reason, and the next request starts a fresh worker. samples
 * (capacity cfg->params.max_samples) receives the raw timing samples. When cfg->interrupt
 * is set while the job runs, the worker is killed at once and *res is an interrupted job:
 * res->verdict is CC_VERDICT_COUNT (not a verdict: nothing to record; a resumed run runs the
 * job again). Errors are only infrastructure failures (fork or pipe failing). */
cc_status cc_worker_run(cc_worker *w, int ci, int t, cc_regime regime, uint64_t seed, int time_it,
                        double timeout_s, cc_result *res, double *samples, int *n_samples,
                        cc_err *err);

#endif
