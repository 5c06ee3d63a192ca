/* shape_index.c — the shape family's indexing ops (opset 13): Gather (whole slices along
 * an axis), GatherElements (one element per index, along an axis) and GatherND (slices
 * addressed by index tuples, after batch_dims leading batch dims). Indices are int32 or
 * int64 tensors whose values are read at run time; a negative index counts from the end
 * of its dim, and an index outside [-d, d-1] is an error (CC_ERR_ARG naming it). Case
 * generation draws every index inside its dim. The golden copies the selected values
 * exactly (S = |value|, K = 1). */
#include <stdio.h>
#include <stdlib.h>

#include "shape_internal.h"
#include "sweep.h"

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

#define INDEX_DTYPES (SHAPE_DTYPES | CC_DTYPE_BIT(CC_BOOL))

static cc_status check_indices(const cc_node *node, const cc_tensor *data, const cc_tensor *idx, cc_err *err)
{
    const char *op = node->op->name;
    if (!data || !idx) return cc_err_set(err, CC_ERR_ARG, "%s: data and indices are required", op);
    if (idx->dtype != CC_I32 && idx->dtype != CC_I64)
        return cc_err_set(err, CC_ERR_ARG, "%s: indices must be int32 or int64, got %s", op, cc_dtype_name(idx->dtype));
    return CC_OK;
}

/* The index value i of idx normalised into [0, dim), or CC_ERR_ARG naming it. */
static cc_status index_value(const cc_node *node, const cc_tensor *idx, int64_t i, int64_t dim, int64_t *out,
                             cc_err *err)
{
    int64_t v = (int64_t)cc_load(idx->data, idx->dtype, (size_t)i);
    if (v < -dim || v >= dim)
        return cc_err_set(err, CC_ERR_ARG, "%s: indices[%lld] = %lld is outside [%lld, %lld]", node->op->name,
                          (long long)i, (long long)v, (long long)-dim, (long long)dim - 1);
    *out = v < 0 ? v + dim : v;
    return CC_OK;
}

/* Draws every index of idx uniformly from [-d, d - 1] (negative ones too: they count from
 * the end); with rng NULL (a case only validated) draws nothing. An empty dim cannot be
 * indexed: the indices must then be empty, else the case is refused. */
static cc_status fill_indices(const cc_node *node, cc_tensor *idx, int64_t d, cc_rng *rng, cc_err *err)
{
    int64_t n = cc_tensor_numel(idx);
    if (n > 0 && d <= 0)
        return cc_err_set(err, CC_ERR_ARG, "%s: indices into a dim of size 0 must be empty", node->op->name);
    for (int64_t i = 0; rng && i < n; i++) cc_store(idx->data, idx->dtype, (size_t)i, (double)cc_rng_int(rng, -d, d - 1));
    return CC_OK;
}

/* ---- Gather ------------------------------------------------------------------------ */

static cc_status gather_axis(const cc_node *node, int r, int *axis, cc_err *err)
{
    int64_t a = cc_attr_i(node, "axis");
    *axis = shape_axis(a, r);
    if (*axis < 0)
        return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld is outside [%d, %d] for rank %d", node->op->name, (long long)a, -r,
                          r - 1, r);
    return CC_OK;
}

static cc_status gather_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0), *idx = shape_input(node, in, 1);
    cc_status st = check_indices(node, x, idx, err);
    if (st) return st;
    int axis;
    if ((st = gather_axis(node, x->shape.rank, &axis, err))) return st;
    int r = x->shape.rank - 1 + idx->shape.rank;
    if (r > CC_MAX_RANK) return cc_err_set(err, CC_ERR_ARG, "Gather: output rank %d is more than %d", r, CC_MAX_RANK);
    cc_shape o;
    memset(&o, 0, sizeof o);
    for (int d = 0; d < axis; d++) o.dims[o.rank++] = x->shape.dims[d];
    for (int d = 0; d < idx->shape.rank; d++) o.dims[o.rank++] = idx->shape.dims[d];
    for (int d = axis + 1; d < x->shape.rank; d++) o.dims[o.rank++] = x->shape.dims[d];
    out[0].dtype = x->dtype;
    out[0].shape = o;
    out[0].data = NULL;
    return CC_OK;
}

/* out[o, j, i] = x[o, indices[j], i] over x viewed as [outer, dim, inner]. */
static cc_status gather_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0], *idx = in[1];
    int axis;
    cc_status st = gather_axis(node, x->shape.rank, &axis, err);
    if (st) return st;
    int64_t outer = 1, inner = 1, dim = x->shape.dims[axis], nidx = cc_tensor_numel(idx);
    for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
    for (int d = axis + 1; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    for (int64_t j = 0; j < nidx; j++) {
        int64_t k = 0;
        if ((st = index_value(node, idx, j, dim, &k, err))) return st;
        for (int64_t o = 0; o < outer; o++)
            for (int64_t i = 0; i < inner; i++) shape_put(&out[0], (o * nidx + j) * inner + i, x, (o * dim + k) * inner + i);
    }
    out[0].k = 1;
    return CC_OK;
}

/* The size of the dim Gather's and GatherElements' indices address (1 for a bad axis,
 * which infer() refuses). */
static int64_t gather_dim(const cc_node *node, const cc_tensor *x)
{
    int a = shape_axis(cc_attr_i(node, "axis"), x->shape.rank);
    return a < 0 ? 1 : x->shape.dims[a];
}

static cc_status gather_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)exact;
    if (in[1].dtype != CC_I32 && in[1].dtype != CC_I64) return CC_OK; /* infer() says why */
    return fill_indices(node, &in[1], gather_dim(node, &in[0]), in[1].data ? rng : NULL, err);
}

static const cc_sweep_row gather_sweep[] = {
    { Q, "data=5x4,indices=3:i64" },
    { Q, "data=5x4,indices=2x3:i64", "axis=1" },
    { Q, "data=3x4x5,indices=2:i32", "axis=-2" },
    { Q, "data=6,indices=4x2:i64" },
    { Q | EDGE, "data=5x4,indices=scalar:i64" },          /* a scalar index drops the axis */
    { EDGE, "data=5x4,indices=0:i64", "axis=1" },         /* no index: an empty output */
    { EDGE, "data=1x3,indices=5:i32" },                   /* the same row again and again */
    { 0, "data=2x3x4x5,indices=3x2:i64", "axis=2" },
    { MODEL, "data=1000x64,indices=1x16:i64" },           /* a token embedding lookup */
    { MODEL, "data=1x197x192,indices=scalar:i64", "axis=1" }, /* a ViT's class token */
};

const cc_op_def cc_op_Gather = {
    .id = CC_OP_ID_Gather, .name = "Gather", .domain = "", .since_version = 13, .family = "shape",
    .n_inputs = 2,
    .inputs = { { .name = "data", .role = CC_IN_DATA }, { .name = "indices", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Gather, 13), .attrs = { CC_ONNX_ATTRS(Gather, 13) },
    .dtypes = INDEX_DTYPES,
    .infer = gather_infer, .cost = shape_move_cost, .golden = gather_golden, .gen = gather_gen,
    CC_SWEEP(gather_sweep),
};

/* ---- GatherElements ---------------------------------------------------------------- */

static cc_status gather_elements_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                                       cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0), *idx = shape_input(node, in, 1);
    cc_status st = check_indices(node, x, idx, err);
    if (st) return st;
    int axis;
    if ((st = gather_axis(node, x->shape.rank, &axis, err))) return st;
    if (idx->shape.rank != x->shape.rank)
        return cc_err_set(err, CC_ERR_ARG, "GatherElements: indices have rank %d, data rank %d", idx->shape.rank,
                          x->shape.rank);
    for (int d = 0; d < x->shape.rank; d++)
        if (d != axis && idx->shape.dims[d] > x->shape.dims[d])
            return cc_err_set(err, CC_ERR_ARG, "GatherElements: indices dim %d is %lld, more than data's %lld", d,
                              (long long)idx->shape.dims[d], (long long)x->shape.dims[d]);
    out[0].dtype = x->dtype;
    out[0].shape = idx->shape;
    out[0].data = NULL;
    return CC_OK;
}

/* out[p] = x[p with its axis coordinate replaced by indices[p]]. */
static cc_status gather_elements_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                                        cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0], *idx = in[1];
    int axis;
    cc_status st = gather_axis(node, x->shape.rank, &axis, err);
    if (st) return st;
    int64_t xst[CC_MAX_RANK], p[CC_MAX_RANK] = { 0 }, n = cc_tensor_numel(idx);
    shape_strides(&x->shape, xst);
    for (int64_t j = 0; j < n; j++) {
        int64_t k = 0, src = 0;
        if ((st = index_value(node, idx, j, x->shape.dims[axis], &k, err))) return st;
        for (int d = 0; d < x->shape.rank; d++) src += (d == axis ? k : p[d]) * xst[d];
        shape_put(&out[0], j, x, src);
        shape_next(&idx->shape, p);
    }
    out[0].k = 1;
    return CC_OK;
}

static cc_status gather_elements_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)exact;
    if (in[1].dtype != CC_I32 && in[1].dtype != CC_I64) return CC_OK; /* infer() says why */
    return fill_indices(node, &in[1], gather_dim(node, &in[0]), in[1].data ? rng : NULL, err);
}

static const cc_sweep_row gather_elements_sweep[] = {
    { Q, "data=3x4,indices=3x4:i64" },
    { Q, "data=3x4,indices=2x4:i64", "axis=0" },          /* fewer rows than data */
    { Q, "data=3x4,indices=3x6:i32", "axis=1" },          /* more along the axis */
    { Q, "data=2x3x4,indices=2x3x2:i64", "axis=-1" },
    { Q | EDGE, "data=5,indices=7:i64" },
    { EDGE, "data=3x4,indices=3x0:i64", "axis=1" },
    { 0, "data=2x3x4x5,indices=2x1x4x5:i64", "axis=1" },
    { MODEL, "data=1x8400x80,indices=1x100x80:i64", "axis=1" }, /* top detections' class scores */
};

const cc_op_def cc_op_GatherElements = {
    .id = CC_OP_ID_GatherElements, .name = "GatherElements", .domain = "", .since_version = 13, .family = "shape",
    .n_inputs = 2,
    .inputs = { { .name = "data", .role = CC_IN_DATA }, { .name = "indices", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(GatherElements, 13), .attrs = { CC_ONNX_ATTRS(GatherElements, 13) },
    .dtypes = INDEX_DTYPES,
    .infer = gather_elements_infer, .cost = shape_move_cost, .golden = gather_elements_golden,
    .gen = gather_elements_gen,
    CC_SWEEP(gather_elements_sweep),
};

/* ---- GatherND ---------------------------------------------------------------------- */

/* GatherND's geometry: b batch dims, tuples of m indices into data's dims b..b+m-1. */
static cc_status gather_nd_geometry(const cc_node *node, const cc_tensor *x, const cc_tensor *idx, int *b, int *m,
                                    cc_err *err)
{
    int64_t bd = cc_attr_i(node, "batch_dims");
    int r = x->shape.rank, q = idx->shape.rank;
    if (q < 1) return cc_err_set(err, CC_ERR_ARG, "GatherND: indices must have rank 1 or more");
    if (bd < 0 || bd >= q || bd >= r)
        return cc_err_set(err, CC_ERR_ARG, "GatherND: batch_dims %lld must be in [0, %d)", (long long)bd, q < r ? q : r);
    int64_t mm = idx->shape.dims[q - 1];
    if (mm < 1 || mm > r - bd)
        return cc_err_set(err, CC_ERR_ARG, "GatherND: index tuples of %lld entries into %lld dims (rank %d, batch_dims %lld)",
                          (long long)mm, (long long)(r - bd), r, (long long)bd);
    for (int d = 0; d < bd; d++)
        if (x->shape.dims[d] != idx->shape.dims[d])
            return cc_err_set(err, CC_ERR_ARG, "GatherND: batch dim %d is %lld in data and %lld in indices", d,
                              (long long)x->shape.dims[d], (long long)idx->shape.dims[d]);
    *b = (int)bd;
    *m = (int)mm;
    return CC_OK;
}

static cc_status gather_nd_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                                 cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0), *idx = shape_input(node, in, 1);
    cc_status st = check_indices(node, x, idx, err);
    if (st) return st;
    int b, m;
    if ((st = gather_nd_geometry(node, x, idx, &b, &m, err))) return st;
    cc_shape o;
    memset(&o, 0, sizeof o);
    for (int d = 0; d < idx->shape.rank - 1; d++) o.dims[o.rank++] = idx->shape.dims[d];
    for (int d = b + m; d < x->shape.rank; d++) o.dims[o.rank++] = x->shape.dims[d];
    out[0].dtype = x->dtype;
    out[0].shape = o;
    out[0].data = NULL;
    return CC_OK;
}

/* With B the batch count, N the tuples per batch and inner the elements of one addressed
 * slice: out[bt, t, i] = x[bt, tuple (bt, t), i], the tuple's entries multiplied by
 * data's strides of dims b..b+m-1. */
static cc_status gather_nd_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                                  cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0], *idx = in[1];
    int b, m;
    cc_status st = gather_nd_geometry(node, x, idx, &b, &m, err);
    if (st) return st;
    int64_t xst[CC_MAX_RANK], batches = 1, tuples = 1, inner = 1;
    shape_strides(&x->shape, xst);
    for (int d = 0; d < b; d++) batches *= x->shape.dims[d];
    for (int d = b; d < idx->shape.rank - 1; d++) tuples *= idx->shape.dims[d];
    for (int d = b + m; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    int64_t batch_size = b > 0 ? xst[b - 1] : cc_tensor_numel(x);
    for (int64_t bt = 0; bt < batches; bt++)
        for (int64_t t = 0; t < tuples; t++) {
            int64_t src = bt * batch_size, at = (bt * tuples + t) * m;
            for (int k = 0; k < m; k++) {
                int64_t v = 0;
                if ((st = index_value(node, idx, at + k, x->shape.dims[b + k], &v, err))) return st;
                src += v * xst[b + k];
            }
            for (int64_t i = 0; i < inner; i++) shape_put(&out[0], (bt * tuples + t) * inner + i, x, src + i);
        }
    out[0].k = 1;
    return CC_OK;
}

static cc_status gather_nd_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)exact;
    if (in[1].dtype != CC_I32 && in[1].dtype != CC_I64) return CC_OK;
    int b, m;
    cc_err e;
    if (gather_nd_geometry(node, &in[0], &in[1], &b, &m, &e)) return CC_OK; /* infer() says why */
    int64_t n = cc_tensor_numel(&in[1]);
    for (int64_t i = 0; i < n; i++) {
        int64_t d = in[0].shape.dims[b + i % m];
        if (d <= 0) return cc_err_set(err, CC_ERR_ARG, "GatherND: indices into a dim of size 0 must be empty");
        if (rng && in[1].data) cc_store(in[1].data, in[1].dtype, (size_t)i, (double)cc_rng_int(rng, -d, d - 1));
    }
    return CC_OK;
}

static const cc_sweep_row gather_nd_sweep[] = {
    { Q, "data=4x5,indices=3x2:i64" },                     /* elements */
    { Q, "data=4x5,indices=3x1:i64" },                     /* rows */
    { Q, "data=2x3x4,indices=2x2x1:i32" },
    { Q, "data=2x3x4,indices=2x1:i64", "batch_dims=1" },   /* one row of each batch */
    { Q, "data=2x3x4,indices=2x5x2:i64", "batch_dims=1" },
    { Q | EDGE, "data=3x4,indices=2:i64" },                /* one tuple: a scalar */
    { EDGE, "data=3x4,indices=0x1:i64" },
    { 0, "data=2x2x3x4,indices=2x2x3x1:i64", "batch_dims=2" },
    { MODEL, "data=1x8400x4,indices=1x100x1:i64", "batch_dims=1" }, /* boxes of the top detections */
};

const cc_op_def cc_op_GatherND = {
    .id = CC_OP_ID_GatherND, .name = "GatherND", .domain = "", .since_version = 13, .family = "shape",
    .n_inputs = 2,
    .inputs = { { .name = "data", .role = CC_IN_DATA }, { .name = "indices", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(GatherND, 13), .attrs = { CC_ONNX_ATTRS(GatherND, 13) },
    .dtypes = INDEX_DTYPES,
    .infer = gather_nd_infer, .cost = shape_move_cost, .golden = gather_nd_golden, .gen = gather_nd_gen,
    CC_SWEEP(gather_nd_sweep),
};
