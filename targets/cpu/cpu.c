/* cpu.c — the cpu backend: its vtable, device description, the table of the family
 * files' kernels by op id for the shared planner (../plan.h: host buffers, constants read
 * in place) and the shared dtype conversion helpers.
 *
 * Threads: every kernel parallelises with OpenMP, and OpenBLAS runs single-threaded,
 * called by each OpenMP thread on its part of a GEMM (cc_cpu_sgemm, common.c). With
 * OpenBLAS's own worker threads beside OpenMP's, each pool spins while the other works
 * and on two cores a 3x3 convolution took 4 to 7 times longer (median). */
#include "cpu.h"

#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "common.h"

static const cc_kernel_list *const families[] = {
    &cc_cpu_family_conv,    &cc_cpu_family_pool,   &cc_cpu_family_norm,
    &cc_cpu_family_matmul,  &cc_cpu_family_quant,  &cc_cpu_family_eltwise,
    &cc_cpu_family_reduce,  &cc_cpu_family_shape,  &cc_cpu_family_resize,
    &cc_cpu_family_eltwise_logic, &cc_cpu_family_cast, &cc_cpu_family_conv_transpose,
    &cc_cpu_family_recurrent, &cc_cpu_family_dynamic,
};
#define N_FAMILIES ((int)(sizeof families / sizeof families[0]))

/* The families' kernels by op id, built once (by the first open). */
static cc_kernel_table kernel_table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static cc_status table_status;
static cc_err table_err;

static void build_table(void)
{
    table_status = cc_kernel_table_build(&kernel_table, families, N_FAMILIES, "cpu", &table_err);
}

/* ---- dtype conversion ---------------------------------------------------------------- */

/* Element-wise bit manipulation; every branch is a select so the loops vectorise. */
static inline uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline float f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t em = h & 0x7fffu;
    /* normal: rebias the exponent by 127 - 15; inf/NaN: by 255 - 31 (twice as far) */
    uint32_t norm = (em << 13) + (112u << 23) + (em >= 0x7c00u ? (112u << 23) : 0u);
    /* zero and subnormal: em * 2^-24, exact in f32 */
    uint32_t sub = f32_bits((float)(int32_t)em * 0x1p-24f);
    return bits_f32(sign | (em < 0x400u ? sub : norm));
}

static inline uint16_t f32_to_f16(float f)
{
    uint32_t x = f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t a = x & 0x7fffffffu;
    /* NaN: quiet, keeping the top payload bits */
    uint32_t nan = 0x7e00u | ((a & 0x7fffffu) >> 13);
    /* f16 subnormal results (|f| < 2^-14): adding 0.5 leaves the f32 sum with a quantum of
     * 2^-24, so the FPU rounds |f| to the f16 subnormal grid (ties to even); the low bits
     * of the sum are then the f16 significand (0x400 is the smallest normal: correct). */
    uint32_t sub = f32_bits(bits_f32(a) + 0.5f) - 0x3f000000u;
    /* normal: rebias, add just under half an f16 ulp plus the kept lowest bit (ties to
     * even), truncate; a carry runs into the exponent and at the top into inf */
    uint32_t norm = (a - (112u << 23) + 0xfffu + ((a >> 13) & 1u)) >> 13;
    uint32_t r = a > 0x7f800000u ? nan : a >= 0x47800000u ? 0x7c00u : a < 0x38800000u ? sub : norm;
    return (uint16_t)(sign | r);
}

static inline uint16_t f32_to_bf16(float f)
{
    uint32_t x = f32_bits(f);
    uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
    uint32_t nan = (x >> 16) | 0x40u;
    return (uint16_t)((x & 0x7fffffffu) > 0x7f800000u ? nan : rounded);
}

static inline float round_sat(float v, float lo, float hi)
{
    float r = rintf(v); /* default rounding mode: ties to even */
    r = r < lo ? lo : r;
    r = r > hi ? hi : r;
    return v != v ? 0.0f : r;
}

/* Conversion loops run on both cores only when there is enough work. */
#define PAR_MIN 65536

void cc_cpu_to_f32(const void *src, cc_dtype d, float *dst, int64_t n)
{
    switch (d) {
    case CC_F32:
        if (src != dst) memcpy(dst, src, (size_t)n * 4);
        break;
    case CC_F16: {
        const uint16_t *s = src;
#pragma omp parallel for simd schedule(static) if (n > PAR_MIN)
        for (int64_t i = 0; i < n; i++) dst[i] = f16_to_f32(s[i]);
        break;
    }
    case CC_BF16: {
        const uint16_t *s = src;
#pragma omp parallel for simd schedule(static) if (n > PAR_MIN)
        for (int64_t i = 0; i < n; i++) dst[i] = bits_f32((uint32_t)s[i] << 16);
        break;
    }
    case CC_I8: {
        const int8_t *s = src;
        for (int64_t i = 0; i < n; i++) dst[i] = s[i];
        break;
    }
    case CC_U8:
    case CC_BOOL: {
        const uint8_t *s = src;
        for (int64_t i = 0; i < n; i++) dst[i] = d == CC_BOOL ? (s[i] != 0) : s[i];
        break;
    }
    case CC_I32: {
        const int32_t *s = src;
        for (int64_t i = 0; i < n; i++) dst[i] = (float)s[i];
        break;
    }
    case CC_I64: {
        const int64_t *s = src;
        for (int64_t i = 0; i < n; i++) dst[i] = (float)s[i];
        break;
    }
    default:
        break;
    }
}

void cc_cpu_from_f32(const float *src, void *dst, cc_dtype d, int64_t n)
{
    switch (d) {
    case CC_F32:
        if (src != dst) memcpy(dst, src, (size_t)n * 4);
        break;
    case CC_F16: {
        uint16_t *o = dst;
#pragma omp parallel for simd schedule(static) if (n > PAR_MIN)
        for (int64_t i = 0; i < n; i++) o[i] = f32_to_f16(src[i]);
        break;
    }
    case CC_BF16: {
        uint16_t *o = dst;
#pragma omp parallel for simd schedule(static) if (n > PAR_MIN)
        for (int64_t i = 0; i < n; i++) o[i] = f32_to_bf16(src[i]);
        break;
    }
    case CC_I8: {
        int8_t *o = dst;
        for (int64_t i = 0; i < n; i++) o[i] = (int8_t)round_sat(src[i], -128.0f, 127.0f);
        break;
    }
    case CC_U8: {
        uint8_t *o = dst;
        for (int64_t i = 0; i < n; i++) o[i] = (uint8_t)round_sat(src[i], 0.0f, 255.0f);
        break;
    }
    case CC_BOOL: {
        uint8_t *o = dst;
        for (int64_t i = 0; i < n; i++) o[i] = src[i] != 0.0f;
        break;
    }
    case CC_I32: {
        int32_t *o = dst;
        for (int64_t i = 0; i < n; i++) {
            /* 2^31 is the first float past INT32_MAX */
            float r = round_sat(src[i], -2147483648.0f, 2147483648.0f);
            o[i] = r >= 2147483648.0f ? INT32_MAX : (int32_t)r;
        }
        break;
    }
    case CC_I64: {
        int64_t *o = dst;
        for (int64_t i = 0; i < n; i++) {
            float r = round_sat(src[i], -9223372036854775808.0f, 9223372036854775808.0f);
            o[i] = r >= 9223372036854775808.0f ? INT64_MAX : (int64_t)r;
        }
        break;
    }
    default:
        break;
    }
}

const float *cc_cpu_f32_in(const cc_tensor *t, float *scratch)
{
    if (t->dtype == CC_F32) return t->data;
    cc_cpu_to_f32(t->data, t->dtype, scratch, cc_tensor_numel(t));
    return scratch;
}

float *cc_cpu_alloc_f32(int64_t n)
{
    size_t bytes = ((size_t)(n > 0 ? n : 1) * 4 + 63) / 64 * 64;
    return aligned_alloc(64, bytes);
}

/* ---- device -------------------------------------------------------------------------- */

typedef struct cpu_ctx {
    int threads;
} cpu_ctx;

/* Reads the value of the first "key : value" line of /proc/cpuinfo whose key is `key`
 * into buf (truncated to n - 1 bytes). Returns 0 when found. */
static int cpuinfo_field(const char *key, char *buf, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return -1;
    char *line = NULL;
    size_t cap = 0;
    int found = -1;
    size_t klen = strlen(key);
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, key, klen) != 0) continue;
        char *p = line + klen;
        while (*p == ' ' || *p == '\t') p++;
        if (*p != ':') continue;
        p++;
        while (*p == ' ') p++;
        p[strcspn(p, "\n")] = '\0';
        snprintf(buf, n, "%s", p);
        found = 0;
        break;
    }
    free(line);
    fclose(f);
    return found;
}

static const char *openmp_version(void)
{
#if _OPENMP >= 202111
    return "5.2";
#elif _OPENMP >= 202011
    return "5.1";
#elif _OPENMP >= 201811
    return "5.0";
#elif _OPENMP >= 201511
    return "4.5";
#elif _OPENMP >= 201307
    return "4.0";
#else
    return "3.x";
#endif
}

static cc_status cpu_open(const char *device, void **ctx, cc_device_desc *desc, cc_err *err)
{
    if (device && device[0] && strcmp(device, "0") != 0)
        return cc_err_set(err, CC_ERR_DEVICE, "cpu: no device '%s' (the cpu target has only the host)",
                          device);
    pthread_once(&table_once, build_table);
    if (table_status) {
        *err = table_err;
        return table_status;
    }
    cpu_ctx *c = calloc(1, sizeof *c);
    if (!c) return cc_err_set(err, CC_ERR_NOMEM, "cpu: out of memory");
    c->threads = omp_get_max_threads();
    cc_cpu_blas_single_thread(); /* kernels split GEMMs across OpenMP threads themselves */

    cc_device_desc d;
    memset(&d, 0, sizeof d);
    char model[128];
    if (cpuinfo_field("model name", model, sizeof model)) snprintf(model, sizeof model, "unknown CPU");
    snprintf(d.name, sizeof d.name, "%.100s (%d core%s used)", model, c->threads,
             c->threads == 1 ? "" : "s");
    const char *cfg = openblas_get_config();
    snprintf(d.library, sizeof d.library, "%.200s; OpenMP %s (%d)", cfg ? cfg : "OpenBLAS",
             openmp_version(), (int)_OPENMP);
    d.peak_gflops = cc_host_fp32_peak(c->threads, d.peak_source, sizeof d.peak_source);
    d.peak_gbps = 0;
    *desc = d;
    *ctx = c;
    return CC_OK;
}

static void cpu_close(void *ctx) { free(ctx); }

/* ---- plans (the shared planner) ------------------------------------------------------ */

static cc_status host_copy(void *ctx, void *dst, const void *src, size_t bytes, cc_err *err)
{
    (void)ctx;
    (void)err;
    memcpy(dst, src, bytes);
    return CC_OK;
}

static const cc_plan_backend planner = {
    .name = "cpu",
    .kernels = &kernel_table,
    .host_memory = 1,
    .warm_up = 0,
    .alloc = cc_host_buffer_alloc,
    .free = cc_host_buffer_free,
    .upload = cc_host_upload,
    .copy = host_copy,
    .sync = cc_host_sync,
};

CC_PLAN_VTABLE_FUNCTIONS(static, cpu, planner)

const cc_target_iface cc_target_cpu = {
    .abi_version = CC_TARGET_ABI_VERSION,
    .struct_size = sizeof(cc_target_iface),
    .name = "cpu",
    .description = "portable CPU backend: C + OpenMP, GEMM through OpenBLAS",
    .hidden = 0,
    .open = cpu_open,                   /* device description, OpenBLAS threads */
    .close = cpu_close,
    .supports = cpu_supports,           /* the planner's checks, then the kernel's own */
    .buffer_alloc = cc_host_buffer_alloc, /* host memory */
    .buffer_free = cc_host_buffer_free,
    .upload = cc_host_upload,
    .download = cc_host_download,
    .prepare = cpu_prepare,             /* the shared planner: shapes, buffers, kernel state */
    .run = cpu_run,                     /* nodes in order, synchronously */
    .sync = cc_host_sync,               /* nothing in flight */
    .release = cpu_release,
    .run_timed = NULL,                  /* host clock */
    .describe_plan = cpu_describe_plan, /* kernel variant per node */
    .output_shape = cpu_output_shape,   /* NonZero, Unique, NonMaxSuppression */
};
