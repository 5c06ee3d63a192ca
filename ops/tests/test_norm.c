/* test_norm.c — BatchNormalization (inference mode) against hand-worked examples, its
 * magnitude term, its shape inference rejections, its cost, its generated variances and
 * its case sweep. */
#include "op_test.h"

#define cc_family_norm (*cc_catalog_family("norm"))

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
    bn_reject(&b, train, 1, 3, CC_ERR_UNSUPPORTED, "training_mode=1 is not supported");
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
    test_cost();
    test_cases();
    return CC_TEST_RESULT();
}
