/* cuda.c — the cuda backend: its vtable, opening the device (and failing cleanly, with
 * CUDA's own reason, where there is none), device buffers, the memory hooks and kernel
 * table of the shared planner (../plan.h: constants uploaded and intermediates allocated
 * once in prepare, nodes enqueued on one stream in run) and CUDA-event timing.
 *
 * Device string: words separated by ':' or '+': a GPU index ("1") and "tf32", which lets
 * FP32 GEMMs and convolutions use TF32 tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32,
 * CUDNN_TENSOR_OP_MATH); without it FP32 work is FP32 arithmetic only (CUBLAS_COMPUTE_32F,
 * CUDNN_FMA_MATH), because cuDNN's default math mode would allow TF32 on Ampere and later.
 * `crosscheck run --targets cuda:tf32` selects it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

#ifndef CC_CUDA_MIN_SM
#define CC_CUDA_MIN_SM 80 /* the oldest architecture the build has kernels for */
#endif

static const cc_kernel_list *const families[] = {
    &cc_cuda_family_conv,    &cc_cuda_family_pool,      &cc_cuda_family_matmul,
    &cc_cuda_family_eltwise, &cc_cuda_family_reduce,    &cc_cuda_family_normquant,
    &cc_cuda_family_shape,   &cc_cuda_family_resize,
};
#define N_FAMILIES ((int)(sizeof families / sizeof families[0]))

/* The families' kernels by op id, built once (by the first open). */
static cc_kernel_table kernel_table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static cc_status table_status;
static cc_err table_err;

static void build_table(void)
{
    table_status = cc_kernel_table_build(&kernel_table, families, N_FAMILIES, "cuda", &table_err);
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
    pthread_once(&table_once, build_table);
    if (table_status) {
        *err = table_err;
        return table_status;
    }
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
    d.f32_contraction_bits = tf32 ? 11 : 0; /* TF32: 10 stored bits + the implicit one */
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

/* ---- plans (the shared planner) ------------------------------------------------------------- */

static cc_status cuda_enter(void *ctx, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    return cc_cuda_check(cudaSetDevice(c->device), "cudaSetDevice", err);
}

static cc_status cuda_copy(void *ctx, void *dst, const void *src, size_t bytes, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    return cc_cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, c->stream),
                         "output copy", err);
}

static const cc_plan_backend planner = {
    .name = "cuda",
    .kernels = &kernel_table,
    .host_memory = 0,
    .warm_up = 0,
    .alloc = cuda_buffer_alloc,
    .free = cuda_buffer_free,
    .upload = cuda_upload,
    .copy = cuda_copy,
    .sync = cuda_sync,
    .enter = cuda_enter,
};

CC_PLAN_VTABLE_FUNCTIONS(static, cuda, planner)

/* A device opened with "tf32" is FP32 on TF32 tensor cores: TF32 changes f32 math alone, so
 * it declines a node with f16, bf16 or 8-bit values (those precisions run on plain cuda and
 * would only repeat its results under another name). */
static cc_support cuda_supports_mode(void *ctx, const cc_graph *g, const cc_node *node, char *reason,
                                     size_t reason_size)
{
    cc_cuda_ctx *c = ctx;
    if (c && c->tf32)
        for (int k = 0; k < node->n_in + node->n_out; k++) {
            int v = k < node->n_in ? node->in[k] : node->out[k - node->n_in];
            if (v < 0) continue;
            cc_dtype d = g->values[v].dtype;
            if (d == CC_F16 || d == CC_BF16 || d == CC_I8 || d == CC_U8) {
                snprintf(reason, reason_size, "cuda:tf32 runs FP32 only (TF32 changes f32 math alone): "
                         "%s values run on cuda", cc_dtype_name(d));
                return CC_SUPPORT_NO;
            }
        }
    return cuda_supports(ctx, g, node, reason, reason_size);
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

const cc_target_iface cc_target_cuda = {
    .abi_version = CC_TARGET_ABI_VERSION,
    .struct_size = sizeof(cc_target_iface),
    .name = "cuda",
    .description = "NVIDIA GPUs: cuDNN, cuBLASLt and the project's CUDA kernels",
    .hidden = 0,
    .open = cuda_open,                 /* GPU index and tf32 from the device string */
    .close = cuda_close,
    .supports = cuda_supports_mode,    /* tf32's FP32-only rule, the planner's checks, the kernel's own */
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
    .output_shape = cuda_output_shape,
};
