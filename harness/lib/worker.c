/* worker.c — isolation: the forked worker process of op cases and its pipe protocol, and
 * the fork, deadline reads and verdict of a dead child that model jobs share.
 *
 * Requests (parent -> worker) are fixed-size records; replies are a fixed-size record
 * followed, for RUN, by the raw samples. The worker caches opened targets and the golden
 * outputs of the last (case, regime) so that several targets share one golden run. */
#include "worker.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stats.h"

enum { REQ_PROBE = 1, REQ_RUN = 2 };

typedef struct request {
    int kind;
    int ci, target, regime, time_it;
    uint64_t seed;
} request;

typedef struct probe_reply {
    int available;
    cc_device_desc desc;
    char reason[CC_REASON_MAX];
} probe_reply;

struct cc_worker {
    const cc_worker_config *cfg;
    pid_t pid;
    int to_worker, from_worker;
};

/* ---- worker side ---------------------------------------------------------------- */

void cc_worker_format_bytes(double bytes, char *buf, size_t n)
{
    if (bytes >= 1024.0 * 1048576.0) snprintf(buf, n, "%.1f GiB", bytes / (1024.0 * 1048576.0));
    else snprintf(buf, n, "%.0f MiB", ceil(bytes / 1048576.0));
}

const char *cc_target_label(const char *name, const char *device, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s", name, device && device[0] ? ":" : "", device ? device : "");
    return buf;
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n) {
        ssize_t k = read(fd, c, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

typedef struct worker_state {
    void *ctx[64];
    int opened[64];         /* 1 open, -1 failed */
    cc_device_desc desc[64];
    char why[64][CC_REASON_MAX];
    cc_exec_golden golden;
    int golden_ci, golden_regime;
    uint64_t golden_seed;
} worker_state;

static void open_target(const cc_worker_config *cfg, worker_state *s, int t)
{
    if (s->opened[t]) return;
    cc_err err = { 0 };
    memset(&s->desc[t], 0, sizeof s->desc[t]);
    cc_status st = cfg->targets[t]->open(cfg->devices ? cfg->devices[t] : "", &s->ctx[t], &s->desc[t], &err);
    if (st) {
        s->opened[t] = -1;
        snprintf(s->why[t], sizeof s->why[t], "%s", err.msg[0] ? err.msg : cc_status_name(st));
    } else {
        s->opened[t] = 1;
    }
}

static void worker_main(const cc_worker_config *cfg, int in_fd, int out_fd)
{
    static worker_state s;
    memset(&s, 0, sizeof s);
    s.golden_ci = -1;
    double *samples = malloc(sizeof(double) * (size_t)(cfg->params.max_samples > 0 ? cfg->params.max_samples : 1));
    if (!samples) _exit(3);
    request rq;
    while (read_all(in_fd, &rq, sizeof rq) == 0) {
        if (rq.kind == REQ_PROBE) {
            probe_reply pr;
            memset(&pr, 0, sizeof pr);
            open_target(cfg, &s, rq.target);
            pr.available = s.opened[rq.target] == 1;
            pr.desc = s.desc[rq.target];
            snprintf(pr.reason, sizeof pr.reason, "%s", s.why[rq.target]);
            if (write_all(out_fd, &pr, sizeof pr)) break;
            continue;
        }
        const cc_case *c = &cfg->cases[rq.ci];
        const cc_target_iface *t = cfg->targets[rq.target];
        static cc_result res;
        int n = 0;
        char label[64];
        cc_exec_result_init(&res, c, cc_target_label(t->name, cfg->devices ? cfg->devices[rq.target] : "", label, sizeof label),
                            (cc_regime)rq.regime, rq.seed);
        open_target(cfg, &s, rq.target);
        if (s.opened[rq.target] != 1) {
            res.verdict = CC_UNSUPPORTED;
            snprintf(res.reason, sizeof res.reason, "target unavailable: %.200s", s.why[rq.target]);
        } else if (cfg->mem_limit_mb && c->mem_need > (double)cfg->mem_limit_mb * 1048576.0) {
            /* judged from the case's shapes before anything is made: the same on every host */
            char need[32], limit[32];
            cc_worker_format_bytes(c->mem_need, need, sizeof need);
            cc_worker_format_bytes((double)cfg->mem_limit_mb * 1048576.0, limit, sizeof limit);
            res.verdict = CC_UNSUPPORTED;
            snprintf(res.reason, sizeof res.reason, "harness: needs %s, limit %s (--mem-limit)", need,
                     limit);
        } else {
            cc_err err = { 0 };
            cc_status st = CC_OK;
            if (s.golden_ci != rq.ci || s.golden_regime != rq.regime || s.golden_seed != rq.seed) {
                cc_exec_golden_release(&s.golden);
                s.golden_ci = -1;
                st = cc_exec_golden_make(c, rq.seed, (cc_regime)rq.regime, &s.golden, &err);
                if (!st) {
                    s.golden_ci = rq.ci;
                    s.golden_regime = rq.regime;
                    s.golden_seed = rq.seed;
                }
            }
            if (st == CC_ERR_NOMEM) {
                /* the harness ran out, not the target: nothing was asked of the target */
                res.verdict = CC_UNSUPPORTED;
                snprintf(res.reason, sizeof res.reason,
                         "harness: not enough memory for the golden model (--mem-limit %zu MiB): %.160s",
                         cfg->mem_limit_mb, err.msg);
            } else if (st) {
                res.verdict = CC_ERROR;
                snprintf(res.reason, sizeof res.reason, "golden model failed: %.200s", err.msg);
            } else {
                cc_exec_params p = cfg->params;
                p.time_it = rq.time_it;
                p.f32_contraction_bits = s.desc[rq.target].f32_contraction_bits;
                cc_exec_target(&s.golden, t, s.ctx[rq.target], &p, &res, samples, &n, NULL);
            }
        }
        if (write_all(out_fd, &res, sizeof res) || write_all(out_fd, &n, sizeof n) ||
            (n && write_all(out_fd, samples, sizeof(double) * (size_t)n)))
            break;
    }
    free(samples);
    _exit(0);
}

/* The process's data segment as RLIMIT_DATA counts it (VmData), in bytes; 0 when
 * /proc cannot tell. */
static uint64_t own_data_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmData: %llu kB", &kb) == 1) break;
    fclose(f);
    return (uint64_t)kb << 10;
}

void cc_worker_limit_memory(size_t mem_limit_mb)
{
    if (!mem_limit_mb) return;
    /* On top of the limit come what the process already holds (the linked libraries'
     * relocated data alone is hundreds of MiB with CUDA) and the backends' own buffers:
     * OpenBLAS takes 128 MiB per thread at its first GEMM and hangs, rather than fails,
     * when it cannot. */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t slack = (uint64_t)(cpus > 0 ? cpus + 1 : 2) << 27;
    struct rlimit rl;
    rl.rlim_cur = rl.rlim_max = (rlim_t)(own_data_bytes() + slack + ((uint64_t)mem_limit_mb << 20));
    setrlimit(RLIMIT_DATA, &rl);
}

/* ---- parent side ---------------------------------------------------------------- */

cc_status cc_worker_create(const cc_worker_config *cfg, cc_worker **out, cc_err *err)
{
    cc_worker *w = calloc(1, sizeof *w);
    if (!w) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    w->cfg = cfg;
    w->pid = -1;
    w->to_worker = w->from_worker = -1;
    *out = w;
    return CC_OK;
}

void cc_isolate_reap(pid_t pid, int sig, int *status)
{
    if (pid <= 0) return;
    if (sig) kill(pid, sig);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (status) *status = st;
}

static void stop(cc_worker *w, int sig, int *status)
{
    if (w->to_worker >= 0) close(w->to_worker);
    if (w->from_worker >= 0) close(w->from_worker);
    w->to_worker = w->from_worker = -1;
    cc_isolate_reap(w->pid, sig, status);
    w->pid = -1;
}

void cc_worker_destroy(cc_worker *w)
{
    if (!w) return;
    stop(w, 0, NULL);
    free(w);
}

pid_t cc_isolate_fork(size_t mem_limit_mb, cc_err *err)
{
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        cc_err_set(err, CC_ERR_INTERNAL, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        /* a child never outlives its parent: a parent killed with -9 while a job hangs
         * would otherwise leave the child sleeping under PID 1 */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(3); /* the parent died before prctl */
        signal(SIGINT, SIG_IGN);
        signal(SIGPIPE, SIG_DFL);
        cc_worker_limit_memory(mem_limit_mb);
    }
    return pid;
}

static cc_status start(cc_worker *w, cc_err *err)
{
    if (w->pid > 0) return CC_OK;
    int a[2], b[2];
    if (pipe(a)) return cc_err_set(err, CC_ERR_INTERNAL, "pipe: %s", strerror(errno));
    if (pipe(b)) {
        close(a[0]);
        close(a[1]);
        return cc_err_set(err, CC_ERR_INTERNAL, "pipe: %s", strerror(errno));
    }
    pid_t pid = cc_isolate_fork(w->cfg->mem_limit_mb, err);
    if (pid < 0) {
        close(a[0]);
        close(a[1]);
        close(b[0]);
        close(b[1]);
        return CC_ERR_INTERNAL;
    }
    if (pid == 0) {
        close(a[1]);
        close(b[0]);
        worker_main(w->cfg, a[0], b[1]);
    }
    close(a[0]);
    close(b[1]);
    w->pid = pid;
    w->to_worker = a[1];
    w->from_worker = b[0];
    return CC_OK;
}

int cc_isolate_read(int fd, void *p, size_t n, double deadline, volatile int *interrupt)
{
    char *c = p;
    while (n) {
        if (interrupt && *interrupt) return 2;
        double left = deadline - cc_now();
        if (left <= 0) return 1;
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        int r = poll(&pfd, 1, left > 0.1 ? 100 : (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) continue;
        if (r < 0) return -1;
        ssize_t k = read(fd, c, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Reads n bytes from the worker before the deadline (cc_isolate_read's codes). */
static int read_deadline(cc_worker *w, void *p, size_t n, double deadline)
{
    return cc_isolate_read(w->from_worker, p, n, deadline, w->cfg->interrupt);
}

void cc_isolate_describe(int status, const char *who, char *buf, size_t n)
{
    if (WIFSIGNALED(status))
        snprintf(buf, n, "%s killed by signal %d (%s)", who, WTERMSIG(status), strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status))
        snprintf(buf, n, "%s exited with status %d", who, WEXITSTATUS(status));
    else
        snprintf(buf, n, "%s died", who);
}

static int send_request(cc_worker *w, const request *rq)
{
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    int r = write_all(w->to_worker, rq, sizeof *rq);
    signal(SIGPIPE, old);
    return r;
}

cc_status cc_worker_probe(cc_worker *w, int target, double timeout_s, int *available,
                          cc_device_desc *desc, char *reason, size_t reason_size, cc_err *err)
{
    cc_status st = start(w, err);
    if (st) return st;
    request rq = { .kind = REQ_PROBE, .target = target };
    probe_reply pr;
    int r = send_request(w, &rq) ? -1 : read_deadline(w, &pr, sizeof pr, cc_now() + timeout_s);
    if (r) {
        int status = 0;
        stop(w, SIGKILL, &status);
        *available = 0;
        memset(desc, 0, sizeof *desc);
        if (r == 2) snprintf(reason, reason_size, "interrupted while opening the target");
        else if (r == 1) snprintf(reason, reason_size, "opening the target timed out after %.0f s", timeout_s);
        else cc_isolate_describe(status, "worker", reason, reason_size);
        return CC_OK;
    }
    *available = pr.available;
    *desc = pr.desc;
    snprintf(reason, reason_size, "%s", pr.reason);
    return CC_OK;
}

cc_status cc_worker_run(cc_worker *w, int ci, int t, cc_regime regime, uint64_t seed, int time_it,
                        double timeout_s, cc_result *res, double *samples, int *n_samples,
                        cc_err *err)
{
    *n_samples = 0;
    cc_status st = start(w, err);
    if (st) return st;
    request rq = { .kind = REQ_RUN, .ci = ci, .target = t, .regime = regime, .time_it = time_it, .seed = seed };
    double deadline = cc_now() + timeout_s;
    int n = 0;
    int r = send_request(w, &rq) ? -1 : read_deadline(w, res, sizeof *res, deadline);
    if (!r) r = read_deadline(w, &n, sizeof n, deadline);
    if (!r && (n < 0 || n > w->cfg->params.max_samples)) r = -1;
    if (!r && n) r = read_deadline(w, samples, sizeof(double) * (size_t)n, deadline);
    if (!r) {
        *n_samples = n;
        return CC_OK;
    }
    /* a worker that died after the run was interrupted died of the same signal (a job
     * scheduler sends SIGTERM to every process of a task): the job is not done, not crashed */
    if (r < 0 && w->cfg->interrupt && *w->cfg->interrupt) r = 2;
    int status = 0;
    stop(w, r == 1 || r == 2 ? SIGKILL : 0, &status);
    char label[64];
    cc_exec_result_init(res, &w->cfg->cases[ci],
                        cc_target_label(w->cfg->targets[t]->name, w->cfg->devices ? w->cfg->devices[t] : "", label,
                                        sizeof label),
                        regime, seed);
    if (r == 2) {
        res->verdict = CC_VERDICT_COUNT;
        snprintf(res->reason, sizeof res->reason, "interrupted");
    } else if (r == 1) {
        res->verdict = CC_TIMEOUT;
        snprintf(res->reason, sizeof res->reason, "no result within %.3g s; worker killed", timeout_s);
    } else {
        res->verdict = CC_CRASHED;
        cc_isolate_describe(status, "worker", res->reason, sizeof res->reason);
    }
    return CC_OK;
}
