/* onednn.c — the onednn backend: oneDNN (Debian's libdnnl 2.6) on the CPU. The vtable,
 * the device description, dispatch of nodes to the family builders (conv.c, matmul.c,
 * pool.c, eltwise.c, reduce.c, shape.c, resize.c, quant.c, copy.c) and supports(); graph plans
 * (prepare, run, describe_plan) live in plan.c. Buffers are host memory (cc_host_*). */
#include "onednn.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oneapi/dnnl/dnnl_debug.h>

static const cc_onednn_family *const families[] = {
    &cc_onednn_family_conv,   &cc_onednn_family_matmul, &cc_onednn_family_pool,   &cc_onednn_family_eltwise,
    &cc_onednn_family_reduce, &cc_onednn_family_shape,  &cc_onednn_family_resize, &cc_onednn_family_quant,
    &cc_onednn_family_copy,
};
#define N_FAMILIES ((int)(sizeof families / sizeof families[0]))

cc_onednn_build_fn cc_onednn_find_builder(const char *op)
{
    for (int f = 0; f < N_FAMILIES; f++)
        for (int i = 0; i < families[f]->n; i++)
            if (strcmp(families[f]->ops[i].op, op) == 0) return families[f]->ops[i].build;
    return NULL;
}

/* ---- device ---------------------------------------------------------------------------- */

/* The value of the first "key : value" line of /proc/cpuinfo, or "" (buf of n bytes). */
static void cpuinfo_value(const char *key, char *buf, size_t n)
{
    buf[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    size_t klen = strlen(key);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0) continue;
        char *p = line + klen;
        while (*p == ' ' || *p == '\t') p++;
        if (*p != ':') continue;
        p++;
        while (*p == ' ') p++;
        p[strcspn(p, "\n")] = '\0';
        snprintf(buf, n, "%s", p);
        break;
    }
    fclose(f);
}

const char *cc_onednn_isa_name(dnnl_cpu_isa_t isa)
{
    const char *s = dnnl_cpu_isa2str(isa);
    if (!s) return "?";
    return strncmp(s, "cpu_isa_", 8) == 0 ? s + 8 : s;
}

static void onednn_close(void *ctx)
{
    cc_onednn_ctx *c = ctx;
    if (!c) return;
    if (c->stream) dnnl_stream_destroy(c->stream);
    if (c->engine) dnnl_engine_destroy(c->engine);
    free(c);
}

static cc_status onednn_open(const char *device, void **ctx, cc_device_desc *desc, cc_err *err)
{
    if (device && device[0] && strcmp(device, "0") != 0)
        return cc_err_set(err, CC_ERR_DEVICE, "onednn: no device '%s' (the CPU engine is device 0)", device);
    if (dnnl_engine_get_count(dnnl_cpu) < 1)
        return cc_err_set(err, CC_ERR_DEVICE, "onednn: oneDNN reports no CPU engine");
    cc_onednn_ctx *c = calloc(1, sizeof *c);
    if (!c) return cc_err_set(err, CC_ERR_NOMEM, "onednn: out of memory");
    dnnl_status_t s = dnnl_engine_create(&c->engine, dnnl_cpu, 0);
    if (s == dnnl_success) s = dnnl_stream_create(&c->stream, c->engine, dnnl_stream_default_flags);
    if (s != dnnl_success) {
        onednn_close(c);
        return cc_err_set(err, CC_ERR_DEVICE, "onednn: cannot create the CPU engine or stream (dnnl_%s)",
                          dnnl_status2str(s));
    }
    c->isa = dnnl_get_effective_cpu_isa();
    const dnnl_version_t *v = dnnl_version();
    int threads = omp_get_max_threads();

    cc_device_desc d;
    memset(&d, 0, sizeof d);
    char model[128];
    cpuinfo_value("model name", model, sizeof model);
    snprintf(d.name, sizeof d.name, "%.100s (%d thread%s)", model[0] ? model : "unknown CPU", threads,
             threads == 1 ? "" : "s");
    snprintf(d.library, sizeof d.library, "oneDNN %d.%d.%d (%s)%s%s", v->major, v->minor, v->patch,
             cc_onednn_isa_name(c->isa), v->hash && strcmp(v->hash, "N/A") != 0 ? " " : "",
             v->hash && strcmp(v->hash, "N/A") != 0 ? v->hash : "");
    /* libgomp reads OMP_WAIT_POLICY and GOMP_SPINCOUNT once, when it loads, and they move
     * oneDNN's timings markedly on a shared machine (README, performance): the run
     * records the values it ran with */
    const char *wait = getenv("OMP_WAIT_POLICY"), *spin = getenv("GOMP_SPINCOUNT");
    if (v->cpu_runtime == DNNL_RUNTIME_OMP)
        snprintf(d.driver, sizeof d.driver, "OpenMP runtime (OMP_WAIT_POLICY=%.24s, GOMP_SPINCOUNT=%.24s)",
                 wait ? wait : "unset", spin ? spin : "unset");
    else
        snprintf(d.driver, sizeof d.driver, "%s", v->cpu_runtime == DNNL_RUNTIME_TBB ? "TBB runtime" : "");
    d.peak_gflops = cc_host_fp32_peak(threads, d.peak_source, sizeof d.peak_source);
    *desc = d;
    *ctx = c;
    return CC_OK;
}

/* ---- building one node ------------------------------------------------------------------- */

cc_status cc_onednn_build_begin(const cc_onednn_ctx *ctx, const cc_tensor *vals, const cc_node *node,
                                cc_tensor *out, cc_onednn_build *b, cc_err *err)
{
    memset(b, 0, sizeof *b);
    b->ctx = ctx;
    b->node = node;
    for (int i = 0; i < node->n_in && i < CC_MAX_IO; i++)
        b->in[i] = node->in[i] >= 0 ? &vals[node->in[i]] : NULL;
    memset(out, 0, sizeof(cc_tensor) * CC_MAX_IO);
    cc_status st = node->op->infer(node, b->in, node->n_out, out, err);
    if (st) return st;
    b->out = out;
    b->n_out = node->n_out;
    return CC_OK;
}

static cc_support onednn_supports(void *ctx, const cc_graph *g, const cc_node *node, char *reason,
                                  size_t reason_size)
{
    cc_onednn_ctx *c = ctx;
    if (reason_size) reason[0] = '\0';
    if (!node->op) {
        snprintf(reason, reason_size, "node without an op");
        return CC_SUPPORT_NO;
    }
    cc_onednn_build_fn fn = cc_onednn_find_builder(node->op->name);
    if (!fn) {
        snprintf(reason, reason_size, "oneDNN has no primitive for %s", node->op->name);
        return CC_SUPPORT_NO;
    }
    if (node->n_in > CC_MAX_IO || node->n_out < 1 || node->n_out > CC_MAX_IO) {
        snprintf(reason, reason_size, "%s: malformed node", node->op->name);
        return CC_SUPPORT_NO;
    }
    for (int i = 0; i < node->n_in; i++)
        if (node->in[i] >= g->n_values) {
            snprintf(reason, reason_size, "node input %d names value %d of %d", i, node->in[i], g->n_values);
            return CC_SUPPORT_NO;
        }
    cc_onednn_build b;
    cc_tensor out[CC_MAX_IO];
    cc_err e = { 0 };
    cc_status st = cc_onednn_build_begin(c, g->values, node, out, &b, &e);
    if (!st) st = fn(&b, &e);
    if (st == CC_OK) return CC_SUPPORT_YES;
    int not_here = b.not_here;
    /* an i32 Add a graph plan computes inside the MatMulInteger before it (fuse.c, matmul.c) */
    int mm = -1, bias = -1;
    if (st == CC_ERR_UNSUPPORTED && cc_onednn_bias_add(g, node, &mm, &bias)) {
        cc_onednn_fusion f;
        memset(&f, 0, sizeof f);
        f.main = f.anchor = mm;
        f.bn = -1;
        f.oscale = 1.0f;
        f.out_value = node->out[0];
        f.mm_bias = bias;
        cc_err e2 = { 0 };
        cc_onednn_build mb;
        cc_status s2 = cc_onednn_build_begin(c, g->values, &g->nodes[mm], out, &mb, &e2);
        mb.graph = g;
        mb.fuse = &f;
        if (!s2) s2 = cc_onednn_find_builder("MatMulInteger")(&mb, &e2);
        if (s2 == CC_OK) return CC_SUPPORT_YES;
        if (e2.msg[0]) snprintf(e.msg, sizeof e.msg, "%s", e2.msg);
        not_here = mb.not_here;
    }
    snprintf(reason, reason_size, "%s", e.msg[0] ? e.msg : cc_status_name(st));
    /* a refusal of this CPU's (cc_onednn_not_here: 8-bit products without VNNI) */
    if (st == CC_ERR_UNSUPPORTED && not_here) return CC_SUPPORT_NOT_HERE;
    /* bf16 kernels need at least AVX-512 (avx512_core); below that it is the machine */
    if (st == CC_ERR_UNSUPPORTED && strstr(e.msg, "dnnl_unimplemented") && node->n_in > 0 &&
        node->in[0] >= 0 && g->values[node->in[0]].dtype == CC_BF16 &&
        (c->isa & dnnl_cpu_isa_avx512_core) != dnnl_cpu_isa_avx512_core)
        return CC_SUPPORT_NOT_HERE;
    return CC_SUPPORT_NO;
}

const cc_target_iface cc_target_onednn = {
    .abi_version = CC_TARGET_ABI_VERSION,
    .struct_size = sizeof(cc_target_iface),
    .name = "onednn",
    .description = "oneDNN primitives on the CPU (Debian's libdnnl 2.x)",
    .hidden = 0,
    .open = onednn_open, /* CPU engine and stream, version and ISA */
    .close = onednn_close,
    .supports = onednn_supports,          /* builds the primitive descriptors and drops them */
    .buffer_alloc = cc_host_buffer_alloc, /* host memory */
    .buffer_free = cc_host_buffer_free,
    .upload = cc_host_upload,
    .download = cc_host_download,
    .prepare = cc_onednn_prepare, /* fusion groups, primitives, weight reorders, layouts */
    .run = cc_onednn_run,         /* binds the buffers, executes the steps in order */
    .sync = cc_host_sync,         /* run waits on the stream before returning */
    .release = cc_onednn_release,
    .run_timed = NULL,                        /* host clock */
    .describe_plan = cc_onednn_describe_plan, /* oneDNN implementation per (fused) node */
};
