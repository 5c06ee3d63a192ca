/* opencl.c — the opencl backend: its vtable, the device (platform and device choice,
 * context, profiling queue, description) and device buffers. Support decisions, plans and
 * their execution are in plan.c, on the shared planner. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl.h"

/* ---- device ------------------------------------------------------------------------------ */

static void device_string(cl_device_id d, cl_device_info what, char *buf, size_t n)
{
    if (clGetDeviceInfo(d, what, n, buf, NULL) != CL_SUCCESS) snprintf(buf, n, "?");
    buf[n - 1] = '\0';
}

static int device_has_extension(cl_device_id d, const char *ext)
{
    size_t n = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &n) != CL_SUCCESS || n == 0) return 0;
    char *s = malloc(n + 1);
    if (!s) return 0;
    int found = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, n, s, NULL) == CL_SUCCESS) {
        s[n] = '\0';
        size_t len = strlen(ext);
        for (char *p = s; (p = strstr(p, ext)) != NULL; p += len)
            if ((p == s || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) found = 1;
    }
    free(s);
    return found;
}

/* Finds the index-th device over all platforms (in platform order). */
static cc_status pick_device(long index, cl_platform_id *pf, cl_device_id *dev, cc_err *err)
{
    cl_uint np = 0;
    cl_int e = clGetPlatformIDs(0, NULL, &np);
    if (e == -1001 || (e == CL_SUCCESS && np == 0))
        return cc_err_set(err, CC_ERR_DEVICE,
                          "opencl: no OpenCL platform found (the ICD loader lists none; install a driver "
                          "such as pocl-opencl-icd)");
    if (e != CL_SUCCESS) return cc_ocl_fail(err, e, "clGetPlatformIDs");
    cl_platform_id plats[16];
    if (np > 16) np = 16;
    if ((e = clGetPlatformIDs(np, plats, NULL)) != CL_SUCCESS) return cc_ocl_fail(err, e, "clGetPlatformIDs");
    long seen = 0;
    for (cl_uint p = 0; p < np; p++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0) continue;
        if (index < seen + (long)nd) {
            cl_device_id ids[64];
            if (nd > 64) nd = 64;
            if ((e = clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, ids, NULL)) != CL_SUCCESS)
                return cc_ocl_fail(err, e, "clGetDeviceIDs");
            *pf = plats[p];
            *dev = ids[index - seen];
            return CC_OK;
        }
        seen += nd;
    }
    return cc_err_set(err, CC_ERR_DEVICE, "opencl: no device %ld (%ld device%s found)", index, seen,
                      seen == 1 ? "" : "s");
}

static void ocl_close(void *ctx)
{
    ocl_ctx *c = ctx;
    if (!c) return;
    for (int i = 0; i < OCL_MAX_PROGRAMS; i++)
        if (c->programs[i]) clReleaseProgram(c->programs[i]);
    free(c->evs);
    if (c->queue) clReleaseCommandQueue(c->queue);
    if (c->context) clReleaseContext(c->context);
    free(c);
}

/* FP32 peak of a CPU device: measured on the host with one thread per compute unit
 * (cc_host_fp32_peak). Other device types: 0, as OpenCL does not say how many lanes a
 * compute unit has. */
static double peak_gflops(const ocl_ctx *c, char *source, size_t n)
{
    cl_uint units = 0;
    if (!c->is_cpu || clGetDeviceInfo(c->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL) || !units)
        return 0;
    return cc_host_fp32_peak((int)units, source, n);
}

static cc_status ocl_open(const char *device, void **ctx, cc_device_desc *desc, cc_err *err)
{
    long index = 0;
    if (device && device[0]) {
        char *end = NULL;
        index = strtol(device, &end, 10);
        if (*end || index < 0)
            return cc_err_set(err, CC_ERR_DEVICE,
                              "opencl: device '%s' is not a device index (opencl:0, opencl:1, ...)", device);
    }
    cc_status st = cc_ocl_tables(err);
    if (st) return st;
    cl_platform_id pf = NULL;
    cl_device_id dev = NULL;
    st = pick_device(index, &pf, &dev, err);
    if (st) return st;
    ocl_ctx *c = calloc(1, sizeof *c);
    if (!c) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    c->platform = pf;
    c->device = dev;
    if (clGetPlatformInfo(pf, CL_PLATFORM_NAME, sizeof c->platform_name, c->platform_name, NULL))
        snprintf(c->platform_name, sizeof c->platform_name, "?");
    if (clGetPlatformInfo(pf, CL_PLATFORM_VERSION, sizeof c->platform_version, c->platform_version, NULL))
        snprintf(c->platform_version, sizeof c->platform_version, "?");
    c->platform_name[sizeof c->platform_name - 1] = c->platform_version[sizeof c->platform_version - 1] = '\0';
    device_string(dev, CL_DEVICE_NAME, c->device_name, sizeof c->device_name);
    device_string(dev, CL_DEVICE_VERSION, c->device_version, sizeof c->device_version);
    device_string(dev, CL_DRIVER_VERSION, c->driver_version, sizeof c->driver_version);
    device_string(dev, CL_DEVICE_OPENCL_C_VERSION, c->c_version, sizeof c->c_version);
    cl_device_fp_config fp = 0;
    clGetDeviceInfo(dev, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL);
    c->correct_div_sqrt = (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
    c->has_fp16 = device_has_extension(dev, "cl_khr_fp16");
    cl_device_fp_config dfp = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof dfp, &dfp, NULL) != CL_SUCCESS) dfp = 0;
    const char *fp64 = getenv("CROSSCHECK_OPENCL_FP64");
    c->has_fp64 = dfp != 0 && device_has_extension(dev, "cl_khr_fp64") && !(fp64 && strcmp(fp64, "off") == 0);
    cl_device_type type = 0;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    c->is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    clGetDeviceInfo(dev, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sizeof c->float_width, &c->float_width, NULL);
    const char *force = getenv("CROSSCHECK_OPENCL_GEMM");
    if (force && strcmp(force, "tiled") == 0) c->gemm = OCL_GEMM_TILED;
    else if (force && strcmp(force, "vector") == 0) c->gemm = OCL_GEMM_VECTOR;
    else if (force && strcmp(force, "naive") == 0) c->gemm = OCL_GEMM_NAIVE;
    else c->gemm = c->is_cpu ? OCL_GEMM_VECTOR : OCL_GEMM_TILED;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof c->max_wg, &c->max_wg, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof c->local_mem, &c->local_mem, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof c->max_alloc, &c->max_alloc, NULL);

    int major = 0, minor = 0;
    if (sscanf(c->c_version, "OpenCL C %d.%d", &major, &minor) != 2 || major * 10 + minor < 12) {
        st = cc_err_set(err, CC_ERR_DEVICE, "opencl: %s offers '%s'; OpenCL C 1.2 is needed",
                        c->device_name, c->c_version);
        goto fail;
    }
    cl_int e = CL_SUCCESS;
    cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)pf, 0 };
    c->context = clCreateContext(props, 1, &dev, NULL, NULL, &e);
    if (!c->context || e != CL_SUCCESS) {
        st = cc_ocl_fail(err, e, "clCreateContext");
        goto fail;
    }
    c->queue = clCreateCommandQueue(c->context, dev, CL_QUEUE_PROFILING_ENABLE, &e);
    if (!c->queue || e != CL_SUCCESS) {
        st = cc_ocl_fail(err, e, "clCreateCommandQueue");
        goto fail;
    }
    /* Division and sqrt correctly rounded where the device can (Div, AveragePool, the
     * quantizers rely on it); otherwise OpenCL allows 2.5 and 3 ulp. */
    snprintf(c->options, sizeof c->options, "-cl-std=CL1.2%s",
             c->correct_div_sqrt ? " -cl-fp32-correctly-rounded-divide-sqrt" : "");
    cc_ocl_cache_dir(c->cache_dir, sizeof c->cache_dir);

    cc_device_desc d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%.80s (%.40s)", c->device_name, c->platform_name);
    snprintf(d.driver, sizeof d.driver, "%.40s; %.80s", c->driver_version, c->device_version);
    snprintf(d.library, sizeof d.library, "%.120s; %.40s; %s; %s", c->platform_version, c->c_version,
             c->has_fp16 ? "cl_khr_fp16 (f16 kernels still store f16, compute f32)"
                         : "no cl_khr_fp16 (f16/bf16 as storage, f32 compute)",
             c->has_fp64 ? "cl_khr_fp64 (f64 in double)" : "no cl_khr_fp64 (f64 declined)");
    d.peak_gflops = peak_gflops(c, d.peak_source, sizeof d.peak_source);
    d.peak_gbps = 0;
    *desc = d;
    *ctx = c;
    return CC_OK;
fail:
    ocl_close(c);
    return st;
}

/* ---- buffers ----------------------------------------------------------------------------- */

cc_status cc_ocl_buffer_alloc(void *ctx, size_t bytes, void **buf, cc_err *err)
{
    ocl_ctx *c = ctx;
    if (bytes > c->max_alloc && c->max_alloc)
        return cc_err_set(err, CC_ERR_NOMEM,
                          "opencl: a buffer of %zu bytes exceeds the device's largest allocation (%llu)", bytes,
                          (unsigned long long)c->max_alloc);
    cl_int e = CL_SUCCESS;
    cl_mem m = clCreateBuffer(c->context, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &e);
    if (!m || e != CL_SUCCESS) return cc_ocl_fail(err, e, "clCreateBuffer");
    *buf = m;
    return CC_OK;
}

void cc_ocl_buffer_free(void *ctx, void *buf)
{
    (void)ctx;
    if (buf) clReleaseMemObject((cl_mem)buf);
}

cc_status cc_ocl_upload(void *ctx, void *buf, const void *src, size_t bytes, cc_err *err)
{
    ocl_ctx *c = ctx;
    if (!bytes) return CC_OK;
    cl_int e = clEnqueueWriteBuffer(c->queue, (cl_mem)buf, CL_TRUE, 0, bytes, src, 0, NULL, NULL);
    return e == CL_SUCCESS ? CC_OK : cc_ocl_fail(err, e, "clEnqueueWriteBuffer");
}

static cc_status ocl_download(void *ctx, const void *buf, void *dst, size_t bytes, cc_err *err)
{
    ocl_ctx *c = ctx;
    if (!bytes) return CC_OK;
    cl_int e = clEnqueueReadBuffer(c->queue, (cl_mem)buf, CL_TRUE, 0, bytes, dst, 0, NULL, NULL);
    return e == CL_SUCCESS ? CC_OK : cc_ocl_fail(err, e, "clEnqueueReadBuffer");
}

cc_status cc_ocl_sync(void *ctx, cc_err *err)
{
    ocl_ctx *c = ctx;
    cl_int e = clFinish(c->queue);
    return e == CL_SUCCESS ? CC_OK : cc_ocl_fail(err, e, "clFinish (a kernel failed on the device)");
}

const cc_target_iface cc_target_opencl = {
    .abi_version = CC_TARGET_ABI_VERSION,
    .struct_size = sizeof(cc_target_iface),
    .name = "opencl",
    .description = "the project's OpenCL C kernels through the OpenCL 1.2 API (any ICD: PoCL, GPU drivers)",
    .hidden = 0,
    .open = ocl_open,                      /* device index over all platforms, profiling queue */
    .close = ocl_close,
    .supports = cc_ocl_supports,           /* the planner's checks, then the family's own */
    .buffer_alloc = cc_ocl_buffer_alloc,   /* cl_mem buffers */
    .buffer_free = cc_ocl_buffer_free,
    .upload = cc_ocl_upload,               /* blocking writes */
    .download = ocl_download,              /* blocking reads (in-order queue: after the run) */
    .prepare = cc_ocl_prepare,             /* programs (cached), kernels, constants, warm-up run */
    .run = cc_ocl_run,                     /* enqueues only */
    .sync = cc_ocl_sync,                   /* clFinish */
    .release = cc_ocl_release,
    .run_timed = cc_ocl_run_timed,         /* sum of the commands' profiling-event times */
    .describe_plan = cc_ocl_describe_plan, /* kernel variant and work-group size per node */
    .output_shape = cc_ocl_output_shape,
    .dtypes = (1u << CC_DTYPE_COUNT) - 1u, /* every dtype; the ops decline per dtype (plan.c) */
};
