/* test_reduce_arg.c — ArgMax and ArgMin: indices worked out by hand along each axis, with
 * keepdims both ways, ties to the first or (select_last_index) the last index, NaN beating
 * every number, int64 outputs, the wide dtypes compared in their own type (values a float,
 * narrower or signed path orders wrongly), rejections, and the sweeps' ids. */
#include "op_test.h"

static cc_node node_of(const char *name) { return node_make(family_op(cc_catalog_family("reduce"), name), 1); }

static void test_values(void)
{
    /* [[2, 1], [3, 10]]: the specification's example */
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 2, 2 }, (double[]){ 2, 1, 3, 10 });
    const cc_tensor *in[1] = { &x };
    cc_node mx = node_of("ArgMax"), mn = node_of("ArgMin");
    golden_expect(&mx, in, CC_I64, (double[]){ 1, 1 }, (double[]){ 0, 0 }, 2, 1, 0); /* axis 0: [[1, 1]] */
    attr_set_i(&mx, "axis", 1);
    golden_expect(&mx, in, CC_I64, (double[]){ 0, 1 }, NULL, 2, 1, 0);
    golden_expect(&mn, in, CC_I64, (double[]){ 0, 0 }, NULL, 2, 1, 0);
    attr_set_i(&mn, "axis", -1);
    attr_set_i(&mn, "keepdims", 0);
    golden_expect(&mn, in, CC_I64, (double[]){ 1, 0 }, NULL, 2, 1, 0);
    cc_tensor out;
    cc_err e = { 0 };
    memset(&out, 0, sizeof out);
    CHECK_OK(mn.op->infer(&mn, in, 1, &out, &e));
    CHECK(out.shape.rank == 1 && out.shape.dims[0] == 2 && out.dtype == CC_I64);
    CHECK_OK(mx.op->infer(&mx, in, 1, &out, &e));
    CHECK(out.shape.rank == 2 && out.shape.dims[1] == 1);

    /* ties: [2, 5, 5, 1, 1] */
    cc_tensor t = tensor_of(CC_I32, 1, (int64_t[]){ 5 }, (double[]){ 2, 5, 5, 1, 1 });
    const cc_tensor *ti[1] = { &t };
    cc_node a = node_of("ArgMax"), b = node_of("ArgMin");
    golden_expect(&a, ti, CC_I64, (double[]){ 1 }, NULL, 1, 1, 0);
    golden_expect(&b, ti, CC_I64, (double[]){ 3 }, NULL, 1, 1, 0);
    attr_set_i(&a, "select_last_index", 1);
    attr_set_i(&b, "select_last_index", 1);
    golden_expect(&a, ti, CC_I64, (double[]){ 2 }, NULL, 1, 1, 0);
    golden_expect(&b, ti, CC_I64, (double[]){ 4 }, NULL, 1, 1, 0);

    /* NaN wins for both, the first NaN (or the last with select_last_index) */
    cc_tensor n = tensor_of(CC_F32, 1, (int64_t[]){ 5 }, (double[]){ 1, NAN, 9, NAN, -9 });
    const cc_tensor *ni[1] = { &n };
    cc_node c = node_of("ArgMax"), d = node_of("ArgMin");
    golden_expect(&c, ni, CC_I64, (double[]){ 1 }, NULL, 1, 1, 0);
    golden_expect(&d, ni, CC_I64, (double[]){ 1 }, NULL, 1, 1, 0);
    attr_set_i(&c, "select_last_index", 1);
    golden_expect(&c, ni, CC_I64, (double[]){ 3 }, NULL, 1, 1, 0);

    attr_set_i(&c, "axis", 1);
    expect_reject(&c, ni, 1, CC_ERR_ARG, "axis 1 is outside [-1, 0]");
    cc_tensor bl = tensor_of(CC_BOOL, 1, (int64_t[]){ 2 }, NULL);
    const cc_tensor *bi[1] = { &bl };
    expect_reject(&d, bi, 1, CC_ERR_ARG, "must be a number type");
    cc_tensor_free(&x);
    cc_tensor_free(&t);
    cc_tensor_free(&n);
    cc_tensor_free(&bl);
}

/* A tensor of dtype dt and dims holding the raw elements at bytes; free with cc_tensor_free. */
static cc_tensor raw_of(cc_dtype dt, int rank, const int64_t *dims, const void *bytes)
{
    cc_tensor t = tensor_of(dt, rank, dims, NULL);
    memcpy(t.data, bytes, cc_tensor_bytes(&t));
    return t;
}

/* ArgMax and ArgMin of x along its last axis, first and (select_last_index) last of ties:
 * max, max_last, min, min_last hold one index per line. */
static void expect_args(const cc_tensor *x, int lines, const double *max, const double *max_last, const double *min,
                        const double *min_last)
{
    const cc_tensor *in[1] = { x };
    cc_node a = node_of("ArgMax"), b = node_of("ArgMin");
    attr_set_i(&a, "axis", -1);
    attr_set_i(&b, "axis", -1);
    golden_expect(&a, in, CC_I64, max, NULL, lines, 1, 0);
    golden_expect(&b, in, CC_I64, min, NULL, lines, 1, 0);
    attr_set_i(&a, "select_last_index", 1);
    attr_set_i(&b, "select_last_index", 1);
    golden_expect(&a, in, CC_I64, max_last, NULL, lines, 1, 0);
    golden_expect(&b, in, CC_I64, min_last, NULL, lines, 1, 0);
}

/* The dtypes of target ABI 8, each compared in its own type. */
static void test_wide(void)
{
    /* u64: 2^64 - 16 and 2^64 - 15 are one double (2^64), 2^63 - 1 and 2^63 too; as signed
       they are negative (a signed path takes 2^63 - 1 as the largest, 2^64 - 16 as the
       smallest) */
    const uint64_t b = UINT64_C(0xFFFFFFFFFFFFFFF0), h = UINT64_C(1) << 63;
    cc_tensor u = raw_of(CC_U64, 2, (int64_t[]){ 2, 5 },
                         (uint64_t[]){ 1, b, h - 1, b + 1, b, /* */ h, h - 1, 1, h, 1 });
    expect_args(&u, 2, (double[]){ 3, 0 }, (double[]){ 3, 3 }, (double[]){ 0, 2 }, (double[]){ 0, 4 });
    /* f64: 1 + 2^-40 (1 in f32), 2^53 + 2 (2^53 in f32), -0 equal to 0 (a tie), NaN first */
    cc_tensor f = raw_of(CC_F64, 2, (int64_t[]){ 3, 5 },
                         (double[]){ 1, 1 + 0x1p-40, -0.0, 1 + 0x1p-40, 0.0, /* */
                                     0x1p53, 0x1p53 + 2, -0x1p53 - 2, 0x1p24 + 1, 0x1p53 + 2, /* */
                                     1, NAN, 5, NAN, -1 });
    expect_args(&f, 3, (double[]){ 1, 1, 1 }, (double[]){ 3, 4, 3 }, (double[]){ 2, 2, 1 }, (double[]){ 4, 2, 3 });
    /* i16's ends (a u16 path takes -32768 and -1 as the largest); u16's (an i16 path takes
       65535 as -1); u32 past 2^31 (a signed path takes 0x80000000 as the smallest) */
    cc_tensor i = raw_of(CC_I16, 1, (int64_t[]){ 5 }, (int16_t[]){ -32768, 32767, -1, 32767, -32768 });
    expect_args(&i, 1, (double[]){ 1 }, (double[]){ 3 }, (double[]){ 0 }, (double[]){ 4 });
    cc_tensor v = raw_of(CC_U16, 1, (int64_t[]){ 5 }, (uint16_t[]){ 65535, 1, 32768, 65535, 1 });
    expect_args(&v, 1, (double[]){ 0 }, (double[]){ 3 }, (double[]){ 1 }, (double[]){ 4 });
    cc_tensor w = raw_of(CC_U32, 1, (int64_t[]){ 4 }, (uint32_t[]){ 0x80000000u, 0x7fffffffu, 0xffffffffu, 3 });
    expect_args(&w, 1, (double[]){ 2 }, (double[]){ 2 }, (double[]){ 3 }, (double[]){ 3 });
    cc_tensor_free(&u);
    cc_tensor_free(&f);
    cc_tensor_free(&i);
    cc_tensor_free(&v);
    cc_tensor_free(&w);
}

static void test_cases(void)
{
    const char *ops[] = { "ArgMax", "ArgMin" };
    for (int i = 0; i < 2; i++) {
        const cc_op_def *op = cc_catalog_find(ops[i]);
        CHECK(op != NULL && op->since_version == 13 && strcmp(op->family, "reduce") == 0);
        if (!op) continue;
        for (int quick = 1; quick >= 0; quick--) {
            int n;
            cc_case *cs = sweep_cases(op, quick, &n);
            CHECK(n >= 5 * 7 + 5 * 3); /* the rows of ABI 7's dtypes, and the wide dtypes' */
            int wide = 0;
            for (int k = 0; k < n; k++) wide += cc_case_dtype(&cs[k]) == CC_U64;
            CHECK(wide >= 3);
            for (int k = 0; quick && k < n; k++)
                for (int exact = 0; exact < 2; exact++) case_golden_finite(&cs[k], 5, exact);
            free(cs);
        }
    }
}

int main(void)
{
    test_values();
    test_wide();
    test_cases();
    return CC_TEST_RESULT();
}
