/* test_eltwise_math.c — the math functions and the later activations of the eltwise family
 * (Neg, Abs, Sign, Ceil, Floor, Round, Reciprocal, Log, Erf, the trigonometric and
 * hyperbolic functions and their inverses, Elu, Selu, Celu, ThresholdedRelu, Softsign,
 * Shrink): golden values worked out by hand or from identities that do not use the function
 * itself, S on hand examples, and the domains of generated inputs. */
#include "op_test.h"

static cc_node node_of(const char *name) { return node_make(family_op(cc_catalog_family("eltwise"), name), -1); }

/* op on a 1-D f32 vector: values within tol (and S when want_s is non-NULL), K. */
static void check(cc_node *n, int cnt, const double *x, const double *want, const double *want_s, double want_k,
                  double tol)
{
    int64_t d = cnt;
    cc_tensor t = tensor_of(CC_F32, 1, &d, x);
    const cc_tensor *in[1] = { &t };
    golden_expect(n, in, CC_F32, want, want_s, cnt, want_k, tol);
    cc_tensor_free(&t);
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define CHECK_OP(op, xs, want, k, tol)                    \
    do {                                                  \
        cc_node n_ = node_of(op);                         \
        check(&n_, N(xs), xs, want, NULL, k, tol);        \
    } while (0)

static void exact_ops(void)
{
    const double x[] = { -2.5, -1.5, -0.5, -0.0, 0.375, 1.5, 2.5, 3 };
    CHECK_OP("Neg", x, ((double[]){ 2.5, 1.5, 0.5, 0, -0.375, -1.5, -2.5, -3 }), 1, 0);
    CHECK_OP("Abs", x, ((double[]){ 2.5, 1.5, 0.5, 0, 0.375, 1.5, 2.5, 3 }), 1, 0);
    CHECK_OP("Sign", x, ((double[]){ -1, -1, -1, 0, 1, 1, 1, 1 }), 1, 0);
    CHECK_OP("Ceil", x, ((double[]){ -2, -1, 0, 0, 1, 2, 3, 3 }), 1, 0);
    CHECK_OP("Floor", x, ((double[]){ -3, -2, -1, 0, 0, 1, 2, 3 }), 1, 0);
    /* halves to the even neighbour: -2.5 -> -2, -1.5 -> -2, -0.5 -> -0, 1.5 -> 2, 2.5 -> 2 */
    CHECK_OP("Round", x, ((double[]){ -2, -2, 0, 0, 0, 2, 2, 3 }), 1, 0);
    const double nan_in[] = { NAN };
    CHECK_OP("Sign", nan_in, ((double[]){ NAN }), 1, 0);
    CHECK_OP("Round", nan_in, ((double[]){ NAN }), 1, 0);
    /* ThresholdedRelu: strictly above alpha (default 1) */
    const double t[] = { 0.5, 1, 1.25, -3 };
    CHECK_OP("ThresholdedRelu", t, ((double[]){ 0, 0, 1.25, 0 }), 1, 0);
    cc_node tr = node_of("ThresholdedRelu");
    attr_set_f(&tr, "alpha", -0.5);
    check(&tr, 4, t, (double[]){ 0.5, 1, 1.25, 0 }, NULL, 1, 0);
    /* Shrink with lambd 0.5 (default), bias 0.25: x + bias below -0.5, x - bias above 0.5 */
    cc_node sh = node_of("Shrink");
    attr_set_f(&sh, "bias", 0.25);
    const double s[] = { -1, -0.5, 0.3, 0.5, 2 };
    check(&sh, 5, s, (double[]){ -0.75, 0, 0, 0, 1.75 }, (double[]){ 0.75, 0, 0, 0, 1.75 }, 1, 0);
}

/* The inputs are float32 tensors: pi/6 or e^2 are rounded to float32 first, which moves
 * the value by up to about 1e-7; those checks allow 2e-7, the rest are exact inputs. */
static void functions(void)
{
    const double pi = 3.14159265358979323846;
    CHECK_OP("Reciprocal", ((double[]){ 4, -0.5, 3 }), ((double[]){ 0.25, -2, 1.0 / 3 }), 1, 1e-16);
    const double z[] = { 0 };
    CHECK_OP("Reciprocal", z, ((double[]){ INFINITY }), 1, 0);
    /* log: log(e^2) = 2, log(1) = 0, log(0.25) = -2 log 2, log(0) = -inf */
    CHECK_OP("Log", ((double[]){ exp(2.0), 1, 0.25, 0 }), ((double[]){ 2, 0, -2 * 0.6931471805599453, -INFINITY }),
             1, 2e-7);
    /* erf: 0, odd, erf(0.5) = 0.5204998778130465 (tables), erf(inf) = 1 */
    CHECK_OP("Erf", ((double[]){ 0, 0.5, -0.5, INFINITY }),
             ((double[]){ 0, 0.5204998778130465, -0.5204998778130465, 1 }), 1, 1e-15);
    CHECK_OP("Sin", ((double[]){ 0, pi / 6, -pi / 2 }), ((double[]){ 0, 0.5, -1 }), 1, 2e-7);
    CHECK_OP("Cos", ((double[]){ 0, pi / 3, pi }), ((double[]){ 1, 0.5, -1 }), 1, 2e-7);
    CHECK_OP("Tan", ((double[]){ 0, pi / 4, -pi / 4 }), ((double[]){ 0, 1, -1 }), 1, 2e-7);
    CHECK_OP("Asin", ((double[]){ 0, 0.5, -1, 2 }), ((double[]){ 0, pi / 6, -pi / 2, NAN }), 1, 2e-7);
    CHECK_OP("Acos", ((double[]){ 1, 0.5, -1 }), ((double[]){ 0, pi / 3, pi }), 1, 2e-7);
    CHECK_OP("Atan", ((double[]){ 0, 1, -1, INFINITY }), ((double[]){ 0, pi / 4, -pi / 4, pi / 2 }), 1, 2e-7);
    /* hyperbolic functions from exp: sinh 1 = (e - 1/e) / 2, cosh 1 = (e + 1/e) / 2 */
    const double e = 2.718281828459045;
    CHECK_OP("Sinh", ((double[]){ 0, 1, -1 }), ((double[]){ 0, (e - 1 / e) / 2, -(e - 1 / e) / 2 }), 1, 1e-15);
    CHECK_OP("Cosh", ((double[]){ 0, 1, -1 }), ((double[]){ 1, (e + 1 / e) / 2, (e + 1 / e) / 2 }), 1, 1e-15);
    /* and their inverses from logs: asinh x = ln(x + sqrt(x^2 + 1)), acosh 2 = ln(2 + sqrt 3),
     * atanh 0.5 = ln(3) / 2; acosh below 1 and atanh beyond 1 are NaN, atanh(1) = inf */
    CHECK_OP("Asinh", ((double[]){ 0, 1, -1 }), ((double[]){ 0, 0.881373587019543, -0.881373587019543 }), 1,
             1e-15);
    CHECK_OP("Acosh", ((double[]){ 1, 2, 0.5 }), ((double[]){ 0, 1.3169578969248166, NAN }), 1, 1e-15);
    CHECK_OP("Atanh", ((double[]){ 0, 0.5, 1, 2 }), ((double[]){ 0, 0.5493061443340549, INFINITY, NAN }), 1, 1e-15);
    /* Softsign: x / (1 + |x|), K = 2 */
    CHECK_OP("Softsign", ((double[]){ 1, -3, 0 }), ((double[]){ 0.5, -0.75, 0 }), 2, 0);
}

/* Elu, Selu and Celu: values, and S on the negative side, where exp(x) - 1 cancels. */
static void exponential_units(void)
{
    const double em1 = exp(-1.0), em05 = exp(-0.5);
    cc_node elu = node_of("Elu");
    attr_set_f(&elu, "alpha", 2);
    /* alpha (e^x - 1) below 0: S = |alpha| (e^x + |e^x - 1|) + |y| = 2 + |y| */
    check(&elu, 3, (double[]){ -1, 0, 3 }, (double[]){ 2 * (em1 - 1), 0, 3 },
          (double[]){ 2 + 2 * (1 - em1), 0, 3 }, 1, 1e-15);
    cc_node d = node_of("Elu"); /* alpha = 1 by default */
    check(&d, 1, (double[]){ -1 }, (double[]){ em1 - 1 }, NULL, 1, 1e-15);

    /* Selu defaults: alpha = 1.67326319217681884765625, gamma = 1.05070102214813232421875 (float32) */
    cc_node selu = node_of("Selu");
    const double a = 1.67326319217681884765625, g = 1.05070102214813232421875;
    check(&selu, 3, (double[]){ 2, 0, -1 }, (double[]){ 2 * g, 0, g * a * (em1 - 1) }, NULL, 1, 1e-15);

    /* Celu, alpha = 2: 2 (e^(x/2) - 1) below 0 */
    cc_node celu = node_of("Celu");
    attr_set_f(&celu, "alpha", 2);
    double y = 2 * (em05 - 1);
    check(&celu, 3, (double[]){ -1, 0, 1.5 }, (double[]){ y, 0, 1.5 },
          (double[]){ 2 * (em05 + (1 - em05)) + 1 * em05 + fabs(y), 0, 1.5 }, 1, 1e-15);
}

/* Generated inputs stay inside each function's domain, in both regimes. */
static void domains(void)
{
    static const struct {
        const char *id;
        double lo, hi; /* every input within [lo, hi] */
        int nonzero;
    } ds[] = {
        { "Log(input=3x5x7:f32)", 0, 16, 0 },
        { "Acosh(input=3x5x7:f32)", 1, 16, 0 },
        { "Asin(input=3x5x7:f32)", -1, 1, 0 },
        { "Acos(input=3x5x7:f32)", -1, 1, 0 },
        { "Atanh(input=3x5x7:f32)", -0.99, 0.99, 0 },
        { "Reciprocal(x=3x5x7:f32)", -4, 4, 1 },
    };
    for (int i = 0; i < N(ds); i++)
        for (int exact = 0; exact < 2; exact++) {
            cc_case c;
            cc_case_inst inst;
            cc_err e = { 0 };
            CHECK_OK(cc_case_parse(ds[i].id, &c, &e));
            CHECK_OK(cc_case_instantiate(&c, 7, exact, &inst, &e));
            int64_t n = cc_tensor_numel(&inst.inputs[0]);
            int neg = 0, bad = 0;
            for (int64_t k = 0; k < n; k++) {
                double v = cc_load(inst.inputs[0].data, inst.inputs[0].dtype, (size_t)k);
                bad += !(v >= ds[i].lo && v <= ds[i].hi) || (ds[i].nonzero && fabs(v) < 0.5);
                neg += v < 0;
            }
            if (bad) fprintf(stderr, "%s (exact %d): %d inputs outside the domain\n", ds[i].id, exact, bad);
            CHECK(bad == 0);
            if (ds[i].lo < 0) CHECK(neg > 0 && neg < n); /* both signs drawn */
            cc_case_inst_free(&inst);
        }
}

int main(void)
{
    exact_ops();
    functions();
    exponential_units();
    domains();
    return CC_TEST_RESULT();
}
