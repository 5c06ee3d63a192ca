/* test_eltwise_logic.c — the comparisons (Equal, Greater, GreaterOrEqual, Less,
 * LessOrEqual), Where, And, Or, Xor, Not, IsNaN, IsInf and BitShift: golden values worked
 * out by hand, NaN in comparisons, bool outputs, broadcasting of two and three inputs
 * against an explicit index formula, Where's picks on the wide dtypes bit for bit, and
 * infer() rejections. */
#include "op_test.h"

static cc_node node_of(const char *name, int n_in)
{
    return node_make(family_op(cc_catalog_family("eltwise"), name), n_in);
}

/* Runs n on in: output dtype and values (exact). */
static void check_golden(const cc_node *n, const cc_tensor *const *in, cc_dtype want_dt, const double *want, int cnt)
{
    golden_expect(n, in, want_dt, want, NULL, cnt, -1, 0);
}

static void comparisons(void)
{
    const int64_t d4[] = { 4 };
    /* a against b elementwise, with a NaN: every comparison with NaN is false */
    const double a[] = { 1, 2, 3, NAN }, b[] = { 2, 2, 2, NAN };
    cc_tensor ta = tensor_of(CC_F32, 1, d4, a), tb = tensor_of(CC_F32, 1, d4, b);
    const cc_tensor *in[2] = { &ta, &tb };
    static const struct {
        const char *op;
        double want[4];
    } ex[] = {
        { "Equal", { 0, 1, 0, 0 } },   { "Greater", { 0, 0, 1, 0 } }, { "GreaterOrEqual", { 0, 1, 1, 0 } },
        { "Less", { 1, 0, 0, 0 } },    { "LessOrEqual", { 1, 1, 0, 0 } },
    };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        cc_node n = node_of(ex[i].op, 2);
        check_golden(&n, in, CC_BOOL, ex[i].want, 4);
    }
    /* broadcasting: a [2,1] against b [3] gives [2,3]; y[i][j] = a[i] < b[j] */
    const int64_t d21[] = { 2, 1 }, d3[] = { 3 };
    cc_tensor c = tensor_of(CC_I32, 2, d21, (double[]){ 1, 5 }), d = tensor_of(CC_I32, 1, d3, (double[]){ 0, 3, 7 });
    const cc_tensor *in2[2] = { &c, &d };
    cc_node less = node_of("Less", 2);
    double want[6];
    const double cv[] = { 1, 5 }, dv[] = { 0, 3, 7 };
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) want[i * 3 + j] = cv[i] < dv[j];
    check_golden(&less, in2, CC_BOOL, want, 6);
    CHECK(want[0] == 0 && want[1] == 1 && want[5] == 1 && want[3] == 0); /* the formula's own values */
    /* bool inputs to Equal */
    const int64_t d2[] = { 2 };
    cc_tensor p = tensor_of(CC_BOOL, 1, d2, (double[]){ 1, 0 }), q = tensor_of(CC_BOOL, 1, d2, (double[]){ 1, 1 });
    const cc_tensor *in3[2] = { &p, &q };
    cc_node eq = node_of("Equal", 2);
    check_golden(&eq, in3, CC_BOOL, (double[]){ 1, 0 }, 2);
    /* operands of different dtypes are refused */
    cc_node g = node_of("Greater", 2);
    const cc_tensor *mixed[2] = { &ta, &d };
    cc_tensor out[1];
    cc_err e = { 0 };
    CHECK(g.op->infer(&g, mixed, 1, out, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "Greater") == e.msg);
    cc_tensor_free(&ta);
    cc_tensor_free(&tb);
    cc_tensor_free(&c);
    cc_tensor_free(&d);
    cc_tensor_free(&p);
    cc_tensor_free(&q);
}

/* Where(condition [2], x [2,2], y scalar): y[i][j] = condition[j] ? x[i][j] : y */
static void where(void)
{
    const int64_t d2[] = { 2 }, d22[] = { 2, 2 };
    cc_tensor cond = tensor_of(CC_BOOL, 1, d2, (double[]){ 1, 0 });
    cc_tensor x = tensor_of(CC_F32, 2, d22, (double[]){ 1.5, -2, 3, 4 });
    cc_tensor y = tensor_of(CC_F32, 0, NULL, (double[]){ -7 });
    const cc_tensor *in[3] = { &cond, &x, &y };
    cc_node n = node_of("Where", 3);
    check_golden(&n, in, CC_F32, (double[]){ 1.5, -7, 3, -7 }, 4);
    /* x and y of different dtypes are refused; a non-bool condition too */
    cc_tensor yi = tensor_of(CC_I32, 0, NULL, (double[]){ 1 });
    const cc_tensor *bad[3] = { &cond, &x, &yi };
    cc_tensor out[1];
    cc_err e = { 0 };
    CHECK(n.op->infer(&n, bad, 1, out, &e) == CC_ERR_ARG);
    const cc_tensor *bad2[3] = { &x, &x, &x };
    CHECK(n.op->infer(&n, bad2, 1, out, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "Where") == e.msg);
    cc_tensor_free(&cond);
    cc_tensor_free(&x);
    cc_tensor_free(&y);
    cc_tensor_free(&yi);
}

/* g's element i stored in its dtype is the element i of want (bytes of that dtype): bit for
 * bit, but any NaN for a NaN. */
static void expect_stored(const cc_golden *g, const void *want, int cnt, const char *what)
{
    size_t es = cc_dtype_size(g->dtype);
    CHECK(cc_shape_numel(&g->shape) == cnt);
    if (cc_shape_numel(&g->shape) != cnt) return;
    unsigned char *got = calloc((size_t)cnt, es);
    if (!got) exit(1);
    for (int i = 0; i < cnt; i++) {
        cc_golden_store(g, got, i);
        const unsigned char *w = (const unsigned char *)want + (size_t)i * es, *h = got + (size_t)i * es;
        int same = memcmp(h, w, es) == 0;
        if (!same && g->dtype == CC_F64) {
            double a, b;
            memcpy(&a, h, 8);
            memcpy(&b, w, 8);
            same = isnan(a) && isnan(b);
        }
        if (!same) fprintf(stderr, "  %s: element %d differs\n", what, i);
        CHECK(same);
    }
    free(got);
}

/* Where on the dtypes of target ABI 8 picks elements as they are: f64 values no f32 holds
 * (1 + 2^-40, 2^53 + 2), -0 with its sign and NaN; i16's and u16's ends; u32 past 2^31; u64
 * 2^64 - 16 beside 1 and 2^64 - 15 (one double). condition [4] against x and y [2, 4]. */
static void where_wide(void)
{
    const int64_t d4[] = { 4 }, d24[] = { 2, 4 };
    cc_tensor cond = tensor_of(CC_BOOL, 1, d4, (double[]){ 1, 0, 1, 0 });
    const double fx[8] = { 1 + 0x1p-40, 1, -0.0, 2, 0x1p53 + 2, 3, NAN, 4 };
    const double fy[8] = { 5, 0x1p53 + 2, 6, -0.0, 7, NAN, 8, 1 + 0x1p-40 };
    const double fw[8] = { 1 + 0x1p-40, 0x1p53 + 2, -0.0, -0.0, 0x1p53 + 2, NAN, NAN, 1 + 0x1p-40 };
    const int16_t ix[8] = { -32768, 1, 32767, 2, -1, 3, 4, 5 }, iy[8] = { 9, -32768, 9, 32767, 9, -1, 9, 0 };
    const int16_t iw[8] = { -32768, -32768, 32767, 32767, -1, -1, 4, 0 };
    const uint16_t ux[8] = { 65535, 0, 32768, 0, 1, 0, 2, 0 }, uy[8] = { 0, 65535, 0, 32768, 0, 1, 0, 2 };
    const uint16_t uw[8] = { 65535, 65535, 32768, 32768, 1, 1, 2, 2 };
    const uint32_t wx[8] = { 0xffffffffu, 0, 0x80000001u, 0, 1, 0, 2, 0 };
    const uint32_t wy[8] = { 0, 0xffffffffu, 0, 0x80000001u, 0, 1, 0, 2 };
    const uint32_t ww[8] = { 0xffffffffu, 0xffffffffu, 0x80000001u, 0x80000001u, 1, 1, 2, 2 };
    const uint64_t b = UINT64_C(0xFFFFFFFFFFFFFFF0);
    const uint64_t lx[8] = { b, 0, 1, 0, b + 1, 0, UINT64_MAX, 0 }, ly[8] = { 0, b, 0, 1, 0, b + 1, 0, UINT64_MAX };
    const uint64_t lw[8] = { b, b, 1, 1, b + 1, b + 1, UINT64_MAX, UINT64_MAX };
    static const struct {
        cc_dtype d;
        const char *what;
    } kinds[] = { { CC_F64, "f64" }, { CC_I16, "i16" }, { CC_U16, "u16" }, { CC_U32, "u32" }, { CC_U64, "u64" } };
    const void *xs[] = { fx, ix, ux, wx, lx }, *ys[] = { fy, iy, uy, wy, ly }, *ws[] = { fw, iw, uw, ww, lw };
    cc_node n = node_of("Where", 3);
    for (int k = 0; k < 5; k++) {
        size_t bytes = 8 * cc_dtype_size(kinds[k].d);
        cc_tensor x = tensor_of(kinds[k].d, 2, d24, NULL), y = tensor_of(kinds[k].d, 2, d24, NULL);
        memcpy(x.data, xs[k], bytes);
        memcpy(y.data, ys[k], bytes);
        const cc_tensor *in[3] = { &cond, &x, &y };
        cc_tensor out;
        cc_golden g;
        cc_err e = { 0 };
        cc_status st = golden_run(&n, in, 1, &out, &g, &e);
        if (st) fprintf(stderr, "  Where on %s: %s\n", kinds[k].what, e.msg);
        CHECK(st == CC_OK && out.dtype == kinds[k].d);
        if (st == CC_OK) {
            expect_stored(&g, ws[k], 8, kinds[k].what);
            if (kinds[k].d == CC_F64) CHECK(signbit(g.value[2]) && signbit(g.value[3])); /* -0 as -0 */
            cc_golden_free(&g, 1);
        }
        cc_tensor_free(&x);
        cc_tensor_free(&y);
    }
    cc_tensor_free(&cond);
}

/* And, Or, Xor over a [2,1] x b [2]: y[i][j] = a[i] op b[j], the truth tables; Not. */
static void logical(void)
{
    const int64_t d21[] = { 2, 1 }, d2[] = { 2 };
    cc_tensor a = tensor_of(CC_BOOL, 2, d21, (double[]){ 1, 0 }), b = tensor_of(CC_BOOL, 1, d2, (double[]){ 1, 0 });
    const cc_tensor *in[2] = { &a, &b };
    static const struct {
        const char *op;
        double want[4];
    } ex[] = {
        { "And", { 1, 0, 0, 0 } },
        { "Or", { 1, 1, 1, 0 } },
        { "Xor", { 0, 1, 1, 0 } },
    };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        cc_node n = node_of(ex[i].op, 2);
        check_golden(&n, in, CC_BOOL, ex[i].want, 4);
    }
    const int64_t d3[] = { 3 };
    cc_tensor x = tensor_of(CC_BOOL, 1, d3, (double[]){ 1, 0, 1 });
    const cc_tensor *in1[1] = { &x };
    cc_node nt = node_of("Not", 1);
    check_golden(&nt, in1, CC_BOOL, (double[]){ 0, 1, 0 }, 3);
    /* And of floats is refused: bool only */
    cc_tensor f = tensor_of(CC_F32, 1, d2, (double[]){ 1, 0 });
    const cc_tensor *bad[2] = { &f, &f };
    cc_node and_ = node_of("And", 2);
    expect_reject(&and_, bad, 1, CC_ERR_ARG, "bool");
    cc_tensor_free(&a);
    cc_tensor_free(&b);
    cc_tensor_free(&x);
    cc_tensor_free(&f);
}

/* IsNaN on f32, f16 and bf16; IsInf with each detect flag. -0 and the largest finite
 * values are neither. */
static void classify(void)
{
    const int64_t d5[] = { 5 };
    const double v[] = { 1, NAN, INFINITY, -INFINITY, -0.0 };
    const cc_dtype dts[] = { CC_F32, CC_F16, CC_BF16 };
    for (int k = 0; k < 3; k++) {
        cc_tensor x = tensor_of(dts[k], 1, d5, v);
        const cc_tensor *in[1] = { &x };
        cc_node n = node_of("IsNaN", 1);
        check_golden(&n, in, CC_BOOL, (double[]){ 0, 1, 0, 0, 0 }, 5);
        cc_tensor_free(&x);
    }
    cc_tensor x = tensor_of(CC_F32, 1, d5, (double[]){ 3.4028234663852886e38, NAN, INFINITY, -INFINITY, -0.0 });
    const cc_tensor *in[1] = { &x };
    cc_node n = node_of("IsInf", 1);
    check_golden(&n, in, CC_BOOL, (double[]){ 0, 0, 1, 1, 0 }, 5);
    attr_set_i(&n, "detect_negative", 0);
    check_golden(&n, in, CC_BOOL, (double[]){ 0, 0, 1, 0, 0 }, 5);
    attr_set_i(&n, "detect_negative", 1);
    attr_set_i(&n, "detect_positive", 0);
    check_golden(&n, in, CC_BOOL, (double[]){ 0, 0, 0, 1, 0 }, 5);
    cc_tensor h = tensor_of(CC_F16, 1, d5, v);
    const cc_tensor *hin[1] = { &h };
    expect_reject(&n, hin, 1, CC_ERR_ARG, "f32");
    cc_tensor_free(&x);
    cc_tensor_free(&h);
}

/* BitShift on u8: x << y and x >> y with y broadcast; bits shifted out of the byte are lost,
 * a shift by 8 or more gives 0; direction is required to be LEFT or RIGHT; the same on u16,
 * u32 and u64 at their widths; signed integers are refused. */
static void bitshift(void)
{
    const int64_t d4[] = { 4 }, d1[] = { 1 };
    cc_tensor x = tensor_of(CC_U8, 1, d4, (double[]){ 1, 3, 200, 255 });
    cc_tensor y = tensor_of(CC_U8, 1, d4, (double[]){ 1, 2, 1, 8 });
    cc_tensor s = tensor_of(CC_U8, 1, d1, (double[]){ 3 });
    const cc_tensor *in[2] = { &x, &y }, *in1[2] = { &x, &s };
    cc_node n = node_of("BitShift", 2);
    attr_set_s(&n, "direction", "LEFT");
    check_golden(&n, in, CC_U8, (double[]){ 2, 12, 144, 0 }, 4);  /* 400 & 255 = 144 */
    check_golden(&n, in1, CC_U8, (double[]){ 8, 24, 64, 248 }, 4); /* 1600 & 255 = 64, 2040 & 255 = 248 */
    attr_set_s(&n, "direction", "RIGHT");
    check_golden(&n, in, CC_U8, (double[]){ 0, 0, 100, 0 }, 4);
    check_golden(&n, in1, CC_U8, (double[]){ 0, 0, 25, 31 }, 4);
    attr_set_s(&n, "direction", "UP");
    expect_reject(&n, in, 1, CC_ERR_ARG, "LEFT or RIGHT");
    cc_tensor_free(&x);
    cc_tensor_free(&y);
    cc_tensor_free(&s);

    /* u16, u32, u64 (target ABI 8's dtypes): bits past the type's width are lost, a shift by
     * the width or more gives 0 */
    static const struct {
        cc_dtype d;
        double x[4], y[4], left[4], right[4];
    } wide[] = {
        { CC_U16, { 1, 0x8001, 65535, 7 }, { 15, 1, 16, 0 }, { 32768, 2, 0, 7 }, { 0, 0x4000, 0, 7 } },
        { CC_U32, { 1, 0x80000001u, 3, 4294967295.0 }, { 31, 1, 30, 32 }, { 2147483648.0, 2, 3221225472.0, 0 },
          { 0, 1073741824, 0, 0 } },
        { CC_U64, { 1, 3, 9223372036854775808.0, 5 }, { 63, 62, 1, 64 }, { 9223372036854775808.0, 13835058055282163712.0, 0, 0 },
          { 0, 0, 4611686018427387904.0, 0 } },
    };
    for (size_t k = 0; k < sizeof wide / sizeof wide[0]; k++) {
        cc_tensor a = tensor_of(wide[k].d, 1, d4, wide[k].x), b = tensor_of(wide[k].d, 1, d4, wide[k].y);
        const cc_tensor *ab[2] = { &a, &b };
        attr_set_s(&n, "direction", "LEFT");
        check_golden(&n, ab, wide[k].d, wide[k].left, 4);
        attr_set_s(&n, "direction", "RIGHT");
        check_golden(&n, ab, wide[k].d, wide[k].right, 4);
        cc_tensor_free(&a);
        cc_tensor_free(&b);
    }
    cc_tensor xi = tensor_of(CC_I16, 1, d1, (double[]){ 1 });
    const cc_tensor *ii[2] = { &xi, &xi };
    expect_reject(&n, ii, 1, CC_ERR_ARG, "unsigned integers");
    cc_tensor_free(&xi);
}

int main(void)
{
    comparisons();
    where();
    where_wide();
    logical();
    classify();
    bitshift();
    return CC_TEST_RESULT();
}
