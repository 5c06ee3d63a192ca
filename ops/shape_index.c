/* shape_index.c — the shape family's indexing ops (opset 13): Gather (whole slices along
 * an axis), GatherElements (one element per index, along an axis) and GatherND (slices
 * addressed by index tuples, after batch_dims leading batch dims). Indices are int32 or
 * int64 tensors whose values are read at run time; a negative index counts from the end
 * of its dim, and an index outside [-d, d-1] is an error (CC_ERR_ARG naming it). Case
 * generation draws every index inside its dim. The golden copies the selected values
 * exactly (S = |value|, K = 1). ScatterND and ScatterElements (opset 16) write updates
 * where indices say (below). */
#include <stdint.h>
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
    int64_t v = cc_load_i64(idx->data, idx->dtype, (size_t)i);
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

/* ---- ScatterND, ScatterElements ---------------------------------------------------- */

/* Opset 16: the output is data with updates written at the places indices name; with
 * reduction add (mul) an update is added to (multiplies) what is there, in index order, so
 * repeated places accumulate (8-, 16- and 32-bit integers wrap like numpy's). With reduction none a place named twice is left undefined by
 * the specification: the golden model refuses such indices, and case generation never
 * draws them. Sums and products round once per update (S = |data| + sum |updates| or the
 * product's magnitude, K = updates per place + 1); copies are exact. */
enum { SC_NONE, SC_ADD, SC_MUL };

static cc_status scatter_reduction(const cc_node *node, int *red, cc_err *err)
{
    const char *r = cc_attr_s(node, "reduction");
    *red = !strcmp(r, "none") ? SC_NONE : !strcmp(r, "add") ? SC_ADD : !strcmp(r, "mul") ? SC_MUL : -1;
    if (*red < 0 && (!strcmp(r, "max") || !strcmp(r, "min")))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: reduction %s (opset 18) is not in the catalog's %s-16",
                          node->op->name, r, node->op->name);
    if (*red < 0)
        return cc_err_set(err, CC_ERR_ARG, "%s: reduction '%s' is not none, add or mul", node->op->name, r);
    return CC_OK;
}

static cc_status scatter_common(const cc_node *node, const cc_tensor *const *in, cc_tensor *out, cc_err *err)
{
    const cc_tensor *x = shape_input(node, in, 0), *idx = shape_input(node, in, 1), *u = shape_input(node, in, 2);
    cc_status st = check_indices(node, x, idx, err);
    if (st) return st;
    if (!u) return cc_err_set(err, CC_ERR_ARG, "%s: updates are required", node->op->name);
    if (u->dtype != x->dtype)
        return cc_err_set(err, CC_ERR_ARG, "%s: updates are %s, data is %s", node->op->name, cc_dtype_name(u->dtype),
                          cc_dtype_name(x->dtype));
    int red;
    if ((st = scatter_reduction(node, &red, err))) return st;
    if (red != SC_NONE && x->dtype == CC_BOOL)
        return cc_err_set(err, CC_ERR_ARG, "%s: reduction %s of bool data", node->op->name, cc_attr_s(node, "reduction"));
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].data = NULL;
    return CC_OK;
}

/* ScatterND: indices [..., k] (k <= rank of data) address data's first k dims; updates are
 * indices.shape[:-1] + data.shape[k:]. */
static cc_status scatter_nd_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                                  cc_err *err)
{
    (void)n_out;
    cc_status st = scatter_common(node, in, out, err);
    if (st) return st;
    const cc_tensor *x = in[0], *idx = in[1], *u = in[2];
    int q = idx->shape.rank, r = x->shape.rank;
    if (q < 1) return cc_err_set(err, CC_ERR_ARG, "ScatterND: indices must have rank >= 1");
    int64_t k = idx->shape.dims[q - 1];
    if (k < 1 || k > r)
        return cc_err_set(err, CC_ERR_ARG, "ScatterND: the last dim of indices (%lld) must be in [1, %d]", (long long)k, r);
    int ur = q - 1 + r - (int)k;
    int ok = u->shape.rank == ur;
    for (int d = 0; ok && d < q - 1; d++) ok = u->shape.dims[d] == idx->shape.dims[d];
    for (int d = 0; ok && d < r - (int)k; d++) ok = u->shape.dims[q - 1 + d] == x->shape.dims[k + d];
    if (!ok) {
        char a[96], b[96], c[96];
        return cc_err_set(err, CC_ERR_ARG, "ScatterND: updates %s do not match indices %s and data %s",
                          cc_shape_format(&u->shape, a, sizeof a), cc_shape_format(&idx->shape, b, sizeof b),
                          cc_shape_format(&x->shape, c, sizeof c));
    }
    return CC_OK;
}

/* ScatterElements: indices and updates of one shape, data's rank; each index replaces the
 * coordinate along axis. */
static cc_status scatter_el_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                                  cc_err *err)
{
    (void)n_out;
    cc_status st = scatter_common(node, in, out, err);
    if (st) return st;
    const cc_tensor *x = in[0], *idx = in[1], *u = in[2];
    int axis;
    if ((st = gather_axis(node, x->shape.rank, &axis, err))) return st;
    if (!cc_shape_equal(&idx->shape, &u->shape) || idx->shape.rank != x->shape.rank)
        return cc_err_set(err, CC_ERR_ARG, "ScatterElements: indices and updates must share one shape of data's rank");
    for (int d = 0; d < x->shape.rank; d++)
        if (d != axis && idx->shape.dims[d] > x->shape.dims[d])
            return cc_err_set(err, CC_ERR_ARG, "ScatterElements: indices dim %d (%lld) exceeds data's (%lld)", d,
                              (long long)idx->shape.dims[d], (long long)x->shape.dims[d]);
    return CC_OK;
}

/* The flat output place of update j (and of its slice: *slice elements from there). */
static cc_status scatter_place(const cc_node *node, const cc_tensor *const *in, int64_t j, int64_t *place,
                               int64_t *slice, cc_err *err)
{
    const cc_tensor *x = in[0], *idx = in[1];
    const cc_shape *xs = &x->shape;
    cc_status st;
    if (node->op->id == CC_OP_ID_ScatterND) {
        int q = idx->shape.rank;
        int64_t k = idx->shape.dims[q - 1], off = 0;
        *slice = 1;
        for (int d = (int)k; d < xs->rank; d++) *slice *= xs->dims[d];
        for (int64_t t = 0; t < k; t++) {
            int64_t v = 0;
            if ((st = index_value(node, idx, j * k + t, xs->dims[t], &v, err))) return st;
            off = off * xs->dims[t] + v;
        }
        *place = off * *slice;
        return CC_OK;
    }
    int axis;
    if ((st = gather_axis(node, xs->rank, &axis, err))) return st;
    /* coordinates of j in indices' shape, axis replaced by its index */
    int64_t c[CC_MAX_RANK], rest = j, off = 0;
    for (int d = xs->rank - 1; d >= 0; d--) {
        c[d] = rest % idx->shape.dims[d];
        rest /= idx->shape.dims[d];
    }
    int64_t v = 0;
    if ((st = index_value(node, idx, j, xs->dims[axis], &v, err))) return st;
    c[axis] = v;
    for (int d = 0; d < xs->rank; d++) off = off * xs->dims[d] + c[d];
    *place = off;
    *slice = 1;
    return CC_OK;
}

/* An integer v (exact in double) wrapped into dtype d's range, two's complement (numpy's
 * integer arithmetic, which the specification's reference uses). */
static double wrap_to(cc_dtype d, double v)
{
    int64_t w = (int64_t)v;
    switch (d) {
    case CC_I8: return (double)(int8_t)(uint8_t)(uint64_t)w;
    case CC_U8: return (double)(uint8_t)(uint64_t)w;
    case CC_I32: return (double)(int32_t)(uint32_t)(uint64_t)w;
    case CC_I16: return (double)(int16_t)(uint16_t)(uint64_t)w;
    case CC_U16: return (double)(uint16_t)(uint64_t)w;
    case CC_U32: return (double)(uint32_t)(uint64_t)w;
    default: return v;
    }
}

static cc_status scatter_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                                cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0], *u = in[2];
    int red;
    cc_status st = scatter_reduction(node, &red, err);
    if (st) return st;
    int64_t n = cc_tensor_numel(x), updates = node->op->id == CC_OP_ID_ScatterND
                                                 ? cc_tensor_numel(in[1]) / in[1]->shape.dims[in[1]->shape.rank - 1]
                                                 : cc_tensor_numel(in[1]);
    int is_float = cc_dtype_is_float(x->dtype);
    int *hits = calloc((size_t)(n > 0 ? n : 1), sizeof *hits);
    if (!hits) return cc_err_set(err, CC_ERR_NOMEM, "%s: golden: out of memory", node->op->name);
    for (int64_t i = 0; i < n; i++) shape_put(&out[0], i, x, i);
    int max_hits = 0;
    for (int64_t j = 0; j < updates && !st; j++) {
        int64_t place, slice;
        if ((st = scatter_place(node, in, j, &place, &slice, err))) break;
        for (int64_t e = 0; e < slice; e++) {
            double v = cc_load(u->data, u->dtype, (size_t)(j * slice + e));
            double *y = &out[0].value[place + e];
            if (red == SC_NONE && hits[place + e])
                st = cc_err_set(err, CC_ERR_ARG, "%s: reduction none with two updates of output element %lld: the "
                                "result is undefined", node->op->name, (long long)(place + e));
            if (out[0].exact) { /* i64/u64 in 64 bits, wrapping */
                uint64_t cur = (uint64_t)out[0].exact[place + e];
                uint64_t w = ((const uint64_t *)u->data)[j * slice + e];
                cc_golden_put_int(&out[0], place + e, (int64_t)(red == SC_ADD ? cur + w : red == SC_MUL ? cur * w : w));
            } else {
                *y = red == SC_ADD ? *y + v : red == SC_MUL ? *y * v : v;
            }
            if (!is_float && red != SC_NONE && !out[0].exact) *y = wrap_to(x->dtype, *y);
            if (is_float) out[0].mag[place + e] = red == SC_ADD ? out[0].mag[place + e] + fabs(v) : fabs(*y);
            if (++hits[place + e] > max_hits) max_hits = hits[place + e];
        }
    }
    free(hits);
    out[0].k = red == SC_NONE ? 1 : max_hits + 1;
    return st;
}

/* Indices naming distinct places (reduction none needs them): ScatterND draws tuples from
 * a shuffle of the addressed positions; ScatterElements a partial permutation of the axis
 * for each line. Negative indices half of the time. */
static cc_status scatter_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)exact;
    cc_tensor *x = &in[0], *idx = &in[1];
    if (idx->dtype != CC_I32 && idx->dtype != CC_I64) return CC_OK; /* infer() says why */
    const cc_shape *xs = &x->shape;
    if (node->op->id == CC_OP_ID_ScatterND) {
        int q = idx->shape.rank;
        int64_t k = q >= 1 ? idx->shape.dims[q - 1] : 1, places = 1, n = k > 0 ? cc_tensor_numel(idx) / k : 0;
        for (int64_t t = 0; t < k && t < xs->rank; t++) places *= xs->dims[t];
        if (n > places)
            return cc_err_set(err, CC_ERR_ARG, "ScatterND: %lld updates for %lld distinct places", (long long)n,
                              (long long)places);
        if (!rng || n == 0) return CC_OK;
        int64_t *perm = malloc(sizeof *perm * (size_t)places);
        if (!perm) return cc_err_set(err, CC_ERR_NOMEM, "ScatterND: out of memory");
        for (int64_t p = 0; p < places; p++) perm[p] = p;
        for (int64_t p = 0; p < n; p++) {
            int64_t s = cc_rng_int(rng, p, places - 1), t = perm[p];
            perm[p] = perm[s];
            perm[s] = t;
            int64_t rest = perm[p];
            for (int64_t d = k - 1; d >= 0; d--) {
                int64_t c = rest % xs->dims[d];
                rest /= xs->dims[d];
                if (cc_rng_int(rng, 0, 1)) c -= xs->dims[d];
                cc_store(idx->data, idx->dtype, (size_t)(p * k + d), (double)c);
            }
        }
        free(perm);
        return CC_OK;
    }
    int axis = shape_axis(cc_attr_i(node, "axis"), xs->rank);
    if (axis < 0 || idx->shape.rank != xs->rank) return CC_OK; /* infer() says why */
    int64_t len = xs->dims[axis], m = idx->shape.dims[axis], inner = 1, lines = 1;
    if (m > len)
        return cc_err_set(err, CC_ERR_ARG, "ScatterElements: %lld updates along an axis of %lld places", (long long)m,
                          (long long)len);
    for (int d = axis + 1; d < xs->rank; d++) inner *= idx->shape.dims[d];
    for (int d = 0; d < xs->rank; d++)
        if (d != axis) lines *= idx->shape.dims[d];
    if (!rng || m == 0 || lines == 0) return CC_OK;
    int64_t *perm = malloc(sizeof *perm * (size_t)len);
    if (!perm) return cc_err_set(err, CC_ERR_NOMEM, "ScatterElements: out of memory");
    for (int64_t l = 0; l < lines; l++) {
        int64_t base = (l / inner) * m * inner + l % inner;
        for (int64_t p = 0; p < len; p++) perm[p] = p;
        for (int64_t p = 0; p < m; p++) {
            int64_t s = cc_rng_int(rng, p, len - 1), t = perm[p];
            perm[p] = perm[s];
            perm[s] = t;
            int64_t c = perm[p] - (cc_rng_int(rng, 0, 1) ? len : 0);
            cc_store(idx->data, idx->dtype, (size_t)(base + p * inner), (double)c);
        }
    }
    free(perm);
    return CC_OK;
}

static const cc_sweep_row scatter_nd_sweep[] = {
    { Q, "data=8,indices=4x1:i64,updates=4" },                     /* elements */
    { Q, "data=4x4x4,indices=2x1:i64,updates=2x4x4" },             /* whole slices */
    { Q, "data=4x5,indices=3x2:i32,updates=3" },                   /* full coordinates */
    { Q, "data=4x5,indices=2x1:i64,updates=2x5", "reduction=add" },
    { Q, "data=3x4,indices=2x2:i64,updates=2", "reduction=mul" },
    { EDGE, "data=4x5,indices=0x2:i64,updates=0" },                /* nothing to scatter */
    { 0, "data=2x3x4x5,indices=2x3x2:i64,updates=2x3x4x5" },
    { MODEL, "data=1x3x80x80x85,indices=100x3:i64,updates=100x80x85" }, /* a detector's grid rows */
};

static const cc_sweep_row scatter_el_sweep[] = {
    { Q, "data=3x3,indices=2x3:i64,updates=2x3" },
    { Q, "data=3x5,indices=3x2:i32,updates=3x2", "axis=1" },
    { Q, "data=4x5x6,indices=2x5x3:i64,updates=2x5x3", "axis=-1" },
    { Q, "data=6,indices=4:i64,updates=4", "reduction=add" },
    { Q, "data=3x4,indices=3x2:i64,updates=3x2", "axis=1,reduction=mul" },
    { EDGE, "data=3x4,indices=0x4:i64,updates=0x4" },
    { 0, "data=8x16,indices=8x16:i64,updates=8x16", "axis=1" },    /* a permutation of each row */
    { MODEL, "data=1x128,indices=1x16:i64,updates=1x16", "axis=1" }, /* masking positions */
};

#define SCATTER_DEF(OP, INFER, SWEEP)                                                                  \
    {                                                                                                 \
        .id = CC_OP_ID_##OP, .name = #OP, .domain = "", .since_version = 16, .family = "shape",          \
        .n_inputs = 3,                                                                                \
        .inputs = { { .name = "data", .role = CC_IN_DATA }, { .name = "indices", .role = CC_IN_DATA },  \
                    { .name = "updates", .role = CC_IN_DATA } },                                        \
        .min_outputs = 1, .max_outputs = 1,                                                           \
        .n_attrs = CC_ONNX_NATTRS(OP, 16), .attrs = { CC_ONNX_ATTRS(OP, 16) },                         \
        .dtypes = SHAPE_DTYPES,                                                                       \
        .infer = INFER, .cost = shape_move_cost, .golden = scatter_golden, .gen = scatter_gen,         \
        CC_SWEEP(SWEEP),                                                                              \
    }

const cc_op_def cc_op_ScatterND = SCATTER_DEF(ScatterND, scatter_nd_infer, scatter_nd_sweep);
const cc_op_def cc_op_ScatterElements = SCATTER_DEF(ScatterElements, scatter_el_infer, scatter_el_sweep);
