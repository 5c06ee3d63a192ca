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

/* ---- the dtypes of target ABI 8 ---------------------------------------------------------- *
 *
 * A node that reads or writes f64, i16, u16, u32 or u64 runs on a kernel listed for them:
 * one of wide.c (ops whose ABI 7 kernels compute in f32 or treat integers as signed), or
 * the ABI 7 kernel itself of an op below, which either moves elements by their size or
 * computes through each dtype's own loader and store; that kernel's supports() still
 * decides which dtypes it takes. Every other op declines such a node with the op and the
 * dtype ("cpu has no f64 kernel for Conv"): a whitelist, so an op added later is declined
 * until someone has looked at its kernel. */
static const cc_op_id wide_reused[] = {
    /* elements moved by their size */
    CC_OP_ID_Identity, CC_OP_ID_Dropout, CC_OP_ID_Flatten, CC_OP_ID_Reshape, CC_OP_ID_Squeeze,
    CC_OP_ID_Unsqueeze, CC_OP_ID_Transpose, CC_OP_ID_Concat, CC_OP_ID_Split, CC_OP_ID_Slice,
    CC_OP_ID_Expand, CC_OP_ID_Tile, CC_OP_ID_Gather, CC_OP_ID_GatherElements, CC_OP_ID_GatherND,
    CC_OP_ID_DepthToSpace, CC_OP_ID_SpaceToDepth, CC_OP_ID_Trilu, CC_OP_ID_Pad, CC_OP_ID_OneHot,
    CC_OP_ID_ReverseSequence, CC_OP_ID_Compress, CC_OP_ID_Shape, CC_OP_ID_Size,
    CC_OP_ID_Where, /* eltwise_logic.c: 1, 2, 4 or 8-byte words picked as they are */
    /* values through the dtype's loader and store (cc_load/cc_store: exact for these) */
    CC_OP_ID_EyeLike, CC_OP_ID_ConstantOfShape, CC_OP_ID_NonZero,
    /* the shared lowering's values in the output's dtype (cc_lower_generate: f64 in double,
     * i16 in 64 bits stored wrapped) */
    CC_OP_ID_Range,
    /* dtype-aware for every dtype: Cast (cast.c), ScatterND/ScatterElements' reductions and
     * Unique's comparisons (shape.c, dynamic.c), the Reduce* ops in double for f64
     * (reduce.c) and Einsum (matmul.c) */
    CC_OP_ID_Cast, CC_OP_ID_CastLike, CC_OP_ID_ScatterND, CC_OP_ID_ScatterElements, CC_OP_ID_Unique,
    CC_OP_ID_ReduceMean, CC_OP_ID_ReduceMax, CC_OP_ID_ReduceMin, CC_OP_ID_ReduceSum,
    CC_OP_ID_ReduceProd, CC_OP_ID_ReduceL1, CC_OP_ID_ReduceL2, CC_OP_ID_ReduceLogSum,
    CC_OP_ID_ReduceLogSumExp, CC_OP_ID_ReduceSumSquare, CC_OP_ID_Einsum,
    /* f64 through cblas_dgemm (matmul.c); nearest copies elements by size, linear and
     * cubic decline these dtypes (resize.c) */
    CC_OP_ID_Gemm, CC_OP_ID_MatMul, CC_OP_ID_Resize,
};

/* The families' kernels by op id (narrow: ABI 7's dtypes; wide: those of ABI 8), and the
 * table the planner dispatches through: one dispatching kernel per op, built once (by the
 * first open). */
static cc_kernel_table narrow_table, wide_table, kernel_table;
static cc_kernel dispatchers[CC_OP_ID_COUNT];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static cc_status table_status;
static cc_err table_err;


/* The kernel that runs node: the wide table's for a node of ABI 8's dtypes, else the
 * narrow one's (NULL: none; *d then names the wide dtype when there is one). */
static const cc_kernel *kernel_for(const cc_node *node, const cc_tensor *const *in, const cc_tensor *out, cc_dtype *d)
{
    *d = CC_DTYPE_COUNT;
    int id = node->op->id;
    return cc_backend_node_wide(node, in, out, d) ? wide_table.by_id[id] : narrow_table.by_id[id];
}

static cc_support dispatch_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                    char *reason, size_t n)
{
    cc_dtype d;
    const cc_kernel *k = kernel_for(node, in, out, &d);
    if (!k) {
        if (d < CC_DTYPE_COUNT) snprintf(reason, n, "cpu has no %s kernel for %s", cc_dtype_name(d), node->op->name);
        else snprintf(reason, n, "cpu has no kernel for %s", node->op->name);
        return CC_SUPPORT_NO;
    }
    /* a shape input computed at run time: the kernel is prepared at each run for the
       actual values (dispatch_run), its own checks then */
    if (cc_op_runtime_shape_input(node->op, node->n_in, in) >= 0) return CC_SUPPORT_YES;
    return k->supports ? k->supports(ctx, node, in, out, reason, n) : CC_SUPPORT_YES;
}

/* A dispatched kernel's state: which kernel it is, and that kernel's own state. Kernels
 * without prepare() have none (run() finds the kernel again from the dtypes). A node
 * whose shape input is computed at run time is deferred: prepared, run and released at
 * each run, for the shape its actual values give. */
typedef struct dispatch_state {
    const cc_kernel *k;
    void *state;
    int deferred;
} dispatch_state;

static cc_status dispatch_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                  const cc_tensor *out, void **state, cc_err *err)
{
    cc_dtype d;
    const cc_kernel *k = kernel_for(node, in, out, &d);
    if (!k) return cc_err_set(err, CC_ERR_UNSUPPORTED, "cpu has no kernel for %s", node->op->name);
    *state = NULL;
    int deferred = cc_op_runtime_shape_input(node->op, node->n_in, in) >= 0;
    if (!k->prepare && !deferred) return CC_OK;
    dispatch_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", node->op->name);
    s->k = k;
    s->deferred = deferred;
    if (deferred) {
        cc_backend_note("prepared at each run for the shape its inputs' values give");
        *state = s;
        return CC_OK;
    }
    cc_status st = k->prepare(ctx, node, in, n_out, out, &s->state, err);
    if (st) {
        free(s);
        return st;
    }
    *state = s;
    return CC_OK;
}

/* A deferred node's run: its shape from the actual values (every input is on the host
 * here), within the bound its buffers have; then the kernel, prepared for that shape. */
static cc_status deferred_run(void *ctx, const cc_kernel *k, const cc_node *node, const cc_tensor *const *in,
                              int n_out, cc_tensor *out, cc_err *err)
{
    cc_tensor od[CC_MAX_IO];
    cc_status st = node->op->infer(node, in, n_out, od, err);
    if (st) return st;
    for (int j = 0; j < n_out; j++) {
        if (!cc_shape_within(&od[j].shape, &out[j].shape)) {
            char a[96], b[96];
            return cc_err_set(err, CC_ERR_ARG, "%s: output %d comes out %s, outside its bound %s", node->op->name, j,
                              cc_shape_format(&od[j].shape, a, sizeof a), cc_shape_format(&out[j].shape, b, sizeof b));
        }
        out[j].shape = od[j].shape;
    }
    char why[256] = "";
    if (k->supports && k->supports(ctx, node, in, out, why, sizeof why) != CC_SUPPORT_YES) /* its own checks */
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s", why[0] ? why : "cpu declines it for these values");
    void *ks = NULL;
    if (k->prepare && (st = k->prepare(ctx, node, in, n_out, out, &ks, err))) return st;
    st = k->run(ctx, node, in, n_out, out, ks, err);
    if (k->release) k->release(ks);
    return st;
}

static void dispatch_release(void *state)
{
    dispatch_state *s = state;
    if (!s) return;
    if (s->k->release && !s->deferred) s->k->release(s->state);
    free(s);
}

static cc_status dispatch_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                              void *state, cc_err *err)
{
    dispatch_state *s = state;
    if (s && s->deferred) return deferred_run(ctx, s->k, node, in, n_out, out, err);
    if (s) return s->k->run(ctx, node, in, n_out, out, s->state, err);
    cc_dtype d;
    const cc_kernel *k = kernel_for(node, in, out, &d);
    if (!k) return cc_err_set(err, CC_ERR_UNSUPPORTED, "cpu has no kernel for %s", node->op->name);
    return k->run(ctx, node, in, n_out, out, NULL, err);
}

static void build_table(void)
{
    const cc_kernel_list *const wide_families[] = { &cc_cpu_family_wide };
    cc_err *e = &table_err;
    if ((table_status = cc_kernel_table_build(&narrow_table, families, N_FAMILIES, "cpu", e)) ||
        (table_status = cc_kernel_table_build(&wide_table, wide_families, 1, "cpu (wide dtypes)", e)))
        return;
    for (size_t i = 0; i < sizeof wide_reused / sizeof wide_reused[0]; i++) {
        cc_op_id id = wide_reused[i];
        if (wide_table.by_id[id] || !narrow_table.by_id[id]) {
            table_status = cc_err_set(e, CC_ERR_INTERNAL, "cpu: %s is listed for the wide dtypes %s",
                                      cc_op_info_of(id)->name, wide_table.by_id[id] ? "twice" : "without a kernel");
            return;
        }
        wide_table.by_id[id] = narrow_table.by_id[id];
    }
    memset(&kernel_table, 0, sizeof kernel_table);
    for (int id = 0; id < CC_OP_ID_COUNT; id++) {
        if (!narrow_table.by_id[id] && !wide_table.by_id[id]) continue;
        dispatchers[id] = (cc_kernel){ .op = (cc_op_id)id, .supports = dispatch_supports,
                                       .prepare = dispatch_prepare, .release = dispatch_release,
                                       .run = dispatch_run };
        kernel_table.by_id[id] = &dispatchers[id];
    }
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
    .dtypes = (1u << CC_DTYPE_COUNT) - 1u, /* every dtype; the kernels decline per op (above) */
};
