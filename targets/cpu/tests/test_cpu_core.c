/* test_cpu_core.c — the cpu backend's core: vtable sanity and device description, the
 * f16/bf16 conversion helpers bit for bit against ops/core/dtype.h (every f16/bf16
 * pattern, every rounding tie and a sweep of f32 patterns), integer conversions, and
 * the threaded GEMM helpers against exact sums (row and column splits, transposes, edge
 * tiles), hand-checked Conv and Gemm graphs (one and two nodes) through the full vtable path
 * with guard bytes after every output buffer. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "targets/cpu/common.h"
#include "targets/cpu/cpu.h"

extern const cc_target_iface cc_target_cpu;

#define GUARD 64
#define GUARD_BYTE 0xA5

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ---- vtable ------------------------------------------------------------------------ */

static void test_vtable(void)
{
    const cc_target_iface *t = &cc_target_cpu;
    CHECK(t->abi_version == CC_TARGET_ABI_VERSION);
    CHECK(t->struct_size == sizeof(cc_target_iface));
    CHECK(strcmp(t->name, "cpu") == 0);
    CHECK(t->open && t->close && t->supports && t->buffer_alloc && t->buffer_free && t->upload &&
          t->download && t->prepare && t->run && t->sync && t->release && t->describe_plan);

    void *ctx = NULL;
    cc_device_desc d;
    cc_err e = {0};
    CHECK_OK(t->open("", &ctx, &d, &e));
    CHECK(ctx != NULL);
    CHECK(strstr(d.name, "used)") != NULL);
    CHECK(strstr(d.library, "OpenBLAS") != NULL);
    CHECK(strstr(d.library, "OpenMP") != NULL);
    CHECK(d.peak_gflops >= 0);
    printf("device: %s | %s | peak %.1f GFLOP/s\n", d.name, d.library, d.peak_gflops);

    /* an op with no kernel is NO with a reason naming it */
    cc_op_def fake = { .name = "NoSuchOp", .family = "none", .id = CC_OP_ID_COUNT };
    cc_node node;
    memset(&node, 0, sizeof node);
    node.op = &fake;
    cc_graph g;
    memset(&g, 0, sizeof g);
    char reason[256] = "";
    CHECK(t->supports(ctx, &g, &node, reason, sizeof reason) == CC_SUPPORT_NO);
    CHECK(strcmp(reason, "cpu has no kernel for NoSuchOp") == 0);

    /* the host asks through cc_target_supports: a node of a dtype outside the target's
     * dtypes is NO before supports() sees it (a cpu declaring ABI 7's dtypes, below); one
     * within goes on to supports() (cpu takes every dtype and declines per op:
     * test_cpu_wide); a backend built before ABI 8 (struct_size short of dtypes) gets ABI
     * 7's dtypes whatever lies beyond its struct */
    cc_tensor vals[2];
    memset(vals, 0, sizeof vals);
    vals[0].dtype = vals[1].dtype = CC_F64;
    vals[0].shape = vals[1].shape = cc_shape_make(1, (int64_t[]){ 4 });
    g.values = vals;
    g.n_values = 2;
    cc_node relu;
    memset(&relu, 0, sizeof relu);
    relu.op = cc_catalog_find("Relu");
    relu.n_in = relu.n_out = 1;
    relu.in[0] = 0;
    relu.out[0] = 1;
    cc_target_iface narrow = cc_target_cpu;
    narrow.dtypes = CC_DTYPES_ABI7;
    CHECK(cc_target_supports(&narrow, ctx, &g, &relu, reason, sizeof reason) == CC_SUPPORT_NO);
    CHECK(strcmp(reason, "cpu has no f64 kernels") == 0);
    CHECK(cc_target_supports(t, ctx, &g, &relu, reason, sizeof reason) == CC_SUPPORT_NO);
    CHECK(strstr(reason, "Relu: input dtype f64 is not allowed") != NULL); /* the catalog's own refusal */
    vals[1].dtype = CC_F32; /* the output alone is enough too */
    vals[0].dtype = CC_U16;
    CHECK(cc_target_supports(&narrow, ctx, &g, &relu, reason, sizeof reason) == CC_SUPPORT_NO);
    CHECK(strcmp(reason, "cpu has no u16 kernels") == 0);
    vals[0].dtype = CC_F32;
    CHECK(cc_target_supports(&narrow, ctx, &g, &relu, reason, sizeof reason) == CC_SUPPORT_YES);
    CHECK(cc_target_supports(t, ctx, &g, &relu, reason, sizeof reason) == CC_SUPPORT_YES);
    vals[0].dtype = vals[1].dtype = CC_F64;
    extern const cc_target_iface cc_target_ref;
    CHECK(cc_target_supports(&cc_target_ref, NULL, &g, &relu, reason, sizeof reason) == CC_SUPPORT_YES);
    cc_target_iface old = cc_target_ref;
    old.abi_version = 7;
    old.struct_size = (uint32_t)offsetof(cc_target_iface, dtypes);
    CHECK(cc_target_supports(&old, NULL, &g, &relu, reason, sizeof reason) == CC_SUPPORT_NO);
    CHECK(strcmp(reason, "ref has no f64 kernels") == 0);
    t->close(ctx);

    void *ctx2 = NULL;
    CHECK(t->open("gpu7", &ctx2, &d, &e) == CC_ERR_DEVICE);
    CHECK(ctx2 == NULL);
    t->close(NULL);
    t->release(NULL, NULL);
}

/* ---- conversions ------------------------------------------------------------------- */

static void test_f16_to_f32_exhaustive(void)
{
    uint16_t *h = malloc(65536 * sizeof *h);
    float *f = malloc(65536 * sizeof *f);
    for (uint32_t i = 0; i < 65536; i++) h[i] = (uint16_t)i;
    cc_cpu_to_f32(h, CC_F16, f, 65536);
    int bad = 0;
    for (uint32_t i = 0; i < 65536; i++)
        bad += f32_bits(f[i]) != f32_bits(cc_f16_to_f32((uint16_t)i));
    CHECK(bad == 0);
    cc_cpu_to_f32(h, CC_BF16, f, 65536);
    bad = 0;
    for (uint32_t i = 0; i < 65536; i++)
        bad += f32_bits(f[i]) != f32_bits(cc_bf16_to_f32((uint16_t)i));
    CHECK(bad == 0);
    /* a few values by hand */
    CHECK(f32_bits(cc_f16_to_f32(0x3c00)) == f32_bits(1.0f));
    cc_cpu_to_f32(h + 0x0001, CC_F16, f, 1);
    CHECK(f[0] == 0x1p-24f);
    cc_cpu_to_f32(h + 0x7bff, CC_F16, f, 1);
    CHECK(f[0] == 65504.0f);
    cc_cpu_to_f32(h + 0xfc00, CC_F16, f, 1);
    CHECK(isinf(f[0]) && f[0] < 0);
    free(h);
    free(f);
}

/* Converts xs[0..n-1] with the cpu helper and compares with dtype.h's scalar functions. */
static int count_mismatches(const float *xs, int64_t n, cc_dtype d)
{
    uint16_t *o = malloc((size_t)n * sizeof *o);
    cc_cpu_from_f32(xs, o, d, n);
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        uint16_t want = d == CC_F16 ? cc_f32_to_f16(xs[i]) : cc_f32_to_bf16(xs[i]);
        if (o[i] != want) {
            if (bad < 5)
                fprintf(stderr, "%s(%a = 0x%08x): got 0x%04x want 0x%04x\n", cc_dtype_name(d),
                        (double)xs[i], f32_bits(xs[i]), o[i], want);
            bad++;
        }
    }
    free(o);
    return bad;
}

/* For every 16-bit pattern h of dtype d: its value, the midpoint to the next pattern (a
 * tie) and the f32 neighbours of that midpoint; then a strided sweep over all f32 bit
 * patterns (NaNs, infinities and subnormals included). */
static void test_from_f32(cc_dtype d)
{
    int64_t n = 65536 * 4;
    float *xs = malloc((size_t)n * sizeof *xs);
    int64_t k = 0;
    for (uint32_t i = 0; i < 65536; i++) {
        float a = d == CC_F16 ? cc_f16_to_f32((uint16_t)i) : cc_bf16_to_f32((uint16_t)i);
        float b = d == CC_F16 ? cc_f16_to_f32((uint16_t)(i + 1)) : cc_bf16_to_f32((uint16_t)(i + 1));
        float mid = (float)(((double)a + (double)b) / 2);
        xs[k++] = a;
        xs[k++] = mid;
        xs[k++] = nextafterf(mid, INFINITY);
        xs[k++] = nextafterf(mid, -INFINITY);
    }
    for (int64_t i = 0; i < k; i++)
        if (isnan(xs[i])) xs[i] = 0; /* NaN patterns are covered by the sweep below */
    CHECK(count_mismatches(xs, k, d) == 0);
    free(xs);

    /* every 251st f32 pattern: 17 million values */
    const uint32_t step = 251;
    n = (int64_t)(0xffffffffu / step) + 1;
    xs = malloc((size_t)n * sizeof *xs);
    for (int64_t i = 0; i < n; i++) xs[i] = bits_f32((uint32_t)(i * step));
    CHECK(count_mismatches(xs, n, d) == 0);
    free(xs);

    float special[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 65504.0f, 65519.99f, 65520.0f,
                        0x1p-24f, 0x1p-25f, 0x1.000002p-25f, 0x1p-14f, 0x1.ffcp-15f, 3.4028235e38f,
                        bits_f32(0x7f800001u), bits_f32(0xffbfffffu), bits_f32(0x00000001u) };
    CHECK(count_mismatches(special, (int64_t)(sizeof special / sizeof special[0]), d) == 0);
}

static void test_int_conversions(void)
{
    float x[] = { -0.5f, 0.5f, 1.5f, 2.5f, -2.5f, 300.0f, -300.0f, NAN, 127.49f, -128.5f };
    int8_t i8[10];
    uint8_t u8[10];
    int32_t i32[10];
    cc_cpu_from_f32(x, i8, CC_I8, 10);
    cc_cpu_from_f32(x, u8, CC_U8, 10);
    cc_cpu_from_f32(x, i32, CC_I32, 10);
    const int8_t want_i8[] = { 0, 0, 2, 2, -2, 127, -128, 0, 127, -128 };
    const uint8_t want_u8[] = { 0, 0, 2, 2, 0, 255, 0, 0, 127, 0 };
    const int32_t want_i32[] = { 0, 0, 2, 2, -2, 300, -300, 0, 127, -128 };
    for (int i = 0; i < 10; i++) {
        CHECK(i8[i] == want_i8[i]);
        CHECK(u8[i] == want_u8[i]);
        CHECK(i32[i] == want_i32[i]);
    }
    float big[] = { 3e9f, -3e9f };
    cc_cpu_from_f32(big, i32, CC_I32, 2);
    CHECK(i32[0] == INT32_MAX && i32[1] == INT32_MIN);
    int8_t s[] = { -128, 0, 127 };
    float f[3];
    cc_cpu_to_f32(s, CC_I8, f, 3);
    CHECK(f[0] == -128.0f && f[1] == 0.0f && f[2] == 127.0f);
}

/* ---- GEMM helpers ------------------------------------------------------------------ */

/* Small-integer operands, so every f32 sum is exact and must equal the double sum. Shapes
 * cover the row split (m >= n), the column split (m small, n large), transposes, a
 * single-thread product and k = 0 (beta 0 zeroes c). */
static void test_sgemm(void)
{
    static const int shapes[][5] = {
        { 64, 40, 300, 0, 0 }, { 3, 700, 50, 0, 1 }, { 37, 33, 65, 1, 0 }, { 1, 1000, 70, 1, 1 },
        { 5, 4, 3, 0, 0 },     { 9, 7, 0, 0, 0 },
    };
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++) {
        int m = shapes[t][0], n = shapes[t][1], k = shapes[t][2], ta = shapes[t][3], tb = shapes[t][4];
        float *a = malloc(sizeof(float) * (size_t)(m * k + 1)), *b = malloc(sizeof(float) * (size_t)(k * n + 1));
        float *c = malloc(sizeof(float) * (size_t)(m * n));
        for (int i = 0; i < m * k; i++) a[i] = (float)((i * 7) % 13 - 6);
        for (int i = 0; i < k * n; i++) b[i] = (float)((i * 5) % 11 - 5);
        for (int i = 0; i < m * n; i++) c[i] = 1000;
        cc_cpu_sgemm(ta, tb, m, n, k, 2.0f, a, ta ? m : k, b, tb ? k : n, 0.0f, c, n);
        int bad = 0;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int l = 0; l < k; l++)
                    s += (double)(ta ? a[l * m + i] : a[i * k + l]) * (tb ? b[j * k + l] : b[l * n + j]);
                bad += c[i * n + j] != (float)(2 * s);
            }
        CHECK(bad == 0);
        free(a);
        free(b);
        free(c);
    }
}

/* cc_cpu_igemm_nt over sizes with full 4x4 tiles and edges, and cc_cpu_transpose16. */
static void test_igemm(void)
{
    static const int shapes[][3] = { { 8, 8, 9 }, { 7, 5, 300 }, { 1, 33, 2048 }, { 66, 70, 31 } };
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++) {
        int m = shapes[t][0], n = shapes[t][1], k = shapes[t][2];
        int16_t *a = malloc(sizeof(int16_t) * (size_t)(m * k)), *b = malloc(sizeof(int16_t) * (size_t)(k * n));
        int16_t *bt = malloc(sizeof(int16_t) * (size_t)(k * n));
        int32_t *c = malloc(sizeof(int32_t) * (size_t)(m * (n + 3)));
        for (int i = 0; i < m * k; i++) a[i] = (int16_t)((i * 37) % 511 - 255);
        for (int i = 0; i < k * n; i++) b[i] = (int16_t)((i * 53) % 509 - 254);
        cc_cpu_transpose16(b, k, n, bt); /* b is k x n; bt is n x k */
        int bad = 0;
        for (int l = 0; l < k; l++)
            for (int j = 0; j < n; j++) bad += bt[j * k + l] != b[l * n + j];
        CHECK(bad == 0);
        for (int i = 0; i < m * (n + 3); i++) c[i] = -7;
        cc_cpu_igemm_nt(m, n, k, a, bt, c, n + 3); /* ldc > n: the gap must stay untouched */
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                int64_t s = 0;
                for (int l = 0; l < k; l++) s += (int64_t)a[i * k + l] * b[l * n + j];
                bad += c[i * (n + 3) + j] != s;
            }
            for (int j = n; j < n + 3; j++) bad += c[i * (n + 3) + j] != -7;
        }
        CHECK(bad == 0);
        free(a);
        free(b);
        free(bt);
        free(c);
    }
}

/* ---- graphs through the vtable ------------------------------------------------------ */

static cc_node make_node(const char *op, int n_in, const int *in, int out)
{
    cc_node n;
    memset(&n, 0, sizeof n);
    n.op = cc_catalog_find(op);
    if (!n.op) {
        fprintf(stderr, "op %s is not in the catalog\n", op);
        exit(1);
    }
    cc_err e;
    if (cc_node_set_defaults(&n, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        exit(1);
    }
    n.n_in = n_in;
    for (int i = 0; i < n_in; i++) n.in[i] = in[i];
    n.n_out = 1;
    n.out[0] = out;
    snprintf(n.name, sizeof n.name, "%s", op);
    return n;
}

static void set_attr_f(cc_node *n, const char *name, double v)
{
    int a = cc_attr_index(n->op, name);
    CHECK(a >= 0);
    n->attrs[a].set = 1;
    n->attrs[a].f = v;
}

static void set_attr_ints(cc_node *n, const char *name, int cnt, const int64_t *v)
{
    int a = cc_attr_index(n->op, name);
    CHECK(a >= 0);
    n->attrs[a].set = 1;
    n->attrs[a].n = cnt;
    for (int i = 0; i < cnt; i++) n->attrs[a].ints[i] = v[i];
}

static cc_tensor desc(int rank, const int64_t *dims, void *data)
{
    cc_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = CC_F32;
    t.shape = cc_shape_make(rank, dims);
    t.data = data;
    return t;
}

/* Prepares g on the cpu target, runs it on the given f32 inputs and checks output 0
 * against want[] exactly, with guard bytes after the output buffer. */
static void run_graph(const cc_graph *g, const float *const *inputs, const float *want,
                      const char *plan_has)
{
    const cc_target_iface *t = &cc_target_cpu;
    void *ctx = NULL, *plan = NULL, *ib[CC_MAX_IO] = { 0 }, *ob = NULL;
    cc_device_desc d;
    cc_err e = {0};
    CHECK_OK(t->open("", &ctx, &d, &e));
    cc_status st = t->prepare(ctx, g, &plan, &e);
    CHECK(st == CC_OK);
    if (st) {
        fprintf(stderr, "prepare: %s\n", e.msg);
        t->close(ctx);
        return;
    }
    char note[256];
    t->describe_plan(ctx, plan, note, sizeof note);
    printf("plan: %s\n", note);
    CHECK(strstr(note, plan_has) != NULL);
    for (int i = 0; i < g->n_inputs; i++) {
        size_t bytes = cc_tensor_bytes(&g->values[g->inputs[i]]);
        CHECK_OK(t->buffer_alloc(ctx, bytes, &ib[i], &e));
        CHECK_OK(t->upload(ctx, ib[i], inputs[i], bytes, &e));
    }
    const cc_tensor *yd = &g->values[g->outputs[0]];
    size_t bytes = cc_tensor_bytes(yd);
    unsigned char *host = malloc(bytes + GUARD);
    memset(host, GUARD_BYTE, bytes + GUARD);
    CHECK_OK(t->buffer_alloc(ctx, bytes + GUARD, &ob, &e));
    CHECK_OK(t->upload(ctx, ob, host, bytes + GUARD, &e));
    for (int rep = 0; rep < 2; rep++) { /* a plan runs more than once */
        CHECK_OK(t->run(ctx, plan, ib, &ob, &e));
        CHECK_OK(t->sync(ctx, &e));
        CHECK_OK(t->download(ctx, ob, host, bytes + GUARD, &e));
        const float *y = (const float *)host;
        for (int64_t i = 0; i < cc_tensor_numel(yd); i++)
            if (y[i] != want[i]) {
                fprintf(stderr, "y[%lld] = %g, want %g\n", (long long)i, y[i], want[i]);
                CHECK(y[i] == want[i]);
            }
        for (size_t i = 0; i < GUARD; i++) CHECK(host[bytes + i] == GUARD_BYTE);
    }
    for (int i = 0; i < g->n_inputs; i++) t->buffer_free(ctx, ib[i]);
    t->buffer_free(ctx, ob);
    t->release(ctx, plan);
    t->close(ctx);
    free(host);
}

/* x = 1..9 as 1x1x3x3, w = [1 2; 3 4], b = 0.5: the four 2x2 windows by hand. */
static void test_conv_hand(void)
{
    float x[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, w[4] = { 1, 2, 3, 4 }, b[1] = { 0.5f };
    cc_tensor vals[4] = {
        desc(4, (int64_t[]){ 1, 1, 3, 3 }, NULL), desc(4, (int64_t[]){ 1, 1, 2, 2 }, w),
        desc(1, (int64_t[]){ 1 }, b), desc(4, (int64_t[]){ 1, 1, 2, 2 }, NULL),
    };
    cc_node node = make_node("Conv", 3, (int[]){ 0, 1, 2 }, 3);
    cc_graph g = { .n_values = 4, .values = vals, .n_nodes = 1, .nodes = &node,
                   .n_inputs = 1, .inputs = { 0 }, .n_outputs = 1, .outputs = { 3 } };
    /* 1*1+2*2+4*3+5*4 = 37, 2+6+15+24 = 47, 4+10+21+32 = 67, 5+12+24+36 = 77 */
    const float want[4] = { 37.5f, 47.5f, 67.5f, 77.5f };
    const float *in[1] = { x };
    run_graph(&g, in, want, "Conv: im2col+sgemm");

    /* pads 1, stride 2: output 2x2 at input rows/cols -1 and 1:
     * (0,0): only x(0,0)*w(1,1) = 1*4; (0,1): x(0,1)*3 + x(0,2)*4 = 6+12 = 18;
     * (1,0): x(1,0)*2 + x(2,0)*4 = 8+28 = 36; (1,1): 5+12+24+36 = 77 */
    set_attr_ints(&node, "pads", 4, (int64_t[]){ 1, 1, 1, 1 });
    set_attr_ints(&node, "strides", 2, (int64_t[]){ 2, 2 });
    const float want2[4] = { 4.5f, 18.5f, 36.5f, 77.5f };
    run_graph(&g, in, want2, "im2col");

    /* depthwise, 2 channels, 1x1 kernels: y[c] = w[c] * x[c] + b[c] */
    float x2[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, w2[2] = { 2, -1 }, b2[2] = { 0, 10 };
    cc_tensor v2[4] = {
        desc(4, (int64_t[]){ 1, 2, 2, 2 }, NULL), desc(4, (int64_t[]){ 2, 1, 1, 1 }, w2),
        desc(1, (int64_t[]){ 2 }, b2), desc(4, (int64_t[]){ 1, 2, 2, 2 }, NULL),
    };
    cc_node dw = make_node("Conv", 3, (int[]){ 0, 1, 2 }, 3);
    dw.attrs[cc_attr_index(dw.op, "group")].set = 1;
    dw.attrs[cc_attr_index(dw.op, "group")].i = 2;
    cc_graph g2 = { .n_values = 4, .values = v2, .n_nodes = 1, .nodes = &dw,
                    .n_inputs = 1, .inputs = { 0 }, .n_outputs = 1, .outputs = { 3 } };
    const float want3[8] = { 2, 4, 6, 8, 5, 4, 3, 2 };
    const float *in2[1] = { x2 };
    run_graph(&g2, in2, want3, "depthwise");

    /* 1x1 over 2 channels to 1 filter: the direct GEMM path; y = x0 - x1 */
    float w3[2] = { 1, -1 };
    cc_tensor v3[3] = {
        desc(4, (int64_t[]){ 1, 2, 2, 2 }, NULL), desc(4, (int64_t[]){ 1, 2, 1, 1 }, w3),
        desc(4, (int64_t[]){ 1, 1, 2, 2 }, NULL),
    };
    cc_node pw = make_node("Conv", 2, (int[]){ 0, 1 }, 2);
    cc_graph g3 = { .n_values = 3, .values = v3, .n_nodes = 1, .nodes = &pw,
                    .n_inputs = 1, .inputs = { 0 }, .n_outputs = 1, .outputs = { 2 } };
    const float want4[4] = { -4, -4, -4, -4 };
    run_graph(&g3, in2, want4, "1x1 sgemm");
}

/* Gemm: a = [1 2 3; 4 5 6], b = [1 0; 0 1; 1 1], alpha 2, c = [1, -1] broadcast over
 * rows: a b = [4 5; 10 11], so y = [9 9; 21 21]. Then the same Gemm feeding a second
 * Gemm (y2 = y @ [1; 1] = [18; 42]) through an intermediate value. */
static void test_gemm_hand(void)
{
    float a[6] = { 1, 2, 3, 4, 5, 6 }, b[6] = { 1, 0, 0, 1, 1, 1 }, c[2] = { 1, -1 }, ones[2] = { 1, 1 };
    cc_tensor vals[6] = {
        desc(2, (int64_t[]){ 2, 3 }, NULL), desc(2, (int64_t[]){ 3, 2 }, b),
        desc(1, (int64_t[]){ 2 }, c),       desc(2, (int64_t[]){ 2, 2 }, NULL),
        desc(2, (int64_t[]){ 2, 1 }, ones), desc(2, (int64_t[]){ 2, 1 }, NULL),
    };
    cc_node nodes[2] = { make_node("Gemm", 3, (int[]){ 0, 1, 2 }, 3),
                         make_node("Gemm", 2, (int[]){ 3, 4 }, 5) };
    set_attr_f(&nodes[0], "alpha", 2.0);
    cc_graph g = { .n_values = 6, .values = vals, .n_nodes = 1, .nodes = nodes,
                   .n_inputs = 1, .inputs = { 0 }, .n_outputs = 1, .outputs = { 3 } };
    const float want[4] = { 9, 9, 21, 21 };
    const float *in[1] = { a };
    run_graph(&g, in, want, "Gemm: sgemm");

    g.n_nodes = 2;
    g.outputs[0] = 5;
    const float want2[2] = { 18, 42 };
    run_graph(&g, in, want2, "Gemm: sgemm x2");

    /* transposed a (3x2 holding a^T) and b (2x3 holding b^T), beta 0.5, scalar c = 4 */
    float at[6] = { 1, 4, 2, 5, 3, 6 }, bt[6] = { 1, 0, 1, 0, 1, 1 }, c4[1] = { 4 };
    cc_tensor v2[4] = {
        desc(2, (int64_t[]){ 3, 2 }, NULL), desc(2, (int64_t[]){ 2, 3 }, bt),
        desc(0, NULL, c4), desc(2, (int64_t[]){ 2, 2 }, NULL),
    };
    cc_node gt = make_node("Gemm", 3, (int[]){ 0, 1, 2 }, 3);
    gt.attrs[cc_attr_index(gt.op, "transA")].i = 1;
    gt.attrs[cc_attr_index(gt.op, "transB")].i = 1;
    set_attr_f(&gt, "beta", 0.5);
    cc_graph g2 = { .n_values = 4, .values = v2, .n_nodes = 1, .nodes = &gt,
                    .n_inputs = 1, .inputs = { 0 }, .n_outputs = 1, .outputs = { 3 } };
    const float want3[4] = { 6, 7, 12, 13 };
    const float *in2[1] = { at };
    run_graph(&g2, in2, want3, "Gemm");
}

/* A graph whose output is its input (no node writes it) and a graph reading a value
 * nothing produces. */
static void test_graph_edges(void)
{
    const cc_target_iface *t = &cc_target_cpu;
    void *ctx = NULL, *plan = NULL;
    cc_device_desc d;
    cc_err e = {0};
    CHECK_OK(t->open("", &ctx, &d, &e));
    float w[1] = { 1 };
    cc_tensor vals[3] = { desc(2, (int64_t[]){ 1, 1 }, NULL), desc(2, (int64_t[]){ 1, 1 }, w),
                          desc(2, (int64_t[]){ 1, 1 }, NULL) };
    cc_node n = make_node("Gemm", 2, (int[]){ 2, 1 }, 0);
    cc_graph g = { .n_values = 3, .values = vals, .n_nodes = 1, .nodes = &n,
                   .n_inputs = 0, .n_outputs = 1, .outputs = { 0 } };
    CHECK(t->prepare(ctx, &g, &plan, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "before anything produces it") != NULL);

    cc_graph pass = { .n_values = 3, .values = vals, .n_nodes = 0, .nodes = NULL,
                      .n_inputs = 1, .inputs = { 0 }, .n_outputs = 2, .outputs = { 0, 1 } };
    CHECK_OK(t->prepare(ctx, &pass, &plan, &e));
    float xin = 3, out0 = 0, out1 = 0;
    void *ib[1] = { &xin }, *ob[2] = { &out0, &out1 };
    CHECK_OK(t->run(ctx, plan, ib, ob, &e));
    CHECK(out0 == 3 && out1 == 1);
    t->release(ctx, plan);
    t->close(ctx);
}

int main(void)
{
    test_vtable();
    test_f16_to_f32_exhaustive();
    test_from_f32(CC_F16);
    test_from_f32(CC_BF16);
    test_int_conversions();
    test_sgemm();
    test_igemm();
    test_conv_hand();
    test_gemm_hand();
    test_graph_edges();
    return CC_TEST_RESULT();
}
