/* faulty.c — a test-only backend that misbehaves on purpose, to prove the runner's
 * isolation and the regression gate: it computes like `ref` but, chosen by op name,
 * crashes the process, hangs, returns wrong values, returns an error status, declares the
 * op unsupported, or runs slower than it should.
 *
 * The choice comes from the environment variable CROSSCHECK_FAULTY, a list of entries
 * separated by ';', each `fault=NAMES` or `fault=NAMES:FACTOR`. NAMES is one name or
 * several separated by ',', each an op name (Conv) or an op family, the ops/ file's name
 * (conv: Conv, ConvTranspose, ConvInteger, QLinearConv). Faults: crash, hang, wrong,
 * error, unsupported, hog, slow, overrun. The first entry naming an op wins.
 * Default (variable unset): crash=Relu;hang=Sigmoid;wrong=Add;error=Tanh;unsupported=Exp;hog=Sqrt.
 * Set but empty (or "none"): no fault at all.
 * "overrun" computes like ref and then writes 8 bytes past the end of output 0 (inside the
 * buffer's guard bytes), to exercise the executor's guard check.
 * "hog" allocates and touches memory until the allocation fails, to exercise the
 * worker's memory limit.
 * "slow" computes like ref, then spins until (FACTOR - 1) x the time that computation took
 * has passed again (FACTOR default 1.3, 1 to 100): the run takes FACTOR x as long as ref's,
 * inside run(), which is what the runner times (run + sync on the host clock), so the
 * slowdown is proportional to the work however loaded the machine is. Example:
 * CROSSCHECK_FAULTY='slow=Conv,ConvTranspose:1.3' or 'slow=conv:1.5'.
 * "wrong" adds 1 + |v| to the middle element v of the output; with a FACTOR in (0, 1]
 * (wrong=QLinearConv:0.25), to that fraction of the elements, evenly spaced, so that a
 * wrong layer also shows through a network's INT8 rounding noise.
 * A graph of several nodes (a model) takes the fault of its first node that has one.
 * Hidden: never part of "all targets". */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../target.h"

extern const cc_target_iface cc_target_ref;

#define DEFAULT_FAULTS "crash=Relu;hang=Sigmoid;wrong=Add;error=Tanh;unsupported=Exp;hog=Sqrt"

#define SLOW_DEFAULT 1.3

typedef struct fault {
    char name[16];          /* "" for none */
    double factor;          /* slow: run time / ref's run time; wrong: share of elements (0: one) */
} fault;

/* 1 when the comma-separated list names[0..len-1] holds op's name or its family's. */
static int names_op(const char *names, size_t len, const cc_op_def *op)
{
    while (len > 0) {
        const char *comma = memchr(names, ',', len);
        size_t n = comma ? (size_t)(comma - names) : len;
        if ((n == strlen(op->name) && strncmp(names, op->name, n) == 0) ||
            (op->family && n == strlen(op->family) && strncmp(names, op->family, n) == 0))
            return 1;
        if (!comma) break;
        len -= n + 1;
        names = comma + 1;
    }
    return 0;
}

/* The fault configured for op (name "" for none). */
static fault fault_for(const cc_op_def *op)
{
    fault f = { "", 1.0 };
    const char *spec = getenv("CROSSCHECK_FAULTY");
    if (!spec) spec = DEFAULT_FAULTS;
    const char *p = spec;
    while (*p) {
        const char *semi = strchr(p, ';');
        size_t len = semi ? (size_t)(semi - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (eq) {
            size_t flen = (size_t)(eq - p);
            const char *names = eq + 1, *end = p + len;
            const char *colon = memchr(names, ':', (size_t)(end - names));
            size_t nlen = (size_t)((colon ? colon : end) - names);
            if (flen < sizeof f.name && names_op(names, nlen, op)) {
                memcpy(f.name, p, flen);
                f.name[flen] = '\0';
                int wrong = strcmp(f.name, "wrong") == 0;
                f.factor = wrong ? 0 : SLOW_DEFAULT;
                if (colon) {
                    double x = strtod(colon + 1, NULL);
                    if (wrong ? x > 0 && x <= 1 : x >= 1 && x <= 100) f.factor = x;
                }
                return f;
            }
        }
        p += len + (semi ? 1 : 0);
    }
    return f;
}

static fault graph_fault(const cc_graph *g)
{
    for (int k = 0; k < g->n_nodes; k++) {
        fault f = fault_for(g->nodes[k].op);
        if (f.name[0]) return f;
    }
    return (fault){ "", 1.0 };
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct faulty_plan {
    void *ref_plan;
    const cc_graph *g;
} faulty_plan;

static cc_status faulty_open(const char *device, void **ctx, cc_device_desc *desc, cc_err *err)
{
    cc_status st = cc_target_ref.open(device, ctx, desc, err);
    if (st == CC_OK) snprintf(desc->name, sizeof desc->name, "faulty test backend");
    return st;
}

static void faulty_close(void *ctx) { cc_target_ref.close(ctx); }

static cc_support faulty_supports(void *ctx, const cc_graph *g, const cc_node *node, char *reason,
                                  size_t n)
{
    if (strcmp(fault_for(node->op).name, "unsupported") == 0) {
        snprintf(reason, n, "faulty declares %s unsupported", node->op->name);
        return CC_SUPPORT_NO;
    }
    return cc_target_ref.supports(ctx, g, node, reason, n);
}

static cc_status faulty_prepare(void *ctx, const cc_graph *g, void **out, cc_err *err)
{
    faulty_plan *p = calloc(1, sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    cc_status st = cc_target_ref.prepare(ctx, g, &p->ref_plan, err);
    if (st) {
        free(p);
        return st;
    }
    p->g = g;
    *out = p;
    return CC_OK;
}

static void faulty_release(void *ctx, void *plan)
{
    faulty_plan *p = plan;
    if (!p) return;
    cc_target_ref.release(ctx, p->ref_plan);
    free(p);
}

static cc_status faulty_run(void *ctx, void *plan, void *const *inputs, void *const *outputs,
                            cc_err *err)
{
    faulty_plan *p = plan;
    fault fl = graph_fault(p->g);
    const char *f = fl.name;
    if (strcmp(f, "crash") == 0) {
        raise(SIGSEGV);
    } else if (strcmp(f, "hang") == 0) {
        for (;;) pause();
    } else if (strcmp(f, "error") == 0) {
        return cc_err_set(err, CC_ERR_DEVICE, "faulty: simulated device error");
    } else if (strcmp(f, "hog") == 0) {
        for (size_t mb = 256;; mb *= 2) {
            char *m = malloc(mb << 20);
            if (!m) return cc_err_set(err, CC_ERR_NOMEM, "faulty: allocation of %zu MiB failed", mb);
            memset(m, 1, mb << 20);
            free(m);
        }
    }
    double t0 = now_s();
    cc_status st = cc_target_ref.run(ctx, p->ref_plan, inputs, outputs, err);
    if (st == CC_OK && strcmp(f, "slow") == 0) {
        /* spin, not sleep: the extra time behaves like compute under load */
        double until = t0 + fl.factor * (now_s() - t0);
        while (now_s() < until) {}
    }
    if (st == CC_OK && strcmp(f, "overrun") == 0) {
        const cc_tensor *o = &p->g->values[p->g->outputs[0]];
        memset((unsigned char *)outputs[0] + cc_tensor_bytes(o), 0x5A, 8);
    }
    if (st == CC_OK && strcmp(f, "wrong") == 0) {
        const cc_tensor *o = &p->g->values[p->g->outputs[0]];
        int64_t n = cc_tensor_numel(o);
        int64_t step = fl.factor > 0 ? (int64_t)fmax(1, floor(1 / fl.factor + 0.5)) : n + 1;
        for (int64_t i = fl.factor > 0 ? 0 : n / 2; i < n; i += step) {
            double v = cc_load(outputs[0], o->dtype, (size_t)i);
            cc_store(outputs[0], o->dtype, (size_t)i, v + 1.0 + fabs(v));
        }
    }
    return st;
}

static void faulty_describe(void *ctx, void *plan, char *buf, size_t n)
{
    (void)ctx;
    faulty_plan *p = plan;
    fault f = graph_fault(p->g);
    if (strcmp(f.name, "slow") == 0) snprintf(buf, n, "golden loops, fault: slow x%.3g", f.factor);
    else snprintf(buf, n, "golden loops, fault: %s", f.name[0] ? f.name : "none");
}

const cc_target_iface cc_target_faulty = {
    .abi_version = CC_TARGET_ABI_VERSION,
    .struct_size = sizeof(cc_target_iface),
    .name = "faulty",
    .description = "test-only backend that crashes, hangs and lies on chosen ops",
    .hidden = 1,
    .open = faulty_open,
    .close = faulty_close,
    .supports = faulty_supports,
    .buffer_alloc = cc_host_buffer_alloc,
    .buffer_free = cc_host_buffer_free,
    .upload = cc_host_upload,
    .download = cc_host_download,
    .prepare = faulty_prepare,
    .run = faulty_run,
    .sync = cc_host_sync,
    .release = faulty_release,
    .run_timed = NULL,
    .describe_plan = faulty_describe,
    .dtypes = (1u << CC_DTYPE_COUNT) - 1u, /* the golden model takes every dtype */
};
