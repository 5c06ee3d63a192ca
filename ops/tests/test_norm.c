/* test_norm.c — BatchNormalization against hand-worked examples in inference and training
 * mode (the population variance, the running statistics, S and K), an independent
 * one-pass formula for training mode, its shape inference rejections, its cost, its
 * generated variances and its case sweep. */
#include "op_test.h"

#define cc_family_norm (*cc_catalog_family("norm"))

enum { BN_MEAN_T = 3, BN_VAR_T = 4 };

static cc_node make_node(void) { return node_make(family_op(&cc_family_norm, "BatchNormalization"), -1); }

typedef struct bn_inputs {
    cc_tensor t[5];
    const cc_tensor *in[5];
} bn_inputs;

static void bn_make(bn_inputs *b, cc_dtype dt, int rank, const int64_t *dims, const double *x,
                    const double *scale, const double *bias, const double *mean, const double *var)
{
    int64_t c = dims[1];
    b->t[0] = tensor_of(dt, rank, dims, x);
    const double *p[4] = { scale, bias, mean, var };
    for (int i = 0; i < 4; i++) b->t[1 + i] = tensor_of(dt, 1, &c, p[i]);
    for (int i = 0; i < 5; i++) b->in[i] = &b->t[i];
}

static void bn_free(bn_inputs *b)
{
    for (int i = 0; i < 5; i++) cc_tensor_free(&b->t[i]);
}

/* infer() then golden() of node on in (the output description is not kept). */
static cc_status run(const cc_node *node, const cc_tensor *const *in, cc_golden *g, cc_err *err)
{
    cc_tensor out;
    return golden_run(node, in, 1, &out, g, err);
}

static void test_hand(void)
{
    /* channel 0: (x - 1) * 2 / sqrt(4) + 1; channel 1: (x - 3) * 0.5 / sqrt(0.25) - 1 */
    static const int64_t dims[4] = { 1, 2, 1, 2 };
    static const double x[] = { 1, 2, 3, 4 }, scale[] = { 2, 0.5 }, bias[] = { 1, -1 },
                        mean[] = { 1, 3 }, var[] = { 4, 0.25 };
    bn_inputs b;
    bn_make(&b, CC_F32, 4, dims, x, scale, bias, mean, var);
    cc_node node = make_node();
    attr_set_text(&node, "epsilon", "0");
    cc_golden g;
    CHECK(run(&node, b.in, &g, NULL) == CC_OK);
    CHECK(g.dtype == CC_F32 && cc_shape_numel(&g.shape) == 4);
    static const double want[] = { 1, 2, -1, 0 };
    for (int i = 0; i < 4; i++) CHECK_NEAR(g.value[i], want[i], 1e-15);
    /* S = (|x| + |mean|) |a| + |b| with a = scale / sqrt(var + eps) = 1 for both */
    static const double mag[] = { 3, 4, 7, 8 };
    for (int i = 0; i < 4; i++) CHECK_NEAR(g.mag[i], mag[i], 1e-15);
    CHECK(g.k == 6);
    cc_golden_free(&g, 1);

    /* epsilon enters under the root: var 0 with epsilon 0.25 gives a = 2 * scale */
    static const double zero_var[] = { 0, 0 }, ones[] = { 1, 1 }, zeros[] = { 0, 0 };
    bn_inputs e;
    bn_make(&e, CC_F32, 4, dims, x, ones, zeros, mean, zero_var);
    attr_set_text(&node, "epsilon", "0.25");
    CHECK(run(&node, e.in, &g, NULL) == CC_OK);
    static const double want_e[] = { 0, 2, 0, 2 };
    for (int i = 0; i < 4; i++) CHECK_NEAR(g.value[i], want_e[i], 1e-15);
    cc_golden_free(&g, 1);

    /* var + eps <= 0 has no square root */
    static const double neg_var[] = { -1, 1 };
    bn_inputs n;
    bn_make(&n, CC_F32, 4, dims, x, ones, zeros, mean, neg_var);
    attr_set_text(&node, "epsilon", "0");
    cc_err err = { 0 };
    CHECK(run(&node, n.in, &g, &err) == CC_ERR_ARG);
    CHECK(strstr(err.msg, "input_var + epsilon must be > 0") != NULL);
    cc_golden_free(&g, 1);

    /* rank 2 (N x C): each column is a channel; f16 data */
    static const int64_t d2[2] = { 2, 3 };
    static const double x2[] = { 1, 2, 3, 4, 5, 6 }, m2[] = { 1, 2, 3 }, v2[] = { 1, 1, 1 }, s2[] = { 1, 1, 1 },
                        b2[] = { 0, 0, 0 };
    bn_inputs r;
    bn_make(&r, CC_F16, 2, d2, x2, s2, b2, m2, v2);
    CHECK(run(&node, r.in, &g, NULL) == CC_OK);
    CHECK(g.dtype == CC_F16);
    static const double want2[] = { 0, 0, 0, 3, 3, 3 };
    for (int i = 0; i < 6; i++) CHECK_NEAR(g.value[i], want2[i], 1e-15);
    cc_golden_free(&g, 1);

    /* the schema defaults */
    cc_node def = make_node();
    CHECK_NEAR(cc_attr_f(&def, "epsilon"), 1e-5, 1e-12);
    CHECK_NEAR(cc_attr_f(&def, "momentum"), 0.9, 1e-7);

    bn_free(&b);
    bn_free(&e);
    bn_free(&n);
    bn_free(&r);
}

static void bn_reject(bn_inputs *b, const char *attrs[][2], int n, int n_out, cc_status code, const char *want)
{
    cc_node node = make_node();
    for (int i = 0; i < n; i++) attr_set_text(&node, attrs[i][0], attrs[i][1]);
    expect_reject(&node, b->in, n_out, code, want);
}

static void test_rejects(void)
{
    static const int64_t dims[4] = { 1, 3, 2, 2 };
    bn_inputs b;
    bn_make(&b, CC_F32, 4, dims, NULL, NULL, NULL, NULL, NULL);
    const char *train[][2] = { { "training_mode", "1" } };
    bn_reject(&b, train, 1, 4, CC_ERR_ARG, "has 1 to 3 outputs, 4 requested");
    const char *inf_m[][2] = { { "training_mode", "1" }, { "momentum", "inf" } };
    bn_reject(&b, inf_m, 2, 3, CC_ERR_ARG, "momentum must be finite");
    const char *knob[][2] = { { "training_mode", "1" }, { "outputs", "3" } };
    bn_reject(&b, knob, 2, 2, CC_ERR_ARG, "outputs is 3 but 2 are asked for");
    const char *bad[][2] = { { "training_mode", "2" } };
    bn_reject(&b, bad, 1, 1, CC_ERR_ARG, "training_mode must be 0 or 1");
    bn_reject(&b, NULL, 0, 3, CC_ERR_ARG, "outputs of training mode only");
    const char *eps[][2] = { { "epsilon", "-0.1" } };
    bn_reject(&b, eps, 1, 1, CC_ERR_ARG, "epsilon must be finite and >= 0");

    /* a parameter of the wrong length, a missing one, mismatched types */
    int64_t two = 2;
    cc_tensor shortv = tensor_of(CC_F32, 1, &two, NULL);
    const cc_tensor *keep = b.in[4];
    b.in[4] = &shortv;
    bn_reject(&b, NULL, 0, 1, CC_ERR_ARG, "input_var must be 1-D with 3 values");
    b.in[4] = NULL;
    bn_reject(&b, NULL, 0, 1, CC_ERR_ARG, "input input_var is required");
    int64_t three = 3;
    cc_tensor half = tensor_of(CC_F16, 1, &three, NULL);
    b.in[4] = &half;
    bn_reject(&b, NULL, 0, 1, CC_ERR_ARG, "must share a type");
    b.in[4] = keep;
    cc_tensor_free(&shortv);
    cc_tensor_free(&half);
    bn_free(&b);

    /* x of rank 1 has no channel axis */
    bn_inputs r1;
    static const int64_t d1[1] = { 3 };
    for (int i = 0; i < 5; i++) {
        r1.t[i] = tensor_of(CC_F32, 1, d1, NULL);
        r1.in[i] = &r1.t[i];
    }
    bn_reject(&r1, NULL, 0, 1, CC_ERR_ARG, "rank >= 2");
    bn_free(&r1);

    bn_inputs ix;
    bn_make(&ix, CC_I8, 4, dims, NULL, NULL, NULL, NULL, NULL);
    bn_reject(&ix, NULL, 0, 1, CC_ERR_ARG, "x must be f32, f16 or bf16");
    bn_free(&ix);
}

/* Training mode by hand: x 2x2x1x1 = [1 2 | 3 6], channel 0 = [1 3] (mean 2, variance 1),
 * channel 1 = [2 6] (mean 4, variance 4, not the sample variance 8); scale [1 2], b [0 1],
 * epsilon 0, momentum 0.5, input_mean [0 2], input_var [1 2]:
 *     y = [(1-2)/1, (2-4)/2*2+1 | (3-2)/1, (6-4)/2*2+1] = [-1 -1 | 1 3],
 *     running_mean = [0 * 0.5 + 2 * 0.5, 2 * 0.5 + 4 * 0.5] = [1 3],
 *     running_var = [1 * 0.5 + 1 * 0.5, 2 * 0.5 + 4 * 0.5] = [1 3];
 * M = 2, so K = 6; S of y: |scale| inv (mean|x| + |x - mean|) + |b| = 1 * 1 * (2 + 1) = 3 and
 * 2 * 0.5 * (4 + 2) + 1 = 7; of the running statistics 0.5 |input| + 0.5 times mean|x| or
 * the variance: [1 3] and [1 3]. */
static void test_training(void)
{
    static const int64_t dims[4] = { 2, 2, 1, 1 };
    bn_inputs b;
    bn_make(&b, CC_F32, 4, dims, (double[]){ 1, 2, 3, 6 }, (double[]){ 1, 2 }, (double[]){ 0, 1 }, (double[]){ 0, 2 },
            (double[]){ 1, 2 });
    cc_node node = make_node();
    attr_set_text(&node, "training_mode", "1");
    attr_set_text(&node, "epsilon", "0");
    attr_set_text(&node, "momentum", "0.5");
    cc_tensor out[3];
    cc_golden g[3];
    cc_err e = { 0 };
    CHECK(golden_run(&node, b.in, 3, out, g, &e) == CC_OK);
    CHECK(out[1].shape.rank == 1 && out[1].shape.dims[0] == 2 && out[2].dtype == CC_F32);
    const double y[4] = { -1, -1, 1, 3 }, ys[4] = { 3, 7, 3, 7 }, r[2] = { 1, 3 };
    for (int i = 0; i < 4; i++) CHECK(g[0].value[i] == y[i] && g[0].mag[i] == ys[i]);
    for (int i = 0; i < 2; i++)
        CHECK(g[1].value[i] == r[i] && g[2].value[i] == r[i] && g[1].mag[i] == r[i] && g[2].mag[i] == r[i]);
    CHECK(g[0].k == 6 && g[1].k == 6 && g[2].k == 6);
    cc_golden_free(g, 3);
    /* Y alone (the running statistics are optional outputs) */
    golden_expect(&node, b.in, CC_F32, y, NULL, 4, 6, 0);
    /* a channel without spread and epsilon 0 has nothing to divide by */
    bn_inputs flat;
    bn_make(&flat, CC_F32, 4, dims, (double[]){ 5, 2, 5, 6 }, (double[]){ 1, 1 }, (double[]){ 0, 0 }, (double[]){ 0, 0 },
            (double[]){ 1, 1 });
    CHECK(golden_run(&node, flat.in, 1, out, g, &e) == CC_ERR_ARG && strstr(e.msg, "channel 0 has variance + epsilon = 0"));
    cc_golden_free(g, 1);
    /* an empty batch has no statistics */
    bn_inputs empty;
    bn_make(&empty, CC_F32, 4, (int64_t[]){ 0, 2, 1, 1 }, NULL, NULL, NULL, NULL, NULL);
    expect_reject(&node, empty.in, 3, CC_ERR_UNSUPPORTED, "the batch statistics of an empty batch are not defined");
    /* running statistics take input_mean's type: f16 mean and var beside f32 data */
    bn_inputs mixed;
    bn_make(&mixed, CC_F32, 4, dims, NULL, NULL, NULL, NULL, NULL);
    for (int i = BN_MEAN_T; i <= BN_VAR_T; i++) {
        cc_tensor_free(&mixed.t[i]);
        mixed.t[i] = tensor_of(CC_F16, 1, (int64_t[]){ 2 }, NULL);
    }
    CHECK(node.op->infer(&node, mixed.in, 3, out, &e) == CC_OK && out[0].dtype == CC_F32 && out[1].dtype == CC_F16 &&
          out[2].dtype == CC_F16);
    bn_free(&b), bn_free(&flat), bn_free(&empty), bn_free(&mixed);
}

/* Independently: per channel c of random x 3x4x5x2 its 30 values gathered, the one-pass
 * variance E[x^2] - E[x]^2 (in double, agreeing to rounding), y and the running ones. */
static void test_training_formula(void)
{
    double v[120], sc[4], bi[4], im[4], iv[4];
    cc_rng rng;
    cc_rng_seed(&rng, 8);
    for (int i = 0; i < 120; i++) v[i] = (double)(float)(cc_rng_uniform(&rng) * 3 - 1);
    for (int c = 0; c < 4; c++) {
        sc[c] = c - 1.5;
        bi[c] = 0.25 * c;
        im[c] = -c;
        iv[c] = 1 + c;
    }
    bn_inputs b;
    bn_make(&b, CC_F32, 4, (int64_t[]){ 3, 4, 5, 2 }, v, sc, bi, im, iv);
    cc_node node = make_node();
    attr_set_text(&node, "training_mode", "1");
    cc_tensor out[3];
    cc_golden g[3];
    CHECK(golden_run(&node, b.in, 3, out, g, NULL) == CC_OK);
    const double eps = (double)1e-5f, m = (double)0.9f;
    double worst = 0;
    for (int c = 0; c < 4; c++) {
        double vals[30], s = 0, s2 = 0;
        for (int n = 0; n < 3; n++)
            for (int k = 0; k < 10; k++) vals[n * 10 + k] = v[(n * 4 + c) * 10 + k];
        for (int j = 0; j < 30; j++) s += vals[j], s2 += vals[j] * vals[j];
        double mean = s / 30, var = s2 / 30 - mean * mean;
        for (int n = 0; n < 3; n++)
            for (int k = 0; k < 10; k++) {
                int at = (n * 4 + c) * 10 + k;
                worst = fmax(worst, fabs(g[0].value[at] - ((v[at] - mean) / sqrt(var + eps) * sc[c] + bi[c])));
            }
        worst = fmax(worst, fabs(g[1].value[c] - (im[c] * m + mean * (1 - m))));
        worst = fmax(worst, fabs(g[2].value[c] - (iv[c] * m + var * (1 - m))));
    }
    CHECK(worst < 1e-12);
    CHECK(g[0].k == 34);
    cc_golden_free(g, 3);
    bn_free(&b);
}

static void test_cost(void)
{
    static const int64_t dims[4] = { 1, 64, 112, 112 };
    bn_inputs b;
    bn_make(&b, CC_F32, 4, dims, NULL, NULL, NULL, NULL, NULL);
    cc_node node = make_node();
    cc_tensor out;
    CHECK(node.op->infer(&node, b.in, 1, &out, NULL) == CC_OK);
    CHECK(cc_shape_equal(&out.shape, &b.t[0].shape));
    double flops, bytes;
    node.op->cost(&node, b.in, 1, &out, &flops, &bytes);
    CHECK(flops == 2.0 * 64 * 112 * 112 + 5 * 64);
    CHECK(bytes == 4.0 * (2 * 64 * 112 * 112 + 4 * 64));
    attr_set_text(&node, "training_mode", "1");
    cc_tensor outs[3];
    CHECK(node.op->infer(&node, b.in, 3, outs, NULL) == CC_OK);
    node.op->cost(&node, b.in, 3, outs, &flops, &bytes);
    CHECK(flops == 7.0 * 64 * 112 * 112 + 10 * 64);
    CHECK(bytes == 4.0 * (2 * 64 * 112 * 112 + 6 * 64));
    bn_free(&b);
}

/* Generated variances are positive in both regimes; every id parses. */
static void test_cases(void)
{
    cc_case *cases = NULL;
    int n = 0;
    cc_err e = { 0 };
    CHECK(cc_case_enumerate(cc_family_norm.ops[0], CC_DTYPE_COUNT, 1, &cases, &n, &e) == CC_OK);
    CHECK(n >= 10);
    for (int i = 0; i < n && i < 3; i++)
        for (int exact = 0; exact <= 1; exact++) {
            cc_case_inst inst;
            CHECK(cc_case_instantiate(&cases[i], 99, exact, &inst, &e) == CC_OK);
            const cc_tensor *var = &inst.inputs[4];
            for (int64_t j = 0; j < cc_tensor_numel(var); j++) CHECK(cc_load(var->data, var->dtype, (size_t)j) > 0);
            cc_golden g[1];
            CHECK(cc_case_golden(&inst, g, &e) == CC_OK);
            cc_golden_free(g, 1);
            cc_case_inst_free(&inst);
        }
    free(cases);
    CHECK(cc_case_enumerate(cc_family_norm.ops[0], CC_DTYPE_COUNT, 0, &cases, &n, &e) == CC_OK);
    int found = 0;
    for (int i = 0; i < n; i++)
        found += strcmp(cases[i].id, "BatchNormalization(x=1x64x112x112:f32,scale=64,b=64,input_mean=64,"
                                     "input_var=64)") == 0;
    CHECK(found == 1 && n >= 30);
    free(cases);
}

int main(void)
{
    test_hand();
    test_rejects();
    test_training();
    test_training_formula();
    test_cost();
    test_cases();
    return CC_TEST_RESULT();
}
