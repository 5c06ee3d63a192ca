/* test_shape.c — the shape family (Identity, Dropout, Flatten, Reshape, Transpose, Concat, Split, Slice):
 * shape inference against hand-worked shapes, goldens against independent index
 * formulas and hand lists, rejections with their messages, cost, and the case
 * generators' ids. */
#include "op_test.h"

/* Named here so the family's object is linked from the static library (the catalog
 * itself only holds a weak reference). */
#define cc_family_shape (*cc_catalog_family("shape"))

/* A node of op `name` with default attributes and n_in inputs. */
static cc_node make_node(const char *name, int n_in) { return node_make(family_op(&cc_family_shape, name), n_in); }

/* An f32 tensor of the given dims holding base + 0, 1, 2, ... */
static cc_tensor iota(int rank, const int64_t *dims, double base)
{
    cc_tensor t = tensor_of(CC_F32, rank, dims, NULL);
    for (int64_t i = 0; i < cc_tensor_numel(&t); i++) cc_store(t.data, CC_F32, (size_t)i, base + (double)i);
    return t;
}

static int shape_is(const cc_shape *s, int rank, const int64_t *dims)
{
    cc_shape want = cc_shape_make(rank, dims);
    return cc_shape_equal(s, &want);
}

static void test_flatten(void)
{
    int64_t d[4] = { 2, 3, 4, 5 };
    cc_tensor x = iota(4, d, 0);
    const cc_tensor *in[1] = { &x };
    cc_node n = make_node("Flatten", 1);
    cc_tensor out[1];
    cc_golden g[1];
    cc_err e;
    attr_set_i(&n, "axis", -2);
    CHECK_OK(golden_run(&n, in, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 2, (int64_t[]){ 6, 20 }));
    CHECK(g[0].value[119] == 119 && g[0].k == 1);
    cc_golden_free(g, 1);
    attr_set_i(&n, "axis", 0);
    CHECK_OK(golden_run(&n, in, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 2, (int64_t[]){ 1, 120 }));
    cc_golden_free(g, 1);
    attr_set_i(&n, "axis", 4);
    CHECK_OK(golden_run(&n, in, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 2, (int64_t[]){ 120, 1 }));
    cc_golden_free(g, 1);
    attr_set_i(&n, "axis", 5);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Flatten: axis 5 is outside [-4, 4]");
    attr_set_i(&n, "axis", -5);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Flatten: axis -5");
    cc_tensor_free(&x);
}

static void test_reshape(void)
{
    int64_t d[3] = { 2, 3, 4 };
    cc_tensor x = iota(3, d, 0);
    const cc_tensor *in[2] = { &x, NULL };
    cc_node n = make_node("Reshape", 2);
    cc_tensor out[1];
    cc_golden g[1];
    cc_err e;
    /* 0 copies the input's dim at the same index, -1 takes the rest */
    attr_set_ints(&n, "shape", (int64_t[]){ 0, -1 }, 2);
    CHECK_OK(golden_run(&n, in, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 2, (int64_t[]){ 2, 12 }));
    int ok = 1;
    for (int i = 0; i < 24; i++) ok &= g[0].value[i] == i && g[0].mag[i] == i;
    CHECK(ok && g[0].k == 1);
    cc_golden_free(g, 1);
    attr_set_ints(&n, "shape", (int64_t[]){ 2, 0, 4 }, 3);
    CHECK_OK(golden_run(&n, in, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 3, (int64_t[]){ 2, 3, 4 }));
    cc_golden_free(g, 1);
    attr_set_ints(&n, "shape", (int64_t[]){ 0, 4, -1 }, 3);
    CHECK_OK(golden_run(&n, in, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 3, (int64_t[]){ 2, 4, 3 }));
    cc_golden_free(g, 1);
    attr_set_ints(&n, "shape", (int64_t[]){ -1 }, 1);
    CHECK_OK(golden_run(&n, in, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 1, (int64_t[]){ 24 }));
    cc_golden_free(g, 1);

    /* shape given as a constant int64 tensor (a model's initializer), no attribute */
    cc_node m = make_node("Reshape", 2);
    cc_tensor shp;
    cc_shape s1 = cc_shape_make(1, (int64_t[]){ 3 });
    CHECK_OK(cc_tensor_alloc(&shp, CC_I64, &s1, NULL));
    ((int64_t *)shp.data)[0] = 4;
    ((int64_t *)shp.data)[1] = -1;
    ((int64_t *)shp.data)[2] = 2;
    const cc_tensor *in2[2] = { &x, &shp };
    CHECK_OK(golden_run(&m, in2, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 3, (int64_t[]){ 4, 3, 2 }));
    cc_golden_free(g, 1);
    /* a non-constant shape input cannot be resolved */
    void *keep = shp.data;
    shp.data = NULL;
    expect_reject(&m, in2, 1, CC_ERR_UNSUPPORTED, "Reshape: shape must be a constant input");
    shp.data = keep;
    cc_tensor_free(&shp);

    /* allowzero=1: 0 is a zero-length dim */
    int64_t z[2] = { 0, 4 };
    cc_tensor x0 = iota(2, z, 0);
    const cc_tensor *in0[2] = { &x0, NULL };
    attr_set_i(&n, "allowzero", 1);
    attr_set_ints(&n, "shape", (int64_t[]){ 4, 0 }, 2);
    CHECK_OK(golden_run(&n, in0, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 2, (int64_t[]){ 4, 0 }));
    cc_golden_free(g, 1);
    attr_set_ints(&n, "shape", (int64_t[]){ 0, -1 }, 2);
    expect_reject(&n, in0, 1, CC_ERR_ARG, "Reshape: with allowzero=1 shape cannot hold both 0 and -1");
    attr_set_i(&n, "allowzero", 0);
    attr_set_ints(&n, "shape", (int64_t[]){ 0, -1 }, 2);
    expect_reject(&n, in0, 1, CC_ERR_ARG, "Reshape: cannot infer -1 when the other dimensions multiply to 0");
    cc_tensor_free(&x0);

    attr_set_ints(&n, "shape", (int64_t[]){ -1, 2, -1 }, 3);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Reshape: shape has more than one -1 (at 0 and 2)");
    attr_set_ints(&n, "shape", (int64_t[]){ 5, 5 }, 2);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Reshape: cannot reshape 24 elements (2x3x4) into 5x5 (25)");
    attr_set_ints(&n, "shape", (int64_t[]){ 5, -1 }, 2);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Reshape: cannot infer -1: 24 elements (2x3x4) are not a multiple of 5");
    attr_set_ints(&n, "shape", (int64_t[]){ 2, -2, 12 }, 3);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Reshape: shape[1] = -2 is invalid");
    attr_set_ints(&n, "shape", (int64_t[]){ 1, 1, 1, 0 }, 4);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Reshape: shape[3] = 0 copies a dimension the rank-3 input lacks");
    attr_set_i(&n, "allowzero", 2);
    attr_set_ints(&n, "shape", (int64_t[]){ 24 }, 1);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Reshape: allowzero must be 0 or 1, got 2");
    cc_tensor_free(&x);
}

static void test_transpose(void)
{
    int64_t d[3] = { 2, 3, 4 };
    cc_tensor x = iota(3, d, 0); /* x[i][j][k] = 12 i + 4 j + k */
    const cc_tensor *in[1] = { &x };
    cc_node n = make_node("Transpose", 1);
    cc_tensor out[1];
    cc_golden g[1];
    cc_err e;
    /* perm [2,0,1]: out[k][i][j] = x[i][j][k], out is 4x2x3 */
    attr_set_ints(&n, "perm", (int64_t[]){ 2, 0, 1 }, 3);
    CHECK_OK(golden_run(&n, in, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 3, (int64_t[]){ 4, 2, 3 }));
    int ok = 1;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++) ok &= g[0].value[(k * 2 + i) * 3 + j] == 12 * i + 4 * j + k;
    CHECK(ok);
    cc_golden_free(g, 1);
    /* default: reversed, out[k][j][i] = x[i][j][k] */
    n = make_node("Transpose", 1);
    CHECK_OK(golden_run(&n, in, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 3, (int64_t[]){ 4, 3, 2 }));
    ok = 1;
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 2; i++) ok &= g[0].value[(k * 3 + j) * 2 + i] == 12 * i + 4 * j + k;
    CHECK(ok);
    /* hand list of the first row: out[0][0][*] = x[*][0][0] = 0, 12; out[1][2][*] = 9, 21 */
    CHECK(g[0].value[0] == 0 && g[0].value[1] == 12 && g[0].value[10] == 9 && g[0].value[11] == 21);
    cc_golden_free(g, 1);
    attr_set_ints(&n, "perm", (int64_t[]){ 0, 0, 1 }, 3);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Transpose: perm repeats axis 0");
    attr_set_ints(&n, "perm", (int64_t[]){ 0, 1 }, 2);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Transpose: perm has 2 entries for a rank-3 input");
    attr_set_ints(&n, "perm", (int64_t[]){ 0, 1, 3 }, 3);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Transpose: perm[2] = 3 is outside [0, 3)");
    attr_set_ints(&n, "perm", (int64_t[]){ 0, -1, 1 }, 3);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Transpose: perm[1] = -1");

    /* the YOLOv5 detect-head layout change: 1x3x85x4x5 -> 1x3x4x5x85 */
    int64_t dh[5] = { 1, 3, 85, 4, 5 };
    cc_tensor h = iota(5, dh, 0);
    const cc_tensor *inh[1] = { &h };
    attr_set_ints(&n, "perm", (int64_t[]){ 0, 1, 3, 4, 2 }, 5);
    CHECK_OK(golden_run(&n, inh, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 5, (int64_t[]){ 1, 3, 4, 5, 85 }));
    ok = 1;
    for (int a = 0; a < 3; a++)
        for (int y = 0; y < 4; y++)
            for (int xx = 0; xx < 5; xx++)
                for (int c = 0; c < 85; c++)
                    ok &= g[0].value[((a * 4 + y) * 5 + xx) * 85 + c] == ((a * 85 + c) * 4 + y) * 5 + xx;
    CHECK(ok);
    cc_golden_free(g, 1);
    double flops, bytes;
    n.op->cost(&n, inh, 1, out, &flops, &bytes);
    CHECK(flops == 0 && bytes == 2.0 * 4 * 3 * 85 * 20);
    cc_tensor_free(&h);
    cc_tensor_free(&x);
}

static void test_concat_split(void)
{
    int64_t d0[3] = { 2, 3, 4 }, d1[3] = { 2, 2, 4 };
    cc_tensor a = iota(3, d0, 0), b = iota(3, d1, 100);
    const cc_tensor *in[2] = { &a, &b };
    cc_node n = make_node("Concat", 2);
    cc_tensor out[CC_MAX_IO];
    cc_golden g[CC_MAX_IO];
    cc_err e;
    attr_set_i(&n, "axis", -2);
    CHECK_OK(golden_run(&n, in, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 3, (int64_t[]){ 2, 5, 4 }));
    /* hand values: row 3 of batch 0 is b[0][0] = 100..103; batch 1 row 0 is a[1][0] = 12.. */
    CHECK(g[0].value[3 * 4 + 0] == 100 && g[0].value[3 * 4 + 3] == 103);
    CHECK(g[0].value[(1 * 5 + 0) * 4 + 1] == 13 && g[0].value[(1 * 5 + 4) * 4 + 3] == 115);
    double flops, bytes;
    n.op->cost(&n, in, 1, out, &flops, &bytes);
    CHECK(flops == 0 && bytes == 4.0 * (24 + 16 + 40));

    /* split the result back: split=[3,2] on axis 1 gives a and b again */
    cc_tensor c;
    CHECK_OK(cc_tensor_alloc(&c, CC_F32, &out[0].shape, NULL));
    for (int i = 0; i < 40; i++) cc_store(c.data, CC_F32, (size_t)i, g[0].value[i]);
    cc_golden_free(g, 1);
    cc_node s = make_node("Split", 2);
    attr_set_i(&s, "axis", 1);
    attr_set_ints(&s, "split", (int64_t[]){ 3, 2 }, 2);
    CHECK(s.op->count_outputs(&s) == 2);
    const cc_tensor *ins[2] = { &c, NULL };
    CHECK_OK(golden_run(&s, ins, 2, out, g, &e));
    CHECK(shape_is(&out[0].shape, 3, d0) && shape_is(&out[1].shape, 3, d1));
    int ok = 1;
    for (int i = 0; i < 24; i++) ok &= g[0].value[i] == cc_load(a.data, CC_F32, (size_t)i);
    for (int i = 0; i < 16; i++) ok &= g[1].value[i] == cc_load(b.data, CC_F32, (size_t)i);
    CHECK(ok && g[0].k == 1 && g[1].k == 1);
    cc_golden_free(g, 2);

    /* equal split by num_outputs on the last axis: 4 -> 2 + 2 */
    cc_node h = make_node("Split", 1);
    attr_set_i(&h, "axis", -1);
    attr_set_i(&h, "num_outputs", 2);
    CHECK(h.op->count_outputs(&h) == 2);
    CHECK_OK(golden_run(&h, ins, 2, out, g, &e));
    CHECK(shape_is(&out[1].shape, 3, (int64_t[]){ 2, 5, 2 }));
    CHECK(g[1].value[0] == 2 && g[1].value[1] == 3 && g[1].value[2] == 6);
    cc_golden_free(g, 2);

    /* uneven: 10 into 3 is 4,4,2; 9 into 4 is 3,3,3,0; 5 into 4 is ambiguous */
    int64_t d10[1] = { 10 }, d9[1] = { 9 }, d5[1] = { 5 };
    cc_tensor t10 = iota(1, d10, 0), t9 = iota(1, d9, 0), t5 = iota(1, d5, 0);
    const cc_tensor *i10[2] = { &t10, NULL }, *i9[2] = { &t9, NULL }, *i5[2] = { &t5, NULL };
    cc_node u = make_node("Split", 1);
    CHECK_OK(golden_run(&u, i10, 3, out, g, &e));
    CHECK(out[0].shape.dims[0] == 4 && out[1].shape.dims[0] == 4 && out[2].shape.dims[0] == 2);
    CHECK(g[2].value[0] == 8 && g[2].value[1] == 9);
    cc_golden_free(g, 3);
    CHECK_OK(golden_run(&u, i9, 4, out, g, &e));
    CHECK(out[2].shape.dims[0] == 3 && out[3].shape.dims[0] == 0);
    cc_golden_free(g, 4);
    expect_reject(&u, i5, 4, CC_ERR_UNSUPPORTED, "Split: 5 into 4 pieces of 2");

    /* rejections */
    cc_node r = make_node("Split", 2);
    attr_set_ints(&r, "split", (int64_t[]){ 4, 5 }, 2);
    expect_reject(&r, i10, 2, CC_ERR_ARG, "Split: split sums to 9, the axis has 10");
    attr_set_ints(&r, "split", (int64_t[]){ 11, -1 }, 2);
    expect_reject(&r, i10, 2, CC_ERR_ARG, "Split: split[0] = 11 exceeds the axis length 10");
    attr_set_ints(&r, "split", (int64_t[]){ 4, 6 }, 2);
    expect_reject(&r, i10, 3, CC_ERR_ARG, "Split: split has 2 entries for 3 outputs");
    attr_set_i(&r, "num_outputs", 2);
    expect_reject(&r, i10, 2, CC_ERR_ARG, "Split: give split or num_outputs, not both");
    cc_node r2 = make_node("Split", 1);
    attr_set_i(&r2, "axis", 1);
    expect_reject(&r2, i10, 2, CC_ERR_ARG, "Split: axis 1 is outside [-1, 0] for rank 1");
    attr_set_i(&r2, "axis", 0);
    attr_set_i(&r2, "num_outputs", 3);
    expect_reject(&r2, i10, 2, CC_ERR_ARG, "Split: num_outputs is 3 but the node has 2 outputs");

    int64_t dx[3] = { 2, 4, 4 }, dy[2] = { 2, 3 };
    cc_tensor x = iota(3, dx, 0), y = iota(2, dy, 0);
    const cc_tensor *bad[2] = { &a, &x };
    attr_set_i(&n, "axis", 2);
    expect_reject(&n, bad, 1, CC_ERR_ARG, "Concat: input 1 has shape 2x4x4, incompatible with 2x3x4 off axis 2");
    const cc_tensor *bad2[2] = { &a, &y };
    expect_reject(&n, bad2, 1, CC_ERR_ARG, "Concat: input 1 has shape 2x3, rank differs from 2x3x4");
    attr_set_i(&n, "axis", 3);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Concat: axis 3 is outside [-3, 2] for rank 3");
    cc_node n0 = make_node("Concat", 2);
    expect_reject(&n0, in, 1, CC_ERR_ARG, "Concat: axis is required");
    cc_tensor bi;
    CHECK_OK(cc_tensor_alloc(&bi, CC_I32, &b.shape, NULL));
    const cc_tensor *bad3[2] = { &a, &bi };
    attr_set_i(&n, "axis", 1);
    expect_reject(&n, bad3, 1, CC_ERR_ARG, "Concat: input 1 is i32, the first is f32");
    cc_tensor_free(&bi);
    cc_tensor_free(&x);
    cc_tensor_free(&y);
    cc_tensor_free(&t10);
    cc_tensor_free(&t9);
    cc_tensor_free(&t5);
    cc_tensor_free(&c);
    cc_tensor_free(&a);
    cc_tensor_free(&b);
}

/* Slice of 0..9 must give exactly the hand list want[0..n-1]. */
static void slice_1d(int64_t start, int64_t end, int64_t step, const double *want, int n_want)
{
    int64_t d[1] = { 10 };
    cc_tensor x = iota(1, d, 0);
    const cc_tensor *in[1] = { &x };
    cc_node n = make_node("Slice", 1);
    attr_set_ints(&n, "starts", &start, 1);
    attr_set_ints(&n, "ends", &end, 1);
    attr_set_ints(&n, "steps", &step, 1);
    cc_tensor out[1];
    cc_golden g[1];
    cc_err e;
    CHECK_OK(golden_run(&n, in, 1, out, g, &e));
    CHECK(out[0].shape.rank == 1 && out[0].shape.dims[0] == n_want);
    int ok = out[0].shape.dims[0] == n_want;
    for (int i = 0; ok && i < n_want; i++) ok &= g[0].value[i] == want[i];
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  slice [%lld:%lld:%lld] gave %lld elements\n", (long long)start, (long long)end,
                (long long)step, (long long)out[0].shape.dims[0]);
    cc_golden_free(g, 1);
    cc_tensor_free(&x);
}

static void test_slice(void)
{
    slice_1d(-1, INT64_MIN, -1, (double[]){ 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 }, 10);
    slice_1d(8, 1, -3, (double[]){ 8, 5, 2 }, 3);
    slice_1d(100, -100, -2, (double[]){ 9, 7, 5, 3, 1 }, 5);
    slice_1d(-100, 100, 1, (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 }, 10);
    slice_1d(1, INT64_MAX, 3, (double[]){ 1, 4, 7 }, 3);
    slice_1d(-3, -1, 1, (double[]){ 7, 8 }, 2);
    slice_1d(5, 5, 1, NULL, 0);
    slice_1d(7, 2, 1, NULL, 0);
    slice_1d(2, 7, -1, NULL, 0);
    slice_1d(9, -11, INT64_MIN, (double[]){ 9 }, 1);

    /* an empty axis sliced backwards stays empty (its clamp range [0, -1] holds nothing);
     * it once gave one element read past the end of the data */
    {
        int64_t d0[2] = { 0, 3 };
        cc_tensor x0 = iota(2, d0, 0);
        const cc_tensor *in0[1] = { &x0 };
        cc_node n0 = make_node("Slice", 1);
        attr_set_ints(&n0, "starts", (int64_t[]){ -7 }, 1);
        attr_set_ints(&n0, "ends", (int64_t[]){ -1 }, 1);
        attr_set_ints(&n0, "steps", (int64_t[]){ -1 }, 1);
        cc_tensor out0[1];
        cc_golden g0[1];
        cc_err e0;
        CHECK_OK(golden_run(&n0, in0, 1, out0, g0, &e0));
        CHECK(shape_is(&out0[0].shape, 2, (int64_t[]){ 0, 3 }));
        cc_golden_free(g0, 1);
        cc_tensor_free(&x0);
    }

    /* 2-D, 3x4 with x[r][c] = 4 r + c: axes [1,0], starts [-1,0], ends [0,2], steps [-2,1]
     * -> rows 0,1 and columns 3,1: [[3,1],[7,5]] */
    int64_t d[2] = { 3, 4 };
    cc_tensor x = iota(2, d, 0);
    const cc_tensor *in[1] = { &x };
    cc_node n = make_node("Slice", 1);
    attr_set_ints(&n, "starts", (int64_t[]){ -1, 0 }, 2);
    attr_set_ints(&n, "ends", (int64_t[]){ 0, 2 }, 2);
    attr_set_ints(&n, "axes", (int64_t[]){ 1, 0 }, 2);
    attr_set_ints(&n, "steps", (int64_t[]){ -2, 1 }, 2);
    cc_tensor out[1];
    cc_golden g[1];
    cc_err e;
    CHECK_OK(golden_run(&n, in, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 2, (int64_t[]){ 2, 2 }));
    CHECK(g[0].value[0] == 3 && g[0].value[1] == 1 && g[0].value[2] == 7 && g[0].value[3] == 5);
    cc_golden_free(g, 1);
    /* axes omitted: [0, 1]; starts [1, 1], ends [INT64_MAX, -1] -> rows 1,2, cols 1,2 */
    cc_node m = make_node("Slice", 1);
    attr_set_ints(&m, "starts", (int64_t[]){ 1, 1 }, 2);
    attr_set_ints(&m, "ends", (int64_t[]){ INT64_MAX, -1 }, 2);
    CHECK_OK(golden_run(&m, in, 1, out, g, &e));
    CHECK(shape_is(&out[0].shape, 2, (int64_t[]){ 2, 2 }));
    CHECK(g[0].value[0] == 5 && g[0].value[1] == 6 && g[0].value[2] == 9 && g[0].value[3] == 10);
    cc_golden_free(g, 1);

    attr_set_ints(&n, "steps", (int64_t[]){ 0, 1 }, 2);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Slice: steps[0] is 0");
    attr_set_ints(&n, "steps", (int64_t[]){ 1, 1 }, 2);
    attr_set_ints(&n, "axes", (int64_t[]){ 1, -1 }, 2);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Slice: axis 1 is sliced twice");
    attr_set_ints(&n, "axes", (int64_t[]){ 1, 2 }, 2);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Slice: axes[1] = 2 is outside [-2, 1]");
    attr_set_ints(&n, "axes", (int64_t[]){ 1 }, 1);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Slice: starts has 2 values, axes 1");
    attr_set_ints(&n, "ends", (int64_t[]){ 1 }, 1);
    expect_reject(&n, in, 1, CC_ERR_ARG, "Slice: starts has 2 values, ends 1");
    cc_tensor_free(&x);
}

/* S = |value| and K = 1 for every data-movement op, S = 0 for integer outputs. */
static void test_magnitudes(void)
{
    int64_t d[2] = { 2, 3 };
    cc_tensor x = iota(2, d, -3); /* -3 .. 2 */
    const cc_tensor *in[1] = { &x };
    cc_node n = make_node("Transpose", 1);
    cc_tensor out[1];
    cc_golden g[1];
    cc_err e;
    CHECK_OK(golden_run(&n, in, 1, out, g, &e));
    /* out = [[-3,0],[-2,1],[-1,2]] */
    CHECK(g[0].value[0] == -3 && g[0].mag[0] == 3 && g[0].value[3] == 1 && g[0].mag[2] == 2);
    CHECK(g[0].k == 1);
    cc_golden_free(g, 1);
    cc_tensor xi;
    CHECK_OK(cc_tensor_alloc(&xi, CC_I8, &x.shape, NULL));
    for (int i = 0; i < 6; i++) cc_store(xi.data, CC_I8, (size_t)i, i - 3);
    const cc_tensor *ini[1] = { &xi };
    CHECK_OK(golden_run(&n, ini, 1, out, g, &e));
    CHECK(out[0].dtype == CC_I8 && g[0].value[0] == -3 && g[0].mag[0] == 0);
    cc_golden_free(g, 1);
    cc_tensor_free(&xi);
    cc_tensor_free(&x);
}

/* The family table: eight ops of opset-17-era versions, reachable through the catalog;
 * every id each generator emits parses, in both sweeps, and the quick cases run. */
static void test_cases(void)
{
    const char *ops[] = { "Flatten", "Reshape", "Transpose", "Concat", "Split", "Slice", "Identity", "Dropout" };
    const int versions[] = { 13, 14, 13, 13, 13, 13, 16, 13 };
    CHECK(cc_family_shape.n_ops == 28 && strcmp(cc_family_shape.name, "shape") == 0);
    for (int i = 0; i < 8; i++) {
        const cc_op_def *op = cc_catalog_find(ops[i]);
        CHECK(op != NULL && op == family_op(&cc_family_shape, ops[i]));
        if (!op) continue;
        CHECK(op->since_version == versions[i] && strcmp(op->family, "shape") == 0);
        for (int quick = 1; quick >= 0; quick--) {
            int n;
            cc_case *cs = sweep_cases(op, quick, &n);
            CHECK(n >= 7 * 4);
            for (int k = 0; quick && k < n; k++) case_golden_finite(&cs[k], 7, 0);
            free(cs);
        }
    }
    /* hand-written ids: canonical form and output count */
    cc_case c;
    cc_err e;
    expect_canonical("Concat(x0=1x64x80x80:f32,x1=1x64x80x80,axis=1)",
                     "Concat(x0=1x64x80x80:f32,x1=1x64x80x80,axis=1)");
    CHECK_OK(cc_case_parse("Split(input=1x128x80x80:f16,axis=1,num_outputs=2)", &c, &e));
    CHECK(c.n_out == 2);
    CHECK_OK(cc_case_parse("Split(input=1x144x8400:f32,split=[64,80],axis=1)", &c, &e));
    CHECK(c.n_out == 2);
    CHECK(cc_case_parse("Reshape(data=2x3x4:f32,shape=[5,5])", &c, &e) == CC_ERR_ARG);
}

/* Identity copies any dtype; Dropout in inference copies and its mask is all true; a
 * training_mode of 1 is unsupported (random), a ratio outside [0, 1) bad input. */
static void test_identity_dropout(void)
{
    int64_t d[2] = { 2, 3 };
    cc_tensor x = iota(2, d, -2);
    const double want[6] = { -2, -1, 0, 1, 2, 3 };
    cc_node id = make_node("Identity", 1);
    const cc_tensor *in1[1] = { &x };
    golden_expect(&id, in1, CC_F32, want, NULL, 6, -1, 0);
    cc_tensor b = tensor_of(CC_BOOL, 2, d, (double[]){ 1, 0, 0, 1, 1, 0 });
    const cc_tensor *inb[1] = { &b };
    golden_expect(&id, inb, CC_BOOL, (double[]){ 1, 0, 0, 1, 1, 0 }, NULL, 6, -1, 0);

    cc_node dr = make_node("Dropout", 1);
    golden_expect(&dr, in1, CC_F32, want, NULL, 6, -1, 0);
    cc_tensor out[2];
    cc_golden g[2];
    cc_err e = { 0 };
    CHECK_OK(golden_run(&dr, in1, 2, out, g, &e));
    CHECK(g[1].dtype == CC_BOOL && shape_is(&g[1].shape, 2, d));
    for (int i = 0; i < 6; i++) CHECK(g[1].value[i] == 1 && g[0].value[i] == want[i]);
    cc_golden_free(g, 2);
    /* ratio and training_mode as constant inputs */
    cc_tensor ratio = tensor_of(CC_F32, 0, NULL, (double[]){ 0.5 });
    cc_tensor off = tensor_of(CC_BOOL, 0, NULL, (double[]){ 0 }), on = tensor_of(CC_BOOL, 0, NULL, (double[]){ 1 });
    cc_node dr3 = make_node("Dropout", 3);
    const cc_tensor *inf[3] = { &x, &ratio, &off }, *train[3] = { &x, &ratio, &on };
    golden_expect(&dr3, inf, CC_F32, want, NULL, 6, -1, 0);
    expect_reject(&dr3, train, 1, CC_ERR_UNSUPPORTED, "inference only");
    cc_tensor big = tensor_of(CC_F32, 0, NULL, (double[]){ 1 });
    const cc_tensor *badr[3] = { &x, &big, &off };
    expect_reject(&dr3, badr, 1, CC_ERR_ARG, "outside [0, 1)");
    const cc_tensor *badd[1] = { &b };
    expect_reject(&dr, badd, 1, CC_ERR_ARG, "float type");
    cc_tensor_free(&x);
    cc_tensor_free(&b);
    cc_tensor_free(&ratio);
    cc_tensor_free(&off);
    cc_tensor_free(&on);
    cc_tensor_free(&big);
}

int main(void)
{
    test_identity_dropout();
    test_flatten();
    test_reshape();
    test_transpose();
    test_concat_split();
    test_slice();
    test_magnitudes();
    test_cases();
    return CC_TEST_RESULT();
}
