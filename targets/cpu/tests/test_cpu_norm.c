/* test_cpu_norm.c — the cpu backend's BatchNormalization: a hand example in f32 and bf16,
 * training mode with its running statistics by hand; MeanVarianceNormalization by hand (a constant
 * channel gives zeros); and every quick case of both through the cpu target's vtable
 * against the golden model. */
#include "cpu_sweep.h"

#define F (&cc_cpu_family_norm)

/* x: 1x2x2 = [[1 2] [3 4]], epsilon 1. Channel 0: scale 2, b 1, mean 1, var 3, so
 * sqrt(var + eps) = 2 and y = (x - 1) * 1 + 1 = x. Channel 1: scale 1, b 0, mean 3,
 * var 15, so sqrt(var + eps) = 4 and y = (x - 3) / 4 = [0 0.25]. */
static void test_bn_hand(cc_dtype dt)
{
    cc_tensor x = tensor_make(dt, 3, (int64_t[]){ 1, 2, 2 }, (double[]){ 1, 2, 3, 4 });
    cc_tensor sc = tensor_make(dt, 1, (int64_t[]){ 2 }, (double[]){ 2, 1 });
    cc_tensor b = tensor_make(dt, 1, (int64_t[]){ 2 }, (double[]){ 1, 0 });
    cc_tensor mean = tensor_make(dt, 1, (int64_t[]){ 2 }, (double[]){ 1, 3 });
    cc_tensor var = tensor_make(dt, 1, (int64_t[]){ 2 }, (double[]){ 3, 15 });
    cc_tensor y = tensor_make(dt, 3, (int64_t[]){ 1, 2, 2 }, NULL);
    const cc_tensor *in[5] = { &x, &sc, &b, &mean, &var };
    cc_err e = { 0 };
    cc_node n = node_make("BatchNormalization", 5, 1);
    node_set_f(&n, "epsilon", 1.0);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    const double want[4] = { 1, 2, 0, 0.25 };
    for (int i = 0; i < 4; i++) CHECK(cc_load(y.data, dt, (size_t)i) == want[i]);
    CHECK(guard_ok(&y));

    cc_tensor *all[] = { &x, &sc, &b, &mean, &var, &y };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]->data);
}

/* Training mode on x 2x2x1x1 = [1 2 | 3 6]: channel 0 = [1 3] (mean 2, variance 1),
 * channel 1 = [2 6] (mean 4, variance 4); scale [1 2], b [0 1], epsilon 0: y = [-1 -1 | 1 3];
 * momentum 0.5 with input_mean [0 2], input_var [1 2]: running_mean [1 3], running_var
 * [1 3] (the population variance, not the sample one: that would give [1.5 5]). */
static void test_bn_training(void)
{
    cc_tensor x = tensor_make(CC_F32, 4, (int64_t[]){ 2, 2, 1, 1 }, (double[]){ 1, 2, 3, 6 });
    cc_tensor sc = tensor_make(CC_F32, 1, (int64_t[]){ 2 }, (double[]){ 1, 2 });
    cc_tensor b = tensor_make(CC_F32, 1, (int64_t[]){ 2 }, (double[]){ 0, 1 });
    cc_tensor mean = tensor_make(CC_F32, 1, (int64_t[]){ 2 }, (double[]){ 0, 2 });
    cc_tensor var = tensor_make(CC_F32, 1, (int64_t[]){ 2 }, (double[]){ 1, 2 });
    cc_tensor y[3] = { tensor_make(CC_F32, 4, (int64_t[]){ 2, 2, 1, 1 }, NULL), tensor_make(CC_F32, 1, (int64_t[]){ 2 }, NULL),
                       tensor_make(CC_F32, 1, (int64_t[]){ 2 }, NULL) };
    const cc_tensor *in[5] = { &x, &sc, &b, &mean, &var };
    cc_err e = { 0 };
    cc_node n = node_make("BatchNormalization", 5, 3);
    node_set_i(&n, "training_mode", 1);
    node_set_f(&n, "epsilon", 0);
    node_set_f(&n, "momentum", 0.5);
    CHECK_OK(kernel_call(F, &n, in, 3, y, &e));
    const float *yv = y[0].data, *rm = y[1].data, *rv = y[2].data;
    CHECK(yv[0] == -1 && yv[1] == -1 && yv[2] == 1 && yv[3] == 3);
    CHECK(rm[0] == 1 && rm[1] == 3 && rv[0] == 1 && rv[1] == 3);
    CHECK(guard_ok(&y[0]) && guard_ok(&y[1]) && guard_ok(&y[2]));
    cc_tensor *all[] = { &x, &sc, &b, &mean, &var, &y[0], &y[1], &y[2] };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]->data);
}

/* MeanVarianceNormalization over axes [0, 2, 3] of 2x2x1x2: channel 0 = [1 3 | 5 7] (mean
 * 4, variance 5), channel 1 = [2 2 | 2 2] (variance 0: zeros, not NaN). */
static void test_mvn_hand(void)
{
    cc_tensor x = tensor_make(CC_F32, 4, (int64_t[]){ 2, 2, 1, 2 }, (double[]){ 1, 3, 2, 2, 5, 7, 2, 2 });
    cc_tensor y = tensor_make(CC_F32, 4, (int64_t[]){ 2, 2, 1, 2 }, NULL);
    const cc_tensor *in[1] = { &x };
    cc_err e = { 0 };
    cc_node n = node_make("MeanVarianceNormalization", 1, 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    const double r = 1 / sqrt(5.0), want[8] = { -3 * r, -r, 0, 0, r, 3 * r, 0, 0 };
    for (int i = 0; i < 8; i++) CHECK_NEAR(((float *)y.data)[i], want[i], 1e-6);
    CHECK(guard_ok(&y));
    free(x.data);
    free(y.data);
}

int main(void)
{
    test_bn_hand(CC_F32);
    test_bn_hand(CC_BF16);
    test_bn_training();
    test_mvn_hand();
    static const char *const ops[] = { "BatchNormalization", "MeanVarianceNormalization" };
    sweep_ops(ops, 2);
    return CC_TEST_RESULT();
}
