/* test_cpu_quant.c — the cpu backend's QuantizeLinear and DequantizeLinear: hand examples
 * (ties to even, saturation at both ends, per-axis parameters on a middle and a negative
 * axis, i32 input) and every quick case through the cpu target's vtable against the
 * golden model. */
#include "cpu_sweep.h"

#define F (&cc_cpu_family_quant)

/* scale 2, zero point 100 (u8): x / 2 = 0.5 -> 0, 1.5 -> 2, -2.5 -> -2, 3 -> 3 (ties to
 * even), then + 100; 400 -> 300 saturates at 255, -300 -> -50 at 0. */
static void test_quantize_ties(void)
{
    cc_tensor x = tensor_make(CC_F32, 1, (int64_t[]){ 6 }, (double[]){ 1, 3, -5, 6, 400, -300 });
    cc_tensor s = tensor_make(CC_F32, 0, NULL, (double[]){ 2 });
    cc_tensor z = tensor_make(CC_U8, 0, NULL, (double[]){ 100 });
    cc_tensor y = tensor_make(CC_U8, 1, (int64_t[]){ 6 }, NULL);
    const cc_tensor *in[3] = { &x, &s, &z };
    cc_err e = { 0 };
    cc_node n = node_make("QuantizeLinear", 3, 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    const uint8_t want[6] = { 100, 102, 98, 103, 255, 0 };
    for (int i = 0; i < 6; i++) CHECK(((uint8_t *)y.data)[i] == want[i]);
    CHECK(guard_ok(&y));
    cc_tensor *all[] = { &x, &s, &z, &y };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]->data);
}

/* Per axis: x is 2x3x2 (x = index), axis -2 (the 3): scales [1 2 4], zero points
 * [0 -1 1] (i8): y = round(x / s[c]) + z[c]. */
static void test_quantize_axis(void)
{
    double xv[12];
    for (int i = 0; i < 12; i++) xv[i] = i;
    cc_tensor x = tensor_make(CC_F32, 3, (int64_t[]){ 2, 3, 2 }, xv);
    cc_tensor s = tensor_make(CC_F32, 1, (int64_t[]){ 3 }, (double[]){ 1, 2, 4 });
    cc_tensor z = tensor_make(CC_I8, 1, (int64_t[]){ 3 }, (double[]){ 0, -1, 1 });
    cc_tensor y = tensor_make(CC_I8, 3, (int64_t[]){ 2, 3, 2 }, NULL);
    const cc_tensor *in[3] = { &x, &s, &z };
    cc_err e = { 0 };
    cc_node n = node_make("QuantizeLinear", 3, 1);
    node_set_i(&n, "axis", -2);
    node_set_i(&n, "per_axis", 1);
    node_set_s(&n, "to", "i8");
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    /* x/s: [0 1 | 1 1.5 | 1 1.25 | 6 7 | 4 4.5 | 2.5 2.75] -> rounded [0 1 1 2 1 1 6 7 4 4 2 3] */
    const int8_t want[12] = { 0, 1, 0, 1, 2, 2, 6, 7, 3, 3, 3, 4 };
    for (int i = 0; i < 12; i++) CHECK(((int8_t *)y.data)[i] == want[i]);
    CHECK(guard_ok(&y));
    cc_tensor *all[] = { &x, &s, &z, &y };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]->data);
}

/* Dequantize u8 per axis 1 of 1x2x2: (x - z[c]) * s[c]; and i32 without a zero point. */
static void test_dequantize(void)
{
    cc_tensor x = tensor_make(CC_U8, 3, (int64_t[]){ 1, 2, 2 }, (double[]){ 0, 255, 10, 12 });
    cc_tensor s = tensor_make(CC_F32, 1, (int64_t[]){ 2 }, (double[]){ 0.5, 0.25 });
    cc_tensor z = tensor_make(CC_U8, 1, (int64_t[]){ 2 }, (double[]){ 128, 12 });
    cc_tensor y = tensor_make(CC_F32, 3, (int64_t[]){ 1, 2, 2 }, NULL);
    const cc_tensor *in[3] = { &x, &s, &z };
    cc_err e = { 0 };
    cc_node n = node_make("DequantizeLinear", 3, 1);
    node_set_i(&n, "per_axis", 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    const float want[4] = { -64, 63.5f, -0.5f, 0 };
    for (int i = 0; i < 4; i++) CHECK(((float *)y.data)[i] == want[i]);
    CHECK(guard_ok(&y));

    cc_tensor xi = tensor_make(CC_I32, 1, (int64_t[]){ 3 }, (double[]){ -16777216, 3, 16777215 });
    cc_tensor si = tensor_make(CC_F32, 0, NULL, (double[]){ 0.125 });
    cc_tensor yi = tensor_make(CC_F32, 1, (int64_t[]){ 3 }, NULL);
    const cc_tensor *in2[3] = { &xi, &si, NULL };
    cc_node n2 = node_make("DequantizeLinear", 3, 1);
    CHECK_OK(kernel_call(F, &n2, in2, 1, &yi, &e));
    CHECK(((float *)yi.data)[0] == -2097152.0f);
    CHECK(((float *)yi.data)[1] == 0.375f);
    CHECK(((float *)yi.data)[2] == 2097151.875f);
    CHECK(guard_ok(&yi));
    cc_tensor *all[] = { &x, &s, &z, &y, &xi, &si, &yi };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]->data);
}

int main(void)
{
    test_quantize_ties();
    test_quantize_axis();
    test_dequantize();
    static const char *const ops[] = { "QuantizeLinear", "DequantizeLinear" };
    sweep_ops(ops, 2);
    return CC_TEST_RESULT();
}
