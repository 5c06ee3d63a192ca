/* test_shape_dims.c — the shape family's ops on dimensions (Shape, Size, Unsqueeze, Squeeze,
 * Expand, Tile): output shapes and values against hand-worked lists, Expand and Tile also
 * against the index formula out[i] = x[i mod dims], rejections with their messages, and
 * the sweeps' ids. */
#include "op_test.h"

/* Named here so the family's object is linked from the static library. */
#define cc_family_shape (*cc_catalog_family("shape"))

static cc_node make_node(const char *name, int n_in) { return node_make(family_op(&cc_family_shape, name), n_in); }

static int shape_is(const cc_shape *s, int rank, const int64_t *dims)
{
    cc_shape want = cc_shape_make(rank, dims);
    return cc_shape_equal(s, &want);
}

/* A 1-D int64 tensor of n values. */
static cc_tensor ints(int n, const double *v)
{
    int64_t d = n;
    return tensor_of(CC_I64, 1, &d, v);
}

static void test_shape_size(void)
{
    cc_tensor x = tensor_of(CC_F16, 3, (int64_t[]){ 2, 3, 4 }, NULL);
    const cc_tensor *in[1] = { &x };
    cc_node n = make_node("Shape", 1);
    golden_expect(&n, in, CC_I64, (double[]){ 2, 3, 4 }, (double[]){ 0, 0, 0 }, 3, 1, 0);
    attr_set_i(&n, "start", 1);
    golden_expect(&n, in, CC_I64, (double[]){ 3, 4 }, NULL, 2, 1, 0);
    n = make_node("Shape", 1);
    attr_set_i(&n, "end", -1);
    golden_expect(&n, in, CC_I64, (double[]){ 2, 3 }, NULL, 2, 1, 0);
    attr_set_i(&n, "start", -2);
    golden_expect(&n, in, CC_I64, (double[]){ 3 }, NULL, 1, 1, 0);
    attr_set_i(&n, "start", 2);
    attr_set_i(&n, "end", 1); /* an empty range */
    golden_expect(&n, in, CC_I64, NULL, NULL, 0, 1, 0);
    attr_set_i(&n, "start", -10);
    attr_set_i(&n, "end", 10); /* clamped to [0, 3] */
    golden_expect(&n, in, CC_I64, (double[]){ 2, 3, 4 }, NULL, 3, 1, 0);

    cc_node s = make_node("Size", 1);
    golden_expect(&s, in, CC_I64, (double[]){ 24 }, NULL, 1, 1, 0);
    cc_tensor e = tensor_of(CC_BOOL, 3, (int64_t[]){ 2, 0, 4 }, NULL), sc = tensor_of(CC_I8, 0, NULL, NULL);
    const cc_tensor *ine[1] = { &e }, *insc[1] = { &sc };
    golden_expect(&s, ine, CC_I64, (double[]){ 0 }, NULL, 1, 1, 0);
    golden_expect(&s, insc, CC_I64, (double[]){ 1 }, NULL, 1, 1, 0);
    n = make_node("Shape", 1);
    golden_expect(&n, ine, CC_I64, (double[]){ 2, 0, 4 }, NULL, 3, 1, 0);
    golden_expect(&n, insc, CC_I64, NULL, NULL, 0, 1, 0); /* a scalar's shape is empty */
    cc_tensor_free(&x);
    cc_tensor_free(&e);
    cc_tensor_free(&sc);
}

/* Runs infer() of n on in and checks the output's shape. */
static void expect_shape(const cc_node *n, const cc_tensor *const *in, int rank, const int64_t *dims)
{
    cc_tensor out;
    cc_err e = { 0 };
    memset(&out, 0, sizeof out);
    cc_status st = n->op->infer(n, in, 1, &out, &e);
    CHECK_OK(st);
    CHECK(shape_is(&out.shape, rank, dims));
    if (st || !shape_is(&out.shape, rank, dims)) {
        char buf[160];
        cc_shape_format(&out.shape, buf, sizeof buf);
        fprintf(stderr, "  %s: got %s (%s)\n", n->op->name, buf, e.msg);
    }
}

static void test_unsqueeze_squeeze(void)
{
    const double v[6] = { -3, -2, -1, 0, 1, 2 };
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 2, 3 }, v);
    cc_tensor a03 = ints(2, (double[]){ 0, 3 }), am1 = ints(1, (double[]){ -1 }), adup = ints(2, (double[]){ 1, -3 }),
              a3 = ints(1, (double[]){ 3 });
    cc_node u = make_node("Unsqueeze", 2);
    const cc_tensor *in03[2] = { &x, &a03 }, *inm1[2] = { &x, &am1 }, *indup[2] = { &x, &adup }, *in3[2] = { &x, &a3 };
    expect_shape(&u, in03, 4, (int64_t[]){ 1, 2, 3, 1 });
    expect_shape(&u, inm1, 3, (int64_t[]){ 2, 3, 1 });
    golden_expect(&u, in03, CC_F32, v, (double[]){ 3, 2, 1, 0, 1, 2 }, 6, 1, 0);
    expect_reject(&u, indup, 1, CC_ERR_ARG, "axis 1 twice");
    expect_reject(&u, in3, 1, CC_ERR_ARG, "axes[0] = 3 is outside [-3, 2]");
    cc_node u1 = make_node("Unsqueeze", 1); /* axes from the attribute, as in a case id */
    const cc_tensor *in1[1] = { &x };
    attr_set_ints(&u1, "axes", (int64_t[]){ 1 }, 1);
    expect_shape(&u1, in1, 3, (int64_t[]){ 2, 1, 3 });

    cc_tensor y = tensor_of(CC_I32, 4, (int64_t[]){ 1, 3, 1, 2 }, v);
    const cc_tensor *iny[1] = { &y };
    cc_node s = make_node("Squeeze", 1);
    expect_shape(&s, iny, 2, (int64_t[]){ 3, 2 });
    golden_expect(&s, iny, CC_I32, v, (double[]){ 0, 0, 0, 0, 0, 0 }, 6, 1, 0);
    attr_set_ints(&s, "axes", (int64_t[]){ -2 }, 1);
    expect_shape(&s, iny, 3, (int64_t[]){ 1, 3, 2 });
    attr_set_ints(&s, "axes", (int64_t[]){ 1 }, 1);
    expect_reject(&s, iny, 1, CC_ERR_ARG, "axis 1 has size 3, not 1");
    attr_set_ints(&s, "axes", (int64_t[]){ 4 }, 1);
    expect_reject(&s, iny, 1, CC_ERR_ARG, "outside [-4, 3]");
    cc_tensor_free(&x);
    cc_tensor_free(&y);
    cc_tensor_free(&a03);
    cc_tensor_free(&am1);
    cc_tensor_free(&adup);
    cc_tensor_free(&a3);
}

/* out[i] = x[i mod dims] (size-1 dims repeat index 0), computed here from the multi-index,
 * against the golden's value for every element. */
static void expect_wrapped(const cc_node *n, const cc_tensor *const *in)
{
    cc_tensor out[1];
    cc_golden g[1];
    cc_err e = { 0 };
    CHECK_OK(golden_run(n, in, 1, out, g, &e));
    const cc_tensor *x = in[0];
    const cc_shape *o = &g[0].shape;
    int off = o->rank - x->shape.rank, bad = 0;
    for (int64_t j = 0; j < cc_shape_numel(o); j++) {
        int64_t rem = j, src = 0, mul = 1;
        for (int d = o->rank - 1; d >= 0; d--) {
            int64_t i = rem % o->dims[d];
            rem /= o->dims[d];
            if (d >= off) {
                int64_t xd = x->shape.dims[d - off];
                src += (i % xd) * mul;
                mul *= xd;
            }
        }
        bad += g[0].value[j] != cc_load(x->data, x->dtype, (size_t)src);
    }
    CHECK(bad == 0);
    cc_golden_free(g, 1);
}

static void test_expand_tile(void)
{
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 3, 1 }, (double[]){ 1, 2, 3 });
    cc_tensor s214 = ints(3, (double[]){ 2, 1, 4 }), s4 = ints(1, (double[]){ 4 }), s1 = ints(1, (double[]){ 1 });
    cc_node ex = make_node("Expand", 2);
    const cc_tensor *in214[2] = { &x, &s214 }, *in4[2] = { &x, &s4 }, *in1[2] = { &x, &s1 };
    expect_shape(&ex, in214, 3, (int64_t[]){ 2, 3, 4 });
    double want[24];
    for (int a = 0; a < 2; a++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 4; j++) want[a * 12 + i * 4 + j] = i + 1;
    golden_expect(&ex, in214, CC_F32, want, NULL, 24, 1, 0);
    expect_wrapped(&ex, in214);
    expect_shape(&ex, in4, 2, (int64_t[]){ 3, 4 });
    expect_shape(&ex, in1, 2, (int64_t[]){ 3, 1 }); /* a smaller shape leaves the input as it is */
    cc_tensor w = tensor_of(CC_F32, 2, (int64_t[]){ 2, 3 }, NULL);
    const cc_tensor *inw[2] = { &w, &s4 };
    expect_reject(&ex, inw, 1, CC_ERR_ARG, "does not broadcast to shape[0] = 4");

    cc_tensor t = tensor_of(CC_U8, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, 2, 3, 4 });
    cc_tensor r23 = ints(2, (double[]){ 2, 3 }), r1 = ints(1, (double[]){ 2 }), rneg = ints(2, (double[]){ 1, -1 }),
              r02 = ints(2, (double[]){ 0, 2 });
    cc_node ti = make_node("Tile", 2);
    const cc_tensor *int23[2] = { &t, &r23 }, *int1[2] = { &t, &r1 }, *intneg[2] = { &t, &rneg }, *int02[2] = { &t, &r02 };
    const double tiled[24] = { 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4 };
    expect_shape(&ti, int23, 2, (int64_t[]){ 4, 6 });
    golden_expect(&ti, int23, CC_U8, tiled, NULL, 24, 1, 0);
    expect_wrapped(&ti, int23);
    expect_shape(&ti, int02, 2, (int64_t[]){ 0, 4 });
    expect_reject(&ti, int1, 1, CC_ERR_ARG, "repeats has 1 entries for a rank-2 input");
    expect_reject(&ti, intneg, 1, CC_ERR_ARG, "repeats[1] = -1 is negative");
    cc_tensor_free(&x);
    cc_tensor_free(&w);
    cc_tensor_free(&t);
    cc_tensor_free(&s214);
    cc_tensor_free(&s4);
    cc_tensor_free(&s1);
    cc_tensor_free(&r23);
    cc_tensor_free(&r1);
    cc_tensor_free(&rneg);
    cc_tensor_free(&r02);
}

/* Every id of both sweeps parses; the quick cases run through the golden model. */
static void test_cases(void)
{
    const char *ops[] = { "Shape", "Size", "Unsqueeze", "Squeeze", "Expand", "Tile" };
    const int versions[] = { 15, 13, 13, 13, 13, 13 };
    for (int i = 0; i < 6; i++) {
        const cc_op_def *op = cc_catalog_find(ops[i]);
        CHECK(op != NULL && op == family_op(&cc_family_shape, ops[i]));
        if (!op) continue;
        CHECK(op->since_version == versions[i] && strcmp(op->family, "shape") == 0);
        for (int quick = 1; quick >= 0; quick--) {
            int n;
            cc_case *cs = sweep_cases(op, quick, &n);
            CHECK(n >= 5 * 8);
            for (int k = 0; quick && k < n; k++) case_golden_finite(&cs[k], 7, 0);
            free(cs);
        }
    }
    expect_canonical("Unsqueeze(data=2x3:f32,axes=[0])", "Unsqueeze(data=2x3:f32,axes=[0])");
    expect_canonical("Tile(input=2x3:i64,repeats=[2,1])", "Tile(input=2x3:i64,repeats=[2,1])");
    cc_case c;
    cc_err e;
    CHECK(cc_case_parse("Expand(input=2x3:f32,shape=[4])", &c, &e) == CC_ERR_ARG);
    CHECK(cc_case_parse("Squeeze(data=2x3:f32,axes=[0])", &c, &e) == CC_ERR_ARG);
}

int main(void)
{
    test_shape_size();
    test_unsqueeze_squeeze();
    test_expand_tile();
    test_cases();
    return CC_TEST_RESULT();
}
