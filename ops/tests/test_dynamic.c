/* test_dynamic.c — the ops of data-dependent output shape against the specification's
 * examples and hand-worked values: infer() gives the bound, golden() the actual shape and
 * values (NonZero of a matrix and of a scalar; Unique's four examples, sorted and not, with
 * every output; NonMaxSuppression suppressing by IoU, by score, per class, with centre
 * boxes and flipped corners, and with max 0); rejections; the sweep. */
#include "op_test.h"

static cc_node dyn_node(const char *op, int n_in)
{
    return node_make(family_op(cc_catalog_family("dynamic"), op), n_in);
}

/* runs n and checks output j's actual shape (rank r, dims) and values */
static void expect_out(const cc_golden *g, int rank, const int64_t *dims, const double *want)
{
    cc_shape s = cc_shape_make(rank, dims);
    CHECK(cc_shape_equal(&g->shape, &s));
    if (!cc_shape_equal(&g->shape, &s)) {
        char a[64], b[64];
        fprintf(stderr, "  shape %s, want %s\n", cc_shape_format(&g->shape, a, sizeof a), cc_shape_format(&s, b, sizeof b));
        return;
    }
    expect_values(g, want, (int)cc_shape_numel(&s), 0);
}

static void test_nonzero(void)
{
    /* [[1, 0], [1, 1]]: rows 0, 1, 1 and columns 0, 0, 1 */
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, 0, 1, 1 });
    const cc_tensor *in[1] = { &x };
    cc_node n = dyn_node("NonZero", 1);
    cc_tensor out[1];
    cc_golden g[1];
    cc_err e = { 0 };
    CHECK(golden_run(&n, in, 1, out, g, &e) == CC_OK);
    CHECK(out[0].shape.rank == 2 && out[0].shape.dims[0] == 2 && out[0].shape.dims[1] == 4); /* the bound */
    expect_out(&g[0], 2, (int64_t[]){ 2, 3 }, (double[]){ 0, 1, 1, 0, 0, 1 });
    cc_golden_free(g, 1);
    /* a scalar: [0, nnz] */
    cc_tensor s = tensor_of(CC_I32, 0, NULL, (double[]){ 5 });
    const cc_tensor *ins[1] = { &s };
    CHECK(golden_run(&n, ins, 1, out, g, &e) == CC_OK);
    CHECK(g[0].shape.rank == 2 && g[0].shape.dims[0] == 0 && g[0].shape.dims[1] == 1);
    cc_golden_free(g, 1);
    cc_tensor_free(&x);
    cc_tensor_free(&s);
}

static void unique_case(const char *attrs, cc_tensor *x, int n_out, int yrank, const int64_t *ydims, const double *y,
                        int nu, const double *idx, int nx, const double *inv, const double *cnt)
{
    cc_node n = dyn_node("Unique", 1);
    if (attrs) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", attrs);
        char *eq = strchr(buf, '=');
        if (eq) {
            *eq = '\0';
            attr_set_text(&n, buf, eq + 1);
        }
    }
    const cc_tensor *in[1] = { x };
    cc_tensor out[4];
    cc_golden g[4];
    cc_err e = { 0 };
    CHECK(golden_run(&n, in, n_out, out, g, &e) == CC_OK);
    expect_out(&g[0], yrank, ydims, y);
    expect_out(&g[1], 1, (int64_t[]){ nu }, idx);
    expect_out(&g[2], 1, (int64_t[]){ nx }, inv);
    expect_out(&g[3], 1, (int64_t[]){ nu }, cnt);
    cc_golden_free(g, n_out);
}

static void test_unique(void)
{
    /* the specification's example 1: [2, 1, 1, 3, 4, 3], sorted = 0 */
    cc_tensor x1 = tensor_of(CC_F32, 1, (int64_t[]){ 6 }, (double[]){ 2, 1, 1, 3, 4, 3 });
    unique_case("sorted=0", &x1, 4, 1, (int64_t[]){ 4 }, (double[]){ 2, 1, 3, 4 }, 4, (double[]){ 0, 1, 3, 4 }, 6,
                (double[]){ 0, 1, 1, 2, 3, 2 }, (double[]){ 1, 2, 2, 1 });
    /* sorted: [1, 2, 3, 4], first occurrences 1, 0, 3, 4 */
    unique_case(NULL, &x1, 4, 1, (int64_t[]){ 4 }, (double[]){ 1, 2, 3, 4 }, 4, (double[]){ 1, 0, 3, 4 }, 6,
                (double[]){ 1, 0, 0, 2, 3, 2 }, (double[]){ 2, 1, 2, 1 });
    /* example 2: [[1, 3], [2, 3]] flattened, sorted */
    cc_tensor x2 = tensor_of(CC_F32, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, 3, 2, 3 });
    unique_case(NULL, &x2, 4, 1, (int64_t[]){ 3 }, (double[]){ 1, 2, 3 }, 3, (double[]){ 0, 2, 1 }, 4,
                (double[]){ 0, 2, 1, 2 }, (double[]){ 1, 1, 2 });
    /* example 3: rows of [[1, 0, 0], [1, 0, 0], [2, 3, 4]], axis 0 */
    cc_tensor x3 = tensor_of(CC_F32, 2, (int64_t[]){ 3, 3 }, (double[]){ 1, 0, 0, 1, 0, 0, 2, 3, 4 });
    unique_case("axis=0", &x3, 4, 2, (int64_t[]){ 2, 3 }, (double[]){ 1, 0, 0, 2, 3, 4 }, 2, (double[]){ 0, 2 }, 3,
                (double[]){ 0, 0, 1 }, (double[]){ 2, 1 });
    /* example 4: 2x4x2, axis 1: slices A..D = [1,1]x2, [0,1]x2, [2,1]x2, [0,1]x2 */
    cc_tensor x4 = tensor_of(CC_F32, 3, (int64_t[]){ 2, 4, 2 },
                             (double[]){ 1, 1, 0, 1, 2, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 1 });
    unique_case("axis=1", &x4, 4, 3, (int64_t[]){ 2, 3, 2 }, (double[]){ 0, 1, 1, 1, 2, 1, 0, 1, 1, 1, 2, 1 }, 3,
                (double[]){ 1, 0, 2 }, 4, (double[]){ 1, 0, 2, 0 }, (double[]){ 2, 1, 1 });
    cc_node bad = dyn_node("Unique", 1);
    attr_set_i(&bad, "axis", 2);
    const cc_tensor *in[1] = { &x2 };
    expect_reject(&bad, in, 1, CC_ERR_ARG, "axis 2 is out of range");
    cc_tensor_free(&x1);
    cc_tensor_free(&x2);
    cc_tensor_free(&x3);
    cc_tensor_free(&x4);
}

/* NonMaxSuppression of boxes [1, n, 4] and scores [1, c, n] */
static void nms_case(const char *what, int n, const double *boxes, int c, const double *scores, int64_t maxo, double iou,
                     const double *score_thr, int center, int rows, const double *want)
{
    cc_tensor b = tensor_of(CC_F32, 3, (int64_t[]){ 1, n, 4 }, boxes);
    cc_tensor s = tensor_of(CC_F32, 3, (int64_t[]){ 1, c, n }, scores);
    cc_tensor m = tensor_of(CC_I64, 1, (int64_t[]){ 1 }, (double[]){ (double)maxo });
    cc_tensor it = tensor_of(CC_F32, 1, (int64_t[]){ 1 }, (double[]){ iou });
    cc_tensor st = tensor_of(CC_F32, 1, (int64_t[]){ 1 }, score_thr);
    const cc_tensor *in[5] = { &b, &s, &m, &it, score_thr ? &st : NULL };
    cc_node nd = dyn_node("NonMaxSuppression", 5);
    if (center) attr_set_i(&nd, "center_point_box", 1);
    cc_tensor out[1];
    cc_golden g[1];
    cc_err e = { 0 };
    int before = cc_test_failures;
    CHECK(golden_run(&nd, in, 1, out, g, &e) == CC_OK);
    expect_out(&g[0], 2, (int64_t[]){ rows, 3 }, want);
    if (cc_test_failures != before) fprintf(stderr, "  in %s\n", what);
    cc_golden_free(g, 1);
    cc_tensor_free(&b);
    cc_tensor_free(&s);
    cc_tensor_free(&m);
    cc_tensor_free(&it);
    cc_tensor_free(&st);
}

static void test_nms(void)
{
    /* the specification's suppress-by-IoU boxes: two clusters of three and a lone box */
    const double boxes[] = { 0, 0, 1, 1,  0, 0.1, 1, 1.1,  0, -0.1, 1, 0.9,
                             0, 10, 1, 11,  0, 10.1, 1, 11.1,  0, 100, 1, 101 };
    const double scores[] = { 0.9, 0.75, 0.6, 0.95, 0.5, 0.3 };
    nms_case("by IoU", 6, boxes, 1, scores, 3, 0.5, (double[]){ 0 }, 0, 3, (double[]){ 0, 0, 3, 0, 0, 0, 0, 0, 5 });
    /* a score threshold of 0.4 drops the lone box (0.3) */
    nms_case("by IoU and score", 6, boxes, 1, scores, 3, 0.5, (double[]){ 0.4 }, 0, 2, (double[]){ 0, 0, 3, 0, 0, 0 });
    /* max 2 per class */
    nms_case("limit", 6, boxes, 1, scores, 2, 0.5, NULL, 0, 2, (double[]){ 0, 0, 3, 0, 0, 0 });
    /* max 0: nothing */
    nms_case("max 0", 6, boxes, 1, scores, 0, 0.5, NULL, 0, 0, (double[]){ 0 });
    /* flipped corners are the same boxes */
    const double flipped[] = { 1, 1, 0, 0,  0, 0.1, 1, 1.1,  0, 0.9, 1, -0.1,
                               0, 10, 1, 11,  1, 10.1, 0, 11.1,  1, 101, 0, 100 };
    nms_case("flipped", 6, flipped, 1, scores, 3, 0.5, (double[]){ 0 }, 0, 3, (double[]){ 0, 0, 3, 0, 0, 0, 0, 0, 5 });
    /* centre format: (x, y, w, h) of the same boxes */
    const double centre[] = { 0.5, 0.5, 1, 1,  0.6, 0.5, 1, 1,  0.4, 0.5, 1, 1,
                              10.5, 0.5, 1, 1,  10.6, 0.5, 1, 1,  100.5, 0.5, 1, 1 };
    nms_case("centre", 6, centre, 1, scores, 3, 0.5, (double[]){ 0 }, 1, 3, (double[]){ 0, 0, 3, 0, 0, 0, 0, 0, 5 });
    /* two classes, each on its own; equal scores take the lower index first. IoU of boxes 0
     * and 1 (unit squares offset by 0.5): 0.5 / 1.5 = 1/3, suppressed at 0.3, kept at 0.4 */
    const double two[] = { 0, 0, 1, 1,  0, 0.5, 1, 1.5 };
    nms_case("tie", 2, two, 2, (double[]){ 0.5, 0.5, 0.2, 0.8 }, 5, 0.3, NULL, 0, 2, (double[]){ 0, 0, 0, 0, 1, 1 });
    nms_case("kept", 2, two, 1, (double[]){ 0.5, 0.5 }, 5, 0.4, NULL, 0, 2, (double[]){ 0, 0, 0, 0, 0, 1 });
    cc_tensor b = tensor_of(CC_F32, 3, (int64_t[]){ 1, 2, 3 }, NULL), s = tensor_of(CC_F32, 3, (int64_t[]){ 1, 1, 2 }, NULL);
    const cc_tensor *in[5] = { &b, &s, NULL, NULL, NULL };
    cc_node nd = dyn_node("NonMaxSuppression", 5);
    expect_reject(&nd, in, 1, CC_ERR_ARG, "boxes must be [batch, boxes, 4]");
    cc_tensor_free(&b);
    cc_tensor_free(&s);
}

/* Compress: the specification's examples (condition [0, 1, 1] along axis 0 of [[1, 2],
 * [3, 4], [5, 6]]; [0, 1] along axis 1; [0, 1, 0, 0, 1] flattened), a condition shorter
 * than the axis, a negative axis, and the rejections */
static void compress_case(const char *axis, int n_cond, const double *cond, int rank, const int64_t *dims,
                          const double *want)
{
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 3, 2 }, (double[]){ 1, 2, 3, 4, 5, 6 });
    cc_tensor c = tensor_of(CC_BOOL, 1, (int64_t[]){ n_cond }, cond);
    const cc_tensor *in[2] = { &x, &c };
    cc_node n = dyn_node("Compress", 2);
    if (axis) attr_set_text(&n, "axis", axis);
    cc_tensor out[1];
    cc_golden g[1];
    cc_err e = { 0 };
    CHECK(golden_run(&n, in, 1, out, g, &e) == CC_OK);
    expect_out(&g[0], rank, dims, want);
    cc_golden_free(g, 1);
    cc_tensor_free(&x);
    cc_tensor_free(&c);
}

static void test_compress(void)
{
    compress_case("0", 3, (double[]){ 0, 1, 1 }, 2, (int64_t[]){ 2, 2 }, (double[]){ 3, 4, 5, 6 });
    compress_case("1", 2, (double[]){ 0, 1 }, 2, (int64_t[]){ 3, 1 }, (double[]){ 2, 4, 6 });
    compress_case("-1", 2, (double[]){ 1, 0 }, 2, (int64_t[]){ 3, 1 }, (double[]){ 1, 3, 5 });
    compress_case(NULL, 5, (double[]){ 0, 1, 0, 0, 1 }, 1, (int64_t[]){ 2 }, (double[]){ 2, 5 });
    compress_case("0", 2, (double[]){ 1, 1 }, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, 2, 3, 4 }); /* row 2 dropped */
    compress_case("0", 3, (double[]){ 0, 0, 0 }, 2, (int64_t[]){ 0, 2 }, NULL);
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 3, 2 }, NULL);
    cc_tensor c4 = tensor_of(CC_BOOL, 1, (int64_t[]){ 4 }, NULL), ci = tensor_of(CC_I32, 1, (int64_t[]){ 3 }, NULL);
    cc_node n = dyn_node("Compress", 2);
    attr_set_text(&n, "axis", "0");
    const cc_tensor *long_cond[2] = { &x, &c4 }, *int_cond[2] = { &x, &ci };
    expect_reject(&n, long_cond, 1, CC_ERR_ARG, "condition has 4 entries, the axis has 3");
    expect_reject(&n, int_cond, 1, CC_ERR_ARG, "condition must be a 1-D bool tensor");
    attr_set_text(&n, "axis", "2");
    expect_reject(&n, long_cond, 1, CC_ERR_ARG, "axis 2 is outside [-2, 2)");
    cc_tensor_free(&x);
    cc_tensor_free(&c4);
    cc_tensor_free(&ci);
}

int main(void)
{
    test_nonzero();
    test_unique();
    test_nms();
    test_compress();
    CHECK(family_cases_check(cc_catalog_family("dynamic"), 5, 6, 7) > 0);
    return CC_TEST_RESULT();
}
