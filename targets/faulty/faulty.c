/* faulty.c — a test-only backend that misbehaves on purpose, to prove the runner's
 * isolation: it computes like `ref` but, chosen by op name, crashes the process, hangs,
 * returns wrong values, returns an error status or declares the op unsupported.
 *
 * The choice comes from the environment variable CROSSCHECK_FAULTY, a list of
 * fault=Op entries separated by ';' (faults: crash, hang, wrong, error, unsupported,
 * hog). Default: crash=Relu;hang=Sigmoid;wrong=Add;error=Tanh;unsupported=Exp;hog=Sqrt.
 * "hog" allocates and touches memory until the allocation fails, to exercise the
 * worker's memory limit. Hidden: never part of "all targets". */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../target.h"

extern const cc_target_iface cc_target_ref;

#define DEFAULT_FAULTS "crash=Relu;hang=Sigmoid;wrong=Add;error=Tanh;unsupported=Exp;hog=Sqrt"

/* The fault configured for op (or "" for none). */
static const char *fault_for(const char *op)
{
    static char buf[32];
    const char *spec = getenv("CROSSCHECK_FAULTY");
    if (!spec) spec = DEFAULT_FAULTS;
    const char *p = spec;
    while (*p) {
        const char *semi = strchr(p, ';');
        size_t len = semi ? (size_t)(semi - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (eq) {
            size_t flen = (size_t)(eq - p), olen = len - flen - 1;
            if (olen == strlen(op) && strncmp(eq + 1, op, olen) == 0 && flen < sizeof buf) {
                memcpy(buf, p, flen);
                buf[flen] = '\0';
                return buf;
            }
        }
        p += len + (semi ? 1 : 0);
    }
    return "";
}

static const char *graph_fault(const cc_graph *g)
{
    for (int k = 0; k < g->n_nodes; k++) {
        const char *f = fault_for(g->nodes[k].op->name);
        if (f[0]) return f;
    }
    return "";
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
    if (strcmp(fault_for(node->op->name), "unsupported") == 0) {
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
    const char *f = graph_fault(p->g);
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
    cc_status st = cc_target_ref.run(ctx, p->ref_plan, inputs, outputs, err);
    if (st == CC_OK && strcmp(f, "wrong") == 0) {
        const cc_tensor *o = &p->g->values[p->g->outputs[0]];
        int64_t n = cc_tensor_numel(o);
        if (n > 0) {
            double v = cc_load(outputs[0], o->dtype, (size_t)(n / 2));
            cc_store(outputs[0], o->dtype, (size_t)(n / 2), v + 1.0 + fabs(v));
        }
    }
    return st;
}

static void faulty_describe(void *ctx, void *plan, char *buf, size_t n)
{
    (void)ctx;
    faulty_plan *p = plan;
    const char *f = graph_fault(p->g);
    snprintf(buf, n, "golden loops, fault: %s", f[0] ? f : "none");
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
};
