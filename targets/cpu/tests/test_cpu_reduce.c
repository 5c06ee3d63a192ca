/* test_cpu_reduce.c — the cpu backend's Softmax, ReduceMean and ReduceMax: hand examples
 * and independent loop formulas over every axis layout (reduced inner run, kept inner
 * run, several axes, negative axes, no axes), then every quick case through the cpu
 * target's vtable against the golden model. */
#include <math.h>

#include "cpu_sweep.h"

#define F (&cc_cpu_family_reduce)

static void test_softmax_hand(void)
{
    int64_t d[1] = {3};
    cc_tensor x = tensor_make(CC_F32, 1, d, (double[]){1, 2, 3});
    cc_tensor y = tensor_make(CC_F32, 1, d, NULL);
    const cc_tensor *in[1] = {&x};
    cc_err e = {0};
    cc_node n = node_make("Softmax", 1, 1);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    double s = exp(1.0) + exp(2.0) + exp(3.0);
    for (int i = 0; i < 3; i++) CHECK_NEAR(((float *)y.data)[i], exp(i + 1.0) / s, 1e-6);
    /* large inputs: the max is subtracted first, so nothing overflows */
    ((float *)x.data)[0] = 1000;
    ((float *)x.data)[1] = 1001;
    ((float *)x.data)[2] = -1000;
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    CHECK_NEAR(((float *)y.data)[0], 1 / (1 + exp(1.0)), 1e-6);
    CHECK_NEAR(((float *)y.data)[1], exp(1.0) / (1 + exp(1.0)), 1e-6);
    CHECK(((float *)y.data)[2] == 0.0f);
    CHECK(guard_ok(&y));
    free(x.data);
    free(y.data);
}

/* Softmax of a 3x4x5 tensor along `axis` against a direct formula. */
static void softmax_vs_formula(int64_t axis, cc_dtype dt)
{
    int64_t d[3] = {3, 4, 5};
    double v[60];
    for (int i = 0; i < 60; i++) v[i] = ((i * 13) % 17) / 4.0 - 2;
    cc_tensor x = tensor_make(dt, 3, d, v), y = tensor_make(dt, 3, d, NULL);
    const cc_tensor *in[1] = {&x};
    cc_err e = {0};
    cc_node n = node_make("Softmax", 1, 1);
    node_set_i(&n, "axis", axis);
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    int ax = (int)(axis < 0 ? axis + 3 : axis);
    int64_t st[3] = {20, 5, 1};
    double tol = dt == CC_F32 ? 1e-6 : 4 * cc_dtype_unit_roundoff(dt);
    for (int i = 0; i < 60; i++) {
        int64_t idx[3] = {i / 20, (i / 5) % 4, i % 5};
        int64_t base = i - idx[ax] * st[ax];
        double den = 0;
        for (int64_t k = 0; k < d[ax]; k++) den += exp(cc_load(x.data, dt, (size_t)(base + k * st[ax])));
        double want = exp(cc_load(x.data, dt, (size_t)i)) / den;
        CHECK_NEAR(cc_load(y.data, dt, (size_t)i), want, tol);
    }
    CHECK(guard_ok(&y));
    free(x.data);
    free(y.data);
}

/* Reduce (Mean or Max) of a rank-4 tensor over the axes in mask against explicit loops. */
static void reduce_vs_formula(const char *op, cc_dtype dt, const int64_t *d, int n_axes,
                              const int64_t *axes, int keepdims)
{
    int64_t total = d[0] * d[1] * d[2] * d[3];
    double *v = malloc(sizeof(double) * (size_t)total);
    for (int64_t i = 0; i < total; i++) v[i] = (double)((i * 37) % 29) - 14;
    int red[4] = {n_axes == 0, n_axes == 0, n_axes == 0, n_axes == 0};
    for (int i = 0; i < n_axes; i++) red[axes[i] < 0 ? axes[i] + 4 : axes[i]] = 1;
    int64_t od[4];
    int orank = 0;
    for (int i = 0; i < 4; i++)
        if (!red[i]) od[orank++] = d[i];
        else if (keepdims) od[orank++] = 1;
    cc_tensor x = tensor_make(dt, 4, d, v), y = tensor_make(dt, orank, od, NULL);
    cc_node n = node_make(op, 1, 1);
    if (n_axes) node_set_ints(&n, "axes", n_axes, axes);
    node_set_i(&n, "keepdims", keepdims);
    const cc_tensor *in[1] = {&x};
    cc_err e = {0};
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    int is_mean = strcmp(op, "ReduceMean") == 0, bad = 0;
    int64_t o = 0;
    for (int64_t a = 0; a < (red[0] ? 1 : d[0]); a++)
        for (int64_t b = 0; b < (red[1] ? 1 : d[1]); b++)
            for (int64_t c = 0; c < (red[2] ? 1 : d[2]); c++)
                for (int64_t w = 0; w < (red[3] ? 1 : d[3]); w++, o++) {
                    double sum = 0, m = -INFINITY, cnt = 0;
                    for (int64_t i0 = red[0] ? 0 : a; i0 < (red[0] ? d[0] : a + 1); i0++)
                        for (int64_t i1 = red[1] ? 0 : b; i1 < (red[1] ? d[1] : b + 1); i1++)
                            for (int64_t i2 = red[2] ? 0 : c; i2 < (red[2] ? d[2] : c + 1); i2++)
                                for (int64_t i3 = red[3] ? 0 : w; i3 < (red[3] ? d[3] : w + 1); i3++) {
                                    double x0 = v[((i0 * d[1] + i1) * d[2] + i2) * d[3] + i3];
                                    sum += x0;
                                    m = x0 > m ? x0 : m;
                                    cnt++;
                                }
                    double want = is_mean ? sum / cnt : m;
                    double got = cc_load(y.data, dt, (size_t)o);
                    double tol = 2 * fabs(want) * cc_dtype_unit_roundoff(dt);
                    if (fabs(got - want) > tol && bad++ < 3)
                        fprintf(stderr, "%s at %lld: got %g want %g\n", op, (long long)o, got, want);
                }
    CHECK(o == cc_tensor_numel(&y));
    CHECK(bad == 0);
    CHECK(guard_ok(&y));
    free(v);
    free(x.data);
    free(y.data);
}

static void test_reduce(void)
{
    static const struct { int64_t d[4]; int n; int64_t axes[4]; int keep; } cases[] = {
        {{2, 3, 4, 5}, 2, {2, 3}, 1},      /* spatial mean: reduced inner run */
        {{2, 3, 4, 5}, 1, {1}, 0},         /* channel: kept inner run */
        {{2, 3, 4, 5}, 1, {-1}, 1},        /* negative axis */
        {{2, 3, 4, 5}, 2, {0, 2}, 0},      /* alternating */
        {{2, 3, 4, 5}, 0, {0}, 1},         /* no axes: everything */
        {{2, 3, 4, 5}, 0, {0}, 0},
        {{1, 64, 32, 32}, 1, {1}, 1},      /* 65536 inputs: threaded, kept run chunked */
        {{1, 64, 32, 32}, 2, {-2, -1}, 1}, /* threaded rows */
        {{3, 1, 1, 7}, 2, {1, 2}, 1},      /* reducing size-1 dims only */
    };
    static const cc_dtype dts[] = {CC_F32, CC_F16, CC_BF16};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (size_t t = 0; t < 3; t++) {
            reduce_vs_formula("ReduceMean", dts[t], cases[i].d, cases[i].n, cases[i].axes, cases[i].keep);
            reduce_vs_formula("ReduceMax", dts[t], cases[i].d, cases[i].n, cases[i].axes, cases[i].keep);
        }
    /* hand example: mean and max over the last axis of [[1,2,6],[-3,0,-1]] */
    int64_t d[2] = {2, 3}, od[2] = {2, 1};
    cc_tensor x = tensor_make(CC_F32, 2, d, (double[]){1, 2, 6, -3, 0, -1});
    cc_tensor y = tensor_make(CC_F32, 2, od, NULL);
    const cc_tensor *in[1] = {&x};
    cc_err e = {0};
    cc_node n = node_make("ReduceMean", 1, 1);
    node_set_ints(&n, "axes", 1, (int64_t[]){1});
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    CHECK(((float *)y.data)[0] == 3.0f && ((float *)y.data)[1] == -4.0f / 3.0f);
    n = node_make("ReduceMax", 1, 1);
    node_set_ints(&n, "axes", 1, (int64_t[]){-1});
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    CHECK(((float *)y.data)[0] == 6.0f && ((float *)y.data)[1] == 0.0f);
    /* an axis out of range is refused */
    node_set_ints(&n, "axes", 1, (int64_t[]){2});
    CHECK(kernel_call(F, &n, in, 1, &y, &e) == CC_ERR_ARG);
    CHECK(guard_ok(&y));
    free(x.data);
    free(y.data);
}

int main(void)
{
    test_softmax_hand();
    for (int64_t ax = -3; ax < 3; ax++) softmax_vs_formula(ax, CC_F32);
    softmax_vs_formula(1, CC_F16);
    softmax_vs_formula(-1, CC_BF16);
    test_reduce();
    static const char *const ops[] = {"Softmax", "ReduceMean", "ReduceMax"};
    sweep_ops(ops, 3);
    return CC_TEST_RESULT();
}
