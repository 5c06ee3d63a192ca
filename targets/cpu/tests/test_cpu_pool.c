/* test_cpu_pool.c — the cpu backend's MaxPool, AveragePool, GlobalAveragePool,
 * GlobalMaxPool and MaxUnpool: hand examples (ceil_mode with count_include_pad both ways,
 * dilated max pooling, the Indices output in both storage orders, f16 data, unpooling with
 * a repeated index and into a larger output_shape) and every quick case through the cpu target's
 * vtable against the golden model. */
#include "cpu_sweep.h"

#define F (&cc_cpu_family_pool)

/* x = 1..16 as 1x1x4x4 (x[h][w] = 4h + w + 1). */
static cc_tensor x4x4(cc_dtype dt)
{
    double v[16];
    for (int i = 0; i < 16; i++) v[i] = i + 1;
    return tensor_make(dt, 4, (int64_t[]){ 1, 1, 4, 4 }, v);
}

static void test_maxpool(void)
{
    cc_tensor x = x4x4(CC_F16);
    cc_tensor y = tensor_make(CC_F16, 4, (int64_t[]){ 1, 1, 2, 2 }, NULL);
    const cc_tensor *in[1] = { &x };
    cc_err e = { 0 };
    cc_node n = node_make("MaxPool", 1, 1);
    node_set_ints(&n, "kernel_shape", 2, (int64_t[]){ 2, 2 });
    node_set_ints(&n, "strides", 2, (int64_t[]){ 2, 2 });
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    /* window maxima: bottom-right corners 6, 8, 14, 16 */
    const double want[4] = { 6, 8, 14, 16 };
    for (int i = 0; i < 4; i++) CHECK(cc_load(y.data, CC_F16, (size_t)i) == want[i]);
    CHECK(guard_ok(&y));

    /* dilation 2, kernel 2, stride 1: taps (h, w), (h, w+2), (h+2, w), (h+2, w+2); max at
     * (h+2, w+2) = 4(h+2) + w + 3 for h, w in 0..1 */
    node_set_ints(&n, "strides", 2, (int64_t[]){ 1, 1 });
    node_set_ints(&n, "dilations", 2, (int64_t[]){ 2, 2 });
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    const double want2[4] = { 11, 12, 15, 16 };
    for (int i = 0; i < 4; i++) CHECK(cc_load(y.data, CC_F16, (size_t)i) == want2[i]);
    free(x.data);
    free(y.data);
}

/* Indices: 2 channels (the second the negation of the first), kernel 2 stride 2. Channel
 * 0's maxima sit at (1,1), (1,3), (3,1), (3,3): flat 5, 7, 13, 15 (row-major) or, column
 * major (w * H + h), 5, 13, 7, 15; channel 1's at the top-left corners, offset by 16. */
static void test_maxpool_indices(void)
{
    double v[32];
    for (int i = 0; i < 16; i++) {
        v[i] = i + 1;
        v[16 + i] = -(i + 1);
    }
    cc_tensor x = tensor_make(CC_F32, 4, (int64_t[]){ 1, 2, 4, 4 }, v);
    cc_tensor y[2] = { tensor_make(CC_F32, 4, (int64_t[]){ 1, 2, 2, 2 }, NULL),
                       tensor_make(CC_I64, 4, (int64_t[]){ 1, 2, 2, 2 }, NULL) };
    const cc_tensor *in[1] = { &x };
    cc_err e = { 0 };
    cc_node n = node_make("MaxPool", 1, 2);
    node_set_ints(&n, "kernel_shape", 2, (int64_t[]){ 2, 2 });
    node_set_ints(&n, "strides", 2, (int64_t[]){ 2, 2 });
    CHECK_OK(kernel_call(F, &n, in, 2, y, &e));
    const int64_t rm[8] = { 5, 7, 13, 15, 16, 18, 24, 26 };
    for (int i = 0; i < 8; i++) CHECK(((int64_t *)y[1].data)[i] == rm[i]);
    CHECK(((float *)y[0].data)[4] == -1);
    node_set_i(&n, "storage_order", 1);
    CHECK_OK(kernel_call(F, &n, in, 2, y, &e));
    const int64_t cm[8] = { 5, 13, 7, 15, 16, 24, 18, 26 };
    for (int i = 0; i < 8; i++) CHECK(((int64_t *)y[1].data)[i] == cm[i]);
    CHECK(guard_ok(&y[0]) && guard_ok(&y[1]));
    free(x.data);
    free(y[0].data);
    free(y[1].data);
}

/* AveragePool 3x3, stride 2, pads 1, ceil_mode on 4x4: output 3x3 (ceil((4+2-3)/2)+1 =
 * 3, the last window starts at 3 < 4 + 1, kept). Windows on each axis: [-1,1], [1,3],
 * [3,5]; in the input: [0,1], [1,3], [3,3]; in the padded extent [-1,4]: 3, 3, 2 taps. */
static void test_averagepool_ceil(void)
{
    cc_tensor x = x4x4(CC_F32);
    cc_tensor y = tensor_make(CC_F32, 4, (int64_t[]){ 1, 1, 3, 3 }, NULL);
    const cc_tensor *in[1] = { &x };
    cc_err e = { 0 };
    cc_node n = node_make("AveragePool", 1, 1);
    node_set_ints(&n, "kernel_shape", 2, (int64_t[]){ 3, 3 });
    node_set_ints(&n, "strides", 2, (int64_t[]){ 2, 2 });
    node_set_ints(&n, "pads", 4, (int64_t[]){ 1, 1, 1, 1 });
    node_set_i(&n, "ceil_mode", 1);
    static const int lo[3] = { 0, 1, 3 }, hi[3] = { 1, 3, 3 }, padded[3] = { 3, 3, 2 };
    for (int inc = 0; inc <= 1; inc++) {
        node_set_i(&n, "count_include_pad", inc);
        CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                double s = 0;
                int cnt = 0;
                for (int h = lo[a]; h <= hi[a]; h++)
                    for (int w = lo[b]; w <= hi[b]; w++, cnt++) s += 4 * h + w + 1;
                double want = s / (inc ? padded[a] * padded[b] : cnt);
                CHECK_NEAR(((float *)y.data)[a * 3 + b], want, 1e-5 * want);
            }
    }
    CHECK(guard_ok(&y));
    free(x.data);
    free(y.data);
}

static void test_global_average(void)
{
    double v[24];
    for (int i = 0; i < 24; i++) v[i] = i;
    cc_tensor x = tensor_make(CC_F32, 4, (int64_t[]){ 2, 3, 2, 2 }, v);
    cc_tensor y = tensor_make(CC_F32, 4, (int64_t[]){ 2, 3, 1, 1 }, NULL);
    const cc_tensor *in[1] = { &x };
    cc_err e = { 0 };
    cc_node n = node_make("GlobalAveragePool", 1, 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    for (int p = 0; p < 6; p++) CHECK(((float *)y.data)[p] == 4 * p + 1.5f);
    CHECK(guard_ok(&y));
    free(x.data);
    free(y.data);
}

/* MaxUnpool: x = [1 2 3 4] at [5 5 13 0] of a 1x1x4x4 unpooling (k 2, s 2): element 5 keeps
 * the later 2; with output_shape 1x1x5x5 the 4 x 4 sits in the corner, so 13 (row 3,
 * column 1) lands at 3 * 5 + 1 = 16. An index past the 16 unpooled elements is refused. */
static void test_maxunpool(void)
{
    cc_tensor x = tensor_make(CC_F32, 4, (int64_t[]){ 1, 1, 2, 2 }, (double[]){ 1, 2, 3, 4 });
    cc_tensor ind = tensor_make(CC_I64, 4, (int64_t[]){ 1, 1, 2, 2 }, (double[]){ 5, 5, 13, 0 });
    cc_tensor os = tensor_make(CC_I64, 1, (int64_t[]){ 4 }, (double[]){ 1, 1, 5, 5 });
    cc_tensor y = tensor_make(CC_F32, 4, (int64_t[]){ 1, 1, 4, 4 }, NULL);
    cc_tensor y5 = tensor_make(CC_F32, 4, (int64_t[]){ 1, 1, 5, 5 }, NULL);
    const cc_tensor *in[3] = { &x, &ind, &os };
    cc_err e = { 0 };
    cc_node n = node_make("MaxUnpool", 2, 1);
    node_set_ints(&n, "kernel_shape", 2, (int64_t[]){ 2, 2 });
    node_set_ints(&n, "strides", 2, (int64_t[]){ 2, 2 });
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    const float *yv = y.data;
    CHECK(yv[0] == 4 && yv[5] == 2 && yv[13] == 3);
    float sum = 0;
    for (int i = 0; i < 16; i++) sum += yv[i];
    CHECK(sum == 9 && guard_ok(&y));
    n.n_in = 3;
    CHECK_OK(kernel_call(F, &n, in, 1, &y5, &e));
    const float *v5 = y5.data;
    CHECK(v5[0] == 4 && v5[6] == 2 && v5[16] == 3 && guard_ok(&y5));
    n.n_in = 2;
    ((int64_t *)ind.data)[1] = 16;
    CHECK(kernel_call(F, &n, in, 1, &y, &e) == CC_ERR_ARG && strstr(e.msg, "I[1] = 16 is outside [0, 16)"));
    free(x.data), free(ind.data), free(os.data), free(y.data), free(y5.data);
}

int main(void)
{
    test_maxpool();
    test_maxpool_indices();
    test_averagepool_ceil();
    test_global_average();
    test_maxunpool();
    static const char *const ops[] = { "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "MaxUnpool" };
    sweep_ops(ops, 5);
    return CC_TEST_RESULT();
}
