/* test_matmul_einsum.c — Einsum against values worked out by hand: a matrix product with
 * its S and K (K = P + N - 2: P summed products of N operands), batches through an
 * ellipsis broadcast from 1, a transpose, a trace and diagonals, inner and outer products,
 * a reduction to a scalar, a chain of three operands, a scalar operand, the implicit
 * output (the letters seen once, alphabetically, upper case first), spaces, integers
 * wrapping as numpy's do; the rejections of malformed equations and operands; the sweep. */
#include "op_test.h"

static const cc_op_def *einsum_op(void) { return family_op(cc_catalog_family("matmul"), "Einsum"); }

static cc_node einsum_node(const char *equation, int n_in)
{
    cc_node n = node_make(einsum_op(), n_in);
    attr_set_s(&n, "equation", equation);
    return n;
}

/* The golden output of equation on in[0..n_in) is want (cnt values) with S want_s (when
 * non-NULL) and K want_k, and has out_rank dims. */
static void expect(const char *equation, const cc_tensor *const *in, int n_in, int out_rank, const double *want,
                   const double *want_s, int cnt, double want_k)
{
    cc_node n = einsum_node(equation, n_in);
    cc_tensor out;
    cc_err e = { 0 };
    memset(&out, 0, sizeof out);
    CHECK(einsum_op()->infer(&n, in, 1, &out, &e) == CC_OK && out.shape.rank == out_rank);
    golden_expect(&n, in, in[0]->dtype, want, want_s, cnt, want_k, 0);
    if (out.shape.rank != out_rank) fprintf(stderr, "  %s: output rank %d, want %d\n", equation, out.shape.rank, out_rank);
}

static void reject(const char *equation, const cc_tensor *const *in, int n_in, const char *part)
{
    cc_node n = einsum_node(equation, n_in);
    expect_reject(&n, in, 1, CC_ERR_ARG, part);
}

int main(void)
{
    /* [[1,-2],[3,4]] @ [[5,6],[7,-8]] = [[-9,22],[43,-14]]; S = [[5+14,6+16],[15+28,18+32]];
     * K = 2 + 2 - 2 */
    cc_tensor a = tensor_of(CC_F32, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, -2, 3, 4 });
    cc_tensor b = tensor_of(CC_F32, 2, (int64_t[]){ 2, 2 }, (double[]){ 5, 6, 7, -8 });
    const cc_tensor *ab[2] = { &a, &b };
    expect("ij,jk->ik", ab, 2, 2, (double[]){ -9, 22, 43, -14 }, (double[]){ 19, 22, 43, 50 }, 4, 2);
    /* implicit: j appears twice, i and k once: ik */
    expect("ij,jk", ab, 2, 2, (double[]){ -9, 22, 43, -14 }, NULL, 4, 2);
    /* b's transpose: sum_j a_ij b_kj = [[5-12, 7+16], [15+24, 21-32]] */
    expect("ij,kj->ik", ab, 2, 2, (double[]){ -7, 23, 39, -11 }, NULL, 4, 2);
    /* the trace of a @ b: -9 + -14; S = 19 + 50; P = 4 products of 2 operands: K = 4 */
    expect("ij,ji->", ab, 2, 0, (double[]){ -23 }, (double[]){ 69 }, 1, 4);
    /* elementwise: [5, -12, 21, -32]; nothing summed: K = 1 + 2 - 2 */
    expect("ij,ij->ij", ab, 2, 2, (double[]){ 5, -12, 21, -32 }, (double[]){ 5, 12, 21, 32 }, 4, 1);

    /* one operand: transpose, trace, sums (K = P + 1 - 2, at least 1) */
    cc_tensor m = tensor_of(CC_F32, 2, (int64_t[]){ 2, 3 }, (double[]){ 1, 2, 3, 4, 5, 6 });
    const cc_tensor *in_m[1] = { &m };
    expect("ij->ji", in_m, 1, 2, (double[]){ 1, 4, 2, 5, 3, 6 }, (double[]){ 1, 4, 2, 5, 3, 6 }, 6, 1);
    expect("ba", in_m, 1, 2, (double[]){ 1, 4, 2, 5, 3, 6 }, NULL, 6, 1);    /* implicit: ab, alphabetical */
    expect("aB", in_m, 1, 2, (double[]){ 1, 4, 2, 5, 3, 6 }, NULL, 6, 1);    /* implicit: Ba, upper case first */
    expect(" i j -> j i ", in_m, 1, 2, (double[]){ 1, 4, 2, 5, 3, 6 }, NULL, 6, 1);
    expect("ij->i", in_m, 1, 1, (double[]){ 6, 15 }, NULL, 2, 2);
    expect("ij->j", in_m, 1, 1, (double[]){ 5, 7, 9 }, NULL, 3, 1);
    expect("ij->", ab, 1, 0, (double[]){ 6 }, (double[]){ 10 }, 1, 3);      /* 1 - 2 + 3 + 4 */
    expect("ii", ab, 1, 0, (double[]){ 5 }, (double[]){ 5 }, 1, 1);         /* implicit trace: 1 + 4 */
    expect("ii->i", ab, 1, 1, (double[]){ 1, 4 }, NULL, 2, 1);

    /* batch diagonal and a diagonal beside another axis: x[b, i, i]; sum_i x[i, i, j] */
    cc_tensor c = tensor_of(CC_F32, 3, (int64_t[]){ 2, 2, 2 }, (double[]){ 1, 2, 3, 4, 5, 6, 7, 8 });
    const cc_tensor *in_c[1] = { &c };
    expect("...ii->...i", in_c, 1, 2, (double[]){ 1, 4, 5, 8 }, NULL, 4, 1);
    expect("iij->j", in_c, 1, 1, (double[]){ 1 + 7, 2 + 8 }, NULL, 2, 1);
    expect("iii->i", in_c, 1, 1, (double[]){ 1, 8 }, NULL, 2, 1);
    expect("ijk->kji", in_c, 1, 3, (double[]){ 1, 5, 3, 7, 2, 6, 4, 8 }, NULL, 8, 1);

    /* inner and outer products: 4 - 10 + 18, S = 32, K = 3; [[3,4,5],[6,8,10]] */
    cc_tensor u = tensor_of(CC_F32, 1, (int64_t[]){ 3 }, (double[]){ 1, 2, 3 });
    cc_tensor v = tensor_of(CC_F32, 1, (int64_t[]){ 3 }, (double[]){ 4, -5, 6 });
    const cc_tensor *uv[2] = { &u, &v };
    expect("i,i", uv, 2, 0, (double[]){ 12 }, (double[]){ 32 }, 1, 3);
    cc_tensor w2 = tensor_of(CC_F32, 1, (int64_t[]){ 2 }, (double[]){ 1, 2 });
    const cc_tensor *wu[2] = { &w2, &u };
    expect("i,j->ij", wu, 2, 2, (double[]){ 1, 2, 3, 2, 4, 6 }, NULL, 6, 1);
    expect("i,j", wu, 2, 2, (double[]){ 1, 2, 3, 2, 4, 6 }, NULL, 6, 1);
    expect("j,i", wu, 2, 2, (double[]){ 1, 2, 2, 4, 3, 6 }, NULL, 6, 1);    /* implicit ij: i is u's */

    /* a chain of three: [1,2] [[1,-1],[0,2]] [[3],[1]]: the terms (j,k) = (0,0) 3, (0,1) -1,
     * (1,0) 0, (1,1) 4: 6, S = 8; P = 4 products of 3 operands: K = 4 + 3 - 2 */
    cc_tensor r = tensor_of(CC_F32, 2, (int64_t[]){ 1, 2 }, (double[]){ 1, 2 });
    cc_tensor s = tensor_of(CC_F32, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, -1, 0, 2 });
    cc_tensor t = tensor_of(CC_F32, 2, (int64_t[]){ 2, 1 }, (double[]){ 3, 1 });
    const cc_tensor *rst[3] = { &r, &s, &t };
    expect("ij,jk,kl->il", rst, 3, 2, (double[]){ 6 }, (double[]){ 8 }, 1, 5);
    expect("ij,jk,kl", rst, 3, 2, (double[]){ 6 }, (double[]){ 8 }, 1, 5);  /* implicit: il */
    /* a bilinear form u^T M w2 (M 2x3 as ij): sum_ij w2_i m_ij u_j = 1*14 + 2*32 */
    const cc_tensor *form[3] = { &w2, &m, &u };
    expect("i,ij,j->", form, 3, 0, (double[]){ 78 }, (double[]){ 78 }, 1, 7);

    /* batches through an ellipsis: x [3, 2] against y [1, 2] broadcast to 3: [4, 10, 16] */
    cc_tensor x = tensor_of(CC_F32, 2, (int64_t[]){ 3, 2 }, (double[]){ 1, 2, 3, 4, 5, 6 });
    cc_tensor y = tensor_of(CC_F32, 2, (int64_t[]){ 1, 2 }, (double[]){ 2, 1 });
    const cc_tensor *xy[2] = { &x, &y };
    expect("...i,...i->...", xy, 2, 1, (double[]){ 4, 10, 16 }, NULL, 3, 2);
    expect("...i,...i", xy, 2, 1, (double[]){ 4, 10, 16 }, NULL, 3, 2);     /* implicit: the ellipsis */
    /* an ellipsis of no dims in y: [[1,2],[3,4],[5,6]] times [2, 1] per row */
    cc_tensor y1 = tensor_of(CC_F32, 1, (int64_t[]){ 2 }, (double[]){ 2, 1 });
    const cc_tensor *xy1[2] = { &x, &y1 };
    expect("...j,...j->...", xy1, 2, 1, (double[]){ 4, 10, 16 }, NULL, 3, 2);
    expect("bj,j->b", xy1, 2, 1, (double[]){ 4, 10, 16 }, NULL, 3, 2);
    /* batched matmul with the batch as an ellipsis: [2,1,2] @ [2,1] per batch: [1*2+2*1, 3*2+4*1] */
    cc_tensor bx = tensor_of(CC_F32, 3, (int64_t[]){ 2, 1, 2 }, (double[]){ 1, 2, 3, 4 });
    cc_tensor by = tensor_of(CC_F32, 3, (int64_t[]){ 2, 2, 1 }, (double[]){ 2, 1, 2, 1 });
    const cc_tensor *bxy[2] = { &bx, &by };
    expect("...ij,...jk->...ik", bxy, 2, 3, (double[]){ 4, 10 }, NULL, 2, 2);
    expect("bij,bjk->bik", bxy, 2, 3, (double[]){ 4, 10 }, NULL, 2, 2);

    /* a scalar operand scales: 2 * [1, 2, 3]; a scalar alone is itself */
    cc_tensor sc = tensor_of(CC_F32, 0, NULL, (double[]){ 2 });
    const cc_tensor *scu[2] = { &sc, &u };
    expect(",i->i", scu, 2, 1, (double[]){ 2, 4, 6 }, NULL, 3, 1);
    expect("->", scu, 1, 0, (double[]){ 2 }, (double[]){ 2 }, 1, 1);
    expect("", scu, 1, 0, (double[]){ 2 }, NULL, 1, 1);

    /* f16 and f64 keep their dtype; integers wrap as numpy's einsum: i8 100 * 3 = 300 -> 44,
     * 100 * 100 * 3 = 30000 -> 48; i32 (2^31 - 1) + 5 -> -2^31 + 4 */
    cc_tensor h = tensor_of(CC_F16, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, -2, 3, 4 });
    const cc_tensor *in_h[1] = { &h };
    expect("ij->", in_h, 1, 0, (double[]){ 6 }, (double[]){ 10 }, 1, 3);
    cc_tensor d = tensor_of(CC_F64, 1, (int64_t[]){ 3 }, (double[]){ 0.1, 0.2, 0.3 });
    const cc_tensor *in_d[2] = { &d, &d };
    expect("i,i", in_d, 2, 0, (double[]){ 0.1 * 0.1 + 0.2 * 0.2 + 0.3 * 0.3 }, NULL, 1, 3);
    cc_tensor i8 = tensor_of(CC_I8, 1, (int64_t[]){ 3 }, (double[]){ 100, 100, 100 });
    const cc_tensor *in_i8[2] = { &i8, &i8 };
    expect("i->", in_i8, 1, 0, (double[]){ 44 }, NULL, 1, 2);
    expect("i,i", in_i8, 2, 0, (double[]){ 48 }, NULL, 1, 3);
    cc_tensor i32 = tensor_of(CC_I32, 1, (int64_t[]){ 2 }, (double[]){ 2147483647, 5 });
    const cc_tensor *in_i32[1] = { &i32 };
    expect("i->", in_i32, 1, 0, (double[]){ -2147483644 }, NULL, 1, 1);
    cc_tensor i64 = tensor_of(CC_I64, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, -2, 3, 4 });
    cc_tensor j64 = tensor_of(CC_I64, 2, (int64_t[]){ 2, 2 }, (double[]){ 5, 6, 7, -8 });
    const cc_tensor *in_64[2] = { &i64, &j64 };
    expect("ij,jk->ik", in_64, 2, 2, (double[]){ -9, 22, 43, -14 }, NULL, 4, 2);

    /* rejections: malformed equations */
    reject("ij,jk->ik", ab, 1, "has 2 terms for 1 inputs");
    reject("ij", ab, 2, "has 1 terms for 2 inputs");
    reject("ij*jk", ab, 2, "'*' is not a letter");
    reject("i1", ab, 1, "'1' is not a letter");
    reject("ij->k", ab, 1, "output letter 'k' is in no input");
    reject("ij->ii", ab, 1, "output letter 'i' appears twice");
    reject("ij->i->i", ab, 1, "more than one '->'");
    reject("i-j", ab, 1, "a '-' or '>' outside '->'");
    reject("ij>i", ab, 1, "a '-' or '>' outside '->'");
    reject("ij->i,j", ab, 1, "the output has a ','");
    reject("..ij", ab, 1, "a '.' outside '...'");
    reject("...i...", ab, 1, "two ellipses");
    reject("ij->...i...", ab, 1, "two ellipses");
    reject("ijk", ab, 1, "term 0 has 3 letters for x0 of rank 2");
    reject("i", ab, 1, "term 0 has 1 letters for x0 of rank 2");
    reject("...ijk", ab, 1, "term 0 has 3 letters and '...' for x0 of rank 2");
    /* operands that disagree with it */
    const cc_tensor *am[2] = { &a, &m };
    reject("ij,ij->ij", am, 2, "letter 'j' is 2 in x0 and 3 in x1");
    const cc_tensor *ma[2] = { &m, &a };
    reject("ij,jk->ik", ma, 2, "letter 'j' is 3 in x0 and 2 in x1");
    reject("ii", in_m, 1, "letter 'i' is 2 in x0 and 3 in x0");
    reject("...ii->i", in_c, 1, "the output needs '...'");
    cc_tensor x4 = tensor_of(CC_F32, 2, (int64_t[]){ 4, 2 }, NULL);
    const cc_tensor *x34[2] = { &x, &x4 };
    reject("...i,...i->...", x34, 2, "the ellipsis dims of x0 and x1 do not broadcast (3 and 4)");
    cc_tensor big = tensor_of(CC_F32, 5, (int64_t[]){ 1, 1, 1, 1, 1 }, NULL);
    const cc_tensor *bigs[2] = { &big, &big };
    reject("abcde,fghij", bigs, 2, "the output has more than 8 dims");
    reject("abcde,fghij->abcdefghi", bigs, 2, "the output has more than 8 dims");
    /* dtypes and gaps */
    const cc_tensor *mixed[2] = { &a, &h };
    reject("ij,ij->ij", mixed, 2, "x1 is f16 but x0 is f32");
    cc_tensor flags = tensor_of(CC_BOOL, 1, (int64_t[]){ 2 }, NULL);
    const cc_tensor *in_b[1] = { &flags };
    reject("i", in_b, 1, "dtype bool is not allowed");
    const cc_tensor *gap[3] = { &u, NULL, &u };
    reject("i,i", gap, 3, "x1 is absent but x2 is given");

    cc_tensor *all[] = { &a, &b, &m, &c, &u, &v, &w2, &r, &s, &t, &x, &y, &y1, &bx, &by, &sc, &h, &d, &i8,
                         &i32, &i64, &j64, &x4, &big, &flags };
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) cc_tensor_free(all[k]);
    CHECK(family_cases_check(cc_catalog_family("matmul"), 5, 8, 25) > 0);
    return CC_TEST_RESULT();
}
