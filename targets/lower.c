/* lower.c — host-side lowering shared by the built-in backends (see lower.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lower.h"

static const char *const mode_names[CC_RESIZE_MODE_COUNT] = { "nearest", "linear", "cubic" };
static const char *const ct_names[CC_RESIZE_CT_COUNT] = {
    "half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn",
    "tf_crop_and_resize" };
static const char *const nm_names[CC_RESIZE_NM_COUNT] = { "round_prefer_floor", "round_prefer_ceil",
                                                          "floor", "ceil" };

static int find(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

static const char *str_or(const cc_node *node, const char *name, const char *def)
{
    return cc_attr_index(node->op, name) >= 0 ? cc_attr_s(node, name) : def;
}

int cc_lower_resize_modes(const cc_node *node, int *mode, int *ct, int *nm, char *reason, size_t n)
{
    const char *ms = str_or(node, "mode", "nearest");
    const char *cs = str_or(node, "coordinate_transformation_mode", "half_pixel");
    const char *ns = str_or(node, "nearest_mode", "round_prefer_floor");
    *mode = find(mode_names, CC_RESIZE_MODE_COUNT, ms);
    *ct = find(ct_names, CC_RESIZE_CT_COUNT, cs);
    /* the long spelling some exporters write for the fifth mode */
    if (*ct < 0 && strcmp(cs, "tf_half_pixel_for_nearest") == 0) *ct = CC_RESIZE_TF_HALF_PIXEL_FOR_NN;
    *nm = find(nm_names, CC_RESIZE_NM_COUNT, ns);
    if (*mode < 0) {
        snprintf(reason, n, "Resize: unknown mode '%s'", ms);
        return -1;
    }
    if (*ct < 0) {
        snprintf(reason, n, "Resize: unknown coordinate_transformation_mode '%s'", cs);
        return -1;
    }
    if (*nm < 0) {
        snprintf(reason, n, "Resize: unknown nearest_mode '%s'", ns);
        return -1;
    }
    if (cc_attr_index(node->op, "antialias") >= 0 && cc_attr_i(node, "antialias") != 0) {
        snprintf(reason, n, "Resize: antialias is not implemented");
        return -1;
    }
    return 0;
}

/* x_original of output coordinate o (ONNX Resize-13). Under align_corners the resized
 * length is L * scale, fractional when scales were given; with sizes scale = M / L makes
 * it M. */
static double source_coord(int ct, double o, double L, double M, double s, double r0, double r1)
{
    switch (ct) {
    case CC_RESIZE_HALF_PIXEL: return (o + 0.5) / s - 0.5;
    case CC_RESIZE_PYTORCH_HALF_PIXEL: return M > 1 ? (o + 0.5) / s - 0.5 : 0.0;
    case CC_RESIZE_ALIGN_CORNERS: return M > 1 ? o * (L - 1) / (L * s - 1) : 0.0;
    case CC_RESIZE_ASYMMETRIC: return o / s;
    case CC_RESIZE_TF_HALF_PIXEL_FOR_NN: return (o + 0.5) / s;
    default: return M > 1 ? r0 * (L - 1) + o * (r1 - r0) * (L - 1) / (M - 1) : 0.5 * (r0 + r1) * (L - 1);
    }
}

static int64_t nearest_index(int nm, double x)
{
    double f = floor(x), frac = x - f;
    switch (nm) {
    case CC_RESIZE_ROUND_PREFER_FLOOR: return (int64_t)(frac > 0.5 ? f + 1 : f);
    case CC_RESIZE_ROUND_PREFER_CEIL: return (int64_t)(frac >= 0.5 ? f + 1 : f);
    case CC_RESIZE_FLOOR: return (int64_t)f;
    default: return (int64_t)ceil(x);
    }
}

/* Keys cubic convolution weights of the taps floor-1 .. floor+2 at fraction t. */
static void cubic_weights(double A, double t, double *w)
{
    double s0 = t + 1, s1 = t, s2 = 1 - t, s3 = 2 - t;
    w[0] = ((A * s0 - 5 * A) * s0 + 8 * A) * s0 - 4 * A;
    w[1] = ((A + 2) * s1 - (A + 3)) * s1 * s1 + 1;
    w[2] = ((A + 2) * s2 - (A + 3)) * s2 * s2 + 1;
    w[3] = ((A * s3 - 5 * A) * s3 + 8 * A) * s3 - 4 * A;
}

static int64_t clamp_index(int64_t i, int64_t L) { return i < 0 ? 0 : i > L - 1 ? L - 1 : i; }

static cc_status axis_build(const cc_resize_lowering *r, double A, int exclude, double s, double r0,
                            double r1, int a, cc_resize_axis *t, cc_err *err)
{
    int64_t L = t->in_len, M = t->out_len;
    size_t m = (size_t)(M > 0 ? M : 1);
    t->idx = malloc(4 * m * sizeof *t->idx);
    t->w = malloc(4 * m * sizeof *t->w);
    t->outside = calloc(m, 1);
    if (!t->idx || !t->w || !t->outside)
        return cc_err_set(err, CC_ERR_NOMEM, "Resize: out of memory for tap tables");
    int identity = L == M;
    for (int64_t o = 0; o < M; o++) {
        double x = source_coord(r->ct, (double)o, (double)L, (double)M, s, r0, r1);
        t->outside[o] = r->ct == CC_RESIZE_TF_CROP_AND_RESIZE && (x < 0 || x > (double)(L - 1));
        t->any_outside |= t->outside[o];
        if (x != (double)o || t->outside[o]) identity = 0;
    }
    int nt = r->mode == CC_RESIZE_NEAREST || identity ? 1 : r->mode == CC_RESIZE_LINEAR ? 2 : 4;
    t->taps = nt;
    for (int64_t o = 0; o < M; o++) {
        double x = source_coord(r->ct, (double)o, (double)L, (double)M, s, r0, r1);
        int64_t *ix = t->idx + o * nt;
        float *w = t->w + o * nt;
        if (t->outside[o]) {
            for (int k = 0; k < nt; k++) {
                ix[k] = 0;
                w[k] = 0;
            }
        } else if (nt == 1) {
            ix[0] = clamp_index(r->mode == CC_RESIZE_NEAREST ? nearest_index(r->nm, x) : o, L);
            w[0] = 1;
        } else if (nt == 2) {
            double xc = x < 0 ? 0 : x > (double)(L - 1) ? (double)(L - 1) : x;
            int64_t i0 = (int64_t)floor(xc);
            double f = xc - (double)i0;
            ix[0] = i0;
            ix[1] = clamp_index(i0 + 1, L);
            w[0] = (float)(1 - f);
            w[1] = (float)f;
        } else {
            double f = floor(x), cw[4], sum = 0;
            cubic_weights(A, x - f, cw);
            for (int k = 0; k < 4; k++) {
                int64_t u = (int64_t)f - 1 + k;
                ix[k] = clamp_index(u, L);
                if (exclude && (u < 0 || u > L - 1)) cw[k] = 0;
                sum += cw[k];
            }
            if (exclude && sum == 0)
                return cc_err_set(err, CC_ERR_ARG, "Resize: exclude_outside leaves no tap on axis %d", a);
            for (int k = 0; k < 4; k++) w[k] = (float)(exclude ? cw[k] / sum : cw[k]);
        }
    }
    return CC_OK;
}

static const cc_tensor *given(const cc_node *node, const cc_tensor *const *in, int i)
{
    return i < node->n_in && in[i] && in[i]->data && cc_shape_numel(&in[i]->shape) > 0 ? in[i] : NULL;
}

cc_status cc_lower_resize(const cc_node *node, const cc_tensor *const *in, const cc_shape *y,
                          cc_resize_lowering *r, cc_err *err)
{
    memset(r, 0, sizeof *r);
    char why[160];
    if (cc_lower_resize_modes(node, &r->mode, &r->ct, &r->nm, why, sizeof why) != 0)
        return cc_err_set(err, CC_ERR_ARG, "%s", why);
    const cc_shape *x = &in[0]->shape;
    int rank = x->rank;
    if (rank < 1 || y->rank != rank)
        return cc_err_set(err, CC_ERR_ARG, "Resize: output rank %d for input rank %d", y->rank, rank);
    const cc_tensor *roi = given(node, in, 1), *scales = given(node, in, 2);
    if (scales && cc_shape_numel(&scales->shape) != rank)
        return cc_err_set(err, CC_ERR_ARG, "Resize: scales has %lld entries for rank %d",
                          (long long)cc_shape_numel(&scales->shape), rank);
    if (r->ct == CC_RESIZE_TF_CROP_AND_RESIZE && (!roi || cc_shape_numel(&roi->shape) != 2 * rank))
        return cc_err_set(err, CC_ERR_ARG, "Resize: tf_crop_and_resize needs roi of %d values", 2 * rank);
    r->rank = rank;
    r->extrapolation = cc_attr_index(node->op, "extrapolation_value") >= 0
                           ? (float)cc_attr_f(node, "extrapolation_value") : 0.0f;
    double A = cc_attr_index(node->op, "cubic_coeff_a") >= 0 ? cc_attr_f(node, "cubic_coeff_a") : -0.75;
    int exclude = cc_attr_index(node->op, "exclude_outside") >= 0 && cc_attr_i(node, "exclude_outside") != 0;
    for (int a = 0; a < rank; a++) {
        cc_resize_axis *t = &r->ax[a];
        t->in_len = x->dims[a];
        t->out_len = y->dims[a];
        if (t->in_len == 0 && t->out_len > 0) {
            cc_lower_resize_free(r);
            return cc_err_set(err, CC_ERR_ARG, "Resize: cannot resize an empty axis %d", a);
        }
        double s = scales ? cc_load(scales->data, scales->dtype, (size_t)a)
                          : t->in_len > 0 ? (double)t->out_len / (double)t->in_len : 1.0;
        if (!(s > 0) && t->out_len > 0) { /* sizes of 0 make an empty output: no taps */
            cc_lower_resize_free(r);
            return cc_err_set(err, CC_ERR_ARG, "Resize: scale %g on axis %d must be > 0", s, a);
        }
        double r0 = roi ? cc_load(roi->data, roi->dtype, (size_t)a) : 0.0;
        double r1 = roi ? cc_load(roi->data, roi->dtype, (size_t)(rank + a)) : 1.0;
        cc_status st = axis_build(r, A, exclude, s, r0, r1, a, t, err);
        if (st != CC_OK) {
            cc_lower_resize_free(r);
            return st;
        }
    }
    return CC_OK;
}

void cc_lower_resize_free(cc_resize_lowering *r)
{
    if (!r) return;
    for (int a = 0; a < CC_MAX_RANK; a++) {
        free(r->ax[a].idx);
        free(r->ax[a].w);
        free(r->ax[a].outside);
        r->ax[a].idx = NULL;
        r->ax[a].w = NULL;
        r->ax[a].outside = NULL;
    }
}

/* ---- DepthToSpace, SpaceToDepth ----------------------------------------------------------- */

void cc_lower_block(const cc_node *node, const cc_shape *x, int64_t dims[6], int64_t istride[6])
{
    int64_t b = cc_attr_i(node, "blocksize"), N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3];
    if (node->op->id == CC_OP_ID_DepthToSpace) {
        int64_t c = C / (b * b), crd = strcmp(cc_attr_s(node, "mode"), "CRD") == 0;
        /* input channel of output (c', i, j): DCR (i*b + j)*c + c', CRD c'*b*b + i*b + j */
        const int64_t d[6] = { N, c, H, b, W, b };
        const int64_t s[6] = { C * H * W, (crd ? b * b : 1) * H * W, W, (crd ? b : b * c) * H * W, 1,
                               (crd ? 1 : c) * H * W };
        memcpy(dims, d, sizeof d);
        memcpy(istride, s, sizeof s);
    } else {
        /* output channel (i*b + j)*C + c reads input (c, h*b + i, w*b + j) */
        const int64_t d[6] = { N, b, b, C, H / b, W / b };
        const int64_t s[6] = { C * H * W, W, 1, H * W, b * W, b };
        memcpy(dims, d, sizeof d);
        memcpy(istride, s, sizeof s);
    }
}

/* ---- Shape, Size ------------------------------------------------------------------------------ */

cc_status cc_lower_describe(const cc_node *node, const cc_shape *x, int64_t *v, int64_t n, cc_err *err)
{
    if (node->op->id == CC_OP_ID_Size) {
        if (n != 1) return cc_err_set(err, CC_ERR_ARG, "Size: the output has %lld elements, not 1", (long long)n);
        v[0] = cc_shape_numel(x);
        return CC_OK;
    }
    int r = x->rank;
    int64_t s = cc_attr_i(node, "start");
    if (s < 0) s += r;
    s = s < 0 ? 0 : s > r ? r : s;
    if (n < 0 || s + n > r)
        return cc_err_set(err, CC_ERR_ARG, "Shape: %lld dims from %lld of rank %d", (long long)n, (long long)s, r);
    for (int64_t i = 0; i < n; i++) v[i] = x->dims[s + i];
    return CC_OK;
}

/* ---- EyeLike -------------------------------------------------------------------------------- */

void cc_lower_eyelike(const cc_node *node, const cc_tensor *y, void *host)
{
    int64_t rows = y->shape.dims[0], cols = y->shape.dims[1], k = cc_attr_i(node, "k");
    for (int64_t r = 0; r < rows; r++)
        if (r + k >= 0 && r + k < cols) cc_store(host, y->dtype, (size_t)(r * cols + r + k), 1.0);
}

/* ---- Pad ---------------------------------------------------------------------------------- */

cc_status cc_lower_pad(const cc_node *node, const cc_tensor *const *in, int *mode, int64_t *begin, unsigned char *cbytes,
                       cc_err *err)
{
    const cc_tensor *x = in[0], *p = node->n_in > 1 ? in[1] : NULL, *c = node->n_in > 2 ? in[2] : NULL;
    int r = x->shape.rank;
    if (!p || !p->data || cc_tensor_numel(p) != 2 * r || (p->dtype != CC_I64 && p->dtype != CC_I32))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "Pad: pads must be a constant int64 tensor of %d values", 2 * r);
    for (int d = 0; d < r; d++) begin[d] = cc_load_i64(p->data, p->dtype, (size_t)d);
    const char *m = cc_attr_s(node, "mode");
    *mode = !strcmp(m, "edge") ? 1 : !strcmp(m, "reflect") ? 2 : 0;
    memset(cbytes, 0, 8);
    if (c) {
        if (!c->data || c->dtype != x->dtype || cc_tensor_numel(c) != 1)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "Pad: constant_value must be a constant of the data's dtype");
        memcpy(cbytes, c->data, cc_dtype_size(c->dtype));
    }
    return CC_OK;
}

int64_t cc_lower_pad_source(int64_t o, int64_t begin, int64_t n, int mode)
{
    int64_t i = o - begin;
    if (i >= 0 && i < n) return i;
    if (mode == 0) return -1;
    if (mode == 1 || n == 1) return i < 0 ? 0 : n - 1;
    int64_t period = 2 * (n - 1);
    i %= period;
    if (i < 0) i += period;
    return i < n ? i : period - i;
}

/* ---- Expand, Tile ------------------------------------------------------------------------------ */

int cc_lower_repeat(const cc_node *node, const cc_shape *x, const cc_shape *y, int64_t *dims, int64_t *sst, int64_t *dst)
{
    int off = y->rank - x->rank, tile = node->op->id == CC_OP_ID_Tile, r = 0;
    int64_t xst[CC_MAX_RANK], yst[CC_MAX_RANK], acc = 1;
    for (int d = x->rank - 1; d >= 0; d--) xst[d] = acc, acc *= x->dims[d];
    acc = 1;
    for (int d = y->rank - 1; d >= 0; d--) yst[d] = acc, acc *= y->dims[d];
    for (int d = 0; d < y->rank; d++) {
        int64_t xd = d >= off ? x->dims[d - off] : 1, xstr = d >= off ? xst[d - off] : 0;
        if (tile && xd > 1 && y->dims[d] > xd) {
            dims[r] = y->dims[d] / xd, sst[r] = 0, dst[r++] = xd * yst[d];
            dims[r] = xd, sst[r] = xstr, dst[r++] = yst[d];
        } else if (y->dims[d] != 1) {
            dims[r] = y->dims[d], sst[r] = xd == 1 ? 0 : xstr, dst[r++] = yst[d];
        }
    }
    return r;
}

/* ---- reductions ---------------------------------------------------------------------- */

int cc_lower_reduce_kind(const cc_node *node)
{
    switch (node->op->id) {
    case CC_OP_ID_ReduceMean: return CC_REDUCE_MEAN;
    case CC_OP_ID_ReduceMax: return CC_REDUCE_MAX;
    case CC_OP_ID_ReduceMin: return CC_REDUCE_MIN;
    case CC_OP_ID_ReduceSum: return CC_REDUCE_SUM;
    case CC_OP_ID_ReduceProd: return CC_REDUCE_PROD;
    case CC_OP_ID_ReduceL1: return CC_REDUCE_L1;
    case CC_OP_ID_ReduceL2: return CC_REDUCE_L2;
    case CC_OP_ID_ReduceLogSum: return CC_REDUCE_LOGSUM;
    case CC_OP_ID_ReduceLogSumExp: return CC_REDUCE_LOGSUMEXP;
    case CC_OP_ID_ReduceSumSquare: return CC_REDUCE_SUMSQUARE;
    default: return -1;
    }
}

cc_status cc_lower_reduce_axes(const cc_node *node, const cc_tensor *const *in, int r, int *red, cc_err *err)
{
    const char *op = node->op->name;
    int ai = cc_attr_index(node->op, "axes");
    int64_t axes[CC_MAX_RANK];
    int na = 0;
    if (ai >= 0 && node->op->attrs[ai].input >= 0) {
        int ii = node->op->attrs[ai].input;
        const cc_tensor *t = ii < node->n_in ? in[ii] : NULL;
        if (t && !t->data) return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: axes must be a constant input", op);
        if (t) {
            int64_t n = cc_shape_numel(&t->shape);
            if (n > CC_MAX_RANK) return cc_err_set(err, CC_ERR_ARG, "%s: %lld axes for rank %d", op, (long long)n, r);
            for (int64_t i = 0; i < n; i++)
                axes[na++] = t->dtype == CC_I32 ? ((const int32_t *)t->data)[i] : ((const int64_t *)t->data)[i];
        }
    } else if (ai >= 0 && node->attrs[ai].set) {
        const cc_attr_value *v = &node->attrs[ai];
        if (v->n > CC_MAX_RANK) return cc_err_set(err, CC_ERR_ARG, "%s: %d axes for rank %d", op, v->n, r);
        for (int i = 0; i < v->n; i++) axes[na++] = v->ints[i];
    }
    int noop = cc_attr_index(node->op, "noop_with_empty_axes") >= 0 && cc_attr_i(node, "noop_with_empty_axes") != 0;
    for (int i = 0; i < r; i++) red[i] = na == 0 && !noop;
    for (int i = 0; i < na; i++) {
        if (axes[i] < -r || axes[i] >= r)
            return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld out of range for rank %d", op, (long long)axes[i], r);
        int a = (int)(axes[i] < 0 ? axes[i] + r : axes[i]);
        if (red[a]) return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld repeated", op, (long long)axes[i]);
        red[a] = 1;
    }
    return CC_OK;
}

/* ---- ConstantOfShape, Range ------------------------------------------------------------ */

cc_status cc_lower_generate(const cc_node *node, const cc_tensor *const *in, const cc_tensor *y, void *host,
                            cc_err *err)
{
    int64_t n = cc_tensor_numel(y);
    size_t es = cc_dtype_size(y->dtype);
    if (node->op->id == CC_OP_ID_ConstantOfShape) {
        const cc_attr_value *a = cc_attr_get(node, "value");
        unsigned char cell[8] = { 0 }; /* float32 0 when absent */
        if (a->set && a->n == 1 && a->tdtype == y->dtype) {
            if (y->dtype == CC_I64) memcpy(cell, &a->ints[0], 8);
            else cc_store(cell, y->dtype, 0, cc_dtype_is_float(y->dtype) ? a->floats[0] : (double)a->ints[0]);
        } else if (a->set) {
            return cc_err_set(err, CC_ERR_ARG, "ConstantOfShape: value must be one %s element", cc_dtype_name(y->dtype));
        }
        for (int64_t i = 0; i < n; i++) memcpy((char *)host + (size_t)i * es, cell, es);
        return CC_OK;
    }
    /* Range */
    for (int k = 0; k < 3; k++)
        if (k >= node->n_in || !in[k] || !in[k]->data || in[k]->dtype != y->dtype || cc_tensor_numel(in[k]) != 1)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "Range: start, limit and delta must be constant %s scalars",
                              cc_dtype_name(y->dtype));
    if (y->dtype == CC_F32) {
        float s = *(const float *)in[0]->data, d = *(const float *)in[2]->data;
        for (int64_t i = 0; i < n; i++) ((float *)host)[i] = s + (float)i * d;
    } else if (y->dtype == CC_F64) {
        double s, d;
        memcpy(&s, in[0]->data, 8);
        memcpy(&d, in[2]->data, 8);
        for (int64_t i = 0; i < n; i++) ((double *)host)[i] = s + (double)i * d;
    } else if (y->dtype == CC_I16 || y->dtype == CC_I32 || y->dtype == CC_I64) {
        int64_t s, d;
        if (y->dtype == CC_I16) {
            s = *(const int16_t *)in[0]->data;
            d = *(const int16_t *)in[2]->data;
        } else if (y->dtype == CC_I32) {
            s = *(const int32_t *)in[0]->data;
            d = *(const int32_t *)in[2]->data;
        } else {
            memcpy(&s, in[0]->data, 8);
            memcpy(&d, in[2]->data, 8);
        }
        for (int64_t i = 0; i < n; i++) {
            uint64_t v = (uint64_t)s + (uint64_t)i * (uint64_t)d;
            if (y->dtype == CC_I16) ((int16_t *)host)[i] = (int16_t)(uint16_t)v;
            else if (y->dtype == CC_I32) ((int32_t *)host)[i] = (int32_t)(uint32_t)v;
            else ((int64_t *)host)[i] = (int64_t)v;
        }
    } else {
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "Range: dtype %s", cc_dtype_name(y->dtype));
    }
    return CC_OK;
}

/* ---- LayerNormalization ----------------------------------------------------------------- */

/* Index into t (right-aligned against the normalized dims nd[0..nr)) of row element j. */
static int32_t ln_broadcast_index(const cc_tensor *t, const int64_t *nd, int nr, int64_t j)
{
    int64_t idx = 0, stride = 1;
    for (int i = 0; t && i < t->shape.rank && i < nr; i++) {
        int64_t n = nd[nr - 1 - i], d = t->shape.dims[t->shape.rank - 1 - i];
        int64_t c = j % n;
        j /= n;
        if (d != 1) idx += c * stride;
        stride *= d;
    }
    return (int32_t)idx;
}

cc_status cc_lower_layernorm(const cc_node *node, const cc_tensor *const *in, int64_t *rows, int64_t *n,
                             int64_t *rmod, int32_t **sidx, int32_t **bidx, cc_err *err)
{
    const cc_tensor *x = in[0], *sc = node->n_in > 1 ? in[1] : NULL, *b = node->n_in > 2 ? in[2] : NULL;
    int r = x->shape.rank, instance = node->op->id == CC_OP_ID_InstanceNormalization;
    int64_t a = instance ? 2 : cc_attr_i(node, "axis");
    if (a < -r || a >= r) return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld out of range", node->op->name, (long long)a);
    int axis = (int)(a < 0 ? a + r : a);
    *rmod = instance ? x->shape.dims[1] : 1;
    if (*rmod < 1) *rmod = 1;
    *n = 1;
    for (int d = axis; d < r; d++) *n *= x->shape.dims[d];
    *rows = *n > 0 ? cc_tensor_numel(x) / *n : 0;
    *sidx = malloc(sizeof **sidx * (size_t)(*n > 0 ? *n : 1));
    *bidx = malloc(sizeof **bidx * (size_t)(*n > 0 ? *n : 1));
    if (!*sidx || !*bidx) {
        free(*sidx);
        free(*bidx);
        return cc_err_set(err, CC_ERR_NOMEM, "LayerNormalization: out of memory");
    }
    for (int64_t j = 0; j < *n; j++) {
        (*sidx)[j] = instance ? 0 : ln_broadcast_index(sc, x->shape.dims + axis, r - axis, j);
        (*bidx)[j] = instance ? 0 : ln_broadcast_index(b, x->shape.dims + axis, r - axis, j);
    }
    return CC_OK;
}

/* ---- ConvTranspose ------------------------------------------------------------------- */

cc_status cc_lower_convtranspose(const cc_node *node, const cc_shape *x, const cc_shape *w, const cc_shape *y,
                                 const char *backend, cc_backend_window *win, int64_t *group, int64_t *mg,
                                 cc_err *err)
{
    const char *op = node->op->name;
    int nsp = x->rank - 2;
    if (nsp < 1 || nsp > CC_BACKEND_MAX_SPATIAL)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s handles 1 to %d spatial dims, got %d", op, backend,
                          CC_BACKEND_MAX_SPATIAL, nsp);
    if (w->rank != x->rank || y->rank != x->rank)
        return cc_err_set(err, CC_ERR_ARG, "%s: x, w and y must have one rank", op);
    int64_t g = cc_backend_attr_int(node, "group", 1);
    if (g < 1 || x->dims[1] % g || w->dims[0] != x->dims[1] || y->dims[1] != w->dims[1] * g)
        return cc_err_set(err, CC_ERR_ARG, "%s: group %lld does not fit x, w and y", op, (long long)g);
    int64_t strides[CC_BACKEND_MAX_SPATIAL], dils[CC_BACKEND_MAX_SPATIAL], opad[CC_BACKEND_MAX_SPATIAL];
    int64_t pads[2 * CC_BACKEND_MAX_SPATIAL];
    if (cc_backend_attr_ints(node, "strides", nsp, 1, strides) || cc_backend_attr_ints(node, "dilations", nsp, 1, dils) ||
        cc_backend_attr_ints(node, "output_padding", nsp, 0, opad) || cc_backend_attr_ints(node, "pads", 2 * nsp, 0, pads))
        return cc_err_set(err, CC_ERR_ARG, "%s: strides/dilations/output_padding/pads do not match %d spatial dims", op,
                          nsp);
    const char *auto_pad = "NOTSET";
    int ai = cc_attr_index(node->op, "auto_pad");
    if (ai >= 0 && node->attrs[ai].set) auto_pad = node->attrs[ai].s;
    int os = cc_attr_index(node->op, "output_shape");
    int from_size = (os >= 0 && node->attrs[os].set) || strncmp(auto_pad, "SAME_", 5) == 0;
    int upper = strcmp(auto_pad, "SAME_UPPER") == 0, valid = strcmp(auto_pad, "VALID") == 0;
    cc_backend_window r;
    int lead = CC_BACKEND_MAX_SPATIAL - nsp;
    for (int a = 0; a < CC_BACKEND_MAX_SPATIAL; a++) {
        r.in[a] = r.out[a] = r.k[a] = r.stride[a] = r.dil[a] = 1;
        r.pad0[a] = r.pad1[a] = 0;
    }
    r.nsp = nsp;
    for (int i = 0; i < nsp; i++) {
        int a = lead + i;
        r.in[a] = x->dims[2 + i];
        r.out[a] = y->dims[2 + i];
        r.k[a] = w->dims[2 + i];
        r.stride[a] = strides[i];
        r.dil[a] = dils[i];
        if (r.stride[a] < 1 || r.dil[a] < 1 || r.k[a] < 1 || r.in[a] < 1)
            return cc_err_set(err, CC_ERR_ARG, "%s: strides, dilations, kernel and input must be >= 1", op);
        int64_t full = r.stride[a] * (r.in[a] - 1) + opad[i] + (r.k[a] - 1) * r.dil[a] + 1;
        if (from_size) {
            int64_t total = full - r.out[a], half = total >= 0 ? total / 2 : -((1 - total) / 2);
            r.pad0[a] = upper ? half : total - half;
        } else {
            r.pad0[a] = valid ? 0 : pads[i];
        }
        r.pad1[a] = full - r.out[a] - r.pad0[a];
    }
    *win = r;
    *group = g;
    *mg = w->dims[1];
    return CC_OK;
}

/* ---- losses ------------------------------------------------------------------------------ */

cc_status cc_lower_loss(const cc_node *node, const cc_shape *x, cc_lower_loss_geom *g, cc_err *err)
{
    if (x->rank < 2) return cc_err_set(err, CC_ERR_ARG, "%s: the input must have rank >= 2", node->op->name);
    cc_lower_loss_geom r;
    memset(&r, 0, sizeof r);
    r.n = x->dims[0];
    r.c = x->dims[1];
    r.d = 1;
    for (int k = 2; k < x->rank; k++) r.d *= x->dims[k];
    int ri = cc_attr_index(node->op, "reduction");
    const char *red = ri >= 0 && node->attrs[ri].set ? node->attrs[ri].s : "mean";
    if (!strcmp(red, "none")) r.reduction = 0;
    else if (!strcmp(red, "sum")) r.reduction = 1;
    else if (!strcmp(red, "mean")) r.reduction = 2;
    else return cc_err_set(err, CC_ERR_ARG, "%s: unknown reduction '%s'", node->op->name, red);
    int ii = cc_attr_index(node->op, "ignore_index");
    r.has_ignore = ii >= 0 && node->attrs[ii].set;
    r.ignore = r.has_ignore ? node->attrs[ii].i : 0;
    r.softmax = node->op->id == CC_OP_ID_SoftmaxCrossEntropyLoss;
    *g = r;
    return CC_OK;
}

/* ---- RNN, GRU, LSTM ------------------------------------------------------------------------- */

cc_status cc_lower_rnn(const cc_node *node, const cc_shape *x, const cc_shape *r, cc_lower_rnn_geom *g, cc_err *err)
{
    static const struct {
        const char *name;
        int kind, n_params;
        float alpha, beta;
    } acts[] = {
        { "Relu", CC_RNN_RELU, 0, 0, 0 },          { "Tanh", CC_RNN_TANH, 0, 0, 0 },
        { "Sigmoid", CC_RNN_SIGMOID, 0, 0, 0 },    { "Affine", CC_RNN_AFFINE, 2, 1, 0 },
        { "LeakyRelu", CC_RNN_LEAKYRELU, 1, 0.01f, 0 }, { "ThresholdedRelu", CC_RNN_THRESHOLDEDRELU, 1, 1, 0 },
        { "ScaledTanh", CC_RNN_SCALEDTANH, 2, 1, 1 }, { "HardSigmoid", CC_RNN_HARDSIGMOID, 2, 0.2f, 0.5f },
        { "Elu", CC_RNN_ELU, 1, 1, 0 },            { "Softsign", CC_RNN_SOFTSIGN, 0, 0, 0 },
        { "Softplus", CC_RNN_SOFTPLUS, 0, 0, 0 },
    };
    const char *op = node->op->name;
    cc_lower_rnn_geom q;
    memset(&q, 0, sizeof q);
    q.gates = node->op->id == CC_OP_ID_LSTM ? 4 : node->op->id == CC_OP_ID_GRU ? 3 : 1;
    int n_act = q.gates == 4 ? 3 : q.gates == 3 ? 2 : 1;
    const char *dir = cc_attr_s(node, "direction");
    q.dirs = strcmp(dir, "bidirectional") == 0 ? 2 : 1;
    q.reverse = strcmp(dir, "reverse") == 0;
    if (q.dirs == 1 && !q.reverse && strcmp(dir, "forward") != 0)
        return cc_err_set(err, CC_ERR_ARG, "%s: unknown direction '%s'", op, dir);
    q.layout = cc_attr_i(node, "layout") != 0;
    if (x->rank != 3 || r->rank != 3) return cc_err_set(err, CC_ERR_ARG, "%s: X and R must have rank 3", op);
    q.seq = x->dims[q.layout ? 1 : 0];
    q.batch = x->dims[q.layout ? 0 : 1];
    q.in = x->dims[2];
    q.hid = r->dims[2];
    if (q.gates == 3) q.lbr = cc_attr_i(node, "linear_before_reset") != 0;
    if (q.gates == 4 && cc_attr_i(node, "input_forget") != 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: input_forget=1 is not implemented", op);
    const cc_attr_value *cl = cc_attr_get(node, "clip");
    q.has_clip = cl->set;
    q.clip = (float)cl->f;
    static const char *const defaults[3][3] = { { "Tanh" }, { "Sigmoid", "Tanh" }, { "Sigmoid", "Tanh", "Tanh" } };
    const cc_attr_value *names = cc_attr_get(node, "activations");
    const cc_attr_value *al = cc_attr_get(node, "activation_alpha"), *be = cc_attr_get(node, "activation_beta");
    int n = names->set ? names->n : n_act, ia = 0, ib = 0;
    if (n != n_act && n != n_act * q.dirs)
        return cc_err_set(err, CC_ERR_ARG, "%s: activations has %d names, needs %d per direction", op, n, n_act);
    for (int k = 0; k < n; k++) {
        const char *nm = names->set ? names->strs[k] : defaults[n_act - 1][k];
        int f = -1;
        for (int a = 0; a < (int)(sizeof acts / sizeof acts[0]); a++)
            if (strcasecmp(nm, acts[a].name) == 0) f = a;
        if (f < 0) return cc_err_set(err, CC_ERR_ARG, "%s: unknown activation '%s'", op, nm);
        cc_lower_rnn_act v = { acts[f].kind, acts[f].alpha, acts[f].beta };
        if (acts[f].n_params >= 1 && al->set && ia < al->n) v.alpha = (float)al->floats[ia++];
        if (acts[f].n_params >= 2 && be->set && ib < be->n) v.beta = (float)be->floats[ib++];
        q.act[k / n_act][k % n_act] = v;
    }
    if (n == n_act && q.dirs == 2) memcpy(q.act[1], q.act[0], sizeof q.act[0]);
    *g = q;
    return CC_OK;
}

/* ---- OneHot -------------------------------------------------------------------------------- */

cc_status cc_lower_onehot(const cc_node *node, const cc_shape *ix, const cc_tensor *depth, int64_t *outer,
                          int64_t *depth_out, int64_t *inner, cc_err *err)
{
    if (!depth || !depth->data || cc_tensor_numel(depth) != 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "OneHot: depth must be a constant scalar");
    double d = trunc(cc_load(depth->data, depth->dtype, 0));
    if (!(d >= 1)) return cc_err_set(err, CC_ERR_ARG, "OneHot: depth %g must be at least 1", d);
    int64_t axis = cc_attr_i(node, "axis");
    if (axis < 0) axis += ix->rank + 1;
    if (axis < 0 || axis > ix->rank) return cc_err_set(err, CC_ERR_ARG, "OneHot: axis out of range");
    *outer = *inner = 1;
    for (int k = 0; k < axis; k++) *outer *= ix->dims[k];
    for (int k = (int)axis; k < ix->rank; k++) *inner *= ix->dims[k];
    *depth_out = (int64_t)d;
    return CC_OK;
}

/* ---- ReverseSequence ----------------------------------------------------------------------- */

cc_status cc_lower_reverse_sequence(const cc_node *node, const cc_shape *x, int *time_axis, int64_t *d0, int64_t *d1,
                                    int64_t *inner, cc_err *err)
{
    int64_t ba = cc_attr_i(node, "batch_axis"), ta = cc_attr_i(node, "time_axis");
    if (x->rank < 2 || (ba != 0 && ba != 1) || (ta != 0 && ta != 1) || ba == ta)
        return cc_err_set(err, CC_ERR_ARG, "ReverseSequence: rank %d, batch_axis %lld, time_axis %lld", x->rank,
                          (long long)ba, (long long)ta);
    *time_axis = (int)ta;
    *d0 = x->dims[0];
    *d1 = x->dims[1];
    *inner = 1;
    for (int k = 2; k < x->rank; k++) *inner *= x->dims[k];
    return CC_OK;
}

/* ---- GridSample ---------------------------------------------------------------------------- */

static const char *const gs_mode_names[CC_GRIDSAMPLE_MODE_COUNT] = { "bilinear", "nearest", "bicubic" };
static const char *const gs_pad_names[CC_GRIDSAMPLE_PAD_COUNT] = { "zeros", "border", "reflection" };

cc_status cc_lower_gridsample(const cc_node *node, const cc_shape *x, const cc_shape *grid, cc_lower_gridsample_geom *g,
                              cc_err *err)
{
    memset(g, 0, sizeof *g);
    const char *ms = cc_attr_s(node, "mode"), *ps = cc_attr_s(node, "padding_mode");
    if ((g->mode = find(gs_mode_names, CC_GRIDSAMPLE_MODE_COUNT, ms)) < 0)
        return cc_err_set(err, CC_ERR_ARG, "GridSample: unknown mode '%s'", ms);
    if ((g->pad = find(gs_pad_names, CC_GRIDSAMPLE_PAD_COUNT, ps)) < 0)
        return cc_err_set(err, CC_ERR_ARG, "GridSample: unknown padding_mode '%s'", ps);
    int64_t ac = cc_attr_i(node, "align_corners");
    if (ac != 0 && ac != 1) return cc_err_set(err, CC_ERR_ARG, "GridSample: align_corners must be 0 or 1");
    g->align = (int)ac;
    if (x->rank != 4 || grid->rank != 4 || grid->dims[3] != 2 || grid->dims[0] != x->dims[0])
        return cc_err_set(err, CC_ERR_ARG, "GridSample: X must be N x C x H x W and grid N x H_out x W_out x 2");
    g->n = x->dims[0];
    g->c = x->dims[1];
    g->h_in = x->dims[2];
    g->w_in = x->dims[3];
    g->h_out = grid->dims[1];
    g->w_out = grid->dims[2];
    const int64_t len[2] = { g->w_in, g->h_in };
    for (int a = 0; a < 2; a++) {
        /* every constant below is exact in float32 */
        if (len[a] > (1 << 22))
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "GridSample: an image side of %lld is too long",
                              (long long)len[a]);
        float L = (float)len[a];
        g->scale[a] = g->align ? (L - 1) * 0.5f : L * 0.5f;
        g->offset[a] = (L - 1) * 0.5f;
        g->lo[a] = g->align ? 0.0f : -0.5f;
        g->hi[a] = g->align ? L - 1 : L - 0.5f;
    }
    return CC_OK;
}

static int gs_float(cc_dtype d) { return d == CC_F32 || d == CC_F16 || d == CC_BF16; }

int cc_lower_gridsample_check(const char *who, const cc_node *node, const cc_tensor *x, const cc_tensor *grid,
                              int same_dtype, char *reason, size_t n)
{
    if (!gs_float(x->dtype) || !gs_float(grid->dtype) || (same_dtype && grid->dtype != x->dtype)) {
        snprintf(reason, n, "GridSample: %s has no kernel for a %s image and a %s grid%s", who, cc_dtype_name(x->dtype),
                 cc_dtype_name(grid->dtype), same_dtype ? " (they must be one float type)" : "");
        return -1;
    }
    cc_lower_gridsample_geom g;
    cc_err e = { 0 };
    if (cc_lower_gridsample(node, &x->shape, &grid->shape, &g, &e)) {
        snprintf(reason, n, "%s", e.msg);
        return -1;
    }
    return 0;
}

/* ---- RoiAlign ------------------------------------------------------------------------------ */

cc_status cc_lower_roialign(const cc_node *node, const cc_shape *x, const cc_shape *rois, cc_lower_roialign_geom *g,
                            cc_err *err)
{
    memset(g, 0, sizeof *g);
    const char *ms = cc_attr_s(node, "mode"), *cs = cc_attr_s(node, "coordinate_transformation_mode");
    if (strcmp(ms, "avg") != 0 && strcmp(ms, "max") != 0)
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: unknown mode '%s'", ms);
    if (strcmp(cs, "half_pixel") != 0 && strcmp(cs, "output_half_pixel") != 0)
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: unknown coordinate_transformation_mode '%s'", cs);
    if (x->rank != 4 || rois->rank != 2 || rois->dims[1] != 4)
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: X must be N x C x H x W and rois R x 4");
    g->max_mode = strcmp(ms, "max") == 0;
    g->min_size_one = strcmp(cs, "output_half_pixel") == 0;
    g->offset = g->min_size_one ? 0.0f : 0.5f;
    g->n = x->dims[0];
    g->c = x->dims[1];
    g->h = x->dims[2];
    g->w = x->dims[3];
    g->rois = rois->dims[0];
    g->out_h = cc_attr_i(node, "output_height");
    g->out_w = cc_attr_i(node, "output_width");
    g->sampling = cc_attr_i(node, "sampling_ratio");
    g->scale = (float)cc_attr_f(node, "spatial_scale");
    if (g->out_h < 1 || g->out_w < 1 || g->sampling < 0 || !(g->scale > 0) || !isfinite(g->scale))
        return cc_err_set(err, CC_ERR_ARG, "RoiAlign: output sizes, sampling_ratio or spatial_scale out of range");
    if (g->out_h > 2048 || g->out_w > 2048 || g->sampling > 2048)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "RoiAlign: an output side or sampling_ratio over 2048");
    if (g->h > (1 << 22) || g->w > (1 << 22))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "RoiAlign: an image side over 2^22");
    return CC_OK;
}

void cc_lower_roialign_measure(const cc_lower_roialign_geom *g, const float box[4], cc_lower_roialign_roi *r)
{
    for (int a = 0; a < 2; a++) {
        float lo = a == 0 ? box[1] : box[0], hi = a == 0 ? box[3] : box[2];
        float out = (float)(a == 0 ? g->out_h : g->out_w);
        float size = (hi - lo) * g->scale;
        if (g->min_size_one) size = fmaxf(size, 1.0f);
        r->start[a] = fmaf(lo, g->scale, -g->offset);
        r->bin[a] = size / out;
        if (g->sampling > 0) {
            r->grid[a] = (int)g->sampling;
        } else if (!(size > 0)) {
            r->grid[a] = 0;
        } else if (!(r->bin[a] <= (float)CC_ROIALIGN_MAX_GRID)) {
            r->grid[a] = CC_ROIALIGN_MAX_GRID;
        } else {
            int k = (int)ceilf(r->bin[a]);
            if (k < 1) k = 1;
            while (k > 1 && (float)(k - 1) * out >= size) k--;
            while ((float)k * out < size) k++;
            r->grid[a] = k < CC_ROIALIGN_MAX_GRID ? k : CC_ROIALIGN_MAX_GRID;
        }
    }
}

float cc_lower_roialign_coord(const cc_lower_roialign_roi *r, int a, int64_t b, int64_t i)
{
    float f = (float)(2 * (b * r->grid[a] + i) + 1) / (float)(2 * r->grid[a]);
    return fmaf(r->bin[a], f, r->start[a]);
}

int cc_lower_roialign_check(const char *who, const cc_node *node, const cc_tensor *x, const cc_tensor *rois,
                            char *reason, size_t n)
{
    if (!gs_float(x->dtype) || rois->dtype != x->dtype) {
        snprintf(reason, n, "RoiAlign: %s has no kernel for a %s image and %s rois", who, cc_dtype_name(x->dtype),
                 cc_dtype_name(rois->dtype));
        return -1;
    }
    cc_lower_roialign_geom g;
    cc_err e = { 0 };
    if (cc_lower_roialign(node, &x->shape, &rois->shape, &g, &e)) {
        snprintf(reason, n, "%s", e.msg);
        return -1;
    }
    return 0;
}

int cc_lower_topk_check(const char *who, const cc_node *node, const cc_tensor *const *in, char *reason, size_t n)
{
    if (!cc_op_dynamic_shape(node->op, node->n_in, in)) return 0;
    snprintf(reason, n, "%s: TopK's K is computed at run time, so its outputs' shape depends on the data: computed on "
             "the host (cpu)", who);
    return -1;
}
