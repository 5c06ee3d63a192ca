/* test_eltwise_variadic.c — Min, Max, Sum, Mean, Pow, PRelu and Mod: golden values worked
 * out by hand, S and K, three inputs broadcasting against an explicit index formula,
 * infer() rejections with their messages, gen() domains, and every generated case id. */
#include "op_test.h"

#define cc_family_eltwise (*cc_catalog_family("eltwise"))

static cc_node node_of(const char *name, int n_in)
{
    return node_make(family_op(&cc_family_eltwise, name), n_in);
}

/* Runs n on in and checks the values, S and K. */
static void check_golden(const cc_node *n, const cc_tensor *const *in, const double *want,
                         const double *want_s, int cnt, double want_k, double tol)
{
    golden_expect(n, in, CC_DTYPE_COUNT, want, want_s, cnt, want_k, tol);
}

static void test_variadic_hand(void)
{
    const int64_t d3[] = { 3 };
    const double a[] = { 1, -2, 3 }, b[] = { 0.5, 4, -6 }, c[] = { 2, -8, 0 };
    cc_tensor ta = tensor_of(CC_F32, 1, d3, a), tb = tensor_of(CC_F32, 1, d3, b);
    cc_tensor tc = tensor_of(CC_F32, 1, d3, c);
    const cc_tensor *in3[3] = { &ta, &tb, &tc };
    {
        cc_node n = node_of("Min", 3);
        const double want[] = { 0.5, -8, -6 }, s[] = { 0.5, 8, 6 };
        check_golden(&n, in3, want, s, 3, 1, 0);
    }
    {
        cc_node n = node_of("Max", 3);
        const double want[] = { 2, 4, 3 }, s[] = { 2, 4, 3 };
        check_golden(&n, in3, want, s, 3, 1, 0);
    }
    {
        /* 1 + 0.5 + 2, -2 + 4 - 8, 3 - 6 + 0; S the sums of magnitudes; K = 2 additions */
        cc_node n = node_of("Sum", 3);
        const double want[] = { 3.5, -6, -3 }, s[] = { 3.5, 14, 9 };
        check_golden(&n, in3, want, s, 3, 2, 0);
    }
    {
        /* the sums over 3; S = sum |x| / 3; K = 3 (2 additions and the division) */
        cc_node n = node_of("Mean", 3);
        const double want[] = { 3.5 / 3, -2, -1 }, s[] = { 3.5 / 3, 14.0 / 3, 3 };
        check_golden(&n, in3, want, s, 3, 3, 1e-15);
    }
    {
        /* one input: Sum and Min are copies (K = 1), Mean divides by 1 */
        const cc_tensor *in1[1] = { &tb };
        cc_node n = node_of("Sum", 1);
        const double s[] = { 0.5, 4, 6 };
        check_golden(&n, in1, b, s, 3, 1, 0);
        cc_node m = node_of("Min", 1);
        check_golden(&m, in1, b, s, 3, 1, 0);
        cc_node mean = node_of("Mean", 1);
        check_golden(&mean, in1, b, s, 3, 1, 0);
    }
    {
        /* a gap: data_1 absent, data_0 and data_2 present */
        const cc_tensor *gap[3] = { &ta, NULL, &tc };
        cc_node n = node_of("Max", 3);
        const double want[] = { 2, -2, 3 };
        check_golden(&n, gap, want, NULL, 3, 1, 0);
    }
    /* integers: Min/Max of i32 */
    {
        const double ia[] = { 7, -3, 100 }, ib[] = { -7, 5, 100 };
        cc_tensor xa = tensor_of(CC_I32, 1, d3, ia), xb = tensor_of(CC_I32, 1, d3, ib);
        const cc_tensor *in[2] = { &xa, &xb };
        cc_node n = node_of("Min", 2);
        const double want[] = { -7, -3, 100 }, s[] = { 0, 0, 0 };
        check_golden(&n, in, want, s, 3, 1, 0);
        cc_tensor_free(&xa);
        cc_tensor_free(&xb);
    }
    cc_tensor_free(&ta);
    cc_tensor_free(&tb);
    cc_tensor_free(&tc);
}

static void test_binary_hand(void)
{
    const int64_t d4[] = { 4 }, d1[] = { 1 };
    {
        /* 2^3, 4^0.5, 0.5^-2, (-2)^3 */
        const double x[] = { 2, 4, 0.5, -2 }, y[] = { 3, 0.5, -2, 3 };
        cc_tensor tx = tensor_of(CC_F32, 1, d4, x), ty = tensor_of(CC_F32, 1, d4, y);
        const cc_tensor *in[2] = { &tx, &ty };
        cc_node n = node_of("Pow", 2);
        const double want[] = { 8, 2, 4, -8 }, s[] = { 8, 2, 4, 8 };
        check_golden(&n, in, want, s, 4, 1, 0);
        /* an i64 exponent of a float base: 2^3, 4^-1, 0.5^2, (-2)^0 */
        const double yi[] = { 3, -1, 2, 0 };
        cc_tensor tyi = tensor_of(CC_I64, 1, d4, yi);
        const cc_tensor *in2[2] = { &tx, &tyi };
        const double want2[] = { 8, 0.25, 0.25, 1 };
        check_golden(&n, in2, want2, NULL, 4, 1, 0);
        /* an i32 base with a float exponent: truncated toward zero (3^0.5 = 1.73 -> 1) */
        const double xi[] = { 3, 2, 5, -3 }, yf[] = { 0.5, 3, -1, 3 };
        cc_tensor txi = tensor_of(CC_I32, 1, d4, xi), tyf = tensor_of(CC_F32, 1, d4, yf);
        const cc_tensor *in3[2] = { &txi, &tyf };
        const double want3[] = { 1, 8, 0, -27 };
        check_golden(&n, in3, want3, NULL, 4, 1, 0);
        /* i64 base and exponent: the integer power (3^35 = 50031545098999707, past 2^53: the
         * golden value holds the double nearest to it), 3^41 wraps modulo 2^64 as numpy's does
         * (36472996377170786403 - 2^64 = 18026252303461234787, as int64 -420491770248316829;
         * a real power of 3.6e19 would be out of range), negative powers truncate */
        const double xb[] = { 3, 3, -1, 2 }, yb[] = { 35, 41, -3, -1 };
        cc_tensor txb = tensor_of(CC_I64, 1, d4, xb), tyb = tensor_of(CC_I64, 1, d4, yb);
        const cc_tensor *in4[2] = { &txb, &tyb };
        cc_tensor o4;
        cc_golden g4;
        CHECK(golden_run(&n, in4, 1, &o4, &g4, NULL) == CC_OK);
        CHECK(g4.value[0] == 50031545098999707.0 && g4.value[2] == -1 && g4.value[3] == 0);
        CHECK(g4.value[1] == (double)INT64_C(-420491770248316829));
        cc_golden_free(&g4, 1);
        cc_tensor_free(&txb);
        cc_tensor_free(&tyb);
        cc_tensor_free(&tx);
        cc_tensor_free(&ty);
        cc_tensor_free(&tyi);
        cc_tensor_free(&txi);
        cc_tensor_free(&tyf);
    }
    {
        /* PRelu with one shared slope 0.25: negatives scaled, the rest kept */
        const double x[] = { -4, -0.5, 0, 3 }, sl[] = { 0.25 };
        cc_tensor tx = tensor_of(CC_F32, 1, d4, x), ts = tensor_of(CC_F32, 1, d1, sl);
        const cc_tensor *in[2] = { &tx, &ts };
        cc_node n = node_of("PRelu", 2);
        const double want[] = { -1, -0.125, 0, 3 }, s[] = { 1, 0.125, 0, 3 };
        check_golden(&n, in, want, s, 4, 1, 0);
        cc_tensor_free(&tx);
        cc_tensor_free(&ts);
    }
    {
        /* Mod on i32: fmod=0 takes the divisor's sign, fmod=1 the dividend's */
        const double a[] = { 7, -7, 7, -7 }, b[] = { 3, 3, -3, -3 };
        cc_tensor ta = tensor_of(CC_I32, 1, d4, a), tb = tensor_of(CC_I32, 1, d4, b);
        const cc_tensor *in[2] = { &ta, &tb };
        cc_node n = node_of("Mod", 2);
        const double floor_mod[] = { 1, 2, -2, -1 }, trunc_mod[] = { 1, -1, 1, -1 };
        check_golden(&n, in, floor_mod, NULL, 4, 1, 0);
        attr_set_i(&n, "fmod", 1);
        check_golden(&n, in, trunc_mod, NULL, 4, 1, 0);
        /* floats: C's fmod, 5.5 fmod 2 = 1.5, -5.5 fmod 2 = -1.5, 5.5 fmod -2 = 1.5, 0.75 fmod 0.5 = 0.25 */
        const double fa[] = { 5.5, -5.5, 5.5, 0.75 }, fb[] = { 2, 2, -2, 0.5 };
        cc_tensor xa = tensor_of(CC_F32, 1, d4, fa), xb = tensor_of(CC_F32, 1, d4, fb);
        const cc_tensor *inf[2] = { &xa, &xb };
        const double want[] = { 1.5, -1.5, 1.5, 0.25 }, ws[] = { 1.5, 1.5, 1.5, 0.25 };
        check_golden(&n, inf, want, ws, 4, 1, 0);
        cc_tensor_free(&ta);
        cc_tensor_free(&tb);
        cc_tensor_free(&xa);
        cc_tensor_free(&xb);
    }
    {
        /* target ABI 8's dtypes: Max of u32 past 2^31, Min of i16, Mod of u16 and i16, Max of
         * f64 (0.1 and 0.2 stay float64 values, not float32 ones) */
        const double a[] = { 4000000000.0, 1, 65535, 0 }, b[] = { 3000000000.0, 2, 7, 4294967295.0 };
        cc_tensor ta = tensor_of(CC_U32, 1, d4, a), tb = tensor_of(CC_U32, 1, d4, b);
        const cc_tensor *in[2] = { &ta, &tb };
        cc_node mx = node_of("Max", 2), mn = node_of("Min", 2), md = node_of("Mod", 2);
        check_golden(&mx, in, (double[]){ 4000000000.0, 2, 65535, 4294967295.0 }, NULL, 4, 1, 0);
        const double ia[] = { -32768, 5, -7, 32767 }, ib[] = { 2, -5, 3, -1 };
        cc_tensor xa = tensor_of(CC_I16, 1, d4, ia), xb = tensor_of(CC_I16, 1, d4, ib);
        const cc_tensor *in16[2] = { &xa, &xb };
        check_golden(&mn, in16, (double[]){ -32768, -5, -7, -1 }, NULL, 4, 1, 0);
        check_golden(&md, in16, (double[]){ 0, 0, 2, 0 }, NULL, 4, 1, 0); /* -7 mod 3 = 2 (divisor's sign) */
        const double ua[] = { 65535, 10, 7, 0 }, ub[] = { 256, 3, 7, 9 };
        cc_tensor ya = tensor_of(CC_U16, 1, d4, ua), yb = tensor_of(CC_U16, 1, d4, ub);
        const cc_tensor *inu[2] = { &ya, &yb };
        check_golden(&md, inu, (double[]){ 255, 1, 0, 0 }, NULL, 4, 1, 0);
        const double fa[] = { 0.1, -0.2, 1e-300, 3 }, fb[] = { 0.2, -0.1, 0, 3 };
        cc_tensor za = tensor_of(CC_F64, 1, d4, fa), zb = tensor_of(CC_F64, 1, d4, fb);
        const cc_tensor *in64[2] = { &za, &zb };
        check_golden(&mx, in64, (double[]){ 0.2, -0.1, 1e-300, 3 }, (double[]){ 0.2, 0.1, 1e-300, 3 }, 4, 1, 0);
        cc_tensor_free(&ta);
        cc_tensor_free(&tb);
        cc_tensor_free(&xa);
        cc_tensor_free(&xb);
        cc_tensor_free(&ya);
        cc_tensor_free(&yb);
        cc_tensor_free(&za);
        cc_tensor_free(&zb);
    }
}

/* Three inputs of shapes 2x1x4, 3x1 and 4 broadcast to 2x3x4: element (i, j, k) is
 * max(a[i*4 + k], b[j], c[k]) and sum a[i*4 + k] + b[j] + c[k]. */
static void test_broadcast_formula(void)
{
    const int64_t da[] = { 2, 1, 4 }, db[] = { 3, 1 }, dc[] = { 4 };
    double a[8], b[3], c[4];
    for (int i = 0; i < 8; i++) a[i] = (i * 7 % 11) - 5;
    for (int i = 0; i < 3; i++) b[i] = 3 * i - 2.5;
    for (int i = 0; i < 4; i++) c[i] = 0.25 * i - 0.5;
    cc_tensor ta = tensor_of(CC_F32, 3, da, a), tb = tensor_of(CC_F32, 2, db, b);
    cc_tensor tc = tensor_of(CC_F32, 1, dc, c);
    const cc_tensor *in[3] = { &ta, &tb, &tc };
    double want_max[24], want_sum[24];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++) {
                double x = a[i * 4 + k], y = b[j], z = c[k];
                double m = x > y ? x : y;
                want_max[(i * 3 + j) * 4 + k] = m > z ? m : z;
                want_sum[(i * 3 + j) * 4 + k] = x + y + z;
            }
    cc_node mx = node_of("Max", 3), sum = node_of("Sum", 3);
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK(golden_run(&mx, in, 1, &out, &g, &e) == CC_OK);
    CHECK(out.shape.rank == 3 && out.shape.dims[0] == 2 && out.shape.dims[1] == 3 && out.shape.dims[2] == 4);
    expect_values(&g, want_max, 24, 0);
    cc_golden_free(&g, 1);
    CHECK(golden_run(&sum, in, 1, &out, &g, &e) == CC_OK);
    expect_values(&g, want_sum, 24, 0);
    cc_golden_free(&g, 1);
    cc_tensor_free(&ta);
    cc_tensor_free(&tb);
    cc_tensor_free(&tc);
}

static void test_rejections(void)
{
    const int64_t d23[] = { 2, 3 }, d4[] = { 4 }, d3[] = { 3 }, d13[] = { 1, 3 };
    cc_tensor a = { CC_F32, cc_shape_make(2, d23), NULL }, b4 = { CC_F32, cc_shape_make(1, d4), NULL };
    cc_tensor ai = { CC_I32, cc_shape_make(2, d23), NULL }, v3 = { CC_F32, cc_shape_make(1, d3), NULL };
    cc_tensor big = { CC_F32, cc_shape_make(2, d13), NULL }, h3 = { CC_F16, cc_shape_make(1, d3), NULL };
    {
        cc_node n = node_of("Max", 3);
        const cc_tensor *in[3] = { &a, &v3, &b4 };
        expect_reject(&n, in, 1, CC_ERR_ARG, "Max: shapes 2x3 and 4 do not broadcast (dim -1: 3 vs 4)");
        const cc_tensor *none[3] = { NULL, NULL, NULL };
        expect_reject(&n, none, 1, CC_ERR_ARG, "Max: needs at least 1 input");
        const cc_tensor *mixed[3] = { &a, NULL, &h3 };
        expect_reject(&n, mixed, 1, CC_ERR_ARG, "Max: data_2 is f16 but data_0 is f32 (must match)");
    }
    {
        cc_node n = node_of("Sum", 1);
        const cc_tensor *in[1] = { &ai };
        expect_reject(&n, in, 1, CC_ERR_ARG, "Sum: dtype i32 is not allowed (float types only)");
    }
    {
        cc_node n = node_of("PRelu", 2);
        const cc_tensor *in[2] = { &v3, &big };
        expect_reject(&n, in, 1, CC_ERR_ARG, "PRelu: slope 1x3 does not broadcast to x 3 (unidirectional)");
        const cc_tensor *one[2] = { &v3, NULL };
        expect_reject(&n, one, 1, CC_ERR_ARG, "PRelu: needs 2 inputs (x, slope)");
    }
    {
        cc_node n = node_of("Mod", 2);
        const cc_tensor *in[2] = { &a, &v3 };
        expect_reject(&n, in, 1, CC_ERR_ARG, "Mod: fmod=0 is integer modulo; f32 inputs need fmod=1");
        attr_set_i(&n, "fmod", 2);
        expect_reject(&n, in, 1, CC_ERR_ARG, "Mod: fmod must be 0 or 1, got 2");
    }
    {
        cc_node n = node_of("Pow", 2);
        cc_tensor bo = { CC_BOOL, cc_shape_make(1, d3), NULL };
        const cc_tensor *in[2] = { &a, &bo };
        expect_reject(&n, in, 1, CC_ERR_ARG, "Pow: y is bool, not a numeric type");
        cc_tensor_free(&bo);
    }
}

/* Pow's generated bases stay positive where exponents are not integral, and every result
 * finite in f16; Mod's divisors are never 0. */
static void test_gen(void)
{
    const char *ids[] = { "Pow(x=3x5x7:f16,y=3x5x7)", "Pow(x=3x5x7:f16,y=3x5x7:i32)",
                          "Mod(a=3x5x7:i8,b=3x5x7)",
                          "Mod(a=3x5x7:f16,b=3x5x7,fmod=1)", "Mod(a=3x5x7:i64,b=1)" };
    for (size_t t = 0; t < sizeof ids / sizeof ids[0]; t++)
        for (int exact = 0; exact < 2; exact++) {
            cc_case_inst inst;
            cc_golden g;
            if (!case_golden_of(ids[t], 5 + t, exact, &inst, &g)) continue;
            int64_t n = cc_shape_numel(&g.shape);
            int bad = 0;
            for (int64_t i = 0; i < n; i++)
                bad += !isfinite(g.value[i]) || (ids[t][0] == 'P' && fabs(g.value[i]) > 64);
            if (ids[t][0] == 'M') {
                const cc_tensor *b = &inst.inputs[1];
                for (int64_t i = 0; i < cc_tensor_numel(b); i++)
                    bad += cc_load(b->data, b->dtype, (size_t)i) == 0;
                if (cc_tensor_numel(b) == 1) bad += fabs(cc_load(b->data, b->dtype, 0)) < 1.5 && exact;
            } else if (!exact && inst.inputs[1].dtype != CC_I32) {
                for (int64_t i = 0; i < cc_tensor_numel(&inst.inputs[0]); i++)
                    bad += cc_load(inst.inputs[0].data, inst.inputs[0].dtype, (size_t)i) <= 0;
            }
            CHECK(bad == 0);
            if (bad)
                fprintf(stderr, "  %s (%s regime): %d bad values\n", ids[t], exact ? "exact" : "random", bad);
            cc_golden_free(&g, 1);
            cc_case_inst_free(&inst);
        }
}

static void test_cases(void)
{
    static const char *const names[] = { "Min", "Max", "Sum", "Mean", "Pow", "PRelu", "Mod" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const cc_op_def *op = family_op(&cc_family_eltwise, names[i]);
        int nq = 0, nf = 0;
        cc_case *q = sweep_cases(op, 1, &nq), *f = sweep_cases(op, 0, &nf);
        CHECK(nq >= 3 && nf > nq);
        for (int k = 0; k < nq; k++) case_golden_finite(&q[k], 11, k & 1);
        free(q);
        free(f);
    }
    expect_canonical("Max(data_0=2x3:f32,data_1=3,data_2=scalar)",
                     "Max(data_0=2x3:f32,data_1=3,data_2=scalar)");
    expect_case_refused("PRelu(x=3:f32,slope=2x3)", "does not broadcast to x");
    expect_case_refused("Mod(a=3:f32,b=3)", "fmod=0 is integer modulo");
}

int main(void)
{
    test_variadic_hand();
    test_binary_hand();
    test_broadcast_formula();
    test_rejections();
    test_gen();
    test_cases();
    return CC_TEST_RESULT();
}
