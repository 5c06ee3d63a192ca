/* dynamic.c — ops whose output extent depends on their input values (CC_TRAIT_DYNAMIC_SHAPE:
 * infer() gives the bound, golden() writes the actual shape, ops/op_ids.h):
 *
 * NonZero (opset 13): the indices of X's non-zero elements in row-major order, as an
 *   int64 tensor [rank, nnz] (bound [rank, numel]); a scalar gives [0, nnz].
 * Unique (opset 11): the distinct values of the flattened X (no axis) or the distinct
 *   slices along axis, ascending (sorted=1: values; slices compared element by element in
 *   row-major order) or in order of first occurrence (sorted=0), with the optional
 *   outputs indices (each one's first occurrence in X), inverse_indices (for each element or
 *   slice of X, its position in Y: static shape) and counts. NaN compares equal to NaN
 *   here (one unique NaN), as numpy >= 1.21 does.
 * NonMaxSuppression (opset 11): per batch and class, the boxes whose score is above
 *   score_threshold (when given), taken by descending score (equal scores: the lower box
 *   index first), each kept unless its intersection over union with a box already kept
 *   exceeds iou_threshold, at most max_output_boxes_per_class of them (0: none); the
 *   output [num_selected, 3] lists (batch, class, box) in that order. Boxes are corners
 *   [y1, x1, y2, x2] in either diagonal (center_point_box=0) or [x_center, y_center,
 *   width, height] (1); a box of zero area overlaps nothing. Bound: [B * C * min(max, N), 3].
 * Compress (opset 11): the slices of input along axis (or the elements of the flattened
 *   input, without axis) whose entry in the 1-D boolean condition is true, in order; a
 *   condition shorter than the axis selects nothing past its end, a longer one is refused.
 *   Bound: the input's shape (its numel flattened).
 *
 * Every output is an index or a copied value: exact (S = |value|, K = 1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

#define ALL_DTYPES                                                                                             \
    (CC_DTYPES_FLOAT | CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8) | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64) | \
     CC_DTYPE_BIT(CC_BOOL))

static void put(cc_golden *o, int64_t i, double v)
{
    o->value[i] = v;
    o->mag[i] = fabs(v);
}

/* Output element i := element at of x (an i64 exactly). */
static void put_elem(cc_golden *o, int64_t i, const cc_tensor *x, int64_t at)
{
    if (o->exact && x->dtype == CC_I64) cc_golden_put_int(o, i, ((const int64_t *)x->data)[at]);
    else put(o, i, cc_load(x->data, x->dtype, (size_t)at));
}

/* ---- NonZero ------------------------------------------------------------------------------ */

static cc_status nonzero_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                               cc_err *err)
{
    (void)node;
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "NonZero: has 1 output, asked for %d", n_out);
    if (!in[0]) return cc_err_set(err, CC_ERR_ARG, "NonZero: X is required");
    int64_t n;
    cc_status st = cc_shape_numel_checked(&in[0]->shape, &n, err);
    if (st) return st;
    int64_t dims[2] = { in[0]->shape.rank, n };
    out[0].dtype = CC_I64;
    out[0].shape = cc_shape_make(2, dims);
    out[0].data = NULL;
    return CC_OK;
}

static cc_status nonzero_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                                cc_err *err)
{
    (void)node;
    (void)n_out;
    (void)err;
    const cc_tensor *x = in[0];
    const int r = x->shape.rank;
    int64_t n = cc_tensor_numel(x), nnz = 0;
    for (int64_t i = 0; i < n; i++) nnz += cc_load(x->data, x->dtype, (size_t)i) != 0;
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        if (cc_load(x->data, x->dtype, (size_t)i) == 0) continue;
        int64_t rest = i;
        for (int d = r - 1; d >= 0; d--) {
            put(&out[0], d * nnz + k, (double)(rest % x->shape.dims[d]));
            rest /= x->shape.dims[d];
        }
        k++;
    }
    out[0].shape = cc_shape_make(2, (int64_t[]){ r, nnz });
    out[0].k = 1;
    return CC_OK;
}

static void dyn_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                     double *bytes)
{
    *flops = 0;
    *bytes = 0;
    for (int i = 0; i < node->n_in; i++)
        if (in[i]) *bytes += (double)cc_tensor_bytes(in[i]);
    for (int j = 0; j < n_out; j++) *bytes += (double)cc_tensor_bytes(&out[j]);
}

/* ---- Unique ------------------------------------------------------------------------------- */

typedef struct uniq_geom {
    int has_axis, axis;
    int64_t outer, len, inner; /* slices along axis: len of them, each outer x inner */
} uniq_geom;

static cc_status uniq_geometry(const cc_node *node, const cc_tensor *x, uniq_geom *g, cc_err *err)
{
    memset(g, 0, sizeof *g);
    const cc_attr_value *a = cc_attr_get(node, "axis");
    int64_t s = cc_attr_i(node, "sorted");
    if (s != 0 && s != 1) return cc_err_set(err, CC_ERR_ARG, "Unique: sorted must be 0 or 1, got %lld", (long long)s);
    g->outer = g->inner = 1;
    if (!a->set) {
        g->len = cc_tensor_numel(x);
        return CC_OK;
    }
    int64_t ax = a->i < 0 ? a->i + x->shape.rank : a->i;
    if (ax < 0 || ax >= x->shape.rank)
        return cc_err_set(err, CC_ERR_ARG, "Unique: axis %lld is out of range for rank %d", (long long)a->i, x->shape.rank);
    g->has_axis = 1;
    g->axis = (int)ax;
    for (int d = 0; d < g->axis; d++) g->outer *= x->shape.dims[d];
    for (int d = g->axis + 1; d < x->shape.rank; d++) g->inner *= x->shape.dims[d];
    g->len = x->shape.dims[g->axis];
    return CC_OK;
}

static int unique_count_outputs(const cc_node *node)
{
    const cc_attr_value *k = cc_attr_get(node, "outputs");
    return k->set ? (int)k->i : 4;
}

static cc_status unique_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    if (n_out < 1 || n_out > 4) return cc_err_set(err, CC_ERR_ARG, "Unique: has 1 to 4 outputs, asked for %d", n_out);
    const cc_attr_value *k = cc_attr_get(node, "outputs");
    if (k->set && k->i != n_out)
        return cc_err_set(err, CC_ERR_ARG, "Unique: outputs is %lld but %d are asked for", (long long)k->i, n_out);
    const cc_tensor *x = in[0];
    if (!x) return cc_err_set(err, CC_ERR_ARG, "Unique: X is required");
    uniq_geom g;
    cc_status st = uniq_geometry(node, x, &g, err);
    if (st) return st;
    out[0].dtype = x->dtype;
    out[0].shape = g.has_axis ? x->shape : cc_shape_make(1, &g.len);
    for (int j = 1; j < n_out; j++) {
        out[j].dtype = CC_I64;
        out[j].shape = cc_shape_make(1, &g.len);
    }
    for (int j = 0; j < n_out; j++) out[j].data = NULL;
    return CC_OK;
}

/* -1, 0, 1 as slice a of x compares with slice b (element by element, row-major; i64 in 64
 * bits) */
static int slice_cmp(const cc_tensor *x, const uniq_geom *g, int64_t a, int64_t b)
{
    for (int64_t o = 0; o < g->outer; o++)
        for (int64_t i = 0; i < g->inner; i++) {
            if (x->dtype == CC_I64) {
                int64_t ia = ((const int64_t *)x->data)[(o * g->len + a) * g->inner + i];
                int64_t ib = ((const int64_t *)x->data)[(o * g->len + b) * g->inner + i];
                if (ia != ib) return ia > ib ? 1 : -1;
                continue;
            }
            double va = cc_load(x->data, x->dtype, (size_t)((o * g->len + a) * g->inner + i));
            double vb = cc_load(x->data, x->dtype, (size_t)((o * g->len + b) * g->inner + i));
            if (isnan(va) && isnan(vb)) continue;
            if (isnan(va) || va > vb) return 1; /* NaN last, as numpy sorts it */
            if (isnan(vb) || va < vb) return -1;
        }
    return 0;
}

static cc_status unique_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                               cc_err *err)
{
    const cc_tensor *x = in[0];
    uniq_geom g;
    cc_status st = uniq_geometry(node, x, &g, err);
    if (st) return st;
    int sorted = (int)cc_attr_i(node, "sorted");
    int64_t L = g.len;
    /* first[u]: the slice index of unique u's first occurrence, in first-occurrence order */
    int64_t *first = malloc(sizeof(int64_t) * (size_t)(L ? L : 1)), *inv = malloc(sizeof(int64_t) * (size_t)(L ? L : 1));
    int64_t *cnt = calloc((size_t)(L ? L : 1), sizeof(int64_t)), *rank = malloc(sizeof(int64_t) * (size_t)(L ? L : 1));
    if (!first || !inv || !cnt || !rank) {
        free(first), free(inv), free(cnt), free(rank);
        return cc_err_set(err, CC_ERR_NOMEM, "Unique: out of memory");
    }
    int64_t nu = 0;
    for (int64_t s = 0; s < L; s++) {
        int64_t u = 0;
        while (u < nu && slice_cmp(x, &g, first[u], s) != 0) u++;
        if (u == nu) first[nu++] = s;
        inv[s] = u;
        cnt[u]++;
    }
    /* rank[u]: unique u's position in the output (ascending when sorted) */
    for (int64_t u = 0; u < nu; u++) {
        rank[u] = u;
        if (!sorted) continue;
        rank[u] = 0;
        for (int64_t v = 0; v < nu; v++) rank[u] += slice_cmp(x, &g, first[v], first[u]) < 0;
    }
    for (int64_t u = 0; u < nu; u++) {
        int64_t p = rank[u];
        for (int64_t o = 0; o < g.outer; o++)
            for (int64_t i = 0; i < g.inner; i++)
                put_elem(&out[0], (o * nu + p) * g.inner + i, x, (o * g.len + first[u]) * g.inner + i);
        if (n_out > 1) put(&out[1], p, (double)first[u]);
        if (n_out > 3) put(&out[3], p, (double)cnt[u]);
    }
    for (int64_t s = 0; s < L && n_out > 2; s++) put(&out[2], s, (double)rank[inv[s]]);
    if (g.has_axis) out[0].shape.dims[g.axis] = nu;
    else out[0].shape = cc_shape_make(1, &nu);
    if (n_out > 1) out[1].shape = cc_shape_make(1, &nu);
    if (n_out > 3) out[3].shape = cc_shape_make(1, &nu);
    for (int j = 0; j < n_out; j++) out[j].k = 1;
    free(first), free(inv), free(cnt), free(rank);
    return CC_OK;
}

/* ---- NonMaxSuppression --------------------------------------------------------------------- */

enum { NMS_BOXES, NMS_SCORES, NMS_MAX, NMS_IOU, NMS_SCORE };

static cc_status nms_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    const char *op = "NonMaxSuppression";
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, asked for %d", op, n_out);
    const cc_tensor *b = in[NMS_BOXES], *s = node->n_in > NMS_SCORES ? in[NMS_SCORES] : NULL;
    if (!b || !s) return cc_err_set(err, CC_ERR_ARG, "%s: boxes and scores are required", op);
    if (b->dtype != CC_F32 || s->dtype != CC_F32)
        return cc_err_set(err, CC_ERR_ARG, "%s: boxes and scores must be f32, got %s and %s", op,
                          cc_dtype_name(b->dtype), cc_dtype_name(s->dtype));
    if (b->shape.rank != 3 || b->shape.dims[2] != 4)
        return cc_err_set(err, CC_ERR_ARG, "%s: boxes must be [batch, boxes, 4]", op);
    if (s->shape.rank != 3 || s->shape.dims[0] != b->shape.dims[0] || s->shape.dims[2] != b->shape.dims[1])
        return cc_err_set(err, CC_ERR_ARG, "%s: scores must be [batch, classes, boxes] of boxes' batch and boxes", op);
    int64_t cpb = cc_attr_i(node, "center_point_box");
    if (cpb != 0 && cpb != 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: center_point_box must be 0 or 1, got %lld", op, (long long)cpb);
    int64_t per = b->shape.dims[1];
    const cc_tensor *m = node->n_in > NMS_MAX ? in[NMS_MAX] : NULL;
    if (m) {
        if (m->dtype != CC_I64 || cc_tensor_numel(m) != 1)
            return cc_err_set(err, CC_ERR_ARG, "%s: max_output_boxes_per_class must be one int64", op);
        if (m->data) {
            int64_t v = cc_load_i64(m->data, CC_I64, 0);
            if (v < 0) return cc_err_set(err, CC_ERR_ARG, "%s: max_output_boxes_per_class is %lld", op, (long long)v);
            if (v < per) per = v;
        }
    } else {
        per = 0; /* absent: 0, no output */
    }
    for (int i = NMS_IOU; i <= NMS_SCORE; i++) {
        const cc_tensor *t = node->n_in > i ? in[i] : NULL;
        if (t && (t->dtype != CC_F32 || cc_tensor_numel(t) != 1))
            return cc_err_set(err, CC_ERR_ARG, "%s: %s must be one f32", op, node->op->inputs[i].name);
    }
    const cc_tensor *iou = node->n_in > NMS_IOU ? in[NMS_IOU] : NULL;
    if (iou && iou->data) {
        double v = cc_load(iou->data, CC_F32, 0);
        if (!(v >= 0 && v <= 1)) return cc_err_set(err, CC_ERR_ARG, "%s: iou_threshold %g is outside [0, 1]", op, v);
    }
    int64_t dims[2] = { b->shape.dims[0] * s->shape.dims[1] * per, 3 };
    out[0].dtype = CC_I64;
    out[0].shape = cc_shape_make(2, dims);
    out[0].data = NULL;
    return CC_OK;
}

/* The box's y and x extents, ordered. */
static void box_of(const cc_tensor *b, int64_t at, int center, double *y0, double *x0, double *y1, double *x1)
{
    double v[4];
    for (int i = 0; i < 4; i++) v[i] = cc_load(b->data, CC_F32, (size_t)(at * 4 + i));
    if (center) {
        *x0 = v[0] - v[2] / 2, *x1 = v[0] + v[2] / 2;
        *y0 = v[1] - v[3] / 2, *y1 = v[1] + v[3] / 2;
    } else {
        *y0 = fmin(v[0], v[2]), *y1 = fmax(v[0], v[2]);
        *x0 = fmin(v[1], v[3]), *x1 = fmax(v[1], v[3]);
    }
}

static double iou_of(const cc_tensor *b, int64_t i, int64_t j, int center)
{
    double ay0, ax0, ay1, ax1, by0, bx0, by1, bx1;
    box_of(b, i, center, &ay0, &ax0, &ay1, &ax1);
    box_of(b, j, center, &by0, &bx0, &by1, &bx1);
    double aa = (ay1 - ay0) * (ax1 - ax0), ab = (by1 - by0) * (bx1 - bx0);
    if (aa <= 0 || ab <= 0) return 0;
    double ih = fmin(ay1, by1) - fmax(ay0, by0), iw = fmin(ax1, bx1) - fmax(ax0, bx0);
    if (ih <= 0 || iw <= 0) return 0;
    double inter = ih * iw;
    return inter / (aa + ab - inter);
}

static cc_status nms_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *b = in[NMS_BOXES], *s = in[NMS_SCORES];
    const cc_tensor *m = node->n_in > NMS_MAX ? in[NMS_MAX] : NULL, *iou = node->n_in > NMS_IOU ? in[NMS_IOU] : NULL;
    const cc_tensor *thr = node->n_in > NMS_SCORE ? in[NMS_SCORE] : NULL;
    const int64_t B = b->shape.dims[0], N = b->shape.dims[1], C = s->shape.dims[1];
    int64_t maxo = m ? cc_load_i64(m->data, CC_I64, 0) : 0;
    double it = iou ? cc_load(iou->data, CC_F32, 0) : 0;
    int center = (int)cc_attr_i(node, "center_point_box");
    int64_t *cand = malloc(sizeof(int64_t) * (size_t)(N ? N : 1)), *kept = malloc(sizeof(int64_t) * (size_t)(N ? N : 1));
    if (!cand || !kept) {
        free(cand), free(kept);
        return cc_err_set(err, CC_ERR_NOMEM, "NonMaxSuppression: out of memory");
    }
    int64_t rows = 0;
    for (int64_t bi = 0; bi < B; bi++)
        for (int64_t c = 0; c < C; c++) {
            const int64_t base = (bi * C + c) * N;
            int64_t nc = 0, nk = 0;
            for (int64_t i = 0; i < N; i++)
                if (!thr || cc_load(s->data, CC_F32, (size_t)(base + i)) > cc_load(thr->data, CC_F32, 0)) cand[nc++] = i;
            /* by descending score, the lower index first among equal scores (insertion sort: stable) */
            for (int64_t i = 1; i < nc; i++) {
                int64_t v = cand[i], j = i;
                double sv = cc_load(s->data, CC_F32, (size_t)(base + v));
                while (j > 0 && cc_load(s->data, CC_F32, (size_t)(base + cand[j - 1])) < sv) {
                    cand[j] = cand[j - 1];
                    j--;
                }
                cand[j] = v;
            }
            for (int64_t i = 0; i < nc && nk < maxo; i++) {
                int keep = 1;
                for (int64_t q = 0; q < nk && keep; q++) keep = iou_of(b, bi * N + cand[i], bi * N + kept[q], center) <= it;
                if (!keep) continue;
                kept[nk++] = cand[i];
                put(&out[0], rows * 3, (double)bi);
                put(&out[0], rows * 3 + 1, (double)c);
                put(&out[0], rows * 3 + 2, (double)cand[i]);
                rows++;
            }
        }
    out[0].shape = cc_shape_make(2, (int64_t[]){ rows, 3 });
    out[0].k = 1;
    free(cand), free(kept);
    return CC_OK;
}

/* ---- Compress ----------------------------------------------------------------------------- */

/* The slices Compress selects: outer x len x inner around the axis (flattened: 1 x numel x 1). */
typedef struct compress_geom {
    int64_t outer, len, inner, n_cond;
} compress_geom;

static cc_status compress_geometry(const cc_node *node, const cc_tensor *x, const cc_tensor *cond, compress_geom *g,
                                   int *axis, cc_err *err)
{
    if (!x || !cond) return cc_err_set(err, CC_ERR_ARG, "Compress: needs input and condition");
    if (cond->dtype != CC_BOOL || cond->shape.rank != 1)
        return cc_err_set(err, CC_ERR_ARG, "Compress: condition must be a 1-D bool tensor, got %s of rank %d",
                          cc_dtype_name(cond->dtype), cond->shape.rank);
    const cc_attr_value *a = cc_attr_get(node, "axis");
    g->n_cond = cond->shape.dims[0];
    *axis = -1;
    if (a && a->set) {
        int r = x->shape.rank;
        if (a->i < -r || a->i >= r)
            return cc_err_set(err, CC_ERR_ARG, "Compress: axis %lld is outside [-%d, %d)", (long long)a->i, r, r);
        *axis = (int)(a->i < 0 ? a->i + r : a->i);
        g->outer = g->inner = 1;
        for (int d = 0; d < *axis; d++) g->outer *= x->shape.dims[d];
        for (int d = *axis + 1; d < r; d++) g->inner *= x->shape.dims[d];
        g->len = x->shape.dims[*axis];
    } else {
        g->outer = g->inner = 1;
        g->len = cc_tensor_numel(x);
    }
    if (g->n_cond > g->len)
        return cc_err_set(err, CC_ERR_ARG, "Compress: condition has %lld entries, the %s has %lld", (long long)g->n_cond,
                          *axis >= 0 ? "axis" : "flattened input", (long long)g->len);
    return CC_OK;
}

static cc_status compress_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                                cc_err *err)
{
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "Compress: has 1 output, asked for %d", n_out);
    compress_geom g = { 0 };
    int axis = -1;
    cc_status st = compress_geometry(node, in[0], node->n_in > 1 ? in[1] : NULL, &g, &axis, err);
    if (st) return st;
    out[0].dtype = in[0]->dtype;
    out[0].shape = axis >= 0 ? in[0]->shape : cc_shape_make(1, &g.len);
    out[0].data = NULL;
    return CC_OK;
}

static cc_status compress_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                                 cc_err *err)
{
    (void)n_out;
    compress_geom g = { 0 };
    int axis = -1;
    cc_status st = compress_geometry(node, in[0], in[1], &g, &axis, err);
    if (st) return st;
    const cc_tensor *x = in[0];
    int64_t kept = 0;
    for (int64_t c = 0; c < g.n_cond; c++) kept += cc_load(in[1]->data, CC_BOOL, (size_t)c) != 0;
    /* output [outer, kept, inner]: slice k of the output is the k-th selected slice */
    for (int64_t o = 0; o < g.outer; o++) {
        int64_t k = 0;
        for (int64_t c = 0; c < g.n_cond; c++) {
            if (cc_load(in[1]->data, CC_BOOL, (size_t)c) == 0) continue;
            for (int64_t i = 0; i < g.inner; i++)
                put_elem(&out[0], (o * kept + k) * g.inner + i, x, (o * g.len + c) * g.inner + i);
            k++;
        }
    }
    if (axis >= 0) out[0].shape.dims[axis] = kept;
    else out[0].shape = cc_shape_make(1, &kept);
    out[0].k = 1;
    return CC_OK;
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* clang-format off */
static const cc_sweep_row nonzero_sweep[] = {
    { Q, "X=3x4", NULL, 0 },
    { Q, "X=2x3x4", NULL, 0 },
    { Q, "X=7", NULL, 0 },
    { Q, "X=2x2x2x3", NULL, 0 },
    { Q | EDGE, "X=2x0x3", NULL, 0 },                    /* empty: [3, 0] */
    { Q | EDGE, "X=scalar", NULL, 0 },                   /* [0, nnz] */
    { 0, "X=16x32", NULL, 0 },
};

static const cc_sweep_row unique_sweep[] = {
    { Q, "X=12", "sorted=0|1", 0 },
    { Q, "X=3x4", "outputs=1|2", 0 },
    { Q, "X=4x3", "axis=0,sorted=0|1", 0 },
    { Q, "X=2x5x2", "axis=1", 0 },
    { Q, "X=3x3", "axis=-1,outputs=3", 0 },
    { Q | EDGE, "X=1", NULL, 0 },
    { Q | EDGE, "X=0", NULL, 0 },                        /* empty: no unique values */
    { 0, "X=64", "sorted=0", 0 },
};

static const cc_sweep_row nms_sweep[] = {
    { Q, "boxes=1x6x4,scores=1x1x6", "max_output_boxes_per_class=3,iou_threshold=0.5", 0 },
    { Q, "boxes=1x8x4,scores=1x2x8", "max_output_boxes_per_class=4,iou_threshold=0.3,score_threshold=0.1", 0 },
    { Q, "boxes=2x5x4,scores=2x3x5", "max_output_boxes_per_class=5,iou_threshold=0.6,score_threshold=-0.5", 0 },
    { Q, "boxes=1x7x4,scores=1x1x7", "max_output_boxes_per_class=7,iou_threshold=0.4,center_point_box=1", 0 },
    { Q | EDGE, "boxes=1x4x4,scores=1x1x4", "max_output_boxes_per_class=0,iou_threshold=0.5", 0 },  /* none */
    { Q | EDGE, "boxes=1x4x4,scores=1x1x4", "max_output_boxes_per_class=2,iou_threshold=0.5,score_threshold=2", 0 },
    { MODEL, "boxes=1x100x4,scores=1x80x100", "max_output_boxes_per_class=10,iou_threshold=0.45,score_threshold=0.25", 0 },
};
static const cc_sweep_row compress_sweep[] = {
    { Q, "input=3x4,condition=3:bool", "axis=0", 0 },
    { Q, "input=3x4,condition=4:bool", "axis=1|-1", 0 },
    { Q, "input=2x5x3,condition=5:bool", "axis=1", 0 },
    { Q, "input=2x3x2,condition=12:bool", NULL, 0 },      /* flattened */
    { Q, "input=4x6,condition=3:bool", "axis=1", 0 },     /* shorter than the axis */
    { Q | EDGE, "input=3x2,condition=0:bool", "axis=0", 0 },  /* nothing selected */
    { 0, "input=16x32,condition=32:bool", "axis=1", 0 },
};
/* clang-format on */

const cc_op_def cc_op_NonZero = {
    .id = CC_OP_ID_NonZero, .name = "NonZero", .domain = "", .since_version = 13, .family = "dynamic",
    .n_inputs = 1, .inputs = { { .name = "X", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1, .n_attrs = CC_ONNX_NATTRS(NonZero, 13),
    .dtypes = ALL_DTYPES, .infer = nonzero_infer, .cost = dyn_cost, .golden = nonzero_golden,
    CC_SWEEP(nonzero_sweep),
};

const cc_op_def cc_op_Unique = {
    .id = CC_OP_ID_Unique, .name = "Unique", .domain = "", .since_version = 11, .family = "dynamic",
    .n_inputs = 1, .inputs = { { .name = "X", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 4, .count_outputs = unique_count_outputs,
    .n_attrs = CC_ONNX_NATTRS(Unique, 11) + 1,
    .attrs = { CC_ONNX_ATTRS(Unique, 11)
               { .name = "outputs", .kind = CC_ATTR_INT, .def = NULL, .input = -1, .knob = 1 } },
    .dtypes = ALL_DTYPES & ~CC_DTYPE_BIT(CC_BOOL), .infer = unique_infer, .cost = dyn_cost, .golden = unique_golden,
    CC_SWEEP(unique_sweep),
};

const cc_op_def cc_op_NonMaxSuppression = {
    .id = CC_OP_ID_NonMaxSuppression, .name = "NonMaxSuppression", .domain = "", .since_version = 11,
    .family = "dynamic", .n_inputs = 5,
    .inputs = {
        { .name = "boxes", .role = CC_IN_DATA },
        { .name = "scores", .role = CC_IN_DATA, .lo = 0, .hi = 1, .ilo = 0, .ihi = 4 },
        { .name = "max_output_boxes_per_class", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
        { .name = "iou_threshold", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
        { .name = "score_threshold", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(NonMaxSuppression, 11) + 3,
    .attrs = {
        CC_ONNX_ATTRS(NonMaxSuppression, 11)
        { .name = "max_output_boxes_per_class", .kind = CC_ATTR_INT, .def = NULL, .input = 2, .input_dtype = CC_I64 },
        { .name = "iou_threshold", .kind = CC_ATTR_FLOAT, .def = NULL, .input = 3, .input_dtype = CC_F32 },
        { .name = "score_threshold", .kind = CC_ATTR_FLOAT, .def = NULL, .input = 4, .input_dtype = CC_F32 },
    },
    .dtypes = CC_DTYPE_BIT(CC_F32), .infer = nms_infer, .cost = dyn_cost, .golden = nms_golden,
    CC_SWEEP(nms_sweep),
};

const cc_op_def cc_op_Compress = {
    .id = CC_OP_ID_Compress, .name = "Compress", .domain = "", .since_version = 11, .family = "dynamic",
    .n_inputs = 2,
    .inputs = { { .name = "input", .role = CC_IN_DATA }, { .name = "condition", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1, .n_attrs = CC_ONNX_NATTRS(Compress, 11), .attrs = { CC_ONNX_ATTRS(Compress, 11) },
    .dtypes = ALL_DTYPES, .infer = compress_infer, .cost = dyn_cost, .golden = compress_golden,
    CC_SWEEP(compress_sweep),
};
