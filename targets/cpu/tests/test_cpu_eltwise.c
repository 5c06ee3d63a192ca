/* test_cpu_eltwise.c — the cpu backend's elementwise kernels: hand examples (values worked
 * out by hand or by an independent formula) for every op and broadcast shape class, then
 * every quick case through the cpu target's vtable against the golden model. */
#include <math.h>

#include "cpu_sweep.h"
#include "targets/cpu/vexp.h"

#define F (&cc_cpu_family_eltwise)

/* Runs a one-input op on f32 values and compares with want (tolerance tol). */
static void unary_case(cc_node *node, int n, const double *x, const double *want, double tol)
{
    int64_t d[1] = {n};
    cc_tensor in = tensor_make(CC_F32, 1, d, x), out = tensor_make(CC_F32, 1, d, NULL);
    const cc_tensor *ins[1] = {&in};
    cc_err e = {0};
    CHECK_OK(kernel_call(F, node, ins, 1, &out, &e));
    for (int i = 0; i < n; i++) CHECK_NEAR(((float *)out.data)[i], want[i], tol);
    CHECK(guard_ok(&out));
    free(in.data);
    free(out.data);
}

static void test_unary(void)
{
    cc_node n = node_make("Relu", 1, 1);
    unary_case(&n, 5, (double[]){-2, -0.5, 0, 0.25, 3}, (double[]){0, 0, 0, 0.25, 3}, 0);

    n = node_make("LeakyRelu", 1, 1);
    node_set_f(&n, "alpha", 0.125);
    unary_case(&n, 3, (double[]){-2, 0, 4}, (double[]){-0.25, 0, 4}, 0);

    n = node_make("Sigmoid", 1, 1);
    unary_case(&n, 5, (double[]){0, 2, -2, 100, -100},
               (double[]){0.5, 1 / (1 + exp(-2.0)), 1 / (1 + exp(2.0)), 1, 0}, 1e-6);

    n = node_make("Tanh", 1, 1);
    unary_case(&n, 3, (double[]){0, 1, -3}, (double[]){0, tanh(1.0), tanh(-3.0)}, 1e-6);

    n = node_make("HardSigmoid", 1, 1); /* alpha 0.2, beta 0.5 */
    unary_case(&n, 4, (double[]){1, -3, 3, 0}, (double[]){0.7, 0, 1, 0.5}, 1e-6);

    n = node_make("HardSwish", 1, 1); /* x * clamp(x/6 + 1/2, 0, 1) */
    unary_case(&n, 4, (double[]){1, -4, 4, -1.5}, (double[]){2.0 / 3, 0, 4, -0.375}, 1e-6);

    n = node_make("Exp", 1, 1);
    unary_case(&n, 3, (double[]){0, 1, -1}, (double[]){1, M_E, 1 / M_E}, 1e-6);

    n = node_make("Sqrt", 1, 1);
    unary_case(&n, 3, (double[]){0, 9, 2.25}, (double[]){0, 3, 1.5}, 0);
}

static void test_clip(void)
{
    int64_t d[1] = {5};
    cc_tensor x = tensor_make(CC_F32, 1, d, (double[]){-1, 3, 7, 0, 6.5});
    cc_tensor lo = tensor_make(CC_F32, 0, NULL, (double[]){0});
    cc_tensor hi = tensor_make(CC_F32, 0, NULL, (double[]){6});
    cc_tensor y = tensor_make(CC_F32, 1, d, NULL);
    cc_err e = {0};

    cc_node n = node_make("Clip", 3, 1);
    const cc_tensor *both[3] = {&x, &lo, &hi};
    CHECK_OK(kernel_call(F, &n, both, 1, &y, &e));
    const double want[5] = {0, 3, 6, 0, 6};
    for (int i = 0; i < 5; i++) CHECK(((float *)y.data)[i] == want[i]);

    /* only max: min is an absent optional input */
    const cc_tensor *only_max[3] = {&x, NULL, &hi};
    CHECK_OK(kernel_call(F, &n, only_max, 1, &y, &e));
    const double want2[5] = {-1, 3, 6, 0, 6};
    for (int i = 0; i < 5; i++) CHECK(((float *)y.data)[i] == want2[i]);

    /* min > max: everything becomes max (numpy.clip) */
    cc_tensor lo2 = tensor_make(CC_F32, 0, NULL, (double[]){10});
    const cc_tensor *crossed[3] = {&x, &lo2, &hi};
    CHECK_OK(kernel_call(F, &n, crossed, 1, &y, &e));
    for (int i = 0; i < 5; i++) CHECK(((float *)y.data)[i] == 6.0f);
    CHECK(guard_ok(&y));

    /* integer Clip on i32 */
    cc_tensor xi = tensor_make(CC_I32, 1, d, (double[]){-100, 5, 100, -3, 0});
    cc_tensor loi = tensor_make(CC_I32, 0, NULL, (double[]){-3});
    cc_tensor hii = tensor_make(CC_I32, 0, NULL, (double[]){50});
    cc_tensor yi = tensor_make(CC_I32, 1, d, NULL);
    const cc_tensor *ints[3] = {&xi, &loi, &hii};
    CHECK_OK(kernel_call(F, &n, ints, 1, &yi, &e));
    const int32_t wi[5] = {-3, 5, 50, -3, 0};
    for (int i = 0; i < 5; i++) CHECK(((int32_t *)yi.data)[i] == wi[i]);
    CHECK(guard_ok(&yi));

    /* mismatched bound dtype is an argument error */
    const cc_tensor *bad[3] = {&xi, &lo, NULL};
    CHECK(kernel_call(F, &n, bad, 1, &yi, &e) == CC_ERR_ARG);

    free(x.data); free(lo.data); free(hi.data); free(y.data); free(lo2.data);
    free(xi.data); free(loi.data); free(hii.data); free(yi.data);
}

/* a (shape da) op b (shape db) against an independent broadcast written with explicit
 * index arithmetic over a rank-4 output. */
static void binary_vs_formula(const char *op, cc_dtype dt, const int64_t *da, const int64_t *db,
                              const int64_t *dout)
{
    int64_t na = da[0] * da[1] * da[2] * da[3], nb = db[0] * db[1] * db[2] * db[3];
    double *va = malloc(sizeof(double) * (size_t)na), *vb = malloc(sizeof(double) * (size_t)nb);
    for (int64_t i = 0; i < na; i++) va[i] = (double)((i * 7) % 23) - 11;
    for (int64_t i = 0; i < nb; i++) vb[i] = (double)((i * 5) % 7) + 1; /* 1..7: safe divisor */
    cc_tensor a = tensor_make(dt, 4, da, va), b = tensor_make(dt, 4, db, vb);
    cc_tensor y = tensor_make(dt, 4, dout, NULL);
    cc_node n = node_make(op, 2, 1);
    const cc_tensor *in[2] = {&a, &b};
    cc_err e = {0};
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    int bad = 0;
    for (int64_t i0 = 0; i0 < dout[0]; i0++)
        for (int64_t i1 = 0; i1 < dout[1]; i1++)
            for (int64_t i2 = 0; i2 < dout[2]; i2++)
                for (int64_t i3 = 0; i3 < dout[3]; i3++) {
                    int64_t ia = (((i0 % da[0]) * da[1] + i1 % da[1]) * da[2] + i2 % da[2]) * da[3] + i3 % da[3];
                    int64_t ib = (((i0 % db[0]) * db[1] + i1 % db[1]) * db[2] + i2 % db[2]) * db[3] + i3 % db[3];
                    int64_t io = ((i0 * dout[1] + i1) * dout[2] + i2) * dout[3] + i3;
                    double x = va[ia], z = vb[ib], w;
                    switch (op[0]) {
                    case 'A': w = x + z; break;
                    case 'S': w = x - z; break;
                    case 'M': w = x * z; break;
                    default: w = cc_dtype_is_float(dt) ? x / z : (double)(int64_t)(x / z); break;
                    }
                    double got = cc_load(y.data, dt, (size_t)io);
                    /* f32 compute then one rounding to the storage type: within 2u|w| */
                    double tol = 2 * fabs(w) * cc_dtype_unit_roundoff(dt);
                    if (fabs(got - w) > tol && bad++ < 5)
                        fprintf(stderr, "%s %s at %lld: got %g want %g\n", op, cc_dtype_name(dt),
                                (long long)io, got, w);
                }
    CHECK(bad == 0);
    CHECK(guard_ok(&y));
    free(va); free(vb); free(a.data); free(b.data); free(y.data);
}

static void test_binary(void)
{
    static const struct { int64_t a[4], b[4], o[4]; } shapes[] = {
        {{2, 3, 4, 5}, {2, 3, 4, 5}, {2, 3, 4, 5}},   /* same shape */
        {{2, 3, 4, 5}, {1, 1, 1, 1}, {2, 3, 4, 5}},   /* scalar b */
        {{1, 1, 1, 1}, {2, 3, 4, 5}, {2, 3, 4, 5}},   /* scalar a */
        {{2, 3, 4, 5}, {1, 3, 1, 1}, {2, 3, 4, 5}},   /* per-channel */
        {{2, 3, 1, 5}, {1, 1, 4, 1}, {2, 3, 4, 5}},   /* both broadcast */
        {{1, 3, 4, 1}, {2, 1, 1, 5}, {2, 3, 4, 5}},   /* outer product-like */
        {{2, 1, 4, 5}, {1, 3, 4, 1}, {2, 3, 4, 5}},
        {{4, 64, 1, 1}, {1, 64, 16, 16}, {4, 64, 16, 16}}, /* 65536 outputs: threaded */
    };
    static const char *const ops[] = {"Add", "Sub", "Mul", "Div"};
    static const cc_dtype dts[] = {CC_F32, CC_F16, CC_BF16, CC_I32, CC_I64};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int o = 0; o < 4; o++)
            for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
                binary_vs_formula(ops[o], dts[d], shapes[s].a, shapes[s].b, shapes[s].o);
}

/* Integer Div truncates toward zero; Add wraps around like two's complement. */
static void test_int_semantics(void)
{
    int64_t d[1] = {4};
    cc_tensor a = tensor_make(CC_I32, 1, d, (double[]){7, -7, 7, -7});
    cc_tensor b = tensor_make(CC_I32, 1, d, (double[]){2, 2, -2, -2});
    cc_tensor y = tensor_make(CC_I32, 1, d, NULL);
    const cc_tensor *in[2] = {&a, &b};
    cc_err e = {0};
    cc_node n = node_make("Div", 2, 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    const int32_t want[4] = {3, -3, -3, 3};
    for (int i = 0; i < 4; i++) CHECK(((int32_t *)y.data)[i] == want[i]);
    ((int32_t *)a.data)[0] = INT32_MAX;
    ((int32_t *)b.data)[0] = 1;
    n = node_make("Add", 2, 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    CHECK(((int32_t *)y.data)[0] == INT32_MIN);
    CHECK(guard_ok(&y));
    /* shapes that do not broadcast are refused */
    int64_t d3[1] = {3};
    cc_tensor c = tensor_make(CC_I32, 1, d3, NULL);
    const cc_tensor *bad[2] = {&a, &c};
    CHECK(kernel_call(F, &n, bad, 1, &y, &e) == CC_ERR_ARG);
    free(a.data); free(b.data); free(y.data); free(c.data);
}

/* f16 storage: inputs and outputs round to nearest even in f16. */
static void test_f16_rounding(void)
{
    int64_t d[1] = {2};
    /* 1 + 2^-11 is a tie between 1 and 1 + 2^-10: rounds to even, 1 */
    cc_tensor a = tensor_make(CC_F16, 1, d, (double[]){1, 1 + 0x1p-10});
    cc_tensor b = tensor_make(CC_F16, 1, d, (double[]){0x1p-11, 0x1p-11});
    cc_tensor y = tensor_make(CC_F16, 1, d, NULL);
    const cc_tensor *in[2] = {&a, &b};
    cc_err e = {0};
    cc_node n = node_make("Add", 2, 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    CHECK(cc_load(y.data, CC_F16, 0) == 1.0);
    CHECK(cc_load(y.data, CC_F16, 1) == 1 + 0x1p-9); /* 1+2^-10+2^-11 ties up to even 1+2^-9 */
    CHECK(guard_ok(&y));
    free(a.data); free(b.data); free(y.data);
}

/* ulp of the float nearest v (the subnormal spacing below the normal range). */
static double ulp_at(double v)
{
    int e;
    frexp(fabs(v), &e);
    double u = ldexp(1.0, e - 24);
    return u < 0x1p-149 ? 0x1p-149 : u;
}

/* cc_cpu_expf against exp() in double: within 1.5 ulp on every 997th float of the range
 * where the result is finite and not flushed to 0 (an exhaustive run gave 1.22 ulp), and
 * the special values. */
static void test_expf(void)
{
    double worst = 0;
    for (uint32_t b = 0; b < 0xffffffffu - 997; b += 997) {
        float x;
        memcpy(&x, &b, sizeof x);
        if (!(x > -104.0f && x < 88.72f)) continue;
        double want = exp((double)x), err = fabs(cc_cpu_expf(x) - want) / ulp_at(want);
        worst = err > worst ? err : worst;
    }
    CHECK(worst <= 1.5);
    CHECK(isnan(cc_cpu_expf(NAN)));
    CHECK(cc_cpu_expf(INFINITY) == INFINITY);
    CHECK(cc_cpu_expf(-INFINITY) == 0.0f);
    CHECK(cc_cpu_expf(88.73f) == INFINITY);
    CHECK(cc_cpu_expf(-200.0f) == 0.0f);
    CHECK(cc_cpu_expf(0.0f) == 1.0f);
    CHECK(cc_cpu_expf(-103.9f) == 0x1p-149f);     /* the smallest subnormal */
    CHECK_NEAR(cc_cpu_expf(-87.5f), exp(-87.5), ulp_at(exp(-87.5))); /* subnormal result */
}

int main(void)
{
    test_expf();
    test_unary();
    test_clip();
    test_binary();
    test_int_semantics();
    test_f16_rounding();
    static const char *const ops[] = {"Relu", "LeakyRelu", "Sigmoid", "Tanh", "HardSigmoid",
                                      "HardSwish", "Clip", "Exp", "Sqrt", "Add", "Sub", "Mul",
                                      "Div"};
    sweep_ops(ops, (int)(sizeof ops / sizeof ops[0]));
    return CC_TEST_RESULT();
}
