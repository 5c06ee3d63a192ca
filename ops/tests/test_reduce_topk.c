/* test_reduce_topk.c — TopK: hand-worked lines (ties in input order, smallest first, NaN
 * as the largest value), an axis other than the last, the specification's example, int64
 * beyond 2^53, the wide dtypes ordered in their own type with their values kept bit for
 * bit, and rejections. */
#include "op_test.h"

static cc_node topk(int64_t k, int64_t axis, int largest)
{
    cc_node n = node_make(family_op(cc_catalog_family("reduce"), "TopK"), 1);
    attr_set_ints(&n, "k", (int64_t[]){ k }, 1);
    attr_set_i(&n, "axis", axis);
    attr_set_i(&n, "largest", largest);
    return n;
}

/* Runs n on x and checks Values and Indices. */
static void expect_topk(const cc_node *n, const cc_tensor *x, const double *vals, const double *idx, int cnt)
{
    const cc_tensor *in[1] = { x };
    cc_tensor out[2];
    cc_golden g[2];
    cc_err e = { 0 };
    cc_status st = golden_run(n, in, 2, out, g, &e);
    CHECK(st == CC_OK);
    if (st) {
        fprintf(stderr, "  TopK: %s\n", e.msg);
        return;
    }
    CHECK(out[1].dtype == CC_I64 && cc_shape_numel(&out[0].shape) == cnt);
    for (int i = 0; i < cnt; i++) {
        if (isnan(vals[i])) CHECK(isnan(g[0].value[i]));
        else CHECK_NEAR(g[0].value[i], vals[i], 0);
        CHECK_NEAR(g[1].value[i], idx[i], 0);
    }
    cc_golden_free(g, 2);
}

static void test_lines(void)
{
    cc_tensor x = tensor_of(CC_F32, 1, (int64_t[]){ 5 }, (double[]){ 1, 3, 3, 2, -1 });
    cc_node n = topk(2, -1, 1);
    expect_topk(&n, &x, (double[]){ 3, 3 }, (double[]){ 1, 2 }, 2); /* the tie in input order */
    n = topk(3, 0, 0);
    expect_topk(&n, &x, (double[]){ -1, 1, 2 }, (double[]){ 4, 0, 3 }, 3);
    n = topk(5, 0, 1); /* a stable sort */
    expect_topk(&n, &x, (double[]){ 3, 3, 2, 1, -1 }, (double[]){ 1, 2, 3, 0, 4 }, 5);
    n = topk(0, 0, 1);
    expect_topk(&n, &x, NULL, NULL, 0);
    cc_tensor xn = tensor_of(CC_F32, 1, (int64_t[]){ 4 }, (double[]){ 2, NAN, 5, NAN });
    n = topk(3, 0, 1);
    expect_topk(&n, &xn, (double[]){ NAN, NAN, 5 }, (double[]){ 1, 3, 2 }, 3);
    n = topk(3, 0, 0);
    expect_topk(&n, &xn, (double[]){ 2, 5, NAN }, (double[]){ 0, 2, 1 }, 3);
    cc_tensor_free(&x);
    cc_tensor_free(&xn);
}

/* The specification's example: X = [[0..3], [4..7], [8..11]], K = 3, axis 1: Values
 * [[3, 2, 1], [7, 6, 5], [11, 10, 9]], Indices [[3, 2, 1]] on every row; along axis 0
 * with K = 2: [[8, 9, 10, 11], [4, 5, 6, 7]], indices 2 then 1. */
static void test_spec(void)
{
    double v[12];
    for (int i = 0; i < 12; i++) v[i] = i;
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 3, 4 }, v);
    cc_node n = topk(3, 1, 1);
    expect_topk(&n, &x, (double[]){ 3, 2, 1, 7, 6, 5, 11, 10, 9 }, (double[]){ 3, 2, 1, 3, 2, 1, 3, 2, 1 }, 9);
    n = topk(2, 0, 1);
    expect_topk(&n, &x, (double[]){ 8, 9, 10, 11, 4, 5, 6, 7 }, (double[]){ 2, 2, 2, 2, 1, 1, 1, 1 }, 8);
    cc_tensor_free(&x);
}

/* int64 values 2^60 + 1 and 2^60 round to one double: still told apart */
static void test_wide(void)
{
    cc_tensor x = tensor_of(CC_I64, 1, (int64_t[]){ 3 }, (double[]){ 0, 0, 5 });
    ((int64_t *)x.data)[0] = ((int64_t)1 << 60);
    ((int64_t *)x.data)[1] = ((int64_t)1 << 60) + 1;
    cc_node n = topk(3, 0, 1);
    const double big = (double)((int64_t)1 << 60);
    expect_topk(&n, &x, (double[]){ big, big, 5 }, (double[]){ 1, 0, 2 }, 3);
    cc_tensor_free(&x);
}

/* TopK of the raw elements x (dtype dt, one line of len) with K = k: Values as stored are
 * the raw elements want (bit for bit; any NaN for a NaN) and Indices idx. */
static void expect_raw(cc_dtype dt, int len, const void *x, int64_t k, int largest, const void *want, const double *idx)
{
    cc_tensor t = tensor_of(dt, 1, (int64_t[]){ len }, NULL);
    memcpy(t.data, x, cc_tensor_bytes(&t));
    cc_node n = topk(k, 0, largest);
    const cc_tensor *in[1] = { &t };
    cc_tensor out[2];
    cc_golden g[2];
    cc_err e = { 0 };
    cc_status st = golden_run(&n, in, 2, out, g, &e);
    CHECK(st == CC_OK);
    if (st) {
        fprintf(stderr, "  TopK on %s: %s\n", cc_dtype_name(dt), e.msg);
        cc_tensor_free(&t);
        return;
    }
    size_t es = cc_dtype_size(dt);
    unsigned char *got = calloc((size_t)k + 1, es);
    if (!got) exit(1);
    CHECK(out[0].dtype == dt && cc_shape_numel(&out[0].shape) == k);
    for (int64_t i = 0; i < k; i++) {
        cc_golden_store(&g[0], got, i);
        const unsigned char *w = (const unsigned char *)want + i * es, *h = got + i * es;
        int same = memcmp(h, w, es) == 0;
        if (!same && dt == CC_F64) {
            double a, b;
            memcpy(&a, h, 8);
            memcpy(&b, w, 8);
            same = isnan(a) && isnan(b);
        }
        if (!same || g[1].value[i] != idx[i])
            fprintf(stderr, "  TopK on %s, largest=%d: element %lld differs (index %g, want %g)\n", cc_dtype_name(dt),
                    largest, (long long)i, g[1].value[i], idx[i]);
        CHECK(same && g[1].value[i] == idx[i]);
    }
    free(got);
    cc_golden_free(g, 2);
    cc_tensor_free(&t);
}

/* The dtypes of target ABI 8, each ordered in its own type. */
static void test_wide_dtypes(void)
{
    /* u64: 2^64 - 15 above 2^64 - 16 (one double), both above 2^63 - 1 (as signed they are
       negative) */
    const uint64_t b = UINT64_C(0xFFFFFFFFFFFFFFF0), h = UINT64_C(1) << 63;
    const uint64_t u[5] = { 1, b, h - 1, b + 1, b };
    expect_raw(CC_U64, 5, u, 3, 1, (uint64_t[]){ b + 1, b, b }, (double[]){ 3, 1, 4 });
    expect_raw(CC_U64, 5, u, 2, 0, (uint64_t[]){ 1, h - 1 }, (double[]){ 0, 2 });
    /* f64: NaN the largest, 1 + 2^-40 above 1 (one f32), -0 and 0 a tie in input order, each
       kept with its sign */
    const double f[7] = { 1, 1 + 0x1p-40, -0.0, 0.0, NAN, 1 + 0x1p-40, 0x1p53 + 2 };
    expect_raw(CC_F64, 7, f, 7, 1, (double[]){ NAN, 0x1p53 + 2, 1 + 0x1p-40, 1 + 0x1p-40, 1, -0.0, 0.0 },
               (double[]){ 4, 6, 1, 5, 0, 2, 3 });
    expect_raw(CC_F64, 7, f, 4, 0, (double[]){ -0.0, 0.0, 1, 1 + 0x1p-40 }, (double[]){ 2, 3, 0, 1 });
    /* i16 and u16 at their ends; u32 past 2^31 */
    expect_raw(CC_I16, 4, (int16_t[]){ -1, -32768, 32767, 0 }, 2, 0, (int16_t[]){ -32768, -1 }, (double[]){ 1, 0 });
    expect_raw(CC_U16, 4, (uint16_t[]){ 32767, 65535, 1, 32768 }, 2, 1, (uint16_t[]){ 65535, 32768 }, (double[]){ 1, 3 });
    expect_raw(CC_U32, 3, (uint32_t[]){ 0x80000000u, 0x7fffffffu, 0xffffffffu }, 3, 1,
               (uint32_t[]){ 0xffffffffu, 0x80000000u, 0x7fffffffu }, (double[]){ 2, 0, 1 });
}

static void test_rejections(void)
{
    cc_tensor x = { CC_F32, cc_shape_make(2, (int64_t[]){ 3, 4 }), NULL };
    const cc_tensor *in[1] = { &x };
    cc_node n = topk(5, -1, 1);
    expect_reject(&n, in, 2, CC_ERR_ARG, "K = 5 is outside [0, 4]");
    n = topk(-1, -1, 1);
    expect_reject(&n, in, 2, CC_ERR_ARG, "K = -1 is outside");
    n = topk(2, 2, 1);
    expect_reject(&n, in, 2, CC_ERR_ARG, "axis 2 is outside [-2, 1] for rank 2");
    n = topk(2, -1, 1);
    attr_set_i(&n, "sorted", 0);
    expect_reject(&n, in, 2, CC_ERR_UNSUPPORTED, "sorted=0 leaves the order");
    n = topk(2, -1, 1);
    expect_reject(&n, in, 1, CC_ERR_ARG, "has 2 outputs");
    cc_tensor xb = { CC_BOOL, cc_shape_make(1, (int64_t[]){ 4 }), NULL };
    in[0] = &xb;
    expect_reject(&n, in, 2, CC_ERR_ARG, "X is bool");
}

int main(void)
{
    test_lines();
    test_spec();
    test_wide();
    test_wide_dtypes();
    test_rejections();
    return CC_TEST_RESULT();
}
