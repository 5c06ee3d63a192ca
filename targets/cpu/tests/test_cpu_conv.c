/* test_cpu_conv.c — the cpu backend's Conv, ConvInteger and QLinearConv: hand examples
 * (a 1-D and a 3-D convolution against direct sums, SAME_LOWER padding, zero points per
 * output channel, requantization ties and saturation), every quick case through the cpu
 * target's vtable against the golden model, and a few larger cases that take the
 * chunked im2col path (outputs too big for one column buffer). */
#include <omp.h>

#include "cpu_sweep.h"

#define F (&cc_cpu_family_conv)

/* 1-D: x = 0..6 (1x1x7), w = [1 -1 2] (1x1x3), strides 2, dilations 2, pads [1,0]:
 * output o covers x[2o - 1], x[2o + 1], x[2o + 3] (zero outside 0..6). */
static void test_conv_1d(void)
{
    double xv[7] = { 0, 1, 2, 3, 4, 5, 6 };
    cc_tensor x = tensor_make(CC_F32, 3, (int64_t[]){ 1, 1, 7 }, xv);
    cc_tensor w = tensor_make(CC_F32, 3, (int64_t[]){ 1, 1, 3 }, (double[]){ 1, -1, 2 });
    /* out = floor((7 + 1 - 5) / 2) + 1 = 2 */
    cc_tensor y = tensor_make(CC_F32, 3, (int64_t[]){ 1, 1, 2 }, NULL);
    const cc_tensor *in[3] = { &x, &w, NULL };
    cc_err e = { 0 };
    cc_node n = node_make("Conv", 3, 1);
    node_set_ints(&n, "strides", 1, (int64_t[]){ 2 });
    node_set_ints(&n, "dilations", 1, (int64_t[]){ 2 });
    node_set_ints(&n, "pads", 2, (int64_t[]){ 1, 0 });
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    /* o=0: x[-1]*1 + x[1]*-1 + x[3]*2 = 0 - 1 + 6 = 5; o=1: x[1] - x[3] + 2 x[5] = 1 - 3 + 10 = 8 */
    CHECK(((float *)y.data)[0] == 5 && ((float *)y.data)[1] == 8);
    CHECK(guard_ok(&y));
    free(x.data);
    free(w.data);
    free(y.data);
}

/* 3-D, 2 channels, 2x2x2 kernel of ones, SAME_LOWER on a 3x3x3 input with stride 1:
 * total pad 1 per axis goes before, so output (d,h,w) sums x over [d-1, d] x [h-1, h] x
 * [w-1, w] clipped to the input, over both channels. */
static void test_conv_3d_same_lower(void)
{
    double xv[54], wv[16];
    for (int i = 0; i < 54; i++) xv[i] = i % 7 - 3;
    for (int i = 0; i < 16; i++) wv[i] = 1;
    cc_tensor x = tensor_make(CC_BF16, 5, (int64_t[]){ 1, 2, 3, 3, 3 }, xv);
    cc_tensor w = tensor_make(CC_BF16, 5, (int64_t[]){ 1, 2, 2, 2, 2 }, wv);
    cc_tensor y = tensor_make(CC_BF16, 5, (int64_t[]){ 1, 1, 3, 3, 3 }, NULL);
    const cc_tensor *in[3] = { &x, &w, NULL };
    cc_err e = { 0 };
    cc_node n = node_make("Conv", 3, 1);
    node_set_s(&n, "auto_pad", "SAME_LOWER");
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    for (int d = 0; d < 3; d++)
        for (int h = 0; h < 3; h++)
            for (int ww = 0; ww < 3; ww++) {
                double s = 0;
                for (int c = 0; c < 2; c++)
                    for (int i = d - 1; i <= d; i++)
                        for (int j = h - 1; j <= h; j++)
                            for (int k = ww - 1; k <= ww; k++)
                                if (i >= 0 && j >= 0 && k >= 0) s += xv[((c * 3 + i) * 3 + j) * 3 + k];
                CHECK(cc_load(y.data, CC_BF16, (size_t)((d * 3 + h) * 3 + ww)) == s);
            }
    CHECK(guard_ok(&y));
    free(x.data);
    free(w.data);
    free(y.data);
}

/* ConvInteger, x = [10 11; 12 13] u8 with zero point 10 -> [0 1; 2 3]; two 2x2 filters
 * with per-filter zero points: w0 = [1 2; 3 4] minus 1 -> [0 1; 2 3] gives
 * 0 + 1 + 4 + 9 = 14; w1 = [5 5; 5 5] minus 6 -> all -1 gives -6. */
static void test_convinteger(void)
{
    cc_tensor x = tensor_make(CC_U8, 4, (int64_t[]){ 1, 1, 2, 2 }, (double[]){ 10, 11, 12, 13 });
    cc_tensor w = tensor_make(CC_U8, 4, (int64_t[]){ 2, 1, 2, 2 }, (double[]){ 1, 2, 3, 4, 5, 5, 5, 5 });
    cc_tensor xz = tensor_make(CC_U8, 0, NULL, (double[]){ 10 });
    cc_tensor wz = tensor_make(CC_U8, 1, (int64_t[]){ 2 }, (double[]){ 1, 6 });
    cc_tensor y = tensor_make(CC_I32, 4, (int64_t[]){ 1, 2, 1, 1 }, NULL);
    const cc_tensor *in[4] = { &x, &w, &xz, &wz };
    cc_err e = { 0 };
    cc_node n = node_make("ConvInteger", 4, 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    CHECK(((int32_t *)y.data)[0] == 14);
    CHECK(((int32_t *)y.data)[1] == -6);
    CHECK(guard_ok(&y));
    cc_tensor *all[] = { &x, &w, &xz, &wz, &y };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]->data);
}

/* QLinearConv on the ConvInteger example (accumulators 14 and -6), bias [6 -6], x_scale
 * 0.5, w_scale per filter [0.25 0.5], y_scale 1, y_zero_point 100 (u8):
 * filter 0: (14 + 6) * 0.125 = 2.5 -> 2 (a tie, to even) -> 102;
 * filter 1: (-6 - 6) * 0.25 = -3 -> 97. With y_zero_point 0: 2, and -3 saturates at 0. */
static void test_qlinearconv(void)
{
    cc_tensor x = tensor_make(CC_U8, 4, (int64_t[]){ 1, 1, 2, 2 }, (double[]){ 10, 11, 12, 13 });
    cc_tensor xs = tensor_make(CC_F32, 0, NULL, (double[]){ 0.5 });
    cc_tensor xz = tensor_make(CC_U8, 0, NULL, (double[]){ 10 });
    cc_tensor w = tensor_make(CC_U8, 4, (int64_t[]){ 2, 1, 2, 2 }, (double[]){ 1, 2, 3, 4, 5, 5, 5, 5 });
    cc_tensor ws = tensor_make(CC_F32, 1, (int64_t[]){ 2 }, (double[]){ 0.25, 0.5 });
    cc_tensor wz = tensor_make(CC_U8, 1, (int64_t[]){ 2 }, (double[]){ 1, 6 });
    cc_tensor ys = tensor_make(CC_F32, 0, NULL, (double[]){ 1 });
    cc_tensor yz = tensor_make(CC_U8, 0, NULL, (double[]){ 100 });
    cc_tensor b = tensor_make(CC_I32, 1, (int64_t[]){ 2 }, (double[]){ 6, -6 });
    cc_tensor y = tensor_make(CC_U8, 4, (int64_t[]){ 1, 2, 1, 1 }, NULL);
    const cc_tensor *in[9] = { &x, &xs, &xz, &w, &ws, &wz, &ys, &yz, &b };
    cc_err e = { 0 };
    cc_node n = node_make("QLinearConv", 9, 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    CHECK(((uint8_t *)y.data)[0] == 102);
    CHECK(((uint8_t *)y.data)[1] == 97);
    ((uint8_t *)yz.data)[0] = 0;
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    CHECK(((uint8_t *)y.data)[0] == 2);
    CHECK(((uint8_t *)y.data)[1] == 0);
    CHECK(guard_ok(&y));
    cc_tensor *all[] = { &x, &xs, &xz, &w, &ws, &wz, &ys, &yz, &b, &y };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]->data);
}

/* Cases whose outputs are large enough for the chunked im2col path (at least two chunks
 * per thread on two threads), with groups, a batch, dilations, strides, asymmetric pads,
 * a bias and bf16 data. */
static void test_chunked_cases(void)
{
    static const char *const ids[] = {
        "Conv(x=2x512x20x64:f32,w=4x256x3x3,b=4,dilations=[1,2],group=2,pads=[1,2,0,1],strides=[2,1])",
        "Conv(x=1x512x16x16:bf16,w=4x512x3x3,pads=[1,1,1,1])",
    };
    void *ctx = NULL;
    cc_device_desc desc;
    cc_err e = { 0 };
    CHECK_OK(cc_target_cpu.open("", &ctx, &desc, &e));
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        cc_case c;
        if (cc_case_parse(ids[i], &c, &e)) {
            fprintf(stderr, "%s: %s\n", ids[i], e.msg);
            CHECK(0);
            continue;
        }
        for (int exact = 1; exact >= 0; exact--) {
            cc_case_inst inst;
            cc_golden gold[CC_MAX_IO];
            char reason[CC_REASON_MAX] = "";
            CHECK_OK(cc_case_instantiate(&c, 7 + (uint64_t)exact, exact, &inst, &e));
            CHECK_OK(cc_case_golden(&inst, gold, &e));
            void *plan = NULL;
            char note[256] = "";
            CHECK_OK(cc_target_cpu.prepare(ctx, &inst.graph, &plan, &e));
            cc_target_cpu.describe_plan(ctx, plan, note, sizeof note);
            cc_target_cpu.release(ctx, plan);
            CHECK(strstr(note, "in chunks of") != NULL);
            cc_verdict v = sweep_run_one(ctx, &inst, gold, reason, sizeof reason);
            if (v != CC_PASSED) fprintf(stderr, "FAIL %s [%d]: %s\n", ids[i], exact, reason);
            CHECK(v == CC_PASSED);
            cc_golden_free(gold, inst.n_out);
            cc_case_inst_free(&inst);
        }
    }
    cc_target_cpu.close(ctx);
}

int main(void)
{
    test_conv_1d();
    test_conv_3d_same_lower();
    test_convinteger();
    test_qlinearconv();
    omp_set_num_threads(2); /* the chunk choice depends on the thread count */
    test_chunked_cases();
    static const char *const ops[] = { "Conv", "ConvInteger", "QLinearConv" };
    sweep_ops(ops, 3);
    return CC_TEST_RESULT();
}
