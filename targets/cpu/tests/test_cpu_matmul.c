/* test_cpu_matmul.c — the cpu backend's Gemm, MatMul, MatMulInteger, QLinearMatMul and
 * Einsum: hand examples (batch broadcasting, per-row/per-column zero points, requantization
 * ties, a three-operand contraction, integer wrapping) and every quick case through the
 * cpu target's vtable against the golden model. */
#include "cpu_sweep.h"

#define F (&cc_cpu_family_matmul)

/* a: 2x1x2x3 with a[i][0][r][k] = i*10 + r*3 + k, b: 3x3x2 with b[j][k][c] = j + k - c;
 * y = a @ b broadcasts to 2x3x2x2; each element from the defining sum. */
static void test_matmul_broadcast(void)
{
    double av[12], bv[18];
    for (int i = 0; i < 12; i++) av[i] = (i / 6) * 10 + (i % 6);
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 2; c++) bv[(j * 3 + k) * 2 + c] = j + k - c;
    cc_tensor a = tensor_make(CC_F32, 4, (int64_t[]){ 2, 1, 2, 3 }, av);
    cc_tensor b = tensor_make(CC_F32, 3, (int64_t[]){ 3, 3, 2 }, bv);
    cc_tensor y = tensor_make(CC_F32, 4, (int64_t[]){ 2, 3, 2, 2 }, NULL);
    const cc_tensor *in[2] = { &a, &b };
    cc_err e = { 0 };
    cc_node n = node_make("MatMul", 2, 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    const float *yv = y.data;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int r = 0; r < 2; r++)
                for (int c = 0; c < 2; c++) {
                    double s = 0;
                    for (int k = 0; k < 3; k++) s += av[i * 6 + r * 3 + k] * bv[(j * 3 + k) * 2 + c];
                    CHECK(yv[((i * 3 + j) * 2 + r) * 2 + c] == (float)s);
                }
    CHECK(guard_ok(&y));
    free(a.data);
    free(b.data);
    free(y.data);
}

/* 1-D a (promoted to 1xK, then dropped): [1 2 3] @ [[1 0] [0 1] [1 1]] = [4 5]. */
static void test_matmul_vector(void)
{
    cc_tensor a = tensor_make(CC_F16, 1, (int64_t[]){ 3 }, (double[]){ 1, 2, 3 });
    cc_tensor b = tensor_make(CC_F16, 2, (int64_t[]){ 3, 2 }, (double[]){ 1, 0, 0, 1, 1, 1 });
    cc_tensor y = tensor_make(CC_F16, 1, (int64_t[]){ 2 }, NULL);
    const cc_tensor *in[2] = { &a, &b };
    cc_err e = { 0 };
    cc_node n = node_make("MatMul", 2, 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    CHECK(cc_load(y.data, CC_F16, 0) == 4 && cc_load(y.data, CC_F16, 1) == 5);
    CHECK(guard_ok(&y));
    free(a.data);
    free(b.data);
    free(y.data);
}

/* MatMulInteger: a = [[10 11] [12 13]] u8 with per-row zero points [10 12] gives
 * [[0 1] [0 1]]; b = [[1 2] [3 4]] u8 with per-column zero points [1 2] gives
 * [[0 0] [2 2]]; so y = [[2 2] [2 2]]. With b an i8 [[-1 2] [3 -4]] and no zero point:
 * y = [[3 -4] [3 -4]]. */
static void test_matmulinteger(void)
{
    cc_tensor a = tensor_make(CC_U8, 2, (int64_t[]){ 2, 2 }, (double[]){ 10, 11, 12, 13 });
    cc_tensor b = tensor_make(CC_U8, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, 2, 3, 4 });
    cc_tensor az = tensor_make(CC_U8, 1, (int64_t[]){ 2 }, (double[]){ 10, 12 });
    cc_tensor bz = tensor_make(CC_U8, 1, (int64_t[]){ 2 }, (double[]){ 1, 2 });
    cc_tensor y = tensor_make(CC_I32, 2, (int64_t[]){ 2, 2 }, NULL);
    const cc_tensor *in[4] = { &a, &b, &az, &bz };
    cc_err e = { 0 };
    cc_node n = node_make("MatMulInteger", 4, 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    for (int i = 0; i < 4; i++) CHECK(((int32_t *)y.data)[i] == 2);
    cc_tensor bi = tensor_make(CC_I8, 2, (int64_t[]){ 2, 2 }, (double[]){ -1, 2, 3, -4 });
    const cc_tensor *in2[4] = { &a, &bi, &az, NULL };
    CHECK_OK(kernel_call(F, &n, in2, 1, &y, &e));
    const int32_t want[4] = { 3, -4, 3, -4 };
    for (int i = 0; i < 4; i++) CHECK(((int32_t *)y.data)[i] == want[i]);
    CHECK(guard_ok(&y));
    free(a.data);
    free(b.data);
    free(az.data);
    free(bz.data);
    free(bi.data);
    free(y.data);
}

/* QLinearMatMul with b = [[1] [1]] (scale 1, zero point 0), a_scale 0.25, y_scale 0.5:
 * the multiplier is 0.5 and y = round(acc / 2) + 10. Rows of a: [2 3] -> 2.5 -> 2 (a
 * tie, to even) -> 12; [3 4] -> 3.5 -> 4 -> 14; [120 120] -> 120 + 10 saturates at 127. */
static void test_qlinearmatmul(void)
{
    cc_tensor a = tensor_make(CC_U8, 2, (int64_t[]){ 3, 2 }, (double[]){ 2, 3, 3, 4, 120, 120 });
    cc_tensor as = tensor_make(CC_F32, 0, NULL, (double[]){ 0.25 });
    cc_tensor az = tensor_make(CC_U8, 0, NULL, (double[]){ 0 });
    cc_tensor b = tensor_make(CC_U8, 2, (int64_t[]){ 2, 1 }, (double[]){ 1, 1 });
    cc_tensor bs = tensor_make(CC_F32, 0, NULL, (double[]){ 1 });
    cc_tensor bz = tensor_make(CC_U8, 0, NULL, (double[]){ 0 });
    cc_tensor ys = tensor_make(CC_F32, 0, NULL, (double[]){ 0.5 });
    cc_tensor yz = tensor_make(CC_I8, 0, NULL, (double[]){ 10 });
    cc_tensor y = tensor_make(CC_I8, 2, (int64_t[]){ 3, 1 }, NULL);
    const cc_tensor *in[8] = { &a, &as, &az, &b, &bs, &bz, &ys, &yz };
    cc_err e = { 0 };
    cc_node n = node_make("QLinearMatMul", 8, 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    const int8_t *yv = y.data;
    CHECK(yv[0] == 12);
    CHECK(yv[1] == 14);
    CHECK(yv[2] == 127);
    CHECK(guard_ok(&y));
    cc_tensor *all[] = { &a, &as, &az, &b, &bs, &bz, &ys, &yz, &y };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]->data);
}

/* Einsum: a trace of a product with a diagonal beside it, sum_ij a_ij b_ji c_i (3 operands,
 * f16 storage): a = [[1,2],[3,4]], b = [[1,0],[-1,2]], c = [2,3]: 1*1*2 + 2*-1*2 + 3*0*3 +
 * 4*2*3 = 22; integers wrap as numpy's: int32 (2^31 - 1) + 5 = -2^31 + 4, int8 100 * 100 +
 * 100 * 100 = 20000 = 32 (mod 256). */
static void test_einsum(void)
{
    cc_tensor a = tensor_make(CC_F16, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, 2, 3, 4 });
    cc_tensor b = tensor_make(CC_F16, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, 0, -1, 2 });
    cc_tensor c = tensor_make(CC_F16, 1, (int64_t[]){ 2 }, (double[]){ 2, 3 });
    cc_tensor y = tensor_make(CC_F16, 0, NULL, NULL);
    const cc_tensor *in[3] = { &a, &b, &c };
    cc_err e = { 0 };
    cc_node n = node_make("Einsum", 3, 1);
    node_set_s(&n, "equation", "ij,ji,i->");
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    CHECK(cc_load(y.data, CC_F16, 0) == 22);
    CHECK(guard_ok(&y));
    cc_tensor w = tensor_make(CC_I32, 1, (int64_t[]){ 2 }, (double[]){ 2147483647, 5 });
    cc_tensor wy = tensor_make(CC_I32, 0, NULL, NULL);
    const cc_tensor *win[1] = { &w };
    cc_node wn = node_make("Einsum", 1, 1);
    node_set_s(&wn, "equation", "i->");
    CHECK_OK(kernel_call(F, &wn, win, 1, &wy, &e));
    CHECK(((const int32_t *)wy.data)[0] == -2147483644);
    CHECK(guard_ok(&wy));
    cc_tensor s8 = tensor_make(CC_I8, 1, (int64_t[]){ 2 }, (double[]){ 100, 100 });
    cc_tensor s8y = tensor_make(CC_I8, 0, NULL, NULL);
    const cc_tensor *s8in[2] = { &s8, &s8 };
    cc_node s8n = node_make("Einsum", 2, 1);
    node_set_s(&s8n, "equation", "i,i");
    CHECK_OK(kernel_call(F, &s8n, s8in, 1, &s8y, &e));
    CHECK(((const int8_t *)s8y.data)[0] == 32);
    CHECK(guard_ok(&s8y));
    cc_tensor *all[] = { &a, &b, &c, &y, &w, &wy, &s8, &s8y };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]->data);
}

int main(void)
{
    test_matmul_broadcast();
    test_matmul_vector();
    test_matmulinteger();
    test_qlinearmatmul();
    test_einsum();
    static const char *const ops[] = { "Gemm", "MatMul", "MatMulInteger", "QLinearMatMul", "Einsum" };
    sweep_ops(ops, 5);
    return CC_TEST_RESULT();
}
