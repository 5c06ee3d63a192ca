/* cuda.c — the cuda backend: its vtable, opening the device (and failing cleanly, with
 * CUDA's own reason, where there is none), device buffers, graph plans (constants
 * uploaded and intermediates allocated once in prepare, nodes enqueued on one stream in
 * run), CUDA-event timing and the plan description.
 *
 * Device string: words separated by ':' or '+': a GPU index ("1") and "tf32", which lets
 * FP32 GEMMs and convolutions use TF32 tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32,
 * CUDNN_TENSOR_OP_MATH); without it FP32 work is FP32 arithmetic only (CUBLAS_COMPUTE_32F,
 * CUDNN_FMA_MATH), because cuDNN's default math mode would allow TF32 on Ampere and later.
 * `crosscheck run --targets cuda:tf32` selects it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

#ifndef CC_CUDA_MIN_SM
#define CC_CUDA_MIN_SM 80 /* the oldest architecture the build has kernels for */
#endif

static const cc_cuda_family *const families[] = {
    &cc_cuda_family_conv,    &cc_cuda_family_pool,      &cc_cuda_family_matmul,
    &cc_cuda_family_eltwise, &cc_cuda_family_reduce,    &cc_cuda_family_normquant,
    &cc_cuda_family_shape,   &cc_cuda_family_resize,
};
#define N_FAMILIES ((int)(sizeof families / sizeof families[0]))

static const cc_cuda_kernel *find_kernel(const char *op)
{
    for (int f = 0; f < N_FAMILIES; f++)
        for (int i = 0; i < families[f]->n; i++)
            if (strcmp(families[f]->kernels[i].op, op) == 0) return &families[f]->kernels[i];
    return NULL;
}

/* ---- device --------------------------------------------------------------------------------- */

/* FP32 lanes per SM by compute capability (the CUDA programming guide's throughput
 * table); 0 where unknown. */
static int fp32_lanes(int sm)
{
    switch (sm / 10) {
    case 7: return 64;
    case 8: return sm == 80 ? 64 : 128;
    case 9:
    case 10:
    case 12: return 128;
    default: return 0;
    }
}

static cc_status parse_device(const char *device, int *index, int *tf32, cc_err *err)
{
    char buf[64];
    *index = 0;
    *tf32 = 0;
    if (!device || !device[0]) return CC_OK;
    if (strlen(device) >= sizeof buf)
        return cc_err_set(err, CC_ERR_ARG, "cuda: device string '%.40s...' is too long", device);
    strcpy(buf, device);
    for (char *save = NULL, *w = strtok_r(buf, ":+", &save); w; w = strtok_r(NULL, ":+", &save)) {
        char *end;
        long v = strtol(w, &end, 10);
        if (strcmp(w, "tf32") == 0) {
            *tf32 = 1;
        } else if (*end == '\0' && end != w && v >= 0 && v < 1024) {
            *index = (int)v;
        } else {
            return cc_err_set(err, CC_ERR_ARG,
                              "cuda: unknown device option '%s' (a GPU index and/or tf32)", w);
        }
    }
    return CC_OK;
}

static void cuda_close(void *ctx)
{
    cc_cuda_ctx *c = ctx;
    if (!c) return;
    cudaSetDevice(c->device);
    if (c->lt) cublasLtDestroy(c->lt);
    if (c->dnn) cudnnDestroy(c->dnn);
    if (c->ev_start) cudaEventDestroy(c->ev_start);
    if (c->ev_stop) cudaEventDestroy(c->ev_stop);
    if (c->stream) cudaStreamDestroy(c->stream);
    free(c);
}

static void version_text(int v, char *buf, size_t n)
{
    snprintf(buf, n, "%d.%d", v / 1000, (v % 1000) / 10);
}

/* Why there is no CUDA device, in the words a user acts on: no NVIDIA driver at all
 * (cudaDriverGetVersion reports 0 when libcuda is absent), a driver too old for the
 * runtime this build carries, a driver without a visible GPU, or the runtime's own
 * message for anything else. */
static cc_status no_device(cudaError_t e, cc_err *err)
{
    int drv = 0, rt = 0;
    char d[16], r[16];
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    cudaGetLastError();
    version_text(drv, d, sizeof d);
    version_text(rt, r, sizeof r);
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    if (drv == 0)
        return cc_err_set(err, CC_ERR_DEVICE, "CUDA: no NVIDIA driver (libcuda.so.1 not found; this build's runtime is CUDA %s)", r);
    if (e == cudaErrorInsufficientDriver)
        return cc_err_set(err, CC_ERR_DEVICE, "CUDA: the NVIDIA driver supports CUDA %s, this build's runtime needs %s", d, r);
    if (e == cudaSuccess || e == cudaErrorNoDevice)
        return cc_err_set(err, CC_ERR_DEVICE, "CUDA: no NVIDIA GPU (driver for CUDA %s present%s%s%s)", d,
                          visible ? ", CUDA_VISIBLE_DEVICES='" : "", visible ? visible : "", visible ? "'" : "");
    return cc_err_set(err, CC_ERR_DEVICE, "CUDA: no usable device: %s (driver for CUDA %s)", cudaGetErrorString(e), d);
}

static cc_status cuda_open(const char *device, void **ctx, cc_device_desc *desc, cc_err *err)
{
    int index, tf32, count = 0;
    cc_status st = parse_device(device, &index, &tf32, err);
    if (st) return st;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        cudaGetLastError();
        return no_device(e, err);
    }
    if (index >= count)
        return cc_err_set(err, CC_ERR_DEVICE, "CUDA: no device %d (%d present)", index, count);
    struct cudaDeviceProp p;
    if ((st = cc_cuda_check(cudaGetDeviceProperties(&p, index), "cudaGetDeviceProperties", err)))
        return st;
    int sm = p.major * 10 + p.minor;
    if (sm < CC_CUDA_MIN_SM)
        return cc_err_set(err, CC_ERR_DEVICE,
                          "CUDA: %s is sm_%d; this build has kernels for sm_%d and newer", p.name,
                          sm, CC_CUDA_MIN_SM);
    cc_cuda_ctx *c = calloc(1, sizeof *c);
    if (!c) return cc_err_set(err, CC_ERR_NOMEM, "cuda: out of memory");
    c->device = index;
    c->tf32 = tf32;
    c->sm = sm;
    if ((st = cc_cuda_check(cudaSetDevice(index), "cudaSetDevice", err))) goto fail;
    if ((st = cc_cuda_check(cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking),
                            "cudaStreamCreate", err)))
        goto fail;
    if ((st = cc_cuda_check(cudaEventCreate(&c->ev_start), "cudaEventCreate", err))) goto fail;
    if ((st = cc_cuda_check(cudaEventCreate(&c->ev_stop), "cudaEventCreate", err))) goto fail;
    if ((st = cc_cuda_dnn_check(cudnnCreate(&c->dnn), "cudnnCreate", err))) {
        c->dnn = NULL;
        goto fail;
    }
    if ((st = cc_cuda_dnn_check(cudnnSetStream(c->dnn, c->stream), "cudnnSetStream", err))) goto fail;
    if ((st = cc_cuda_blas_check(cublasLtCreate(&c->lt), "cublasLtCreate", err))) {
        c->lt = NULL;
        goto fail;
    }

    cc_device_desc d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%.90s (sm_%d, %d SMs)", p.name, sm, p.multiProcessorCount);
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    char vd[16], vr[16];
    version_text(drv, vd, sizeof vd);
    version_text(rt, vr, sizeof vr);
    snprintf(d.driver, sizeof d.driver, "CUDA driver %s, runtime %s", vd, vr);
    size_t dv = cudnnGetVersion();
    size_t lv = cublasLtGetVersion();
    snprintf(d.library, sizeof d.library, "cuDNN %zu.%zu.%zu; cuBLASLt %zu.%zu.%zu; %s", dv / 10000,
             (dv / 100) % 100, dv % 100, lv / 10000, (lv / 100) % 100, lv % 100,
             tf32 ? "FP32 as TF32 on tensor cores" : "FP32 strict (no TF32)");
    int clock_khz = 0, mem_khz = 0, bus_bits = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, index);
    cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, index);
    cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, index);
    cudaGetLastError(); /* an attribute the driver does not report leaves 0 */
    /* FMA = 2 flops per lane per clock; DDR memory: 2 transfers per clock */
    d.peak_gflops = 2.0 * fp32_lanes(sm) * p.multiProcessorCount * (clock_khz / 1e6);
    d.peak_gbps = 2.0 * (mem_khz * 1e3) * (bus_bits / 8.0) / 1e9;
    if (d.peak_gflops > 0)
        snprintf(d.peak_source, sizeof d.peak_source, "estimate: %d SMs x %d FP32 lanes x 2 x %.2f GHz",
                 p.multiProcessorCount, fp32_lanes(sm), clock_khz / 1e6);
    *desc = d;
    *ctx = c;
    return CC_OK;
fail:
    cuda_close(c);
    return st;
}

/* ---- buffers -------------------------------------------------------------------------------- */

static cc_status cuda_buffer_alloc(void *ctx, size_t bytes, void **buf, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    cc_status st = cc_cuda_check(cudaSetDevice(c->device), "cudaSetDevice", err);
    if (st) return st;
    return cc_cuda_alloc(bytes, buf, "buffer", err);
}

static void cuda_buffer_free(void *ctx, void *buf)
{
    (void)ctx;
    cc_cuda_free(buf);
}

static cc_status cuda_upload(void *ctx, void *buf, const void *src, size_t bytes, cc_err *err)
{
    return cc_cuda_put(ctx, buf, src, bytes, "upload", err);
}

static cc_status cuda_download(void *ctx, const void *buf, void *dst, size_t bytes, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    if (!bytes) return CC_OK;
    cc_status st = cc_cuda_check(cudaMemcpyAsync(dst, buf, bytes, cudaMemcpyDeviceToHost, c->stream),
                                 "download", err);
    if (st) return st;
    return cc_cuda_check(cudaStreamSynchronize(c->stream), "download", err);
}

static cc_status cuda_sync(void *ctx, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    return cc_cuda_check(cudaStreamSynchronize(c->stream), "stream synchronize", err);
}

/* ---- support ---------------------------------------------------------------------------------- */

static void node_inputs(const cc_tensor *vals, const cc_node *node, const cc_tensor **in)
{
    for (int i = 0; i < CC_MAX_IO; i++) in[i] = NULL;
    for (int i = 0; i < node->n_in && i < CC_MAX_IO; i++)
        in[i] = node->in[i] >= 0 ? &vals[node->in[i]] : NULL;
}

static cc_support kernel_supports(const cc_cuda_ctx *c, const cc_cuda_kernel *k,
                                  const cc_node *node, const cc_tensor *const *in, char *reason,
                                  size_t n)
{
    if (!k) {
        snprintf(reason, n, "cuda: no kernel for %s yet", node->op ? node->op->name : "?");
        return CC_SUPPORT_NO;
    }
    return k->supports ? k->supports(c, node, in, reason, n) : CC_SUPPORT_YES;
}

static cc_support cuda_supports(void *ctx, const cc_graph *g, const cc_node *node, char *reason,
                                size_t reason_size)
{
    if (reason_size) reason[0] = '\0';
    const cc_tensor *in[CC_MAX_IO];
    if (!cc_backend_inputs_valid(g, node, reason, reason_size)) return CC_SUPPORT_NO;
    node_inputs(g->values, node, in);
    return kernel_supports(ctx, find_kernel(node->op->name), node, in, reason, reason_size);
}

/* ---- plans ------------------------------------------------------------------------------------ */

typedef struct plan_node {
    const cc_node *node;
    const cc_cuda_kernel *kernel;
    void *state;
    char note[CC_BACKEND_NOTE_MAX];
} plan_node;

typedef struct cuda_plan {
    const cc_graph *g;
    cc_tensor *host;       /* value descriptions (shapes inferred; host data of constants) */
    void **dev;            /* device pointer per value: constants, intermediates; bound at run */
    unsigned char *owned;  /* dev[i] allocated by the plan */
    unsigned char *kind;   /* VAL_* */
    plan_node *nodes;
    int n_nodes;
} cuda_plan;

enum { VAL_UNUSED, VAL_INPUT, VAL_CONST, VAL_PRODUCED };

static void cuda_release(void *ctx, void *plan)
{
    cuda_plan *p = plan;
    if (!p) return;
    cc_cuda_ctx *c = ctx;
    cudaSetDevice(c->device);
    cudaStreamSynchronize(c->stream); /* nothing may still use what is freed */
    for (int i = 0; i < p->n_nodes; i++)
        if (p->nodes[i].kernel && p->nodes[i].kernel->release)
            p->nodes[i].kernel->release(p->nodes[i].state);
    if (p->dev && p->owned)
        for (int i = 0; i < p->g->n_values; i++)
            if (p->owned[i]) cc_cuda_free(p->dev[i]);
    free(p->host);
    free(p->dev);
    free(p->owned);
    free(p->kind);
    free(p->nodes);
    free(p);
}

static int in_list(const int *list, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (list[i] == v) return 1;
    return 0;
}

/* Checks the graph (cc_graph_check) and classifies every value. */
static cc_status check_graph(const cc_graph *g, unsigned char *kind, cc_err *err)
{
    cc_status st = cc_graph_check(g, "cuda", kind, err); /* kind[v] = 1 where a node produces v */
    if (st) return st;
    for (int v = 0; v < g->n_values; v++)
        kind[v] = kind[v] ? VAL_PRODUCED : g->values[v].data ? VAL_CONST : VAL_UNUSED;
    for (int i = 0; i < g->n_inputs; i++) kind[g->inputs[i]] = VAL_INPUT;
    return CC_OK;
}

/* Uploads constant value v once (on its first use by a node). */
static cc_status upload_const(cc_cuda_ctx *c, cuda_plan *p, int v, cc_err *err)
{
    if (p->dev[v]) return CC_OK;
    const cc_tensor *t = &p->g->values[v];
    size_t bytes = cc_tensor_bytes(t);
    cc_status st = cc_cuda_alloc(bytes, &p->dev[v], "constant", err);
    if (st) return st;
    p->owned[v] = 1;
    return cc_cuda_put(c, p->dev[v], t->data, bytes, "constant upload", err);
}

static cc_status cuda_prepare(void *ctx, const cc_graph *g, void **plan, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    cc_status st = cc_cuda_check(cudaSetDevice(c->device), "cudaSetDevice", err);
    if (st) return st;
    cuda_plan *p = calloc(1, sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "cuda: out of memory");
    p->g = g;
    size_t nv = g->n_values > 0 ? (size_t)g->n_values : 1;
    size_t nn = g->n_nodes > 0 ? (size_t)g->n_nodes : 1;
    p->host = calloc(nv, sizeof *p->host);
    p->dev = calloc(nv, sizeof *p->dev);
    p->owned = calloc(nv, 1);
    p->kind = calloc(nv, 1);
    p->nodes = calloc(nn, sizeof *p->nodes);
    if (!p->host || !p->dev || !p->owned || !p->kind || !p->nodes) {
        st = cc_err_set(err, CC_ERR_NOMEM, "cuda: out of memory");
        goto fail;
    }
    st = check_graph(g, p->kind, err);
    if (st) goto fail;
    for (int i = 0; i < g->n_values; i++) p->host[i] = g->values[i];

    /* Shapes, support, constants and intermediate storage, node by node. */
    for (int n = 0; n < g->n_nodes; n++) {
        const cc_node *node = &g->nodes[n];
        const cc_tensor *in[CC_MAX_IO];
        cc_tensor out[CC_MAX_IO];
        node_inputs(p->host, node, in);
        memset(out, 0, sizeof out);
        st = node->op->infer(node, in, node->n_out, out, err);
        if (st) goto fail;
        plan_node *pn = &p->nodes[n];
        pn->node = node;
        pn->kernel = find_kernel(node->op->name);
        char reason[256];
        if (kernel_supports(c, pn->kernel, node, in, reason, sizeof reason) != CC_SUPPORT_YES) {
            st = cc_err_set(err, CC_ERR_UNSUPPORTED, "%s", reason);
            goto fail;
        }
        for (int i = 0; i < node->n_in; i++)
            if (node->in[i] >= 0 && p->kind[node->in[i]] == VAL_CONST &&
                (st = upload_const(c, p, node->in[i], err)))
                goto fail;
        for (int j = 0; j < node->n_out; j++) {
            int v = node->out[j];
            const cc_tensor *want = &g->values[v];
            if (in_list(g->outputs, g->n_outputs, v) &&
                (want->dtype != out[j].dtype || !cc_shape_equal(&want->shape, &out[j].shape))) {
                char a[96], b[96];
                st = cc_err_set(err, CC_ERR_ARG, "cuda: graph output value %d is %s:%s, but %s gives %s:%s",
                                v, cc_shape_format(&want->shape, a, sizeof a),
                                cc_dtype_name(want->dtype), node->op->name,
                                cc_shape_format(&out[j].shape, b, sizeof b),
                                cc_dtype_name(out[j].dtype));
                goto fail;
            }
            p->host[v] = out[j];
            p->host[v].data = NULL;
            if (!in_list(g->outputs, g->n_outputs, v)) {
                st = cc_cuda_alloc(cc_tensor_bytes(&out[j]), &p->dev[v], "intermediate value", err);
                if (st) goto fail;
                p->owned[v] = 1;
            }
        }
    }

    for (int j = 0; j < g->n_outputs; j++)
        if (p->kind[g->outputs[j]] == VAL_CONST && (st = upload_const(c, p, g->outputs[j], err)))
            goto fail;

    /* Kernel preparation, with every value's description final. */
    for (int n = 0; n < g->n_nodes; n++) {
        plan_node *pn = &p->nodes[n];
        const cc_node *node = pn->node;
        const cc_tensor *in[CC_MAX_IO];
        cc_tensor out[CC_MAX_IO];
        node_inputs(p->host, node, in);
        for (int j = 0; j < node->n_out; j++) out[j] = p->host[node->out[j]];
        cc_backend_note_clear();
        if (pn->kernel->prepare) {
            st = pn->kernel->prepare(c, node, in, node->n_out, out, &pn->state, err);
            if (st) goto fail;
        }
        p->n_nodes = n + 1;
        snprintf(pn->note, sizeof pn->note, "%s", cc_backend_note_get());
    }
    p->n_nodes = g->n_nodes;
    *plan = p;
    return CC_OK;

fail:
    cuda_release(ctx, p);
    return st;
}

/* Device views of the node's inputs/outputs: host descriptions with device pointers. */
static void device_views(const cuda_plan *p, const cc_node *node, cc_tensor *vin,
                         const cc_tensor **in, cc_tensor *out)
{
    for (int i = 0; i < CC_MAX_IO; i++) in[i] = NULL;
    for (int i = 0; i < node->n_in; i++) {
        int v = node->in[i];
        if (v < 0) continue;
        vin[i] = p->host[v];
        vin[i].data = p->dev[v];
        in[i] = &vin[i];
    }
    for (int j = 0; j < node->n_out; j++) {
        out[j] = p->host[node->out[j]];
        out[j].data = p->dev[node->out[j]];
    }
}

static cc_status cuda_run(void *ctx, void *plan, void *const *inputs, void *const *outputs,
                          cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    cuda_plan *p = plan;
    const cc_graph *g = p->g;
    cc_status st = cc_cuda_check(cudaSetDevice(c->device), "cudaSetDevice", err);
    if (st) return st;
    /* A produced output is written straight into the first output buffer naming it. */
    for (int j = g->n_outputs - 1; j >= 0; j--) {
        int v = g->outputs[j];
        if (p->kind[v] == VAL_PRODUCED) p->dev[v] = outputs[j];
    }
    for (int i = 0; i < g->n_inputs; i++) p->dev[g->inputs[i]] = inputs[i];

    for (int n = 0; n < p->n_nodes; n++) {
        plan_node *pn = &p->nodes[n];
        const cc_node *node = pn->node;
        cc_tensor vin[CC_MAX_IO], out[CC_MAX_IO];
        const cc_tensor *in[CC_MAX_IO];
        device_views(p, node, vin, in, out);
        st = pn->kernel->run(c, node, in, node->n_out, out, pn->state, err);
        if (st) return st;
    }
    /* Outputs that no node wrote into their buffer: graph inputs or constants passed
     * through, and a value listed as more than one output. */
    for (int j = 0; j < g->n_outputs; j++) {
        int v = g->outputs[j];
        if (p->dev[v] == outputs[j]) continue;
        st = cc_cuda_check(cudaMemcpyAsync(outputs[j], p->dev[v], cc_tensor_bytes(&p->host[v]),
                                           cudaMemcpyDeviceToDevice, c->stream),
                           "output copy", err);
        if (st) return st;
    }
    return CC_OK;
}

static cc_status cuda_run_timed(void *ctx, void *plan, void *const *inputs, void *const *outputs,
                                double *device_seconds, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    cc_status st = cc_cuda_check(cudaEventRecord(c->ev_start, c->stream), "cudaEventRecord", err);
    if (st) return st;
    st = cuda_run(ctx, plan, inputs, outputs, err);
    if (st) return st;
    st = cc_cuda_check(cudaEventRecord(c->ev_stop, c->stream), "cudaEventRecord", err);
    if (st) return st;
    st = cc_cuda_check(cudaEventSynchronize(c->ev_stop), "cudaEventSynchronize", err);
    if (st) return st;
    float ms = 0;
    st = cc_cuda_check(cudaEventElapsedTime(&ms, c->ev_start, c->ev_stop), "cudaEventElapsedTime",
                       err);
    if (st) return st;
    *device_seconds = ms * 1e-3;
    return CC_OK;
}

/* Node i of the plan for describe_plan: its op and kernel note. */
static const char *cuda_note(const void *plan, int i, const cc_op_def **op)
{
    const plan_node *pn = &((const cuda_plan *)plan)->nodes[i];
    *op = pn->node->op;
    return pn->note;
}

/* Writes "Conv: cudnn IMPLICIT_GEMM; Relu: cudnn" with identical entries counted. */
static void cuda_describe_plan(void *ctx, void *plan, char *buf, size_t n)
{
    (void)ctx;
    const cuda_plan *p = plan;
    cc_backend_describe_plan(p, p ? p->n_nodes : 0, cuda_note, buf, n);
}

const cc_target_iface cc_target_cuda = {
    .abi_version = CC_TARGET_ABI_VERSION,
    .struct_size = sizeof(cc_target_iface),
    .name = "cuda",
    .description = "NVIDIA GPUs: cuDNN, cuBLASLt and the project's CUDA kernels",
    .hidden = 0,
    .open = cuda_open,                 /* GPU index and tf32 from the device string */
    .close = cuda_close,
    .supports = cuda_supports,         /* by kernel table, then the kernel's own check */
    .buffer_alloc = cuda_buffer_alloc, /* cudaMalloc */
    .buffer_free = cuda_buffer_free,
    .upload = cuda_upload,             /* cudaMemcpyAsync on the backend's stream + wait */
    .download = cuda_download,
    .prepare = cuda_prepare,           /* constants, intermediates, descriptors, algorithms */
    .run = cuda_run,                   /* enqueues every node on the stream */
    .sync = cuda_sync,                 /* cudaStreamSynchronize */
    .release = cuda_release,
    .run_timed = cuda_run_timed,       /* CUDA events around the graph's kernels */
    .describe_plan = cuda_describe_plan, /* library algorithm or kernel per node */
};
