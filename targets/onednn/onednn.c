/* onednn.c — the onednn backend: oneDNN (Debian's libdnnl 2.6) on the CPU. The vtable,
 * the device description, dispatch of nodes to the family builders (conv.c, matmul.c,
 * pool.c, eltwise.c, reduce.c, shape.c, resize.c, quant.c) and graph plans: shapes inferred node by
 * node, host buffers for intermediate values, and per node the oneDNN primitives built
 * once in prepare and executed in order by run.
 *
 * Every value between nodes is a dense row-major (NCHW) host tensor. A primitive that
 * prefers a blocked layout (convolution) gets its weights reordered once in prepare and
 * its activations reordered in and out around it at run time; those reorders are part of
 * the timed run and counted in describe_plan. Buffers are host memory (cc_host_*). */
#include "onednn.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oneapi/dnnl/dnnl_debug.h>

static const cc_onednn_family *const families[] = {
    &cc_onednn_family_conv,   &cc_onednn_family_matmul, &cc_onednn_family_pool,   &cc_onednn_family_eltwise,
    &cc_onednn_family_reduce, &cc_onednn_family_shape,  &cc_onednn_family_resize, &cc_onednn_family_quant,
};
#define N_FAMILIES ((int)(sizeof families / sizeof families[0]))

static cc_onednn_build_fn find_builder(const char *op)
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

/* "avx512_core_amx" from oneDNN's "cpu_isa_avx512_core_amx". */
static const char *isa_name(dnnl_cpu_isa_t isa)
{
    const char *s = dnnl_cpu_isa2str(isa);
    if (!s) return "?";
    return strncmp(s, "cpu_isa_", 8) == 0 ? s + 8 : s;
}

/* FP32 peak estimate: threads x FP32 flops per cycle of the ISA oneDNN dispatches to (two
 * FMA pipes: 64 with AVX-512, 32 with AVX2, 8 below) x the clock /proc/cpuinfo reports
 * (nominal under a hypervisor). 0 when the clock is unknown. */
static double peak_gflops(int threads, dnnl_cpu_isa_t isa)
{
    char mhz[64];
    cpuinfo_value("cpu MHz", mhz, sizeof mhz);
    double ghz = atof(mhz) / 1000.0;
    if (!(ghz > 0)) return 0;
    int fpc = 8;
    if ((isa & dnnl_cpu_isa_avx512_core) == dnnl_cpu_isa_avx512_core)
        fpc = 64;
    else if ((isa & dnnl_cpu_isa_avx2) == dnnl_cpu_isa_avx2)
        fpc = 32;
    return threads * fpc * ghz;
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
             isa_name(c->isa), v->hash && strcmp(v->hash, "N/A") != 0 ? " " : "",
             v->hash && strcmp(v->hash, "N/A") != 0 ? v->hash : "");
    snprintf(d.driver, sizeof d.driver, "%s",
             v->cpu_runtime == DNNL_RUNTIME_OMP   ? "OpenMP runtime"
             : v->cpu_runtime == DNNL_RUNTIME_TBB ? "TBB runtime"
                                                  : "");
    d.peak_gflops = peak_gflops(threads, c->isa);
    *desc = d;
    *ctx = c;
    return CC_OK;
}

/* ---- building one node ------------------------------------------------------------------- */

/* Fills b for node, whose inputs are described by vals (shape, dtype; data only for
 * constants) and whose outputs are inferred into out (n_out entries). */
static cc_status build_begin(const cc_onednn_ctx *ctx, const cc_tensor *vals, const cc_node *node,
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
    cc_onednn_build_fn fn = find_builder(node->op->name);
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
    cc_status st = build_begin(c, g->values, node, out, &b, &e);
    if (!st) st = fn(&b, &e);
    if (st == CC_OK) return CC_SUPPORT_YES;
    snprintf(reason, reason_size, "%s", e.msg[0] ? e.msg : cc_status_name(st));
    /* bf16 kernels need at least AVX-512 (avx512_core); below that it is the machine */
    if (st == CC_ERR_UNSUPPORTED && strstr(e.msg, "dnnl_unimplemented") && node->n_in > 0 &&
        node->in[0] >= 0 && g->values[node->in[0]].dtype == CC_BF16 &&
        (c->isa & dnnl_cpu_isa_avx512_core) != dnnl_cpu_isa_avx512_core)
        return CC_SUPPORT_NOT_HERE;
    return CC_SUPPORT_NO;
}

/* ---- plans ---------------------------------------------------------------------------- */

typedef struct onednn_plan {
    const cc_graph *g;
    cc_tensor *desc;      /* per value: shape, dtype; data only for constants */
    void **ptr;           /* per value: the data a run reads or writes */
    unsigned char *owned; /* ptr[v] allocated by the plan (intermediates) */
    cc_onednn_node_plan *nodes;
    int n_nodes;
} onednn_plan;

static void node_plan_free(cc_onednn_node_plan *p)
{
    for (int i = 0; i < p->n_steps; i++) dnnl_primitive_destroy(p->steps[i].prim);
    for (int i = 0; i < p->n_mems; i++) dnnl_memory_destroy(p->mems[i]);
    p->n_steps = p->n_mems = p->n_binds = 0;
}

static void onednn_release(void *ctx, void *plan)
{
    (void)ctx;
    onednn_plan *p = plan;
    if (!p) return;
    for (int i = 0; i < p->n_nodes; i++) node_plan_free(&p->nodes[i]);
    if (p->ptr)
        for (int i = 0; i < p->g->n_values; i++)
            if (p->owned[i]) free(p->ptr[i]);
    free(p->desc);
    free(p->ptr);
    free(p->owned);
    free(p->nodes);
    free(p);
}

static int in_list(const int *list, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (list[i] == v) return 1;
    return 0;
}


static cc_status onednn_prepare(void *ctx, const cc_graph *g, void **plan, cc_err *err)
{
    cc_onednn_ctx *c = ctx;
    cc_status st = CC_OK;
    unsigned char *produced = NULL;
    onednn_plan *p = calloc(1, sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "onednn: out of memory");
    p->g = g;
    size_t nv = g->n_values > 0 ? (size_t)g->n_values : 1;
    size_t nn = g->n_nodes > 0 ? (size_t)g->n_nodes : 1;
    p->desc = calloc(nv, sizeof *p->desc);
    p->ptr = calloc(nv, sizeof *p->ptr);
    p->owned = calloc(nv, 1);
    p->nodes = calloc(nn, sizeof *p->nodes);
    produced = calloc(nv, 1);
    if (!p->desc || !p->ptr || !p->owned || !p->nodes || !produced) {
        st = cc_err_set(err, CC_ERR_NOMEM, "onednn: out of memory");
        goto fail;
    }
    st = cc_graph_check(g, "onednn", produced, err);
    if (st) goto fail;
    for (int i = 0; i < g->n_values; i++) {
        p->desc[i] = g->values[i];
        p->ptr[i] = g->values[i].data; /* constants; others are bound below or at run */
    }

    for (int n = 0; n < g->n_nodes; n++) {
        const cc_node *node = &g->nodes[n];
        cc_onednn_build_fn fn = find_builder(node->op->name);
        if (!fn) {
            st = cc_err_set(err, CC_ERR_UNSUPPORTED, "oneDNN has no primitive for %s", node->op->name);
            goto fail;
        }
        cc_onednn_build b;
        cc_tensor out[CC_MAX_IO];
        st = build_begin(c, p->desc, node, out, &b, err);
        if (st) goto fail;
        /* output descriptions and storage for intermediates */
        for (int j = 0; j < node->n_out; j++) {
            int v = node->out[j];
            if (in_list(g->outputs, g->n_outputs, v)) {
                const cc_tensor *want = &g->values[v];
                if (want->dtype != out[j].dtype || !cc_shape_equal(&want->shape, &out[j].shape)) {
                    char a[96], bb[96];
                    st = cc_err_set(err, CC_ERR_ARG,
                                    "onednn: graph output value %d is %s:%s, but %s gives %s:%s", v,
                                    cc_shape_format(&want->shape, a, sizeof a), cc_dtype_name(want->dtype),
                                    node->op->name, cc_shape_format(&out[j].shape, bb, sizeof bb),
                                    cc_dtype_name(out[j].dtype));
                    goto fail;
                }
            } else {
                size_t bytes = cc_tensor_bytes(&out[j]);
                p->ptr[v] = aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
                if (!p->ptr[v]) {
                    st = cc_err_set(err, CC_ERR_NOMEM, "onednn: out of memory for value %d", v);
                    goto fail;
                }
                p->owned[v] = 1;
            }
            p->desc[v] = out[j];
            p->desc[v].data = NULL;
        }
        cc_onednn_node_plan *np = &p->nodes[n];
        np->node = node;
        b.plan = np;
        p->n_nodes = n + 1;
        st = fn(&b, err);
        if (st) goto fail;
    }
    free(produced);
    *plan = p;
    return CC_OK;

fail:
    free(produced);
    onednn_release(ctx, p);
    return st;
}

static cc_status onednn_run(void *ctx, void *plan, void *const *inputs, void *const *outputs, cc_err *err)
{
    cc_onednn_ctx *c = ctx;
    onednn_plan *p = plan;
    const cc_graph *g = p->g;
    /* a produced output is written straight into the first output buffer naming it */
    for (int j = g->n_outputs - 1; j >= 0; j--) {
        int v = g->outputs[j];
        if (!p->owned[v] && !g->values[v].data && !in_list(g->inputs, g->n_inputs, v)) p->ptr[v] = outputs[j];
    }
    for (int i = 0; i < g->n_inputs; i++) p->ptr[g->inputs[i]] = inputs[i];

    for (int n = 0; n < p->n_nodes; n++) {
        cc_onednn_node_plan *np = &p->nodes[n];
        for (int k = 0; k < np->n_binds; k++) {
            dnnl_status_t s = dnnl_memory_set_data_handle(np->binds[k].mem, p->ptr[np->binds[k].value]);
            if (s != dnnl_success)
                return cc_err_set(err, CC_ERR_DEVICE, "oneDNN: binding value %d of %s failed (dnnl_%s)",
                                  np->binds[k].value, np->node->op->name, dnnl_status2str(s));
        }
        for (int k = 0; k < np->n_steps; k++) {
            const cc_onednn_step *s = &np->steps[k];
            dnnl_status_t r = dnnl_primitive_execute(s->prim, c->stream, s->n_args, s->args);
            if (r != dnnl_success)
                return cc_err_set(err, CC_ERR_DEVICE, "oneDNN: executing %s (step %d) failed (dnnl_%s)",
                                  np->node->op->name, k, dnnl_status2str(r));
        }
    }
    dnnl_status_t s = dnnl_stream_wait(c->stream);
    if (s != dnnl_success)
        return cc_err_set(err, CC_ERR_DEVICE, "oneDNN: stream wait failed (dnnl_%s)", dnnl_status2str(s));
    /* outputs no node wrote into their buffer: pass-through inputs and constants, and a
     * value listed as more than one output */
    for (int j = 0; j < g->n_outputs; j++) {
        int v = g->outputs[j];
        if (p->ptr[v] != outputs[j]) memcpy(outputs[j], p->ptr[v], cc_tensor_bytes(&p->desc[v]));
    }
    return CC_OK;
}

/* Writes "Conv: brgconv:avx512_core +2 reorders; Relu: jit:avx512_core" with identical
 * entries counted ("... x3"). */
static void onednn_describe_plan(void *ctx, void *plan, char *buf, size_t n)
{
    (void)ctx;
    onednn_plan *p = plan;
    if (!n) return;
    buf[0] = '\0';
    if (!p) return;
    size_t len = 0;
    for (int i = 0; i < p->n_nodes && len < n; i++) {
        const cc_onednn_node_plan *a = &p->nodes[i];
        int seen = 0, count = 0;
        for (int k = 0; k < p->n_nodes; k++) {
            const cc_onednn_node_plan *o = &p->nodes[k];
            if (o->node->op != a->node->op || strcmp(o->impl, a->impl) != 0 || o->n_reorders != a->n_reorders)
                continue;
            if (k < i) seen = 1;
            count++;
        }
        if (seen) continue;
        char reorders[32] = "";
        if (a->n_reorders)
            snprintf(reorders, sizeof reorders, " +%d reorder%s", a->n_reorders,
                     a->n_reorders > 1 ? "s" : "");
        char times[16] = "";
        if (count > 1) snprintf(times, sizeof times, " x%d", count);
        int w = snprintf(buf + len, n - len, "%s%s: %s%s%s", len ? "; " : "", a->node->op->name,
                         a->impl[0] ? a->impl : "no primitive", reorders, times);
        if (w < 0) break;
        len += (size_t)w;
    }
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
    .prepare = onednn_prepare, /* primitives, weight reorders, intermediates */
    .run = onednn_run,         /* binds the buffers, executes the steps in order */
    .sync = cc_host_sync,      /* run waits on the stream before returning */
    .release = onednn_release,
    .run_timed = NULL,                     /* host clock */
    .describe_plan = onednn_describe_plan, /* oneDNN implementation per node */
};
