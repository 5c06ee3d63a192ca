/* test_eltwise.c — the eltwise family: golden values worked out by hand, broadcasting
 * against an explicit index formula, S and K on hand examples, infer() rejections with
 * their messages, cost() on known shapes, gen() domains, and every generated case id. */
#include "op_test.h"

#define cc_family_eltwise (*cc_catalog_family("eltwise"))

static cc_node node_of(const char *name) { return node_make(family_op(&cc_family_eltwise, name), -1); }

/* Unary op on a 1-D f32 vector; checks value (and S when want_s is non-NULL). */
static void check_unary(cc_node *n, int cnt, const double *x, const double *want,
                        const double *want_s, double want_k, double tol)
{
    int64_t d = cnt;
    cc_tensor t = tensor_of(CC_F32, 1, &d, x);
    const cc_tensor *in[3] = { &t, NULL, NULL };
    cc_tensor out;
    cc_golden g;
    cc_err e = {0};
    CHECK(golden_run(n, in, 1, &out, &g, &e) == CC_OK);
    CHECK(out.shape.rank == 1 && out.shape.dims[0] == cnt && out.dtype == CC_F32);
    for (int i = 0; i < cnt; i++) {
        CHECK_NEAR(g.value[i], want[i], tol);
        if (want_s) CHECK_NEAR(g.mag[i], want_s[i], tol);
    }
    CHECK(g.k == want_k);
    cc_golden_free(&g, 1);
    cc_tensor_free(&t);
}

/* The golden value at x to a relative 1e-12 of want (a tail where absolute checks say
 * nothing). */
static void check_relative(cc_node *n, double x, double want)
{
    cc_err e;
    int64_t d = 1;
    cc_tensor t = tensor_of(CC_F32, 1, &d, &x);
    const cc_tensor *in[1] = { &t };
    cc_tensor out;
    cc_golden g;
    CHECK(golden_run(n, in, 1, &out, &g, &e) == CC_OK);
    CHECK_NEAR(g.value[0] / want, 1, 1e-12);
    cc_golden_free(&g, 1);
    cc_tensor_free(&t);
}

static void test_activations(void)
{
    const double x[] = { -3, -1, 0, 0.5, 1, 3, 5 };
    {
        cc_node n = node_of("Relu");
        const double want[] = { 0, 0, 0, 0.5, 1, 3, 5 };
        check_unary(&n, 7, x, want, want, 1, 0);
    }
    {
        cc_node n = node_of("LeakyRelu"); /* default alpha 0.01 (a float32 attribute) */
        double a = (float)0.01;
        const double want[] = { -3 * a, -a, 0, 0.5, 1, 3, 5 };
        const double s[] = { 3 * a, a, 0, 0.5, 1, 3, 5 };
        check_unary(&n, 7, x, want, s, 2, 1e-15);
        CHECK_NEAR(want[0], -0.03, 1e-9);
        attr_set_f(&n, "alpha", 0.5);
        const double want2[] = { -1.5, -0.5, 0, 0.5, 1, 3, 5 };
        check_unary(&n, 7, x, want2, NULL, 2, 0);
    }
    {
        cc_node n = node_of("Sigmoid");
        const double xs[] = { 0, 1, -40, 40 };
        const double want[] = { 0.5, 1 / (1 + 1 / M_E), 1 / (1 + exp(40)), 1 / (1 + exp(-40)) };
        check_unary(&n, 4, xs, want, want, 1, 1e-16);
        check_relative(&n, -40, 4.248354255291589e-18); /* the far negative tail: e^-40/(1+e^-40) */
    }
    {
        cc_node n = node_of("Tanh");
        const double xs[] = { 0, 0.5, -2 };
        const double want[] = { 0, (M_E - 1) / (M_E + 1), -(exp(4) - 1) / (exp(4) + 1) };
        check_unary(&n, 3, xs, want, NULL, 1, 1e-15);
    }
    {
        cc_node n = node_of("HardSigmoid"); /* alpha 0.2, beta 0.5 */
        double a = (float)0.2;
        const double want[] = { 0, 0.5 - a, 0.5, 0.5 + 0.5 * a, 0.5 + a, 1, 1 };
        /* S = |alpha x| + |alpha x + beta| */
        const double s[] = { 3 * a + fabs(0.5 - 3 * a), a + 0.5 - a, 0.5, 0.5 * a + 0.5 + 0.5 * a,
                             a + 0.5 + a, 3 * a + 0.5 + 3 * a, 5 * a + 0.5 + 5 * a };
        check_unary(&n, 7, x, want, s, 2, 1e-15);
        CHECK_NEAR(want[4], 0.7, 1e-7);
    }
    {
        cc_node n = node_of("HardSwish");
        const double xs[] = { -3, 0, 3, 1, -1, 4 };
        const double want[] = { 0, 0, 3, 2.0 / 3, -1.0 / 3, 4 };
        /* S = |x| (|x|/6 + h) + |y|: at 1: 1 (1/6 + 2/3) + 2/3 = 1.5 */
        const double s[] = { 3 * 0.5, 0, 3 * (0.5 + 1) + 3, 1.5, 1.0 / 6 + 1.0 / 3 + 1.0 / 3,
                             4 * (4.0 / 6 + 1) + 4 };
        check_unary(&n, 6, xs, want, s, 2, 1e-15);
    }
    {
        cc_node n = node_of("Exp");
        const double xs[] = { 0, 1, -1 };
        const double want[] = { 1, M_E, 1 / M_E };
        check_unary(&n, 3, xs, want, want, 1, 1e-15);
    }
    {
        cc_node n = node_of("Sqrt");
        const double xs[] = { 0, 4, 2, 0.25 };
        const double want[] = { 0, 2, M_SQRT2, 0.5 };
        check_unary(&n, 4, xs, want, want, 1, 1e-15);
    }
    {
        /* log(1 + e^x): ln 2 at 0, ln(1 + e) at 1, ln(1 + 1/e) at -1 (the two differ by
         * exactly 1: softplus(x) - softplus(-x) = x), x + e^-x to 1e-17 at 40, e^-40 at -40
         * (where the naive log(1 + exp(x)) gives 0) */
        cc_node n = node_of("Softplus");
        const double xs[] = { 0, 1, -1, 40, -40 };
        const double want[] = { M_LN2, 1.3132616875182228, 0.31326168751822286, 40 + exp(-40), exp(-40) };
        check_unary(&n, 5, xs, want, want, 1, 1e-15);
        CHECK_NEAR(want[1] - want[2], 1, 1e-15);
        check_relative(&n, -40, 4.248354255291589e-18); /* log1p(e^-40) */
    }
}

/* Clip with the given bounds (NULL: absent) on x = {-1, 0.1, 3, 7}. */
static void check_clip(const double *lo, const double *hi, const double *want)
{
    cc_node n = node_of("Clip");
    int64_t d = 4;
    const double x[] = { -1, 0.1, 3, 7 };
    cc_tensor t = tensor_of(CC_F32, 1, &d, x), tl = {0}, th = {0};
    if (lo) tl = tensor_of(CC_F32, 0, NULL, lo);
    if (hi) th = tensor_of(CC_F32, 0, NULL, hi);
    const cc_tensor *in[3] = { &t, lo ? &tl : NULL, hi ? &th : NULL };
    n.n_in = hi ? 3 : lo ? 2 : 1;
    cc_tensor out;
    cc_golden g;
    cc_err e = {0};
    CHECK(golden_run(&n, in, 1, &out, &g, &e) == CC_OK);
    for (int i = 0; i < 4; i++) {
        CHECK_NEAR(g.value[i], want[i], 1e-7);
        CHECK_NEAR(g.mag[i], fabs(want[i]), 1e-7);
    }
    cc_golden_free(&g, 1);
    cc_tensor_free(&t);
    cc_tensor_free(&tl);
    cc_tensor_free(&th);
}

static void test_clip(void)
{
    const double zero = 0, six = 6, quarter = 0.25, one = 1, minus = -0.5;
    { const double w[] = { 0, 0.1, 3, 6 };     check_clip(&zero, &six, w); }
    { const double w[] = { -1, 0.1, 0.25, 0.25 }; check_clip(NULL, &quarter, w); } /* only max */
    { const double w[] = { 1, 1, 3, 7 };       check_clip(&one, NULL, w); }      /* only min */
    { const double w[] = { -1, 0.1, 3, 7 };    check_clip(NULL, NULL, w); }      /* identity */
    /* min > max: every output is max (ONNX Clip-13) */
    { const double w[] = { -0.5, -0.5, -0.5, -0.5 }; check_clip(&one, &minus, w); }
}

/* Binary op on given f32 shapes; checks value and S. */
static void check_binary(const char *op, cc_dtype dt, int ra, const int64_t *da, const double *a,
                         int rb, const int64_t *db, const double *b, int ro, const int64_t *dout,
                         const double *want, const double *want_s)
{
    cc_node n = node_of(op);
    cc_tensor ta = tensor_of(dt, ra, da, a), tb = tensor_of(dt, rb, db, b);
    const cc_tensor *in[2] = { &ta, &tb };
    cc_tensor out;
    cc_golden g;
    cc_err e = {0};
    cc_status st = golden_run(&n, in, 1, &out, &g, &e);
    CHECK(st == CC_OK);
    if (st) fprintf(stderr, "  %s: %s\n", op, e.msg);
    CHECK(out.shape.rank == ro && out.dtype == dt);
    int64_t cnt = 1;
    for (int i = 0; i < ro; i++) {
        CHECK(out.shape.dims[i] == dout[i]);
        cnt *= dout[i];
    }
    for (int64_t i = 0; st == CC_OK && i < cnt; i++) {
        CHECK_NEAR(g.value[i], want[i], 1e-12);
        if (want_s) CHECK_NEAR(g.mag[i], want_s[i], 1e-12);
    }
    CHECK(g.k == 1);
    cc_golden_free(&g, 1);
    cc_tensor_free(&ta);
    cc_tensor_free(&tb);
}

static void test_binary_hand(void)
{
    /* 2x3 + 3 */
    const int64_t d23[] = { 2, 3 }, d3[] = { 3 };
    const double a[] = { 1, 2, 3, 4, -5, 6 }, b[] = { 10, 20, -30 };
    const double sum[] = { 11, 22, -27, 14, 15, -24 };
    const double sum_s[] = { 11, 22, 33, 14, 25, 36 };
    check_binary("Add", CC_F32, 2, d23, a, 1, d3, b, 2, d23, sum, sum_s);
    const double diff[] = { -9, -18, 33, -6, -25, 36 };
    check_binary("Sub", CC_F32, 2, d23, a, 1, d3, b, 2, d23, diff, sum_s);
    /* 2x1 * 1x3 -> 2x3 */
    const int64_t d21[] = { 2, 1 }, d13[] = { 1, 3 };
    const double c[] = { 1, -2 }, r[] = { 3, 4, 5 };
    const double prod[] = { 3, 4, 5, -6, -8, -10 };
    const double prod_s[] = { 3, 4, 5, 6, 8, 10 };
    check_binary("Mul", CC_F32, 2, d21, c, 2, d13, r, 2, d23, prod, prod_s);
    /* [C,1,1] against NCHW: 1x2x2x2 + 2x1x1 */
    const int64_t d1222[] = { 1, 2, 2, 2 }, d211[] = { 2, 1, 1 };
    const double x[] = { 0, 1, 2, 3, 4, 5, 6, 7 }, bias[] = { 100, -100 };
    const double xb[] = { 100, 101, 102, 103, -96, -95, -94, -93 };
    check_binary("Add", CC_F32, 4, d1222, x, 3, d211, bias, 4, d1222, xb, NULL);
    /* scalar against a vector; Div by negatives */
    const double num[] = { 7, -7, 1 }, den = -2;
    const double quo[] = { -3.5, 3.5, -0.5 };
    const double quo_s[] = { 3.5, 3.5, 0.5 };
    check_binary("Div", CC_F32, 1, d3, num, 0, NULL, &den, 1, d3, quo, quo_s);
    check_binary("Div", CC_F16, 1, d3, num, 0, NULL, &den, 1, d3, quo, quo_s);
    /* integer Div truncates toward zero */
    const int64_t d4[] = { 4 };
    const double in_a[] = { 7, -7, -7, 7 }, in_b[] = { 2, 2, -2, -2 }, tq[] = { 3, -3, 3, -3 };
    const double zeros[] = { 0, 0, 0, 0 };
    check_binary("Div", CC_I32, 1, d4, in_a, 1, d4, in_b, 1, d4, tq, zeros);
    check_binary("Div", CC_I64, 1, d4, in_a, 1, d4, in_b, 1, d4, tq, zeros);
    const double big_a[] = { -2147483648.0, 2147483647.0, 5, -1 }, big_b[] = { -1, 2, 7, 3 };
    const double big_q[] = { -2147483648.0, 1073741823, 0, 0 }; /* INT_MIN / -1 wraps */
    check_binary("Div", CC_I32, 1, d4, big_a, 1, d4, big_b, 1, d4, big_q, zeros);
    /* integer Add/Sub/Mul; i32 overflow wraps like numpy */
    const double ia[] = { 2147483647.0, -3, 46341, 0 }, ib[] = { 1, 5, 46341, -9 };
    const double isum[] = { -2147483648.0, 2, 92682, -9 };
    check_binary("Add", CC_I32, 1, d4, ia, 1, d4, ib, 1, d4, isum, zeros);
    const double iprod[] = { 2147483647.0, -15, 2147488281.0 - 4294967296.0, 0 };
    check_binary("Mul", CC_I32, 1, d4, ia, 1, d4, ib, 1, d4, iprod, zeros);
    const double i64a[] = { 9007199254740991.0, -3, 0, 1 }, i64b[] = { -9007199254740991.0, 4, 0, 1 };
    const double i64d[] = { 18014398509481982.0, -7, 0, 0 };
    check_binary("Sub", CC_I64, 1, d4, i64a, 1, d4, i64b, 1, d4, i64d, zeros);
}

/* Broadcast 5x1x4x1 with 3x1x6 against the index formula out[i][j][k][l] =
 * a[i][0][k][0] + b[j][0][l], with pseudo-random values. */
static void test_broadcast_formula(void)
{
    const int64_t da[] = { 5, 1, 4, 1 }, db[] = { 3, 1, 6 };
    double a[20], b[18];
    for (int i = 0; i < 20; i++) a[i] = (i * 7 % 11) - 5;
    for (int i = 0; i < 18; i++) b[i] = (i * 5 % 13) * 0.25;
    cc_node n = node_of("Sub");
    cc_tensor ta = tensor_of(CC_F32, 4, da, a), tb = tensor_of(CC_F32, 3, db, b);
    const cc_tensor *in[2] = { &ta, &tb };
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK(golden_run(&n, in, 1, &out, &g, &e) == CC_OK);
    CHECK(out.shape.rank == 4 && out.shape.dims[0] == 5 && out.shape.dims[1] == 3 &&
          out.shape.dims[2] == 4 && out.shape.dims[3] == 6);
    int bad = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++)
                for (int l = 0; l < 6; l++) {
                    double want = a[i * 4 + k] - b[j * 6 + l];
                    double sw = fabs(a[i * 4 + k]) + fabs(b[j * 6 + l]);
                    int o = ((i * 3 + j) * 4 + k) * 6 + l;
                    if (g.value[o] != want || g.mag[o] != sw) bad++;
                }
    CHECK(bad == 0);
    cc_golden_free(&g, 1);
    cc_tensor_free(&ta);
    cc_tensor_free(&tb);
}

/* infer must fail with `code` and a message containing `want`. */
static void test_rejections(void)
{
    const int64_t d23[] = { 2, 3 }, d4[] = { 4 }, d1[] = { 1 };
    cc_tensor a = { CC_F32, cc_shape_make(2, d23), NULL };
    cc_tensor b = { CC_F32, cc_shape_make(1, d4), NULL };
    cc_tensor bi = { CC_I32, cc_shape_make(1, d4), NULL };
    cc_tensor ai = { CC_I32, cc_shape_make(2, d23), NULL };
    cc_tensor ab = { CC_BOOL, cc_shape_make(2, d23), NULL };
    cc_tensor v1 = { CC_F32, cc_shape_make(1, d1), NULL };
    cc_tensor s16 = { CC_F16, cc_shape_make(0, NULL), NULL };
    cc_node add = node_of("Add");
    {
        const cc_tensor *in[2] = { &a, &b };
        expect_reject(&add, in, 1, CC_ERR_ARG, "Add: shapes 2x3 and 4 do not broadcast (dim -1: 3 vs 4)");
    }
    {
        const cc_tensor *in[2] = { &a, &bi };
        expect_reject(&add, in, 1, CC_ERR_ARG, "Add: b is i32 but a is f32");
    }
    {
        const cc_tensor *in[2] = { &ab, &ab };
        expect_reject(&add, in, 1, CC_ERR_ARG, "Add: dtype bool is not allowed");
    }
    {
        const int64_t big[] = { 1 << 20, 1 << 20 }, big2[] = { 1 << 20, 1, 1 };
        cc_tensor x = { CC_F32, cc_shape_make(2, big), NULL }, y = { CC_F32, cc_shape_make(3, big2), NULL };
        const cc_tensor *in[2] = { &x, &y };
        expect_reject(&add, in, 1, CC_ERR_ARG, "Add: output: element count overflows");
    }
    {
        cc_node sig = node_of("Sigmoid");
        const cc_tensor *in[1] = { &ai };
        expect_reject(&sig, in, 1, CC_ERR_ARG, "Sigmoid: input dtype i32 is not allowed (float types only)");
        cc_node relu = node_of("Relu"); /* Relu-14 takes signed integers */
        cc_tensor out;
        cc_err e;
        CHECK(relu.op->infer(&relu, in, 1, &out, &e) == CC_OK && out.dtype == CC_I32);
    }
    {
        cc_node clip = node_of("Clip");
        const cc_tensor *in[3] = { &a, &v1, NULL };
        clip.n_in = 2;
        expect_reject(&clip, in, 1, CC_ERR_ARG, "Clip: min must be a scalar (rank 0), got shape 1");
        const cc_tensor *in2[3] = { &a, NULL, &s16 };
        clip.n_in = 3;
        expect_reject(&clip, in2, 1, CC_ERR_ARG, "Clip: max is f16 but input is f32 (must match)");
    }
}

static void test_cost(void)
{
    /* ResNet50 residual Add 1x256x56x56: 802816 adds, 3 tensors of 802816 floats */
    const int64_t d[] = { 1, 256, 56, 56 }, dc[] = { 256, 1, 1 };
    cc_tensor x = { CC_F32, cc_shape_make(4, d), NULL }, c = { CC_F32, cc_shape_make(3, dc), NULL };
    cc_node add = node_of("Add");
    const cc_tensor *in[2] = { &x, &x };
    cc_tensor out;
    cc_err e;
    double flops, bytes;
    CHECK(add.op->infer(&add, in, 1, &out, &e) == CC_OK);
    add.op->cost(&add, in, 1, &out, &flops, &bytes);
    CHECK(flops == 802816.0);
    CHECK(bytes == 3 * 802816.0 * 4);
    /* bias-like broadcast: b read once (256 floats) */
    const cc_tensor *in2[2] = { &x, &c };
    CHECK(add.op->infer(&add, in2, 1, &out, &e) == CC_OK);
    add.op->cost(&add, in2, 1, &out, &flops, &bytes);
    CHECK(bytes == (2 * 802816.0 + 256) * 4);
    /* Relu in f16: one comparison per element, 2 bytes in and out */
    cc_tensor h = { CC_F16, cc_shape_make(4, d), NULL };
    cc_node relu = node_of("Relu");
    const cc_tensor *in3[1] = { &h };
    CHECK(relu.op->infer(&relu, in3, 1, &out, &e) == CC_OK);
    relu.op->cost(&relu, in3, 1, &out, &flops, &bytes);
    CHECK(flops == 802816.0 && bytes == 2 * 802816.0 * 2);
}

static void test_gen(void)
{
    cc_rng rng;
    cc_rng_seed(&rng, 42);
    cc_node n = node_of("Div");
    const int64_t d[] = { 1000 };
    cc_err e;
    for (int exact = 0; exact < 2; exact++) {
        cc_tensor in[2];
        cc_shape s = cc_shape_make(1, d);
        cc_tensor_alloc(&in[0], CC_F32, &s, &e);
        cc_tensor_alloc(&in[1], CC_F32, &s, &e);
        CHECK(n.op->gen(&n, in, &rng, exact, &e) == CC_OK);
        int neg = 0, bad = 0;
        for (int i = 0; i < 1000; i++) {
            double v = cc_load(in[1].data, CC_F32, (size_t)i);
            if (v < 0) neg++;
            double m = fabs(v);
            if (exact ? (m < 1 || m > 4 || m != floor(m)) : (m < 0.5 || m > 2)) bad++;
        }
        CHECK(bad == 0);
        CHECK(neg > 400 && neg < 600);
        cc_tensor_free(&in[0]);
        cc_tensor_free(&in[1]);
        /* integer Div: non-zero divisors of both signs */
        cc_tensor_alloc(&in[0], CC_I32, &s, &e);
        cc_tensor_alloc(&in[1], CC_I32, &s, &e);
        CHECK(n.op->gen(&n, in, &rng, exact, &e) == CC_OK);
        int zero = 0;
        neg = 0;
        for (int i = 0; i < 1000; i++) {
            int32_t v = ((int32_t *)in[1].data)[i];
            zero += v == 0;
            neg += v < 0;
        }
        CHECK(zero == 0 && neg > 400 && neg < 600);
        cc_tensor_free(&in[0]);
        cc_tensor_free(&in[1]);
    }
    /* i32 Mul stays below 2^31 in magnitude */
    cc_node mul = node_of("Mul");
    cc_shape s = cc_shape_make(1, d);
    cc_tensor in[2];
    cc_tensor_alloc(&in[0], CC_I32, &s, &e);
    cc_tensor_alloc(&in[1], CC_I32, &s, &e);
    CHECK(mul.op->gen(&mul, in, &rng, 0, &e) == CC_OK);
    int over = 0;
    for (int i = 0; i < 1000; i++) {
        double p = (double)((int32_t *)in[0].data)[i] * ((int32_t *)in[1].data)[i];
        over += fabs(p) > 2147483647.0;
    }
    CHECK(over == 0);
    cc_tensor_free(&in[0]);
    cc_tensor_free(&in[1]);
    /* a one-element factor of 0 would zero every output: gen turns it into 1 */
    const int64_t one = 1;
    cc_shape s1 = cc_shape_make(1, &one);
    cc_tensor_alloc(&in[0], CC_F16, &s, &e);
    cc_tensor_alloc(&in[1], CC_F16, &s1, &e);
    CHECK(mul.op->gen(&mul, in, &rng, 1, &e) == CC_OK);
    CHECK(cc_load(in[1].data, CC_F16, 0) == 1.0);
    CHECK(cc_load(in[0].data, CC_F16, 0) == 0.0); /* the full-size factor is left alone */
    cc_tensor_free(&in[0]);
    cc_tensor_free(&in[1]);
}

/* Every generated id parses (with shape inference); the quick cases also instantiate in
 * both regimes and give finite golden values. */
static void test_cases(void)
{
    CHECK(family_cases_check(&cc_family_eltwise, 7, 9, 20) > 300);
}

int main(void)
{
    test_activations();
    test_clip();
    test_binary_hand();
    test_broadcast_formula();
    test_rejections();
    test_cost();
    test_gen();
    test_cases();
    return CC_TEST_RESULT();
}
