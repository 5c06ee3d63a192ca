/* test_pool_unpool.c — MaxUnpool against values worked out by hand: the specification's two
 * examples (with output_shape the unpooled 4 x 4 sits in the 5 x 5 output's corner), a
 * repeated index (the later value wins), the image and channel offsets, padding shrinking
 * the unpooled size and output_shape ignoring it, 1-D and 3-D shapes; then independently,
 * MaxPool's own Indices unpooled and pooled again give back MaxPool's output (the spec's
 * "pooling the result of an unpooling operation should give back the original input to
 * the unpooling op") with the maxima in place and zeros elsewhere; the generated indices
 * (inside their windows, distinct where windows do not overlap); rejections. */
#include "op_test.h"

#define POOL (cc_catalog_family("pool"))

static cc_node unpool(const char *kernel, const char *strides, const char *pads)
{
    cc_node n = node_make(family_op(POOL, "MaxUnpool"), 2);
    attr_set_text(&n, "kernel_shape", kernel);
    if (strides) attr_set_text(&n, "strides", strides);
    if (pads) attr_set_text(&n, "pads", pads);
    return n;
}

static void test_hand(void)
{
    /* the specification's example: 2 x 2 values at indices 5, 7, 13, 15 of a 4 x 4 */
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 1, 1, 2, 2 }, (double[]){ 1, 2, 3, 4 });
    cc_tensor i = tensor_of(CC_I64, 4, (int64_t[]){ 1, 1, 2, 2 }, (double[]){ 5, 7, 13, 15 });
    const cc_tensor *in[3] = { &x, &i, NULL };
    cc_node n = unpool("[2,2]", "[2,2]", NULL);
    golden_expect(&n, in, CC_F32, (double[]){ 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4 },
                  (double[]){ 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4 }, 16, 1, 0);
    /* ... with output_shape 1x1x5x5: the same 4 x 4 in the leading corner, a zero row and
     * column after it */
    cc_tensor os = tensor_of(CC_I64, 1, (int64_t[]){ 4 }, (double[]){ 1, 1, 5, 5 });
    in[2] = &os;
    n.n_in = 3;
    golden_expect(&n, in, CC_F32,
                  (double[]){ 0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 4, 0, 0, 0, 0, 0, 0 }, NULL, 25,
                  1, 0);
    /* output_shape ignores pads: with pads [1,1,1,1] the unpooled size would be 2, not 4 */
    attr_set_text(&n, "pads", "[1,1,1,1]");
    golden_expect(&n, in, CC_F32,
                  (double[]){ 0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 4, 0, 0, 0, 0, 0, 0 }, NULL, 25,
                  1, 0);
    /* ... and without output_shape they shrink it: (2 - 1) * 2 + 2 - 2 = 2 per axis */
    n.n_in = 2;
    in[2] = NULL;
    cc_tensor i2 = tensor_of(CC_I64, 4, (int64_t[]){ 1, 1, 2, 2 }, (double[]){ 3, 2, 1, 0 });
    in[1] = &i2;
    golden_expect(&n, in, CC_F32, (double[]){ 4, 3, 2, 1 }, NULL, 4, 1, 0);

    /* a repeated index: x = [5 6 7] at [1 1 0] in a 1-D unpooling of kernel 2, stride 1
     * (size 4): element 1 takes 6, the later of 5 and 6 */
    cc_tensor x1 = tensor_of(CC_F16, 3, (int64_t[]){ 1, 1, 3 }, (double[]){ 5, 6, 7 });
    cc_tensor i1 = tensor_of(CC_I64, 3, (int64_t[]){ 1, 1, 3 }, (double[]){ 1, 1, 0 });
    const cc_tensor *in1[2] = { &x1, &i1 };
    cc_node k2 = unpool("[2]", NULL, NULL);
    golden_expect(&k2, in1, CC_F16, (double[]){ 7, 6, 0, 0 }, NULL, 4, 1, 0);

    /* images and channels: x 2x2x1x1 (k 2, s 2: 2 x 2 planes), indices counting whole
     * planes of 4: 3 (plane 0), 4 (plane 1, its first), 9, 14 */
    cc_tensor xb = tensor_of(CC_BF16, 4, (int64_t[]){ 2, 2, 1, 1 }, (double[]){ 1, 2, 3, 4 });
    cc_tensor ib = tensor_of(CC_I64, 4, (int64_t[]){ 2, 2, 1, 1 }, (double[]){ 3, 4, 9, 14 });
    const cc_tensor *inb[2] = { &xb, &ib };
    cc_node nb = unpool("[2,2]", "[2,2]", NULL);
    golden_expect(&nb, inb, CC_BF16,
                  (double[]){ 0, 0, 0, 1, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0 }, NULL, 16, 1, 0);

    /* 3-D: x 1x1x1x2x1, kernel [2,2,3], strides [1,2,1]: 2 x 4 x 3 */
    cc_tensor x3 = tensor_of(CC_F32, 5, (int64_t[]){ 1, 1, 1, 2, 1 }, (double[]){ -1, 8 });
    cc_tensor i3 = tensor_of(CC_I64, 5, (int64_t[]){ 1, 1, 1, 2, 1 }, (double[]){ 0, 23 });
    const cc_tensor *in3[2] = { &x3, &i3 };
    cc_node n3 = unpool("[2,2,3]", "[1,2,1]", NULL);
    cc_tensor out;
    cc_golden g;
    cc_err e = { 0 };
    CHECK(golden_run(&n3, in3, 1, &out, &g, &e) == CC_OK);
    CHECK(out.shape.rank == 5 && out.shape.dims[2] == 2 && out.shape.dims[3] == 4 && out.shape.dims[4] == 3);
    CHECK(g.value[0] == -1 && g.value[23] == 8 && g.mag[0] == 1 && g.k == 1);
    double rest = 0;
    for (int k = 1; k < 23; k++) rest += fabs(g.value[k]);
    CHECK(rest == 0);
    cc_golden_free(&g, 1);

    cc_tensor_free(&x), cc_tensor_free(&i), cc_tensor_free(&os), cc_tensor_free(&i2), cc_tensor_free(&x1);
    cc_tensor_free(&i1), cc_tensor_free(&xb), cc_tensor_free(&ib), cc_tensor_free(&x3), cc_tensor_free(&i3);
}

/* MaxPool (k 3, s 2, pads 1) of a random positive x 2x3x7x5 with its Indices (4 x 3),
 * unpooled with the same attributes into (4 - 1) * 2 + 3 - 2 = 7 by (3 - 1) * 2 + 3 - 2 = 5
 * and pooled again: MaxPool's output comes back (the zeros never win), and the unpooled
 * tensor holds x's value wherever an index points and 0 elsewhere. */
static void test_round_trip(void)
{
    double v[2 * 3 * 7 * 5];
    cc_rng rng;
    cc_rng_seed(&rng, 3);
    for (int k = 0; k < 210; k++) v[k] = cc_rng_uniform(&rng) + 0.5;
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 2, 3, 7, 5 }, v);
    cc_node mp = node_make(family_op(POOL, "MaxPool"), 1);
    mp.n_out = 2;
    attr_set_text(&mp, "kernel_shape", "[3,3]");
    attr_set_text(&mp, "strides", "[2,2]");
    attr_set_text(&mp, "pads", "[1,1,1,1]");
    const cc_tensor *in[1] = { &x };
    cc_tensor po[2];
    cc_golden pg[2];
    cc_err e = { 0 };
    CHECK(golden_run(&mp, in, 2, po, pg, &e) == CC_OK);
    int64_t n = cc_shape_numel(&pg[0].shape); /* 2x3x4x3 */
    CHECK(n == 72);
    cc_tensor y = tensor_of(CC_F32, 4, po[0].shape.dims, pg[0].value), ind = tensor_of(CC_I64, 4, po[1].shape.dims, pg[1].value);
    cc_node un = unpool("[3,3]", "[2,2]", "[1,1,1,1]");
    const cc_tensor *uin[2] = { &y, &ind };
    cc_tensor uo;
    cc_golden ug;
    CHECK(golden_run(&un, uin, 1, &uo, &ug, &e) == CC_OK);
    CHECK(cc_shape_equal(&uo.shape, &x.shape));
    int placed = 0, bad = 0;
    for (int k = 0; k < 210; k++) {
        int named = 0;
        for (int64_t j = 0; j < n; j++) named |= (int64_t)pg[1].value[j] == k;
        placed += named;
        bad += ug.value[k] != (named ? (double)(float)v[k] : 0);
    }
    CHECK(bad == 0 && placed > 20);
    cc_tensor u = tensor_of(CC_F32, 4, uo.shape.dims, ug.value);
    const cc_tensor *again[1] = { &u };
    cc_node mp1 = node_make(family_op(POOL, "MaxPool"), 1);
    attr_set_text(&mp1, "kernel_shape", "[3,3]");
    attr_set_text(&mp1, "strides", "[2,2]");
    attr_set_text(&mp1, "pads", "[1,1,1,1]");
    golden_expect(&mp1, again, CC_F32, pg[0].value, NULL, (int)n, 1, 0);
    cc_golden_free(pg, 2);
    cc_golden_free(&ug, 1);
    cc_tensor_free(&x), cc_tensor_free(&y), cc_tensor_free(&ind), cc_tensor_free(&u);
}

/* Generated indices lie in their windows and, for non-overlapping windows, are distinct. */
static void test_gen(void)
{
    const char *id = "MaxUnpool(X=2x3x4x5:f32,I=2x3x4x5:i64,kernel_shape=[2,3],strides=[2,3])";
    for (int exact = 0; exact <= 1; exact++) {
        cc_case_inst inst;
        cc_golden g[1];
        if (!case_golden_of(id, 11, exact, &inst, g)) continue;
        const int64_t *ind = inst.inputs[1].data;
        int bad = 0;
        unsigned char seen[2 * 3 * 8 * 15] = { 0 };
        for (int64_t k = 0; k < 120; k++) {
            int64_t p = k / 20, oh = k % 20 / 5, ow = k % 5, at = ind[k];
            int64_t h = at % 120 / 15, w = at % 15;
            bad += at / 120 != p || h / 2 != oh || w / 3 != ow || seen[at]++;
        }
        CHECK(bad == 0);
        cc_golden_free(g, 1);
        cc_case_inst_free(&inst);
    }
    /* with output_shape the pads are ignored: the indices count in (2 - 1) * 1 + 2 = 3 per
     * axis (with the pads the unpooled size would be 1) */
    const char *given = "MaxUnpool(X=1x2x2x2:f32,I=1x2x2x2:i64,kernel_shape=[2,2],pads=[1,1,1,1],output_shape=[1,2,5,5])";
    cc_case_inst inst;
    cc_golden g[1];
    if (case_golden_of(given, 4, 0, &inst, g)) {
        const int64_t *ind = inst.inputs[1].data;
        int bad = 0;
        for (int k = 0; k < 8; k++) { /* plane k / 4, window (k % 4 / 2, k % 2): taps at +0 and +1 */
            int64_t dh = ind[k] % 9 / 3 - k % 4 / 2, dw = ind[k] % 3 - k % 2;
            bad += ind[k] / 9 != k / 4 || dh < 0 || dh > 1 || dw < 0 || dw > 1;
        }
        CHECK(bad == 0);
        cc_golden_free(g, 1);
        cc_case_inst_free(&inst);
    }
}

static void test_rejects(void)
{
    cc_tensor x = tensor_of(CC_F32, 4, (int64_t[]){ 1, 2, 3, 3 }, NULL);
    cc_tensor i = tensor_of(CC_I64, 4, (int64_t[]){ 1, 2, 3, 3 }, NULL);
    cc_tensor i32 = tensor_of(CC_I32, 4, (int64_t[]){ 1, 2, 3, 3 }, NULL);
    cc_tensor ishort = tensor_of(CC_I64, 4, (int64_t[]){ 1, 2, 3, 2 }, NULL);
    cc_tensor xi = tensor_of(CC_I8, 4, (int64_t[]){ 1, 2, 3, 3 }, NULL);
    cc_tensor x2 = tensor_of(CC_F32, 2, (int64_t[]){ 2, 3 }, NULL);
    cc_tensor small = tensor_of(CC_I64, 1, (int64_t[]){ 4 }, (double[]){ 1, 2, 5, 6 });
    cc_tensor three = tensor_of(CC_I64, 1, (int64_t[]){ 3 }, (double[]){ 1, 2, 6 });
    cc_node n = unpool("[2,2]", "[2,2]", NULL);
    const cc_tensor *ok[2] = { &x, &i }, *a[2] = { &x, &i32 }, *b[2] = { &x, &ishort }, *c[2] = { &xi, &i };
    const cc_tensor *d[2] = { &x2, &x2 };
    expect_reject(&n, a, 1, CC_ERR_ARG, "I must be int64 of X's shape 1x2x3x3, got i32 1x2x3x3");
    expect_reject(&n, b, 1, CC_ERR_ARG, "I must be int64 of X's shape");
    expect_reject(&n, c, 1, CC_ERR_ARG, "X must be f32, f16 or bf16, got i8");
    expect_reject(&n, d, 1, CC_ERR_ARG, "rank >= 3");
    expect_reject(&n, ok, 2, CC_ERR_ARG, "has 1 output, 2 requested");
    cc_node nk = node_make(family_op(POOL, "MaxUnpool"), 2);
    expect_reject(&nk, ok, 1, CC_ERR_ARG, "kernel_shape is required");
    cc_node k1 = unpool("[2]", NULL, NULL);
    expect_reject(&k1, ok, 1, CC_ERR_ARG, "kernel_shape has 1 values, 2 expected");
    cc_node s0 = unpool("[2,2]", "[0,1]", NULL);
    expect_reject(&s0, ok, 1, CC_ERR_ARG, "strides must be in [1, 2^31), got 0");
    cc_node pn = unpool("[2,2]", NULL, "[0,0,-1,0]");
    expect_reject(&pn, ok, 1, CC_ERR_ARG, "pads must be in [0, 2^31), got -1");
    /* pads eating the whole unpooled size: (3 - 1) * 1 + 1 - 3 - 0 = 0 */
    cc_node big = unpool("[1,1]", NULL, "[3,0,0,0]");
    expect_reject(&big, ok, 1, CC_ERR_ARG, "(3 - 1) * 1 + 1 - 3 - 0 = 0 is not a size");
    /* output_shape below the unpooled 6 x 6, or of the wrong length */
    cc_node os = unpool("[2,2]", "[2,2]", NULL);
    os.n_in = 3;
    const cc_tensor *s1[3] = { &x, &i, &small }, *s2[3] = { &x, &i, &three };
    expect_reject(&os, s1, 1, CC_ERR_ARG, "output_shape[2] = 5 is below the unpooled size 6");
    expect_reject(&os, s2, 1, CC_ERR_ARG, "output_shape must be 1-D with 4 integers");
    cc_tensor runtime = { CC_I64, cc_shape_make(1, (int64_t[]){ 4 }), NULL };
    const cc_tensor *s3[3] = { &x, &i, &runtime };
    expect_reject(&os, s3, 1, CC_ERR_UNSUPPORTED, "output_shape must be a constant");
    /* an index outside the 2 x 6 x 6 unpooled elements */
    ((int64_t *)i.data)[4] = 72;
    cc_tensor out;
    cc_golden g;
    cc_err e = { 0 };
    CHECK(golden_run(&n, ok, 1, &out, &g, &e) == CC_ERR_ARG && strstr(e.msg, "I[4] = 72 is outside [0, 72)"));
    cc_golden_free(&g, 1);
    ((int64_t *)i.data)[4] = -1;
    CHECK(golden_run(&n, ok, 1, &out, &g, &e) == CC_ERR_ARG && strstr(e.msg, "I[4] = -1 is outside"));
    cc_golden_free(&g, 1);
    cc_tensor_free(&x), cc_tensor_free(&i), cc_tensor_free(&i32), cc_tensor_free(&ishort), cc_tensor_free(&xi);
    cc_tensor_free(&x2), cc_tensor_free(&small), cc_tensor_free(&three);
}

static void test_cost(void)
{
    cc_tensor x = tensor_of(CC_F16, 4, (int64_t[]){ 1, 4, 5, 5 }, NULL), i = tensor_of(CC_I64, 4, (int64_t[]){ 1, 4, 5, 5 }, NULL);
    const cc_tensor *in[2] = { &x, &i };
    cc_node n = unpool("[2,2]", "[2,2]", NULL);
    cc_tensor out;
    CHECK(n.op->infer(&n, in, 1, &out, NULL) == CC_OK && out.shape.dims[2] == 10 && out.dtype == CC_F16);
    double flops, bytes;
    n.op->cost(&n, in, 1, &out, &flops, &bytes);
    CHECK(flops == 0 && bytes == 100 * 2 + 100 * 8 + 400 * 2);
    cc_tensor_free(&x), cc_tensor_free(&i);
}

int main(void)
{
    test_hand();
    test_round_trip();
    test_gen();
    test_rejects();
    test_cost();
    CHECK(family_cases_check(POOL, 5, 1, 1) > 0);
    return CC_TEST_RESULT();
}
