/* test_eltwise_cast.c — Cast and CastLike: conversions worked out by hand for every kind of
 * pair (the specification's own 200 -> -56 among them), rounding ties of float and integer
 * sources (int64 values beyond 2^53, where a conversion through double would round
 * twice), truncation toward zero, bool both ways, undefined values refused, and `to`
 * values crosscheck has no dtype for. */
#include "op_test.h"

static cc_node cast_node(int64_t to)
{
    cc_node n = node_make(family_op(cc_catalog_family("eltwise"), "Cast"), 1);
    attr_set_i(&n, "to", to);
    return n;
}

/* ONNX TensorProto.DataType numbers */
enum { T_F32 = 1, T_U8 = 2, T_I8 = 3, T_I32 = 6, T_I64 = 7, T_BOOL = 9, T_F16 = 10, T_DOUBLE = 11, T_BF16 = 16, T_STRING = 8 };

static void expect_cast(cc_dtype from, const double *vals, int n, int64_t to, cc_dtype want_dt, const double *want)
{
    int64_t d = n;
    cc_tensor x = tensor_of(from, 1, &d, vals);
    const cc_tensor *in[1] = { &x };
    cc_node c = cast_node(to);
    golden_expect(&c, in, want_dt, want, NULL, n, 1, 0);
    cc_tensor_free(&x);
}

static void floats(void)
{
    /* f32 -> f16: 1 + 2^-11 is a tie (to 1, even), 1 + 3*2^-11 a tie to 1 + 2^-9 (even);
     * 65519 rounds down to 65504, 65520 is the tie that overflows to inf */
    const double a[] = { 1 + 0x1p-11, 1 + 3 * 0x1p-11, 65519, 65520, -0.0, 0x1p-25 + 0x1p-30 };
    const double a16[] = { 1, 1 + 0x1p-9, 65504, INFINITY, 0, 0x1p-24 };
    expect_cast(CC_F32, a, 6, T_F16, CC_F16, a16);
    /* f32 -> bf16: 1 + 2^-8 is a tie (to 1), 1 + 2^-8 + 2^-20 rounds up */
    const double b[] = { 1 + 0x1p-8, 1 + 0x1p-8 + 0x1p-20, NAN };
    expect_cast(CC_F32, b, 3, T_BF16, CC_BF16, (double[]){ 1, 1 + 0x1p-7, NAN });
    /* f16 -> f32 and bf16 -> f32 are exact */
    expect_cast(CC_F16, (double[]){ 0x1p-24, 65504 }, 2, T_F32, CC_F32, (double[]){ 0x1p-24, 65504 });
    /* float -> integer: truncation toward zero */
    expect_cast(CC_F32, (double[]){ -2.75, 2.75, -0.5, 127.9 }, 4, T_I8, CC_I8, (double[]){ -2, 2, 0, 127 });
    expect_cast(CC_BF16, (double[]){ 255, 0.5 }, 2, T_U8, CC_U8, (double[]){ 255, 0 });
    expect_cast(CC_F16, (double[]){ -65504, 3.5 }, 2, T_I64, CC_I64, (double[]){ -65504, 3 });
    /* float -> bool: zero (either sign) is false, NaN and tiny values true */
    expect_cast(CC_F32, (double[]){ 0, -0.0, NAN, 1e-40, -3 }, 5, T_BOOL, CC_BOOL, (double[]){ 0, 0, 1, 1, 1 });
    /* out of range: undefined, refused with the value */
    const double big[] = { 256.5 };
    int64_t one = 1;
    cc_tensor x = tensor_of(CC_F32, 1, &one, big);
    const cc_tensor *in[1] = { &x };
    cc_node c = cast_node(T_U8);
    cc_tensor out;
    cc_golden g;
    cc_err e = { 0 };
    CHECK(golden_run(&c, in, 1, &out, &g, &e) == CC_ERR_ARG && strstr(e.msg, "256.5, outside u8's range"));
    cc_golden_free(&g, 1);
    cc_store(x.data, CC_F32, 0, NAN);
    CHECK(golden_run(&c, in, 1, &out, &g, &e) == CC_ERR_ARG);
    cc_golden_free(&g, 1);
    cc_tensor_free(&x);
}

/* An int64 tensor of n values written exactly (beyond 2^53 a double cannot carry them). */
static cc_tensor i64s(int n, const int64_t *v)
{
    int64_t d = n;
    cc_tensor t = tensor_of(CC_I64, 1, &d, NULL);
    memcpy(t.data, v, 8 * (size_t)n);
    return t;
}

static void integers(void)
{
    /* the specification's example: 200 as int32 is -56 as int8; the low bits are kept */
    expect_cast(CC_I32, (double[]){ 200, -1, 256, 70000 }, 4, T_I8, CC_I8, (double[]){ -56, -1, 0, 112 });
    expect_cast(CC_I32, (double[]){ -1, 300 }, 2, T_U8, CC_U8, (double[]){ 255, 44 });
    expect_cast(CC_I8, (double[]){ -128, 5 }, 2, T_I64, CC_I64, (double[]){ -128, 5 });
    expect_cast(CC_U8, (double[]){ 0, 7 }, 2, T_BOOL, CC_BOOL, (double[]){ 0, 1 });
    expect_cast(CC_BOOL, (double[]){ 1, 0 }, 2, T_F16, CC_F16, (double[]){ 1, 0 });
    /* int32 -> bf16: 2^24 + 2^16 + 1 is just above the midpoint of 2^24 and 2^24 + 2^17
     * (through a float rounded to nearest it would become the midpoint, then round down) */
    expect_cast(CC_I32, (double[]){ 16777216 + 65536 + 1, 16777216 + 65536 }, 2, T_BF16, CC_BF16,
                (double[]){ 16777216 + 131072, 16777216 });
    expect_cast(CC_I32, (double[]){ 65519, 65520, 2049 }, 3, T_F16, CC_F16, (double[]){ 65504, INFINITY, 2048 });
    /* int64 -> f32 beyond 2^53: at 2^60 the f32 spacing is 2^37 */
    const int64_t p60 = INT64_C(1) << 60, h = INT64_C(1) << 36;
    const int64_t v[] = { p60 + h, p60 + h + 1, p60 + 3 * h, -(p60 + h + 1), INT64_MAX, INT64_MIN };
    cc_tensor t = i64s(6, v);
    const cc_tensor *in[1] = { &t };
    cc_node c = cast_node(T_F32);
    const double want[] = { 0x1p60, 0x1p60 + 0x1p37, 0x1p60 + 0x1p38, -(0x1p60 + 0x1p37), 0x1p63, -0x1p63 };
    golden_expect(&c, in, CC_F32, want, NULL, 6, 1, 0);
    /* ... and to int32 the low 32 bits: 2^60 + 2^36 + 1 keeps 1 */
    c = cast_node(T_I32);
    golden_expect(&c, in, CC_I32, (double[]){ 0, 1, 0, -1, -1, 0 }, NULL, 6, 1, 0);
    cc_tensor_free(&t);
}

/* A u64 tensor of n values written exactly. */
static cc_tensor u64s(int n, const uint64_t *v)
{
    int64_t d = n;
    cc_tensor t = tensor_of(CC_U64, 1, &d, NULL);
    memcpy(t.data, v, 8 * (size_t)n);
    return t;
}

/* The dtypes of target ABI 8: narrowing into i16, u16 and u32 keeps the low bits (the
 * golden once kept the whole value), a u64 past 2^63 is read as unsigned and rounded once
 * (through double it would meet a tie and round to even), an int64 past 2^53 to f64 rounds
 * to nearest even (not to the sticky value of the f32 path), f64 to u64 reaches past 2^63,
 * and f64 to f16 rounds once. */
static void wide(void)
{
    const double a[] = { -1, 70000, 32768 };
    expect_cast(CC_I32, a, 3, 12, CC_U32, (double[]){ 4294967295.0, 70000, 32768 });
    expect_cast(CC_I32, a, 3, 4, CC_U16, (double[]){ 65535, 4464, 32768 });
    expect_cast(CC_I32, a, 3, 5, CC_I16, (double[]){ -1, 4464, -32768 });
    expect_cast(CC_I16, (double[]){ -2 }, 1, 13, CC_U64, (double[]){ 18446744073709551614.0 });
    const uint64_t p63 = UINT64_C(1) << 63;
    const uint64_t u[] = { UINT64_MAX, p63 + (UINT64_C(1) << 39) + 1, p63 + (UINT64_C(1) << 39), 70000 };
    cc_tensor t = u64s(4, u);
    const cc_tensor *in[1] = { &t };
    /* f32 spacing at 2^63 is 2^40: 2^63 + 2^39 is the midpoint (to even: 2^63), one more
     * rounds up */
    cc_node c = cast_node(T_F32);
    golden_expect(&c, in, CC_F32, (double[]){ 0x1p64, 0x1p63 + 0x1p40, 0x1p63, 70000 }, NULL, 4, 1, 0);
    c = cast_node(T_I64);
    golden_expect(&c, in, CC_I64, (double[]){ -1, -0x1p63 + 0x1p39 + 1, -0x1p63 + 0x1p39, 70000 }, NULL, 4, 1, 0);
    c = cast_node(12);
    golden_expect(&c, in, CC_U32, (double[]){ 4294967295.0, 1, 0, 70000 }, NULL, 4, 1, 0);
    c = cast_node(4);
    golden_expect(&c, in, CC_U16, (double[]){ 65535, 1, 0, 4464 }, NULL, 4, 1, 0);
    cc_tensor_free(&t);
    /* int64 -> f64: 2^53 + 1 is a tie (to 2^53, even), 2^53 + 3 one (to 2^53 + 4) */
    const int64_t p53 = INT64_C(1) << 53;
    cc_tensor w = i64s(3, (int64_t[]){ p53 + 1, p53 + 3, -(p53 + 1) });
    const cc_tensor *inw[1] = { &w };
    c = cast_node(T_DOUBLE);
    golden_expect(&c, inw, CC_F64, (double[]){ 0x1p53, 0x1p53 + 4, -0x1p53 }, NULL, 3, 1, 0);
    cc_tensor_free(&w);
    /* f64 -> u64 past 2^63 (1e19 is exact in double); 2^64 is outside */
    expect_cast(CC_F64, (double[]){ 1e19, 2.9 }, 2, 13, CC_U64, (double[]){ 1e19, 2 });
    int64_t one = 1;
    cc_tensor big = tensor_of(CC_F64, 1, &one, (double[]){ 0x1p64 });
    const cc_tensor *inb[1] = { &big };
    c = cast_node(13);
    cc_tensor out;
    cc_golden g;
    cc_err e = { 0 };
    CHECK(golden_run(&c, inb, 1, &out, &g, &e) == CC_ERR_ARG && strstr(e.msg, "outside u64's range"));
    cc_golden_free(&g, 1);
    cc_store(big.data, CC_F64, 0, 0x1p63);
    c = cast_node(T_I64);
    CHECK(golden_run(&c, inb, 1, &out, &g, &e) == CC_ERR_ARG && strstr(e.msg, "outside i64's range"));
    cc_golden_free(&g, 1);
    cc_tensor_free(&big);
    /* f64 -> f16: 1 + 2^-11 + 2^-40 lies just above the midpoint of 1 and 1 + 2^-10 */
    expect_cast(CC_F64, (double[]){ 1 + 0x1p-11 + 0x1p-40, 1 + 0x1p-40 }, 2, T_F16, CC_F16,
                (double[]){ 1 + 0x1p-10, 1 });
    expect_cast(CC_F64, (double[]){ 1 + 0x1p-40 }, 1, T_F32, CC_F32, (double[]){ 1 });
}

static void targets(void)
{
    int64_t d = 2;
    cc_tensor x = tensor_of(CC_F32, 1, &d, (double[]){ 1.5, -2 });
    const cc_tensor *in[1] = { &x };
    cc_node c = cast_node(T_DOUBLE); /* float64 (target ABI 8) */
    golden_expect(&c, in, CC_F64, (double[]){ 1.5, -2 }, NULL, 2, 1, 0);
    c = cast_node(T_STRING);
    expect_reject(&c, in, 1, CC_ERR_UNSUPPORTED, "to=8 (STRING) is not a crosscheck dtype");
    c = cast_node(42);
    expect_reject(&c, in, 1, CC_ERR_ARG, "to=42 is not an ONNX data type");
    /* CastLike: the output takes the second input's dtype, whatever its values */
    cc_node cl = node_make(family_op(cc_catalog_family("eltwise"), "CastLike"), 2);
    cc_tensor like = tensor_of(CC_I32, 0, NULL, (double[]){ 99 });
    const cc_tensor *in2[2] = { &x, &like };
    golden_expect(&cl, in2, CC_I32, (double[]){ 1, -2 }, NULL, 2, 1, 0);
    cc_tensor_free(&x);
    cc_tensor_free(&like);
}

/* The sweeps: every id parses and the quick cases run in both regimes (their generated
 * values stay where the conversion is defined, else the golden would refuse them). */
static void cases(void)
{
    const char *ops[] = { "Cast", "CastLike" };
    for (int i = 0; i < 2; i++) {
        const cc_op_def *op = cc_catalog_find(ops[i]);
        CHECK(op != NULL);
        if (!op) continue;
        for (int quick = 1; quick >= 0; quick--) {
            int n;
            cc_case *cs = sweep_cases(op, quick, &n);
            CHECK(n >= 8 * 8);
            for (int k = 0; quick && k < n; k++)
                for (int exact = 0; exact < 2; exact++) case_golden_finite(&cs[k], 11 + (uint64_t)k, exact);
            free(cs);
        }
    }
    expect_canonical("Cast(input=2x3:f32,to=10)", "Cast(input=2x3:f32,to=10)");
}

int main(void)
{
    floats();
    integers();
    wide();
    targets();
    cases();
    return CC_TEST_RESULT();
}
