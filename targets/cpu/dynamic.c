/* dynamic.c — the cpu backend's ops of data-dependent output shape (ops/dynamic.c states
 * their semantics): each writes its output's actual shape into out[j].shape (the buffer
 * was sized at the bound the planner inferred). NonZero in two passes (count, then
 * write); Unique by sorting the element (or slice) indices with qsort, then grouping;
 * NonMaxSuppression by sorting each class's candidates (qsort: score down, index up) and
 * a greedy pass with the intersection over union in float32; Compress by copying the
 * selected slices' bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

/* ---- NonZero -------------------------------------------------------------------------------- */

static cc_status nonzero_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                             void *state, cc_err *err)
{
    (void)ctx, (void)node, (void)n_out, (void)state, (void)err;
    const cc_tensor *x = in[0];
    const int r = x->shape.rank;
    const int64_t n = cc_tensor_numel(x);
    int64_t nnz = 0;
    for (int64_t i = 0; i < n; i++) nnz += cc_load(x->data, x->dtype, (size_t)i) != 0;
    int64_t *y = out[0].data, k = 0;
    for (int64_t i = 0; i < n; i++) {
        if (cc_load(x->data, x->dtype, (size_t)i) == 0) continue;
        int64_t rest = i;
        for (int d = r - 1; d >= 0; d--) {
            y[d * nnz + k] = rest % x->shape.dims[d];
            rest /= x->shape.dims[d];
        }
        k++;
    }
    out[0].shape.dims[1] = nnz;
    return CC_OK;
}

/* ---- Unique --------------------------------------------------------------------------------- */

typedef struct uniq_ctx {
    const cc_tensor *x;
    int64_t outer, len, inner;
} uniq_ctx;

static _Thread_local const uniq_ctx *cmp_ctx;

/* Slices a and b compared element by element: floats as doubles (NaN after every number,
 * equal to NaN), integers in their own 64 bits (signed or unsigned: exact past 2^53). */
static int slice_compare(int64_t a, int64_t b)
{
    const uniq_ctx *u = cmp_ctx;
    const cc_dtype d = u->x->dtype;
    const int is_float = cc_dtype_is_float(d), uns = cc_cpu_is_unsigned(d);
    for (int64_t o = 0; o < u->outer; o++)
        for (int64_t i = 0; i < u->inner; i++) {
            int64_t ia = (o * u->len + a) * u->inner + i, ib = (o * u->len + b) * u->inner + i;
            if (!is_float) {
                uint64_t xa = cc_cpu_int_at(u->x->data, d, ia), xb = cc_cpu_int_at(u->x->data, d, ib);
                if (xa != xb) return (uns ? xa < xb : (int64_t)xa < (int64_t)xb) ? -1 : 1;
                continue;
            }
            double va = cc_cpu_real_at(u->x->data, d, ia), vb = cc_cpu_real_at(u->x->data, d, ib);
            int na = isnan(va), nb = isnan(vb);
            if (na || nb) {
                if (na != nb) return na ? 1 : -1;
                continue;
            }
            if (va != vb) return va < vb ? -1 : 1;
        }
    return 0;
}

/* slices by value, equal ones by index: each group's first is its first occurrence */
static int by_slice_then_index(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    int c = slice_compare(a, b);
    return c ? c : (a > b) - (a < b);
}

static int by_first(const void *pa, const void *pb)
{
    const int64_t *a = pa, *b = pb; /* (first occurrence, group) pairs */
    return (a[0] > b[0]) - (a[0] < b[0]);
}

static cc_status unique_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            void *state, cc_err *err)
{
    (void)ctx, (void)state;
    const cc_tensor *x = in[0];
    uniq_ctx u = { .x = x, .outer = 1, .inner = 1 };
    const cc_attr_value *ax = cc_attr_get(node, "axis");
    int axis = -1;
    if (ax->set) {
        axis = (int)(ax->i < 0 ? ax->i + x->shape.rank : ax->i);
        for (int d = 0; d < axis; d++) u.outer *= x->shape.dims[d];
        for (int d = axis + 1; d < x->shape.rank; d++) u.inner *= x->shape.dims[d];
        u.len = x->shape.dims[axis];
    } else {
        u.len = cc_tensor_numel(x);
    }
    const int64_t L = u.len;
    int64_t *order = malloc(sizeof(int64_t) * (size_t)(L + 1)), *group = malloc(sizeof(int64_t) * (size_t)(L + 1));
    int64_t *pairs = malloc(sizeof(int64_t) * 2 * (size_t)(L + 1)), *pos = malloc(sizeof(int64_t) * (size_t)(L + 1));
    int64_t *count = calloc((size_t)(L + 1), sizeof(int64_t));
    if (!order || !group || !pairs || !pos || !count) {
        free(order), free(group), free(pairs), free(pos), free(count);
        return cc_err_set(err, CC_ERR_NOMEM, "Unique: out of memory");
    }
    for (int64_t i = 0; i < L; i++) order[i] = i;
    cmp_ctx = &u;
    qsort(order, (size_t)L, sizeof *order, by_slice_then_index);
    /* groups in ascending order: g-th group's first occurrence in pairs[2g] */
    int64_t ng = 0;
    for (int64_t i = 0; i < L; i++) {
        if (i == 0 || slice_compare(order[i - 1], order[i]) != 0) {
            pairs[2 * ng] = order[i];
            pairs[2 * ng + 1] = ng;
            ng++;
        }
        group[order[i]] = ng - 1;
        count[ng - 1]++;
    }
    if (cc_attr_i(node, "sorted") == 0) qsort(pairs, (size_t)ng, 2 * sizeof *pairs, by_first);
    for (int64_t p = 0; p < ng; p++) pos[pairs[2 * p + 1]] = p; /* a group's output position */
    size_t es = cc_dtype_size(x->dtype);
    for (int64_t p = 0; p < ng; p++)
        for (int64_t o = 0; o < u.outer; o++)
            memcpy((char *)out[0].data + (size_t)((o * ng + p) * u.inner) * es,
                   (const char *)x->data + (size_t)((o * L + pairs[2 * p]) * u.inner) * es, (size_t)u.inner * es);
    for (int64_t p = 0; p < ng && n_out > 1; p++) ((int64_t *)out[1].data)[p] = pairs[2 * p];
    for (int64_t i = 0; i < L && n_out > 2; i++) ((int64_t *)out[2].data)[i] = pos[group[i]];
    for (int64_t p = 0; p < ng && n_out > 3; p++) ((int64_t *)out[3].data)[p] = count[pairs[2 * p + 1]];
    if (axis >= 0) out[0].shape.dims[axis] = ng;
    else out[0].shape.dims[0] = ng;
    if (n_out > 1) out[1].shape.dims[0] = ng;
    if (n_out > 3) out[3].shape.dims[0] = ng;
    free(order), free(group), free(pairs), free(pos), free(count);
    return CC_OK;
}

/* ---- NonMaxSuppression ---------------------------------------------------------------------- */

typedef struct scored {
    float score;
    int64_t index;
} scored;

static int by_score(const void *pa, const void *pb)
{
    const scored *a = pa, *b = pb;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* corners (y0, x0, y1, x1) with y0 <= y1 and x0 <= x1 */
static void corners(const float *v, int center, float *c)
{
    if (center) {
        c[0] = v[1] - v[3] / 2, c[2] = v[1] + v[3] / 2;
        c[1] = v[0] - v[2] / 2, c[3] = v[0] + v[2] / 2;
    } else {
        c[0] = fminf(v[0], v[2]), c[2] = fmaxf(v[0], v[2]);
        c[1] = fminf(v[1], v[3]), c[3] = fmaxf(v[1], v[3]);
    }
}

static int overlaps(const float *a, const float *b, float thr)
{
    float aa = (a[2] - a[0]) * (a[3] - a[1]), ab = (b[2] - b[0]) * (b[3] - b[1]);
    if (aa <= 0 || ab <= 0) return 0;
    float ih = fminf(a[2], b[2]) - fmaxf(a[0], b[0]), iw = fminf(a[3], b[3]) - fmaxf(a[1], b[1]);
    if (ih <= 0 || iw <= 0) return 0;
    float inter = ih * iw;
    return inter / (aa + ab - inter) > thr;
}

static cc_status nms_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    (void)ctx, (void)n_out, (void)state;
    const cc_tensor *bx = in[0], *sc = in[1];
    const cc_tensor *m = node->n_in > 2 ? in[2] : NULL, *it = node->n_in > 3 ? in[3] : NULL, *st = node->n_in > 4 ? in[4] : NULL;
    const int64_t B = bx->shape.dims[0], N = bx->shape.dims[1], C = sc->shape.dims[1];
    const int64_t maxo = m ? ((const int64_t *)m->data)[0] : 0;
    const float thr = it ? ((const float *)it->data)[0] : 0;
    const int center = (int)cc_attr_i(node, "center_point_box");
    scored *cand = malloc(sizeof *cand * (size_t)(N + 1));
    float *box = malloc(sizeof(float) * 4 * (size_t)(N + 1));
    int64_t *kept = malloc(sizeof(int64_t) * (size_t)(N + 1));
    if (!cand || !box || !kept) {
        free(cand), free(box), free(kept);
        return cc_err_set(err, CC_ERR_NOMEM, "NonMaxSuppression: out of memory");
    }
    int64_t *y = out[0].data, rows = 0;
    for (int64_t b = 0; b < B; b++) {
        for (int64_t i = 0; i < N; i++) corners((const float *)bx->data + (b * N + i) * 4, center, box + i * 4);
        for (int64_t c = 0; c < C; c++) {
            const float *s = (const float *)sc->data + (b * C + c) * N;
            int64_t nc = 0, nk = 0;
            for (int64_t i = 0; i < N; i++)
                if (!st || s[i] > ((const float *)st->data)[0]) cand[nc++] = (scored){ s[i], i };
            qsort(cand, (size_t)nc, sizeof *cand, by_score);
            for (int64_t i = 0; i < nc && nk < maxo; i++) {
                int keep = 1;
                for (int64_t q = 0; q < nk && keep; q++) keep = !overlaps(box + cand[i].index * 4, box + kept[q] * 4, thr);
                if (!keep) continue;
                kept[nk++] = cand[i].index;
                y[rows * 3] = b, y[rows * 3 + 1] = c, y[rows * 3 + 2] = cand[i].index;
                rows++;
            }
        }
    }
    out[0].shape.dims[0] = rows;
    free(cand), free(box), free(kept);
    return CC_OK;
}

/* ---- Compress ------------------------------------------------------------------------------- */

static cc_status compress_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                              void *state, cc_err *err)
{
    (void)ctx, (void)n_out, (void)state, (void)err;
    const cc_tensor *x = in[0];
    const uint8_t *cond = in[1]->data;
    const cc_attr_value *a = cc_attr_get(node, "axis");
    int axis = -1;
    int64_t outer = 1, len = cc_tensor_numel(x), inner = 1, nc = in[1]->shape.dims[0];
    if (a && a->set) {
        axis = (int)(a->i < 0 ? a->i + x->shape.rank : a->i);
        len = x->shape.dims[axis];
        for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
        for (int d = axis + 1; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    }
    if (nc > len) nc = len;
    const size_t slice = (size_t)inner * cc_dtype_size(x->dtype);
    const uint8_t *src = x->data;
    uint8_t *dst = out[0].data;
    int64_t kept = 0;
    for (int64_t o = 0; o < outer; o++) {
        kept = 0;
        for (int64_t c = 0; c < nc; c++)
            if (cond[c]) {
                memcpy(dst, src + (size_t)(o * len + c) * slice, slice);
                dst += slice;
                kept++;
            }
    }
    if (axis >= 0) out[0].shape.dims[axis] = kept;
    else out[0].shape = cc_shape_make(1, &kept);
    return CC_OK;
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_NonZero, .run = nonzero_run },
    { .op = CC_OP_ID_Unique, .run = unique_run },
    { .op = CC_OP_ID_NonMaxSuppression, .run = nms_run },
    { .op = CC_OP_ID_Compress, .run = compress_run },
};

const cc_kernel_list cc_cpu_family_dynamic = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
