/* test_cpu_shape.c — the cpu backend's data-movement kernels (Flatten, Reshape, Transpose,
 * Concat, Split, Slice): hand examples and independent index formulas for every element
 * size, then every quick case through the cpu target's vtable against the golden model. */
#include "cpu_sweep.h"

#define F (&cc_cpu_family_shape)

/* Fills t with values exact in its dtype: i mod 101 - 50 (u8: i mod 251), plus 128 * (i/101)
 * where the dtype is wide enough to keep every element distinct. */
static void fill_distinct(cc_tensor *t)
{
    for (int64_t i = 0; i < cc_tensor_numel(t); i++) {
        double v = t->dtype == CC_U8 ? (double)(i % 251) : (double)(i % 101) - 50;
        if (t->dtype == CC_F32 || t->dtype == CC_I32 || t->dtype == CC_I64) v += (double)(i / 101) * 128;
        cc_store(t->data, t->dtype, (size_t)i, v);
    }
}

static cc_tensor i64_tensor(int n, const int64_t *v)
{
    int64_t d[1] = {n};
    cc_tensor t = tensor_make(CC_I64, 1, d, NULL);
    for (int i = 0; i < n; i++) ((int64_t *)t.data)[i] = v[i];
    return t;
}

static void test_flatten_reshape(void)
{
    int64_t d[3] = {2, 3, 4};
    cc_tensor x = tensor_make(CC_F16, 3, d, NULL);
    fill_distinct(&x);
    cc_err e = {0};
    const cc_tensor *in1[1] = {&x};
    static const struct { int64_t axis, a, b; } fl[] = {{0, 1, 24}, {1, 2, 12}, {2, 6, 4}, {3, 24, 1}, {-1, 6, 4}};
    for (size_t k = 0; k < sizeof fl / sizeof fl[0]; k++) {
        cc_node n = node_make("Flatten", 1, 1);
        node_set_i(&n, "axis", fl[k].axis);
        int64_t od[2] = {fl[k].a, fl[k].b};
        cc_tensor y = tensor_make(CC_F16, 2, od, NULL);
        CHECK_OK(kernel_call(F, &n, in1, 1, &y, &e));
        CHECK(memcmp(x.data, y.data, cc_tensor_bytes(&x)) == 0);
        CHECK(guard_ok(&y));
        free(y.data);
    }
    /* Reshape [2,3,4] by [0,-1]: 0 copies dim 0, -1 takes the rest */
    cc_tensor sh = i64_tensor(2, (int64_t[]){0, -1});
    int64_t od[2] = {2, 12};
    cc_tensor y = tensor_make(CC_F16, 2, od, NULL);
    cc_node n = node_make("Reshape", 2, 1);
    const cc_tensor *in2[2] = {&x, &sh};
    CHECK_OK(kernel_call(F, &n, in2, 1, &y, &e));
    CHECK(memcmp(x.data, y.data, cc_tensor_bytes(&x)) == 0);
    CHECK(guard_ok(&y));
    /* an output shape the shape input does not give is refused */
    ((int64_t *)sh.data)[0] = 4;
    CHECK(kernel_call(F, &n, in2, 1, &y, &e) == CC_ERR_ARG);
    /* allowzero = 1 keeps a 0 as a zero dim: [2,0] from an empty input */
    int64_t ed[2] = {0, 3}, eo[2] = {3, 0};
    cc_tensor ex = tensor_make(CC_F32, 2, ed, NULL), ey = tensor_make(CC_F32, 2, eo, NULL);
    cc_tensor sh2 = i64_tensor(2, (int64_t[]){3, 0});
    node_set_i(&n, "allowzero", 1);
    const cc_tensor *in3[2] = {&ex, &sh2};
    CHECK_OK(kernel_call(F, &n, in3, 1, &ey, &e));
    free(x.data); free(sh.data); free(y.data); free(ex.data); free(ey.data); free(sh2.data);
}

/* Transpose of a rank-r tensor by perm against y[o] = x[sum o_i * stride_x[perm_i]]. */
static void transpose_vs_formula(cc_dtype dt, int r, const int64_t *d, const int64_t *perm)
{
    cc_tensor x = tensor_make(dt, r, d, NULL);
    fill_distinct(&x);
    int64_t od[CC_MAX_RANK], xs[CC_MAX_RANK], s = 1;
    for (int i = r - 1; i >= 0; i--) {
        xs[i] = s;
        s *= d[i];
    }
    for (int i = 0; i < r; i++) od[i] = d[perm ? perm[i] : r - 1 - i];
    cc_tensor y = tensor_make(dt, r, od, NULL);
    cc_node n = node_make("Transpose", 1, 1);
    if (perm) node_set_ints(&n, "perm", r, perm);
    const cc_tensor *in[1] = {&x};
    cc_err e = {0};
    CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
    int bad = 0;
    for (int64_t o = 0; o < cc_tensor_numel(&y); o++) {
        int64_t rem = o, ix = 0;
        for (int i = r - 1; i >= 0; i--) {
            ix += (rem % od[i]) * xs[perm ? perm[i] : r - 1 - i];
            rem /= od[i];
        }
        if (cc_load(y.data, dt, (size_t)o) != cc_load(x.data, dt, (size_t)ix)) bad++;
    }
    if (bad) fprintf(stderr, "Transpose %s rank %d: %d wrong\n", cc_dtype_name(dt), r, bad);
    CHECK(bad == 0);
    CHECK(guard_ok(&y));
    free(x.data);
    free(y.data);
}

static void test_transpose(void)
{
    static const struct { int r; int64_t d[6]; int64_t perm[6]; int def; } cases[] = {
        {2, {3, 5}, {1, 0}, 0},
        {3, {4, 33, 65}, {0, 2, 1}, 0},             /* last-two swap, partial tiles */
        {4, {2, 3, 4, 5}, {0, 2, 3, 1}, 0},         /* NCHW -> NHWC */
        {4, {2, 3, 4, 5}, {0, 3, 1, 2}, 0},         /* NHWC -> NCHW */
        {4, {2, 3, 4, 5}, {1, 0, 2, 3}, 0},         /* contiguous inner runs */
        {4, {2, 3, 4, 5}, {3, 2, 1, 0}, 1},         /* default: reversed */
        {4, {2, 1, 4, 1}, {3, 2, 0, 1}, 0},         /* size-1 dims */
        {5, {2, 3, 2, 3, 2}, {4, 0, 3, 1, 2}, 0},
        {6, {2, 2, 3, 2, 2, 3}, {5, 3, 1, 0, 2, 4}, 0},
        {4, {1, 64, 40, 40}, {0, 2, 3, 1}, 0},      /* 102400 elements: threaded */
    };
    static const cc_dtype dts[] = {CC_U8, CC_F16, CC_F32, CC_I64};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (size_t t = 0; t < 4; t++)
            transpose_vs_formula(dts[t], cases[k].r, cases[k].d, cases[k].def ? NULL : cases[k].perm);
}

static void test_concat_split(void)
{
    /* Concat of 2x1x3, 2x2x3, 2x3x3 along axis 1 (and -2), then Split back */
    int64_t da[3] = {2, 1, 3}, db[3] = {2, 2, 3}, dc[3] = {2, 3, 3}, dy[3] = {2, 6, 3};
    cc_tensor a = tensor_make(CC_I32, 3, da, NULL), b = tensor_make(CC_I32, 3, db, NULL);
    cc_tensor c = tensor_make(CC_I32, 3, dc, NULL), y = tensor_make(CC_I32, 3, dy, NULL);
    for (int i = 0; i < 6; i++) ((int32_t *)a.data)[i] = 100 + i;
    for (int i = 0; i < 12; i++) ((int32_t *)b.data)[i] = 200 + i;
    for (int i = 0; i < 18; i++) ((int32_t *)c.data)[i] = 300 + i;
    cc_err e = {0};
    for (int64_t axis = 1; axis >= -2; axis -= 3) {
        cc_node n = node_make("Concat", 3, 1);
        node_set_i(&n, "axis", axis);
        const cc_tensor *in[3] = {&a, &b, &c};
        CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
        const int32_t *yv = y.data;
        /* row i0, position j along the axis, column k */
        for (int i0 = 0; i0 < 2; i0++)
            for (int j = 0; j < 6; j++)
                for (int k = 0; k < 3; k++) {
                    int32_t want = j < 1 ? 100 + i0 * 3 + k
                                 : j < 3 ? 200 + i0 * 6 + (j - 1) * 3 + k
                                         : 300 + i0 * 9 + (j - 3) * 3 + k;
                    CHECK(yv[(i0 * 6 + j) * 3 + k] == want);
                }
        CHECK(guard_ok(&y));
    }
    /* Split y along axis 1 into [1,2,3] gives a, b, c back */
    cc_tensor parts[3] = {tensor_make(CC_I32, 3, da, NULL), tensor_make(CC_I32, 3, db, NULL),
                          tensor_make(CC_I32, 3, dc, NULL)};
    cc_tensor sp = i64_tensor(3, (int64_t[]){1, 2, 3});
    cc_node n = node_make("Split", 2, 3);
    node_set_i(&n, "axis", 1);
    const cc_tensor *in[2] = {&y, &sp};
    CHECK_OK(kernel_call(F, &n, in, 3, parts, &e));
    CHECK(memcmp(parts[0].data, a.data, cc_tensor_bytes(&a)) == 0);
    CHECK(memcmp(parts[1].data, b.data, cc_tensor_bytes(&b)) == 0);
    CHECK(memcmp(parts[2].data, c.data, cc_tensor_bytes(&c)) == 0);
    for (int j = 0; j < 3; j++) CHECK(guard_ok(&parts[j]));
    /* a split that disagrees with the output shapes is refused */
    ((int64_t *)sp.data)[0] = 2;
    CHECK(kernel_call(F, &n, in, 3, parts, &e) == CC_ERR_ARG);
    /* equal split without the split input: 2x6x3 into three 2x2x3 along axis -2 */
    cc_tensor eq[3] = {tensor_make(CC_I32, 3, db, NULL), tensor_make(CC_I32, 3, db, NULL),
                       tensor_make(CC_I32, 3, db, NULL)};
    cc_node n2 = node_make("Split", 1, 3);
    node_set_i(&n2, "axis", -2);
    const cc_tensor *in2[1] = {&y};
    CHECK_OK(kernel_call(F, &n2, in2, 3, eq, &e));
    for (int j = 0; j < 3; j++) {
        for (int i0 = 0; i0 < 2; i0++)
            for (int r = 0; r < 6; r++)
                CHECK(((int32_t *)eq[j].data)[i0 * 6 + r] == ((int32_t *)y.data)[i0 * 18 + j * 6 + r]);
        CHECK(guard_ok(&eq[j]));
        free(eq[j].data);
        free(parts[j].data);
    }
    free(a.data); free(b.data); free(c.data); free(y.data); free(sp.data);
}

/* Slice of a 4x5x6 tensor against the index formula x[start + i*step] per axis; the
 * expected start and count per axis are worked out by hand in the table. */
static void test_slice(void)
{
    static const struct {
        int n;
        int64_t starts[3], ends[3], axes[3], steps[3];
        int has_axes, has_steps;
        int64_t start[3], step[3], count[3];  /* expected, per axis 0..2 */
    } cases[] = {
        /* plain: [1:3, :, 2:5] */
        {2, {1, 2}, {3, 5}, {0, 2}, {1, 1}, 1, 0, {1, 0, 2}, {1, 1, 1}, {2, 5, 3}},
        /* negative start/end and clamping: [-3:100] on axis 1 */
        {1, {-3}, {100}, {1}, {1}, 1, 0, {0, 2, 0}, {1, 1, 1}, {4, 3, 6}},
        /* step 2 on axis 2: [0:6:2] */
        {1, {0}, {6}, {-1}, {2}, 1, 1, {0, 0, 0}, {1, 1, 2}, {4, 5, 3}},
        /* reversal: [::-1] on axis 0 (start INT_MAX clamps to 3, end INT_MIN to -1) */
        {1, {INT64_MAX}, {INT64_MIN}, {0}, {-1}, 1, 1, {3, 0, 0}, {-1, 1, 1}, {4, 5, 6}},
        /* negative step with bounds: [4:0:-2] on axis 2 -> 4, 2 */
        {1, {4}, {0}, {2}, {-2}, 1, 1, {0, 0, 4}, {1, 1, -2}, {4, 5, 2}},
        /* every axis, no axes input: [1:4:2, -1:-6:-1, 5:-100:-3] */
        {3, {1, -1, 5}, {4, -6, -100}, {0, 1, 2}, {2, -1, -3}, 0, 1, {1, 4, 5}, {2, -1, -3}, {2, 5, 2}},
        /* empty: [3:1] on axis 1 */
        {1, {3}, {1}, {1}, {1}, 1, 0, {0, 3, 0}, {1, 1, 1}, {4, 0, 6}},
    };
    int64_t d[3] = {4, 5, 6};
    cc_err e = {0};
    for (int dt_i = 0; dt_i < 3; dt_i++) {
        cc_dtype dt = dt_i == 0 ? CC_F32 : dt_i == 1 ? CC_BF16 : CC_U8;
        cc_tensor x = tensor_make(dt, 3, d, NULL);
        fill_distinct(&x);
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            cc_tensor st = i64_tensor(cases[k].n, cases[k].starts);
            cc_tensor en = i64_tensor(cases[k].n, cases[k].ends);
            cc_tensor ax = i64_tensor(cases[k].n, cases[k].axes);
            cc_tensor sp = i64_tensor(cases[k].n, cases[k].steps);
            cc_tensor y = tensor_make(dt, 3, cases[k].count, NULL);
            cc_node n = node_make("Slice", cases[k].has_steps ? 5 : cases[k].has_axes ? 4 : 3, 1);
            const cc_tensor *in[5] = {&x, &st, &en, cases[k].has_axes ? &ax : NULL, &sp};
            CHECK_OK(kernel_call(F, &n, in, 1, &y, &e));
            int bad = 0;
            const int64_t *c = cases[k].count, *s0 = cases[k].start, *s1 = cases[k].step;
            for (int64_t i = 0; i < c[0]; i++)
                for (int64_t j = 0; j < c[1]; j++)
                    for (int64_t l = 0; l < c[2]; l++) {
                        int64_t xi = ((s0[0] + i * s1[0]) * 5 + s0[1] + j * s1[1]) * 6 + s0[2] + l * s1[2];
                        if (cc_load(y.data, dt, (size_t)((i * c[1] + j) * c[2] + l)) !=
                            cc_load(x.data, dt, (size_t)xi))
                            bad++;
                    }
            if (bad) fprintf(stderr, "Slice case %zu (%s): %d wrong\n", k, cc_dtype_name(dt), bad);
            CHECK(bad == 0);
            CHECK(guard_ok(&y));
            free(st.data); free(en.data); free(ax.data); free(sp.data); free(y.data);
        }
        free(x.data);
    }
    /* step 0 is refused */
    cc_tensor x = tensor_make(CC_F32, 3, d, NULL), y = tensor_make(CC_F32, 3, d, NULL);
    cc_tensor st = i64_tensor(1, (int64_t[]){0}), en = i64_tensor(1, (int64_t[]){4});
    cc_tensor ax = i64_tensor(1, (int64_t[]){0}), sp = i64_tensor(1, (int64_t[]){0});
    cc_node n = node_make("Slice", 5, 1);
    const cc_tensor *in[5] = {&x, &st, &en, &ax, &sp};
    CHECK(kernel_call(F, &n, in, 1, &y, &e) == CC_ERR_ARG);
    free(x.data); free(y.data); free(st.data); free(en.data); free(ax.data); free(sp.data);
}

int main(void)
{
    test_flatten_reshape();
    test_transpose();
    test_concat_split();
    test_slice();
    static const char *const ops[] = {"Flatten", "Reshape", "Transpose", "Concat", "Split", "Slice"};
    sweep_ops(ops, 6);
    return CC_TEST_RESULT();
}
