/* test_matmul.c — the matmul family: Gemm, MatMul, MatMulInteger and QLinearMatMul golden
 * values worked out by hand, transposes against explicitly transposed inputs, bias
 * broadcasting and batch broadcasting against index formulas written here, S and K on a
 * hand example, 1-D promotion shapes, rounding ties and saturation of the requantized
 * output, infer() rejections with their messages, cost() on known shapes, the generated
 * scales, and every generated case id. */
#include "op_test.h"
#include "ops/check.h"

#define cc_family_matmul (*cc_catalog_family("matmul"))

static cc_node node_of(const char *name) { return node_make(family_op(&cc_family_matmul, name), -1); }

/* Small integers in [-4, 4] from a fixed sequence (exact in every float dtype). */
static cc_tensor make_seq(cc_dtype dt, int rank, const int64_t *dims, int seed)
{
    cc_tensor t = tensor_of(dt, rank, dims, NULL);
    for (int64_t i = 0; i < cc_tensor_numel(&t); i++)
        cc_store(t.data, dt, (size_t)i, (double)((i * 7 + seed * 13 + 3) % 9 - 4));
    return t;
}

static void free_all(cc_tensor *t, int n)
{
    for (int i = 0; i < n; i++) cc_tensor_free(&t[i]);
}

/* ---- Gemm ----------------------------------------------------------------------------- */

static void test_gemm_hand(void)
{
    /* [[1,-2],[3,4]] @ [[5,6],[7,-8]] = [[-9,22],[43,-14]]; S = [[19,22],[43,50]] */
    cc_node n = node_of("Gemm");
    cc_tensor t[3];
    t[0] = tensor_of(CC_F32, 2, (const int64_t[]){ 2, 2 }, (const double[]){ 1, -2, 3, 4 });
    t[1] = tensor_of(CC_F32, 2, (const int64_t[]){ 2, 2 }, (const double[]){ 5, 6, 7, -8 });
    t[2] = tensor_of(CC_F32, 0, NULL, (const double[]){ 4 });
    const cc_tensor *in[3] = { &t[0], &t[1], NULL };
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK(golden_run(&n, in, 1, &out, &g, &e) == CC_OK);
    CHECK(out.dtype == CC_F32 && out.shape.rank == 2 && out.shape.dims[0] == 2 &&
          out.shape.dims[1] == 2);
    const double v0[] = { -9, 22, 43, -14 }, s0[] = { 19, 22, 43, 50 };
    for (int i = 0; i < 4; i++) {
        CHECK(g.value[i] == v0[i]);
        CHECK(g.mag[i] == s0[i]);
    }
    CHECK(g.k == 2);
    cc_golden_free(&g, 1);

    /* alpha = 2, beta = 0.5, c = 4: 2*v + 2; S = 2*S + 2; K = 2 + bias + alpha + beta */
    attr_set_f(&n, "alpha", 2.0);
    attr_set_f(&n, "beta", 0.5);
    in[2] = &t[2];
    CHECK(golden_run(&n, in, 1, &out, &g, &e) == CC_OK);
    for (int i = 0; i < 4; i++) {
        CHECK(g.value[i] == 2 * v0[i] + 2);
        CHECK(g.mag[i] == 2 * s0[i] + 2);
    }
    CHECK(g.k == 5);
    cc_golden_free(&g, 1);

    /* beta = 0: c drops out of the value (and of S) */
    attr_set_f(&n, "alpha", 1.0);
    attr_set_f(&n, "beta", 0.0);
    CHECK(golden_run(&n, in, 1, &out, &g, &e) == CC_OK);
    for (int i = 0; i < 4; i++) CHECK(g.value[i] == v0[i]);
    cc_golden_free(&g, 1);
    free_all(t, 3);
}

/* transA/transB on transposed inputs give the plain product (checked against a product
 * written here); every bias form broadcasts as an explicit index formula says. */
static void test_gemm_trans_and_bias(void)
{
    enum { M = 5, K = 7, N = 3 };
    cc_tensor a = make_seq(CC_F32, 2, (const int64_t[]){ M, K }, 1);
    cc_tensor b = make_seq(CC_F32, 2, (const int64_t[]){ K, N }, 2);
    cc_tensor at = tensor_of(CC_F32, 2, (const int64_t[]){ K, M }, NULL);
    cc_tensor bt = tensor_of(CC_F32, 2, (const int64_t[]){ N, K }, NULL);
    double want[M][N];
    for (int m = 0; m < M; m++)
        for (int k = 0; k < K; k++)
            cc_store(at.data, CC_F32, (size_t)(k * M + m),
                     cc_load(a.data, CC_F32, (size_t)(m * K + k)));
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++)
            cc_store(bt.data, CC_F32, (size_t)(n * K + k),
                     cc_load(b.data, CC_F32, (size_t)(k * N + n)));
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            want[m][n] = 0;
            for (int k = 0; k < K; k++)
                want[m][n] += cc_load(a.data, CC_F32, (size_t)(m * K + k)) *
                              cc_load(b.data, CC_F32, (size_t)(k * N + n));
        }
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++) {
            cc_node n = node_of("Gemm");
            attr_set_i(&n, "transA", ta);
            attr_set_i(&n, "transB", tb);
            const cc_tensor *in[3] = { ta ? &at : &a, tb ? &bt : &b, NULL };
            cc_tensor out;
            cc_golden g;
            cc_err e;
            CHECK(golden_run(&n, in, 1, &out, &g, &e) == CC_OK);
            CHECK(out.shape.dims[0] == M && out.shape.dims[1] == N);
            for (int m = 0; m < M; m++)
                for (int j = 0; j < N; j++) CHECK(g.value[m * N + j] == want[m][j]);
            cc_golden_free(&g, 1);
        }

    /* bias forms: shape of c and the formula of its element for output (m, n) */
    static const struct {
        int rank;
        int64_t dims[2];
    } forms[] = { { 0, { 0, 0 } }, { 1, { 1, 0 } }, { 1, { N, 0 } }, { 2, { 1, N } },
                  { 2, { M, 1 } }, { 2, { M, N } }, { 2, { 1, 1 } } };
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        cc_tensor c = tensor_of(CC_F32, forms[f].rank, forms[f].dims, NULL);
        int64_t cm = forms[f].rank == 2 ? forms[f].dims[0] : 1;
        int64_t cn = forms[f].rank == 2   ? forms[f].dims[1]
                     : forms[f].rank == 1 ? forms[f].dims[0]
                                          : 1;
        for (int64_t i = 0; i < cm * cn; i++)
            cc_store(c.data, CC_F32, (size_t)i, 100.0 * (double)(i + 1));
        cc_node n = node_of("Gemm");
        const cc_tensor *in[3] = { &a, &b, &c };
        cc_tensor out;
        cc_golden g;
        cc_err e;
        CHECK(golden_run(&n, in, 1, &out, &g, &e) == CC_OK);
        for (int m = 0; m < M; m++)
            for (int j = 0; j < N; j++) {
                double cv = 100.0 * (double)((cm == 1 ? 0 : m) * cn + (cn == 1 ? 0 : j) + 1);
                CHECK(g.value[m * N + j] == want[m][j] + cv);
            }
        CHECK(g.k == K + 1);
        cc_golden_free(&g, 1);
        cc_tensor_free(&c);
    }
    cc_tensor_free(&a);
    cc_tensor_free(&b);
    cc_tensor_free(&at);
    cc_tensor_free(&bt);
}

static void test_gemm_reject_and_cost(void)
{
    cc_node n = node_of("Gemm");
    cc_tensor a = tensor_of(CC_F32, 2, (const int64_t[]){ 2, 3 }, NULL);
    cc_tensor b = tensor_of(CC_F32, 2, (const int64_t[]){ 3, 4 }, NULL);
    cc_tensor b5 = tensor_of(CC_F32, 2, (const int64_t[]){ 5, 4 }, NULL);
    cc_tensor a3 = tensor_of(CC_F32, 3, (const int64_t[]){ 1, 2, 3 }, NULL);
    cc_tensor c31 = tensor_of(CC_F32, 2, (const int64_t[]){ 3, 1 }, NULL);
    cc_tensor c3 = tensor_of(CC_F32, 1, (const int64_t[]){ 3 }, NULL);
    cc_tensor bh = tensor_of(CC_F16, 2, (const int64_t[]){ 3, 4 }, NULL);
    cc_tensor ai = tensor_of(CC_I32, 2, (const int64_t[]){ 2, 3 }, NULL);
    cc_tensor bi = tensor_of(CC_I32, 2, (const int64_t[]){ 3, 4 }, NULL);
    cc_tensor au = tensor_of(CC_U8, 2, (const int64_t[]){ 2, 3 }, NULL);
    cc_tensor bu = tensor_of(CC_U8, 2, (const int64_t[]){ 3, 4 }, NULL);

    expect_reject(&n, (const cc_tensor *[]){ &a3, &b, NULL }, 1, CC_ERR_ARG,
                  "a must be 2-D, got rank 3");
    expect_reject(&n, (const cc_tensor *[]){ &a, &b5, NULL }, 1, CC_ERR_ARG,
                  "inner dimensions differ");
    expect_reject(&n, (const cc_tensor *[]){ &a, &b, &c31 }, 1, CC_ERR_ARG,
                  "c (3x1) does not broadcast to 2x4");
    expect_reject(&n, (const cc_tensor *[]){ &a, &b, &c3 }, 1, CC_ERR_ARG, "does not broadcast");
    expect_reject(&n, (const cc_tensor *[]){ &a, &bh, NULL }, 1, CC_ERR_ARG, "b is f16 but a is f32");
    expect_reject(&n, (const cc_tensor *[]){ &ai, &bi, NULL }, 1, CC_ERR_UNSUPPORTED, "i32");
    expect_reject(&n, (const cc_tensor *[]){ &au, &bu, NULL }, 1, CC_ERR_ARG, "u8 is not allowed");
    expect_reject(&n, (const cc_tensor *[]){ NULL, &b, NULL }, 1, CC_ERR_ARG, "required");
    attr_set_i(&n, "transA", 2);
    expect_reject(&n, (const cc_tensor *[]){ &a, &b, NULL }, 1, CC_ERR_ARG,
                  "transA must be 0 or 1, got 2");
    attr_set_i(&n, "transA", 1); /* op(a) is then 3x2: K = 2 against b's 3 */
    expect_reject(&n, (const cc_tensor *[]){ &a, &b, NULL }, 1, CC_ERR_ARG,
                  "op(a) has K=2, op(b) has K=3");

    /* ResNet50's classifier: 1x2048 @ (1000x2048)^T + [1000] */
    cc_node fc = node_of("Gemm");
    attr_set_i(&fc, "transB", 1);
    cc_tensor x = { CC_F32, cc_shape_make(2, (const int64_t[]){ 1, 2048 }), NULL };
    cc_tensor w = { CC_F32, cc_shape_make(2, (const int64_t[]){ 1000, 2048 }), NULL };
    cc_tensor bias = { CC_F32, cc_shape_make(1, (const int64_t[]){ 1000 }), NULL };
    const cc_tensor *in[3] = { &x, &w, &bias };
    cc_tensor out;
    cc_err e;
    CHECK(fc.op->infer(&fc, in, 1, &out, &e) == CC_OK);
    CHECK(out.shape.rank == 2 && out.shape.dims[0] == 1 && out.shape.dims[1] == 1000);
    double flops, bytes;
    fc.op->cost(&fc, in, 1, &out, &flops, &bytes);
    CHECK(flops == 2.0 * 2048 * 1000 + 2.0 * 1000);
    CHECK(bytes == 4.0 * (2048 + 2048 * 1000 + 1000 + 1000));

    cc_tensor all[] = { a, b, b5, a3, c31, c3, bh, ai, bi, au, bu };
    free_all(all, (int)(sizeof all / sizeof all[0]));
}

/* ---- MatMul --------------------------------------------------------------------------- */

static void test_matmul_shapes(void)
{
    static const struct {
        int ra;
        int64_t a[4];
        int rb;
        int64_t b[4];
        int ro;
        int64_t o[4];
    } rows[] = {
        { 1, { 8 }, 2, { 8, 5 }, 1, { 5 } },
        { 2, { 4, 8 }, 1, { 8 }, 1, { 4 } },
        { 1, { 8 }, 1, { 8 }, 0, { 0 } },
        { 4, { 2, 1, 3, 4 }, 3, { 5, 4, 6 }, 4, { 2, 5, 3, 6 } },
        { 1, { 8 }, 3, { 3, 8, 5 }, 2, { 3, 5 } },
        { 3, { 3, 4, 8 }, 1, { 8 }, 2, { 3, 4 } },
        { 2, { 6, 8 }, 3, { 2, 8, 5 }, 3, { 2, 6, 5 } },
        { 4, { 3, 1, 4, 8 }, 4, { 1, 5, 8, 2 }, 4, { 3, 5, 4, 2 } },
    };
    cc_node n = node_of("MatMul");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        cc_tensor a = { CC_F16, cc_shape_make(rows[r].ra, rows[r].a), NULL };
        cc_tensor b = { CC_F16, cc_shape_make(rows[r].rb, rows[r].b), NULL };
        const cc_tensor *in[2] = { &a, &b };
        cc_tensor out;
        cc_err e;
        CHECK(n.op->infer(&n, in, 1, &out, &e) == CC_OK);
        cc_shape want = cc_shape_make(rows[r].ro, rows[r].o);
        CHECK(cc_shape_equal(&out.shape, &want));
        CHECK(out.dtype == CC_F16);
    }

    /* 2x1x3x4 @ 5x4x6: 2*5 products of 3x4 by 4x6 */
    cc_tensor a = { CC_F32, cc_shape_make(4, (const int64_t[]){ 2, 1, 3, 4 }), NULL };
    cc_tensor b = { CC_F32, cc_shape_make(3, (const int64_t[]){ 5, 4, 6 }), NULL };
    const cc_tensor *in[2] = { &a, &b };
    cc_tensor out;
    cc_err e;
    CHECK(n.op->infer(&n, in, 1, &out, &e) == CC_OK);
    double flops, bytes;
    n.op->cost(&n, in, 1, &out, &flops, &bytes);
    CHECK(flops == 2.0 * 10 * 3 * 6 * 4);
    CHECK(bytes == 4.0 * (24 + 120 + 180));
}

static void test_matmul_values(void)
{
    cc_node n = node_of("MatMul");
    cc_tensor out;
    cc_golden g;
    cc_err e;
    /* [1,2,3] @ [[1,0],[0,1],[1,1]] = [4,5] */
    cc_tensor v = tensor_of(CC_F32, 1, (const int64_t[]){ 3 }, (const double[]){ 1, 2, 3 });
    cc_tensor m = tensor_of(CC_F32, 2, (const int64_t[]){ 3, 2 }, (const double[]){ 1, 0, 0, 1, 1, 1 });
    CHECK(golden_run(&n, (const cc_tensor *[]){ &v, &m }, 1, &out, &g, &e) == CC_OK);
    CHECK(out.shape.rank == 1 && out.shape.dims[0] == 2);
    CHECK(g.value[0] == 4 && g.value[1] == 5 && g.k == 3);
    cc_golden_free(&g, 1);
    /* [[1,2,3],[4,5,-6]] @ [1,2,3] = [14, -4], S = [14, 32] */
    cc_tensor m2 =
        tensor_of(CC_BF16, 2, (const int64_t[]){ 2, 3 }, (const double[]){ 1, 2, 3, 4, 5, -6 });
    cc_tensor v2 = tensor_of(CC_BF16, 1, (const int64_t[]){ 3 }, (const double[]){ 1, 2, 3 });
    CHECK(golden_run(&n, (const cc_tensor *[]){ &m2, &v2 }, 1, &out, &g, &e) == CC_OK);
    CHECK(out.shape.rank == 1 && out.dtype == CC_BF16);
    CHECK(g.value[0] == 14 && g.value[1] == -4 && g.mag[0] == 14 && g.mag[1] == 32);
    cc_golden_free(&g, 1);
    /* dot product: [1,2,3] . [4,5,6] = 32, a scalar */
    cc_tensor w = tensor_of(CC_F32, 1, (const int64_t[]){ 3 }, (const double[]){ 4, 5, 6 });
    CHECK(golden_run(&n, (const cc_tensor *[]){ &v, &w }, 1, &out, &g, &e) == CC_OK);
    CHECK(out.shape.rank == 0 && g.value[0] == 32);
    cc_golden_free(&g, 1);

    /* batch broadcast 2x1x3x4 @ 5x4x6 against out[i,j,m,n] = sum_k a[i,0,m,k] b[j,k,n] */
    cc_tensor a = make_seq(CC_F32, 4, (const int64_t[]){ 2, 1, 3, 4 }, 3);
    cc_tensor b = make_seq(CC_F32, 3, (const int64_t[]){ 5, 4, 6 }, 4);
    CHECK(golden_run(&n, (const cc_tensor *[]){ &a, &b }, 1, &out, &g, &e) == CC_OK);
    int bad = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 5; j++)
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 6; c++) {
                    double s = 0;
                    for (int k = 0; k < 4; k++)
                        s += cc_load(a.data, CC_F32, (size_t)((i * 3 + r) * 4 + k)) *
                             cc_load(b.data, CC_F32, (size_t)((j * 4 + k) * 6 + c));
                    bad += g.value[((i * 5 + j) * 3 + r) * 6 + c] != s;
                }
    CHECK(bad == 0);
    cc_golden_free(&g, 1);

    /* 1-D @ batched: [k] @ [3,k,n] -> [3,n], row r of each batch */
    cc_tensor bb = make_seq(CC_F32, 3, (const int64_t[]){ 3, 3, 2 }, 5);
    CHECK(golden_run(&n, (const cc_tensor *[]){ &v, &bb }, 1, &out, &g, &e) == CC_OK);
    CHECK(out.shape.rank == 2 && out.shape.dims[0] == 3 && out.shape.dims[1] == 2);
    bad = 0;
    for (int t = 0; t < 3; t++)
        for (int c = 0; c < 2; c++) {
            double s = 0;
            for (int k = 0; k < 3; k++)
                s += (k + 1) * cc_load(bb.data, CC_F32, (size_t)((t * 3 + k) * 2 + c));
            bad += g.value[t * 2 + c] != s;
        }
    CHECK(bad == 0);
    cc_golden_free(&g, 1);

    cc_tensor all[] = { v, m, m2, v2, w, a, b, bb };
    free_all(all, (int)(sizeof all / sizeof all[0]));
}

static void test_matmul_reject(void)
{
    cc_node n = node_of("MatMul");
    cc_tensor s = { CC_F32, cc_shape_make(0, NULL), NULL };
    cc_tensor a = { CC_F32, cc_shape_make(3, (const int64_t[]){ 2, 3, 4 }), NULL };
    cc_tensor b = { CC_F32, cc_shape_make(3, (const int64_t[]){ 3, 4, 5 }), NULL };
    cc_tensor b2 = { CC_F32, cc_shape_make(2, (const int64_t[]){ 5, 5 }), NULL };
    cc_tensor bh = { CC_F16, cc_shape_make(2, (const int64_t[]){ 4, 5 }), NULL };
    cc_tensor bi = { CC_I64, cc_shape_make(2, (const int64_t[]){ 4, 5 }), NULL };
    expect_reject(&n, (const cc_tensor *[]){ &s, &b }, 1, CC_ERR_ARG, "a must have rank >= 1");
    expect_reject(&n, (const cc_tensor *[]){ &a, &s }, 1, CC_ERR_ARG, "b must have rank >= 1");
    expect_reject(&n, (const cc_tensor *[]){ &a, &b }, 1, CC_ERR_ARG,
                  "batch dimensions do not broadcast: a is 2x3x4, b is 3x4x5");
    expect_reject(&n, (const cc_tensor *[]){ &a, &b2 }, 1, CC_ERR_ARG,
                  "inner dimensions differ: a is 2x3x4 (K=4), b is 5x5 (K=5)");
    expect_reject(&n, (const cc_tensor *[]){ &a, &bh }, 1, CC_ERR_ARG, "b is f16 but a is f32");
    cc_tensor ai = { CC_I64, cc_shape_make(2, (const int64_t[]){ 3, 4 }), NULL };
    expect_reject(&n, (const cc_tensor *[]){ &ai, &bi }, 1, CC_ERR_UNSUPPORTED, "not implemented");
    cc_tensor big = { CC_F32, cc_shape_make(2, (const int64_t[]){ (int64_t)1 << 30, 1 }), NULL };
    cc_tensor wide = { CC_F32, cc_shape_make(2, (const int64_t[]){ 1, (int64_t)1 << 30 }), NULL };
    expect_reject(&n, (const cc_tensor *[]){ &big, &wide }, 1, CC_ERR_ARG, "output");
}

/* ---- MatMulInteger ------------------------------------------------------------------- */

static void test_matmulinteger(void)
{
    cc_node n = node_of("MatMulInteger");
    cc_tensor out;
    cc_golden g;
    cc_err e;
    /* a - 10 = [[0,10],[20,30]]; b - [1,2] per column = [[0,0],[2,2]] -> [[20,20],[60,60]] */
    cc_tensor a = tensor_of(CC_U8, 2, (const int64_t[]){ 2, 2 }, (const double[]){ 10, 20, 30, 40 });
    cc_tensor b = tensor_of(CC_U8, 2, (const int64_t[]){ 2, 2 }, (const double[]){ 1, 2, 3, 4 });
    cc_tensor azp = tensor_of(CC_U8, 0, NULL, (const double[]){ 10 });
    cc_tensor bzp = tensor_of(CC_U8, 1, (const int64_t[]){ 2 }, (const double[]){ 1, 2 });
    CHECK(golden_run(&n, (const cc_tensor *[]){ &a, &b, &azp, &bzp }, 1, &out, &g, &e) == CC_OK);
    CHECK(out.dtype == CC_I32 && out.shape.rank == 2);
    CHECK(g.value[0] == 20 && g.value[1] == 20 && g.value[2] == 60 && g.value[3] == 60);
    CHECK(g.mag[0] == 0 && g.k == 2);
    cc_golden_free(&g, 1);
    /* per-row a zero point [10, 30]: a - zp = [[0,10],[0,10]] -> all 20 */
    cc_tensor azr = tensor_of(CC_U8, 1, (const int64_t[]){ 2 }, (const double[]){ 10, 30 });
    CHECK(golden_run(&n, (const cc_tensor *[]){ &a, &b, &azr, &bzp }, 1, &out, &g, &e) == CC_OK);
    CHECK(g.value[0] == 20 && g.value[1] == 20 && g.value[2] == 20 && g.value[3] == 20);
    cc_golden_free(&g, 1);
    /* no zero points: [[10,20],[30,40]] @ [[1,2],[3,4]] = [[70,100],[150,220]] */
    CHECK(golden_run(&n, (const cc_tensor *[]){ &a, &b, NULL, NULL }, 1, &out, &g, &e) == CC_OK);
    CHECK(g.value[0] == 70 && g.value[1] == 100 && g.value[2] == 150 && g.value[3] == 220);
    cc_golden_free(&g, 1);
    /* u8 x i8: [[1,2],[3,4]] @ ([[-1,2],[3,-4]] - (-1)) = [[1,2],[3,4]] @ [[0,3],[4,-3]] */
    cc_tensor a2 = tensor_of(CC_U8, 2, (const int64_t[]){ 2, 2 }, (const double[]){ 1, 2, 3, 4 });
    cc_tensor b2 = tensor_of(CC_I8, 2, (const int64_t[]){ 2, 2 }, (const double[]){ -1, 2, 3, -4 });
    cc_tensor bz2 = tensor_of(CC_I8, 0, NULL, (const double[]){ -1 });
    CHECK(golden_run(&n, (const cc_tensor *[]){ &a2, &b2, NULL, &bz2 }, 1, &out, &g, &e) == CC_OK);
    CHECK(g.value[0] == 8 && g.value[1] == -3 && g.value[2] == 16 && g.value[3] == -3);
    cc_golden_free(&g, 1);
    /* extremes: (0 - 255) * (-128 - 127) * 3 = 195075 */
    cc_tensor a3 = tensor_of(CC_U8, 2, (const int64_t[]){ 1, 3 }, (const double[]){ 0, 0, 0 });
    cc_tensor az3 = tensor_of(CC_U8, 0, NULL, (const double[]){ 255 });
    cc_tensor b3 = tensor_of(CC_I8, 2, (const int64_t[]){ 3, 1 }, (const double[]){ -128, -128, -128 });
    cc_tensor bz3 = tensor_of(CC_I8, 0, NULL, (const double[]){ 127 });
    CHECK(golden_run(&n, (const cc_tensor *[]){ &a3, &b3, &az3, &bz3 }, 1, &out, &g, &e) == CC_OK);
    CHECK(g.value[0] == 195075);
    cc_golden_free(&g, 1);

    /* N-D zero points: a 2x3x4, zp [2,3,1] per row; b 2x4x5, zp [2,1,5] per column */
    cc_tensor an = make_seq(CC_I8, 3, (const int64_t[]){ 2, 3, 4 }, 1);
    cc_tensor bn = make_seq(CC_I8, 3, (const int64_t[]){ 2, 4, 5 }, 2);
    cc_tensor azn =
        tensor_of(CC_I8, 3, (const int64_t[]){ 2, 3, 1 }, (const double[]){ 1, -2, 3, 0, 4, -1 });
    cc_tensor bzn = tensor_of(CC_I8, 3, (const int64_t[]){ 2, 1, 5 },
                         (const double[]){ 1, 2, 3, 4, 5, -1, -2, -3, -4, -5 });
    CHECK(golden_run(&n, (const cc_tensor *[]){ &an, &bn, &azn, &bzn }, 1, &out, &g, &e) == CC_OK);
    int bad = 0;
    for (int t = 0; t < 2; t++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 5; c++) {
                double s = 0;
                for (int k = 0; k < 4; k++)
                    s += (cc_load(an.data, CC_I8, (size_t)((t * 3 + r) * 4 + k)) -
                          cc_load(azn.data, CC_I8, (size_t)(t * 3 + r))) *
                         (cc_load(bn.data, CC_I8, (size_t)((t * 4 + k) * 5 + c)) -
                          cc_load(bzn.data, CC_I8, (size_t)(t * 5 + c)));
                bad += g.value[(t * 3 + r) * 5 + c] != s;
            }
    CHECK(bad == 0);
    cc_golden_free(&g, 1);

    /* rejections */
    cc_tensor af = tensor_of(CC_F32, 2, (const int64_t[]){ 2, 2 }, NULL);
    cc_tensor az8 = tensor_of(CC_I8, 0, NULL, (const double[]){ 0 });
    cc_tensor az3v = tensor_of(CC_U8, 1, (const int64_t[]){ 3 }, NULL);
    expect_reject(&n, (const cc_tensor *[]){ &af, &b, NULL, NULL }, 1, CC_ERR_ARG,
                  "a must be u8 or i8, got f32");
    expect_reject(&n, (const cc_tensor *[]){ &a, &af, NULL, NULL }, 1, CC_ERR_ARG,
                  "b must be u8 or i8, got f32");
    expect_reject(&n, (const cc_tensor *[]){ &a, &b, &az8, NULL }, 1, CC_ERR_ARG,
                  "a_zero_point is i8 but a is u8");
    expect_reject(&n, (const cc_tensor *[]){ &a, &b, &az3v, NULL }, 1, CC_ERR_ARG,
                  "a_zero_point must be a scalar");
    expect_reject(&n, (const cc_tensor *[]){ &a, &b, NULL, &az3v }, 1, CC_ERR_ARG,
                  "b_zero_point must be a scalar");
    expect_reject(&n, (const cc_tensor *[]){ &an, &bn, &bzn, NULL }, 1, CC_ERR_ARG, "got 2x1x5");

    cc_tensor all[] = { a,  b,   azp, bzp, azr, a2,  b2, bz2, a3,  az3,
                        b3, bz3, an,  bn,  azn, bzn, af, az8, az3v };
    free_all(all, (int)(sizeof all / sizeof all[0]));
}

/* ---- QLinearMatMul ------------------------------------------------------------------- */

/* Runs QLinearMatMul with per-tensor parameters (b's may be per column: nb values). */
static void qlmm(cc_dtype ta, int m, int k, const double *av, double as, double azp, cc_dtype tb,
                 int nn, const double *bv, int nb, const double *bs, const double *bzp, double ys,
                 double yzp, cc_dtype ty, const double *want)
{
    cc_node n = node_of("QLinearMatMul");
    cc_tensor t[8];
    t[0] = tensor_of(ta, 2, (const int64_t[]){ m, k }, av);
    t[1] = tensor_of(CC_F32, 0, NULL, &as);
    t[2] = tensor_of(ta, 0, NULL, &azp);
    t[3] = tensor_of(tb, 2, (const int64_t[]){ k, nn }, bv);
    t[4] = tensor_of(CC_F32, nb > 1, (const int64_t[]){ nb }, bs);
    t[5] = tensor_of(tb, nb > 1, (const int64_t[]){ nb }, bzp);
    t[6] = tensor_of(CC_F32, 0, NULL, &ys);
    t[7] = tensor_of(ty, 0, NULL, &yzp);
    const cc_tensor *in[8];
    for (int i = 0; i < 8; i++) in[i] = &t[i];
    cc_tensor out;
    cc_golden g;
    cc_err e;
    CHECK(golden_run(&n, in, 1, &out, &g, &e) == CC_OK);
    CHECK(out.dtype == ty);
    for (int i = 0; i < m * nn; i++) {
        CHECK(g.value[i] == want[i]);
        if (g.value[i] != want[i])
            fprintf(stderr, "  element %d: %g, want %g\n", i, g.value[i], want[i]);
    }
    cc_golden_free(&g, 1);
    free_all(t, 8);
}

static void test_qlinearmatmul(void)
{
    /* real a = 0.5*([130,126]-128) = [1,-1]; real b = 0.25*([132,124]-128) = [1,-1];
     * a.b = 2; in integers acc = 2*4 + (-2)(-4) = 16, multiplier 0.125 / y_scale */
    qlmm(CC_U8, 1, 2, (const double[]){ 130, 126 }, 0.5, 128, CC_U8, 1,
         (const double[]){ 132, 124 }, 1, (const double[]){ 0.25 }, (const double[]){ 128 }, 1.0,
         100, CC_U8, (const double[]){ 102 });
    /* ties, multiplier exactly 1/2:
     * 3/2 -> 2, 5/2 -> 2, -5/2 -> -2, 7/2 -> 4, -7/2 -> -4, 1/2 -> 0 */
    qlmm(CC_I8, 6, 1, (const double[]){ 3, 5, -5, 7, -7, 1 }, 1.0, 0, CC_I8, 1,
         (const double[]){ 1 }, 1, (const double[]){ 1.0 }, (const double[]){ 0 }, 2.0, 0, CC_I8,
         (const double[]){ 2, 2, -2, 4, -4, 0 });
    /* the same ties with y_zero_point 10 added after rounding */
    qlmm(CC_I8, 6, 1, (const double[]){ 3, 5, -5, 7, -7, 1 }, 1.0, 0, CC_I8, 1,
         (const double[]){ 1 }, 1, (const double[]){ 1.0 }, (const double[]){ 0 }, 2.0, 10, CC_I8,
         (const double[]){ 12, 12, 8, 14, 6, 10 });
    /* saturation: 127*127 -> 127, -128*127 -> -128 (i8); u8 output: negative -> 0, big -> 255 */
    qlmm(CC_I8, 2, 1, (const double[]){ 127, -128 }, 1.0, 0, CC_I8, 1, (const double[]){ 127 }, 1,
         (const double[]){ 1.0 }, (const double[]){ 0 }, 1.0, 0, CC_I8,
         (const double[]){ 127, -128 });
    qlmm(CC_I8, 2, 1, (const double[]){ 127, -128 }, 1.0, 0, CC_I8, 1, (const double[]){ 127 }, 1,
         (const double[]){ 1.0 }, (const double[]){ 0 }, 1.0, 0, CC_U8, (const double[]){ 255, 0 });
    /* per-column b scale and zero point:
     * a = [3], b = [[2, 7]] - [0, 5], scales [1, 0.5] -> [6, 3] */
    qlmm(CC_U8, 1, 1, (const double[]){ 3 }, 1.0, 0, CC_I8, 2, (const double[]){ 2, 7 }, 2,
         (const double[]){ 1.0, 0.5 }, (const double[]){ 0, 5 }, 1.0, 0, CC_U8,
         (const double[]){ 6, 3 });

    /* rejections */
    cc_node n = node_of("QLinearMatMul");
    cc_tensor a = tensor_of(CC_U8, 2, (const int64_t[]){ 2, 3 }, NULL),
              b = tensor_of(CC_U8, 2, (const int64_t[]){ 3, 4 }, NULL);
    cc_tensor s = tensor_of(CC_F32, 0, NULL, (const double[]){ 0.5 }), z = tensor_of(CC_U8, 0, NULL, NULL);
    cc_tensor s16 = tensor_of(CC_F16, 0, NULL, (const double[]){ 0.5 }),
              s0 = tensor_of(CC_F32, 0, NULL, (const double[]){ 0 });
    cc_tensor s4 = tensor_of(CC_F32, 1, (const int64_t[]){ 4 }, (const double[]){ 1, 1, 1, 1 });
    cc_tensor s5 = tensor_of(CC_F32, 1, (const int64_t[]){ 5 }, (const double[]){ 1, 1, 1, 1, 1 });
    cc_tensor z5 = tensor_of(CC_U8, 1, (const int64_t[]){ 5 }, NULL), zf = tensor_of(CC_F32, 0, NULL, NULL);
    expect_reject(&n, (const cc_tensor *[]){ &a, &s16, &z, &b, &s, &z, &s, &z }, 1, CC_ERR_ARG,
                  "a_scale must be f32, got f16");
    expect_reject(&n, (const cc_tensor *[]){ &a, &s, &z, &b, &s4, &z, &s, &z }, 1, CC_ERR_ARG,
                  "must have the same shape");
    expect_reject(&n, (const cc_tensor *[]){ &a, &s, &z, &b, &s5, &z5, &s, &z }, 1, CC_ERR_ARG,
                  "b_zero_point must be a scalar");
    expect_reject(&n, (const cc_tensor *[]){ &a, &s, &z, &b, &s, &z, &s4, &z }, 1, CC_ERR_ARG,
                  "y_scale");
    expect_reject(&n, (const cc_tensor *[]){ &a, &s, &z, &b, &s, &z, &s0, &z }, 1, CC_ERR_ARG,
                  "y_scale must be positive");
    expect_reject(&n, (const cc_tensor *[]){ &a, &s, &z, &b, &s, &z, &s, &zf }, 1, CC_ERR_ARG,
                  "y_zero_point must be u8 or i8");
    expect_reject(&n, (const cc_tensor *[]){ &zf, &s, &z, &b, &s, &z, &s, &z }, 1, CC_ERR_ARG,
                  "a must be u8 or i8");
    attr_set_i(&n, "per_column", 3);
    expect_reject(&n, (const cc_tensor *[]){ &a, &s, &z, &b, &s, &z, &s, &z }, 1, CC_ERR_ARG,
                  "per_column must be 0 or 1");
    cc_tensor all[] = { a, b, s, z, s16, s0, s4, s5, z5, zf };
    free_all(all, (int)(sizeof all / sizeof all[0]));
}

/* gen(): the output is not mostly saturated; in the exact regime the multiplier is a
 * power of two; per_column makes [N] parameters; `to` picks the output dtype. */
static void test_qlinearmatmul_gen(void)
{
    static const char *const ids[] = {
        "QLinearMatMul(a=8x256:u8,b=256x32:i8,per_column=1)",
        "QLinearMatMul(a=4x64:i8,b=64x16:i8,to=u8)",
        "QLinearMatMul(a=2x3x32:u8,b=2x32x8:u8,per_column=1)",
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        for (int exact = 0; exact < 2; exact++) {
            cc_case_inst inst;
            cc_golden g[1];
            if (!case_golden_of(ids[i], 11, exact, &inst, g)) continue;
            cc_dtype ty = inst.inputs[7].dtype;
            CHECK(ty == (i == 1 ? CC_U8 : inst.inputs[0].dtype));
            int64_t n = cc_shape_numel(&g[0].shape), sat = 0, distinct_lo = 0, distinct_hi = 0;
            for (int64_t k = 0; k < n; k++) {
                sat += g[0].value[k] == cc_dtype_min(ty) || g[0].value[k] == cc_dtype_max(ty);
                distinct_lo += g[0].value[k] < cc_load(inst.inputs[7].data, ty, 0) - 8;
                distinct_hi += g[0].value[k] > cc_load(inst.inputs[7].data, ty, 0) + 8;
            }
            CHECK(sat * 20 < n);                             /* under 5% saturated */
            CHECK(distinct_lo > 0 && distinct_hi > 0);       /* and spread around the zero point */
            static const int64_t n_bscale[] = { 32, 1, 16 }; /* [N], scalar, [2,1,N] */
            CHECK(cc_shape_numel(&inst.inputs[4].shape) == n_bscale[i]);
            CHECK(cc_shape_equal(&inst.inputs[4].shape, &inst.inputs[5].shape));
            if (exact) {
                double mult = cc_load(inst.inputs[1].data, CC_F32, 0) *
                              cc_load(inst.inputs[4].data, CC_F32, 0) /
                              cc_load(inst.inputs[6].data, CC_F32, 0);
                int ex;
                CHECK(frexp(mult, &ex) == 0.5);
            }
            cc_golden_free(g, 1);
            cc_case_inst_free(&inst);
        }
}

/* ---- every generated case ----------------------------------------------------------- */

static void test_cases(void)
{
    family_cases_check(&cc_family_matmul, 3, 8, 25);
    /* canonical ids keep what matters */
    cc_case c;
    cc_err e;
    expect_canonical("Gemm(a=1x2048:f32,b=1000x2048,c=1000,transB=1)",
                     "Gemm(a=1x2048:f32,b=1000x2048,c=1000,transB=1)");
    expect_canonical("MatMul(a=2x1x3x4:bf16,b=5x4x6)",
                     "MatMul(a=2x1x3x4:bf16,b=5x4x6)");
    CHECK(cc_case_parse("MatMul(a=2x3x4:f32,b=3x4x5)", &c, &e) == CC_ERR_ARG);
}

/* Empty outputs (found by run --random): the generator makes a positive, finite y_scale
 * even where b has no column and per-column b_scale has no element, and the golden runs. */
static void test_qlinearmatmul_empty(void)
{
    const char *ids[] = { "QLinearMatMul(a=16:i8,b=16x0:u8,per_column=1)",
                          "QLinearMatMul(a=0x7:i8,b=7x0:u8,per_column=1,to=u8)" };
    for (int k = 0; k < 2; k++)
        for (int exact = 0; exact < 2; exact++) {
            cc_case c;
            cc_case_inst inst;
            cc_golden g[1];
            cc_err e = { 0 };
            CHECK(cc_case_parse(ids[k], &c, &e) == CC_OK);
            CHECK(cc_case_instantiate(&c, 3, exact, &inst, &e) == CC_OK);
            double ys = cc_load(inst.inputs[6].data, CC_F32, 0);
            CHECK(ys > 0 && isfinite(ys));
            CHECK(cc_case_golden(&inst, g, &e) == CC_OK);
            cc_golden_free(g, 1);
            cc_case_inst_free(&inst);
        }
}

/* x rounded to nearest (ties to even) with `bits` significand bits: TF32 keeps 11 (10 stored),
 * bf16 8; computed in double, exact for the f32 values used here */
static double round_bits(double x, int bits)
{
    if (x == 0) return 0;
    int e;
    frexp(x, &e);
    double q = ldexp(1.0, e - bits);
    return nearbyint(x / q) * q;
}

/* A device whose FP32 contractions round inputs to TF32 (cuda:tf32) is judged with TF32's
 * input rounding added to FP32's bound: a product of TF32-rounded inputs accumulated in f32
 * fails the FP32 bound (about 25x over it here) and passes the TF32 one; inputs rounded to
 * 5 bits fail both; an op that is not a contraction keeps FP32's bound on such a device. */
static void test_tf32_bound(void)
{
    const char *ids[] = { "MatMul(a=16x64:f32,b=64x8)", "Relu(x=16x64:f32)" };
    for (int i = 0; i < 2; i++) {
        cc_case c;
        cc_case_inst inst;
        cc_golden gold[CC_MAX_IO];
        cc_err err = { 0 };
        CHECK(cc_case_parse(ids[i], &c, &err) == CC_OK);
        CHECK(cc_case_instantiate(&c, 7, 0, &inst, &err) == CC_OK);
        CHECK(cc_case_golden(&inst, gold, &err) == CC_OK);
        const cc_tensor *in[CC_MAX_IO];
        cc_case_inst_inputs(&inst, in);
        cc_tensor y;
        CHECK(cc_tensor_alloc(&y, CC_F32, &gold[0].shape, &err) == CC_OK);
        float *py = y.data;
        const float *a = in[0]->data;
        for (int bits = 11; bits >= 5; bits -= 6) {
            if (i == 0) { /* y = round(a) round(b), accumulated in f32 */
                const float *b = in[1]->data;
                for (int r = 0; r < 16; r++)
                    for (int n = 0; n < 8; n++) {
                        float acc = 0;
                        for (int k = 0; k < 64; k++)
                            acc += (float)(round_bits(a[r * 64 + k], bits) * round_bits(b[k * 8 + n], bits));
                        py[r * 8 + n] = acc;
                    }
            } else { /* Relu of a TF32-rounded input: not what a correct Relu gives */
                for (int k = 0; k < 16 * 64; k++) py[k] = (float)fmax(0, round_bits(a[k], bits));
            }
            cc_metrics m;
            char why[256];
            cc_verdict fp32 = cc_check_outputs(&c, 0, 1, gold, &y, &m, why, sizeof why);
            cc_verdict tf32 = cc_check_outputs_on(&c, 0, 1, gold, &y, 11, &m, why, sizeof why);
            CHECK(fp32 == CC_FAILED);
            CHECK(tf32 == (i == 0 && bits == 11 ? CC_PASSED : CC_FAILED));
            if (i == 0 && bits == 5) CHECK(strstr(why, "for TF32 inputs") != NULL);
        }
        cc_tensor_free(&y);
        cc_golden_free(gold, inst.n_out);
        cc_case_inst_free(&inst);
    }
}

int main(void)
{
    test_tf32_bound();
    test_qlinearmatmul_empty();
    test_gemm_hand();
    test_gemm_trans_and_bias();
    test_gemm_reject_and_cost();
    test_matmul_shapes();
    test_matmul_values();
    test_matmul_reject();
    test_matmulinteger();
    test_qlinearmatmul();
    test_qlinearmatmul_gen();
    test_cases();
    return CC_TEST_RESULT();
}
