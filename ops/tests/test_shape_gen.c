/* test_shape_gen.c — Range on the dtypes ONNX gives it (float, double, int16, int32, int64):
 * start + i * delta for max(ceil((limit - start) / delta), 0) elements, worked out by hand
 * where a float32 or narrower path gets them wrong (f64 steps of 0.1, values past 2^24 and
 * 2^53; i16 across its whole range), the count and the rejections. */
#include "op_test.h"

/* A Range node on the scalars start, limit and delta of dtype dt. */
static cc_status range_run(cc_dtype dt, double start, double limit, double delta, cc_tensor *out, cc_golden *g,
                           cc_tensor *t, cc_err *e)
{
    cc_node n = node_make(family_op(cc_catalog_family("shape"), "Range"), 3);
    t[0] = tensor_of(dt, 0, NULL, (double[]){ start });
    t[1] = tensor_of(dt, 0, NULL, (double[]){ limit });
    t[2] = tensor_of(dt, 0, NULL, (double[]){ delta });
    const cc_tensor *in[3] = { &t[0], &t[1], &t[2] };
    return golden_run(&n, in, 1, out, g, e);
}

/* Range in dtype dt gives exactly want[0..cnt) (stored in dt, bit for bit). */
static void expect_range(cc_dtype dt, double start, double limit, double delta, const void *want, int cnt)
{
    cc_tensor out, t[3];
    cc_golden g;
    cc_err e = { 0 };
    cc_status st = range_run(dt, start, limit, delta, &out, &g, t, &e);
    CHECK(st == CC_OK);
    if (st == CC_OK) {
        if (out.dtype != dt || cc_shape_numel(&out.shape) != cnt)
            fprintf(stderr, "  Range %s from %.17g: %s of %lld elements\n", cc_dtype_name(dt), start,
                    cc_dtype_name(out.dtype), (long long)cc_shape_numel(&out.shape));
        CHECK(out.dtype == dt && cc_shape_numel(&out.shape) == cnt);
        size_t es = cc_dtype_size(dt);
        unsigned char *got = calloc((size_t)cnt + 1, es);
        if (!got) exit(1);
        for (int i = 0; i < cnt && i < cc_shape_numel(&out.shape); i++) cc_golden_store(&g, got, i);
        if (cnt > 0 && cc_shape_numel(&out.shape) == cnt && memcmp(got, want, (size_t)cnt * es) != 0) {
            fprintf(stderr, "  Range %s from %.17g to %.17g by %.17g: values differ\n", cc_dtype_name(dt), start, limit,
                    delta);
            CHECK(0);
        }
        free(got);
        cc_golden_free(&g, 1);
    } else {
        fprintf(stderr, "  Range %s: %s\n", cc_dtype_name(dt), e.msg);
    }
    for (int k = 0; k < 3; k++) cc_tensor_free(&t[k]);
}

static void test_f64(void)
{
    /* 0.1 + 2 * 0.1 rounds to 0.30000000000000004 (0x1.3333333333334p-2): three elements,
       ceil((0.35 - 0.1) / 0.1) = ceil(2.4999999999999996) */
    expect_range(CC_F64, 0.1, 0.35, 0.1, (double[]){ 0.1, 0.2, 0x1.3333333333334p-2 }, 3);
    /* past 2^24 (f32 holds neither 2^24 + 1 nor 2^24 + 3) and 2^53 (steps of 2 stay exact;
       the limit 2^53 + 6 is excluded) */
    expect_range(CC_F64, 0x1p24 + 1, 0x1p24 + 3.5, 1, (double[]){ 0x1p24 + 1, 0x1p24 + 2, 0x1p24 + 3 }, 3);
    expect_range(CC_F64, 0x1p53, 0x1p53 + 6, 2, (double[]){ 0x1p53, 0x1p53 + 2, 0x1p53 + 4 }, 3);
    /* downward, and 1 + 2^-40 steps that f32 cannot hold */
    expect_range(CC_F64, 1, 1 + 0x1.8p-39, 0x1p-40, (double[]){ 1, 1 + 0x1p-40, 1 + 0x1p-39 }, 3);
    expect_range(CC_F64, 2.5, -1, -1.25, (double[]){ 2.5, 1.25, 0 }, 3);
    expect_range(CC_F64, 3, 3, 1, NULL, 0);
}

static void test_i16(void)
{
    /* the whole range: -32768 + 15 * 4099 = 28717, 16 elements */
    int16_t w[16];
    for (int i = 0; i < 16; i++) w[i] = (int16_t)(-32768 + i * 4099);
    CHECK(w[15] == 28717 && w[1] == -28669);
    expect_range(CC_I16, -32768, 32767, 4099, w, 16);
    expect_range(CC_I16, 32767, -32768, -32767, (int16_t[]){ 32767, 0, -32767 }, 3);
    expect_range(CC_I16, 5, 1, 2, NULL, 0); /* the wrong direction */
}

static void test_rejections(void)
{
    cc_tensor out, t[3];
    cc_golden g;
    cc_err e = { 0 };
    CHECK(range_run(CC_U16, 0, 4, 1, &out, &g, t, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "Range: dtype u16 is not allowed (f32, f64, i16, i32, i64)") == e.msg);
    for (int k = 0; k < 3; k++) cc_tensor_free(&t[k]);
    CHECK(range_run(CC_F64, 0, 1, 0, &out, &g, t, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "delta is 0") != NULL);
    for (int k = 0; k < 3; k++) cc_tensor_free(&t[k]);
}

int main(void)
{
    test_f64();
    test_i16();
    test_rejections();
    return CC_TEST_RESULT();
}
