/* cpu.c — the cpu backend: its vtable, device description, dispatch of nodes to the
 * kernel tables of the family files, graph plans (host tensors for intermediate values,
 * per-node kernel state) and the shared dtype conversion helpers.
 *
 * Threads: every kernel parallelises with OpenMP, and OpenBLAS runs single-threaded,
 * called by each OpenMP thread on its part of a GEMM (cc_cpu_sgemm, common.c). With
 * OpenBLAS's own worker threads beside OpenMP's, each pool spins while the other works
 * and on two cores a 3x3 convolution took 4 to 7 times longer (median). */
#include "cpu.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "common.h"

extern const cc_cpu_family cc_cpu_family_conv;
extern const cc_cpu_family cc_cpu_family_pool;
extern const cc_cpu_family cc_cpu_family_norm;
extern const cc_cpu_family cc_cpu_family_matmul;
extern const cc_cpu_family cc_cpu_family_quant;
extern const cc_cpu_family cc_cpu_family_eltwise;
extern const cc_cpu_family cc_cpu_family_reduce;
extern const cc_cpu_family cc_cpu_family_shape;
extern const cc_cpu_family cc_cpu_family_resize;

static const cc_cpu_family *const families[] = {
    &cc_cpu_family_conv,    &cc_cpu_family_pool,   &cc_cpu_family_norm,
    &cc_cpu_family_matmul,  &cc_cpu_family_quant,  &cc_cpu_family_eltwise,
    &cc_cpu_family_reduce,  &cc_cpu_family_shape,  &cc_cpu_family_resize,
};
#define N_FAMILIES ((int)(sizeof families / sizeof families[0]))

static const cc_cpu_kernel *find_kernel(const char *op)
{
    for (int f = 0; f < N_FAMILIES; f++) {
        for (int i = 0; i < families[f]->n; i++)
            if (strcmp(families[f]->kernels[i].op, op) == 0) return &families[f]->kernels[i];
    }
    return NULL;
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

/* ---- support ------------------------------------------------------------------------- */

static void node_inputs(const cc_tensor *vals, const cc_node *node, const cc_tensor **in)
{
    for (int i = 0; i < CC_MAX_IO; i++) in[i] = NULL;
    for (int i = 0; i < node->n_in && i < CC_MAX_IO; i++)
        in[i] = node->in[i] >= 0 ? &vals[node->in[i]] : NULL;
}

/* Inputs as kernels see them in supports() and prepare(): final descriptions, with data
 * only for constants of the graph. An intermediate's buffer already exists at prepare
 * time but holds nothing yet; a kernel must not mistake it for a constant. */
static void prepare_inputs(const cc_graph *g, const cc_tensor *vals, const cc_node *node,
                           cc_tensor *tmp, const cc_tensor **in)
{
    for (int i = 0; i < CC_MAX_IO; i++) in[i] = NULL;
    for (int i = 0; i < node->n_in && i < CC_MAX_IO; i++) {
        int v = node->in[i];
        if (v < 0) continue;
        tmp[i] = vals[v];
        tmp[i].data = g->values[v].data;
        in[i] = &tmp[i];
    }
}

static cc_support kernel_supports(const cc_cpu_kernel *k, const cc_node *node,
                                  const cc_tensor *const *in, char *reason, size_t n)
{
    if (!k) {
        snprintf(reason, n, "cpu has no kernel for %s", node->op ? node->op->name : "?");
        return CC_SUPPORT_NO;
    }
    return k->supports ? k->supports(node, in, reason, n) : CC_SUPPORT_YES;
}

static cc_support cpu_supports(void *ctx, const cc_graph *g, const cc_node *node, char *reason,
                               size_t reason_size)
{
    (void)ctx;
    if (reason_size) reason[0] = '\0';
    const cc_tensor *in[CC_MAX_IO];
    if (!cc_backend_inputs_valid(g, node, reason, reason_size)) return CC_SUPPORT_NO;
    node_inputs(g->values, node, in);
    return kernel_supports(find_kernel(node->op->name), node, in, reason, reason_size);
}

/* ---- plans --------------------------------------------------------------------------- */

typedef struct plan_node {
    const cc_node *node;
    const cc_cpu_kernel *kernel;
    void *state;
    char note[CC_BACKEND_NOTE_MAX];
} plan_node;

typedef struct cpu_plan {
    const cc_graph *g;
    cc_tensor *vals;       /* the graph's values: shapes inferred, data bound or owned */
    unsigned char *owned;  /* vals[i].data allocated by the plan */
    plan_node *nodes;
    int n_nodes;
} cpu_plan;

static void cpu_release(void *ctx, void *plan)
{
    (void)ctx;
    cpu_plan *p = plan;
    if (!p) return;
    for (int i = 0; i < p->n_nodes; i++)
        if (p->nodes[i].kernel && p->nodes[i].kernel->release)
            p->nodes[i].kernel->release(p->nodes[i].state);
    if (p->vals)
        for (int i = 0; i < p->g->n_values; i++)
            if (p->owned[i]) cc_tensor_free(&p->vals[i]);
    free(p->vals);
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


static cc_status cpu_prepare(void *ctx, const cc_graph *g, void **plan, cc_err *err)
{
    (void)ctx;
    cc_status st = CC_OK;
    unsigned char *produced = NULL;
    cpu_plan *p = calloc(1, sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "cpu: out of memory");
    p->g = g;
    size_t nv = g->n_values > 0 ? (size_t)g->n_values : 1;
    size_t nn = g->n_nodes > 0 ? (size_t)g->n_nodes : 1;
    p->vals = calloc(nv, sizeof *p->vals);
    p->owned = calloc(nv, 1);
    p->nodes = calloc(nn, sizeof *p->nodes);
    produced = calloc(nv, 1);
    if (!p->vals || !p->owned || !p->nodes || !produced) {
        st = cc_err_set(err, CC_ERR_NOMEM, "cpu: out of memory");
        goto fail;
    }
    st = cc_graph_check(g, "cpu", produced, err);
    if (st) goto fail;
    for (int i = 0; i < g->n_values; i++) p->vals[i] = g->values[i];

    /* Shapes, support and intermediate storage, node by node in topological order. */
    for (int n = 0; n < g->n_nodes; n++) {
        const cc_node *node = &g->nodes[n];
        const cc_tensor *in[CC_MAX_IO];
        cc_tensor out[CC_MAX_IO], tmp[CC_MAX_IO];
        prepare_inputs(g, p->vals, node, tmp, in);
        memset(out, 0, sizeof out);
        st = node->op->infer(node, in, node->n_out, out, err);
        if (st) goto fail;
        plan_node *pn = &p->nodes[n];
        pn->node = node;
        pn->kernel = find_kernel(node->op->name);
        char reason[256];
        if (kernel_supports(pn->kernel, node, in, reason, sizeof reason) != CC_SUPPORT_YES) {
            st = cc_err_set(err, CC_ERR_UNSUPPORTED, "%s", reason);
            goto fail;
        }
        for (int j = 0; j < node->n_out; j++) {
            int v = node->out[j];
            const cc_tensor *desc = &g->values[v];
            if (in_list(g->outputs, g->n_outputs, v)) {
                if (desc->dtype != out[j].dtype || !cc_shape_equal(&desc->shape, &out[j].shape)) {
                    char a[96], b[96];
                    st = cc_err_set(err, CC_ERR_ARG,
                                    "cpu: graph output value %d is %s:%s, but %s gives %s:%s", v,
                                    cc_shape_format(&desc->shape, a, sizeof a),
                                    cc_dtype_name(desc->dtype), node->op->name,
                                    cc_shape_format(&out[j].shape, b, sizeof b),
                                    cc_dtype_name(out[j].dtype));
                    goto fail;
                }
                p->vals[v] = out[j];
                p->vals[v].data = NULL; /* bound at run */
            } else {
                st = cc_tensor_alloc(&p->vals[v], out[j].dtype, &out[j].shape, err);
                if (st) goto fail;
                p->owned[v] = 1;
            }
        }
    }

    /* Kernel preparation, with every value's description final. */
    for (int n = 0; n < g->n_nodes; n++) {
        plan_node *pn = &p->nodes[n];
        const cc_node *node = pn->node;
        const cc_tensor *in[CC_MAX_IO];
        cc_tensor out[CC_MAX_IO], tmp[CC_MAX_IO];
        prepare_inputs(g, p->vals, node, tmp, in);
        for (int j = 0; j < node->n_out; j++) out[j] = p->vals[node->out[j]];
        cc_backend_note_clear();
        if (pn->kernel->prepare) {
            st = pn->kernel->prepare(node, in, node->n_out, out, &pn->state, err);
            if (st) goto fail;
        }
        p->n_nodes = n + 1;
        snprintf(pn->note, sizeof pn->note, "%s", cc_backend_note_get());
    }
    p->n_nodes = g->n_nodes;
    free(produced);
    *plan = p;
    return CC_OK;

fail:
    free(produced);
    cpu_release(ctx, p);
    return st;
}

static cc_status cpu_run(void *ctx, void *plan, void *const *inputs, void *const *outputs,
                         cc_err *err)
{
    (void)ctx;
    cpu_plan *p = plan;
    const cc_graph *g = p->g;
    /* A produced output is written straight into the first output buffer naming it. */
    for (int j = g->n_outputs - 1; j >= 0; j--) {
        int v = g->outputs[j];
        if (!p->owned[v] && !g->values[v].data && !in_list(g->inputs, g->n_inputs, v))
            p->vals[v].data = outputs[j];
    }
    for (int i = 0; i < g->n_inputs; i++) p->vals[g->inputs[i]].data = inputs[i];

    for (int n = 0; n < p->n_nodes; n++) {
        plan_node *pn = &p->nodes[n];
        const cc_node *node = pn->node;
        const cc_tensor *in[CC_MAX_IO];
        cc_tensor out[CC_MAX_IO];
        node_inputs(p->vals, node, in);
        for (int j = 0; j < node->n_out; j++) out[j] = p->vals[node->out[j]];
        cc_status st = pn->kernel->run(node, in, node->n_out, out, pn->state, err);
        if (st) return st;
    }
    /* Outputs that no node wrote into their buffer: graph inputs or constants passed
     * through, and a value listed as more than one output. */
    for (int j = 0; j < g->n_outputs; j++) {
        const cc_tensor *t = &p->vals[g->outputs[j]];
        if (t->data != outputs[j]) memcpy(outputs[j], t->data, cc_tensor_bytes(t));
    }
    return CC_OK;
}

/* Node i of the plan for describe_plan: its op and kernel note. */
static const char *cpu_note(const void *plan, int i, const cc_op_def **op)
{
    const plan_node *pn = &((const cpu_plan *)plan)->nodes[i];
    *op = pn->node->op;
    return pn->note;
}

/* Writes "Conv: im2col+sgemm; Relu" with identical entries counted ("Conv: 1x1 sgemm x3"). */
static void cpu_describe_plan(void *ctx, void *plan, char *buf, size_t n)
{
    (void)ctx;
    const cpu_plan *p = plan;
    cc_backend_describe_plan(p, p ? p->n_nodes : 0, cpu_note, buf, n);
}

const cc_target_iface cc_target_cpu = {
    .abi_version = CC_TARGET_ABI_VERSION,
    .struct_size = sizeof(cc_target_iface),
    .name = "cpu",
    .description = "portable CPU backend: C + OpenMP, GEMM through OpenBLAS",
    .hidden = 0,
    .open = cpu_open,                   /* device description, OpenBLAS threads */
    .close = cpu_close,
    .supports = cpu_supports,           /* by kernel table, then the kernel's own check */
    .buffer_alloc = cc_host_buffer_alloc, /* host memory */
    .buffer_free = cc_host_buffer_free,
    .upload = cc_host_upload,
    .download = cc_host_download,
    .prepare = cpu_prepare,             /* shapes, intermediates, kernel state */
    .run = cpu_run,                     /* nodes in order, synchronously */
    .sync = cc_host_sync,               /* nothing in flight */
    .release = cpu_release,
    .run_timed = NULL,                  /* host clock */
    .describe_plan = cpu_describe_plan, /* kernel variant per node */
};
