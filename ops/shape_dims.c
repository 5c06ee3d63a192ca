/* shape_dims.c — the shape family's ops on dimensions: Shape (opset 15) and Size (opset 13),
 * which describe their input as int64 values; Unsqueeze and Squeeze (opset 13), which
 * insert or drop size-1 dimensions and keep the row-major order of the elements; Expand
 * (opset 13), which broadcasts its input to a shape (numpy's two-way rule), and Tile (opset
 * 13), which repeats it along every axis. Every op here only moves data or counts it: the
 * golden copies input values exactly, with S = |value| and K = 1. Their shape-valued inputs
 * (axes, shape, repeats) are constant: read from the tensor's data or the case id. */
#include <stdio.h>
#include <stdlib.h>

#include "shape_internal.h"
#include "sweep.h"

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* Every dtype: these ops read shapes or move elements whatever their type. */
#define DIMS_DTYPES (SHAPE_DTYPES | CC_DTYPE_BIT(CC_BOOL))

static cc_status missing(const cc_node *node, cc_err *err)
{
    return cc_err_set(err, CC_ERR_ARG, "%s: %s is missing", node->op->name, node->op->inputs[0].name);
}

/* ---- Shape, Size ------------------------------------------------------------------ */

/* Shape's [start, end) over a rank-r input: negative values count from the back, then both
 * are clamped to [0, r]; an empty range gives an empty output. */
static void shape_range(const cc_node *node, int r, int *start, int *end)
{
    const cc_attr_value *e = cc_attr_get(node, "end");
    int64_t s = cc_attr_i(node, "start"), t = e->set ? e->i : r;
    if (s < 0) s += r;
    if (t < 0) t += r;
    s = s < 0 ? 0 : s > r ? r : s;
    t = t < 0 ? 0 : t > r ? r : t;
    *start = (int)s;
    *end = (int)(t < s ? s : t);
}

static cc_status describe_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                                cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return missing(node, err);
    int64_t n;
    cc_status st = cc_shape_numel_checked(&x->shape, &n, err);
    if (st) return st;
    out[0].dtype = CC_I64;
    out[0].data = NULL;
    if (node->op->id == CC_OP_ID_Size) {
        out[0].shape = cc_shape_make(0, NULL);
        return CC_OK;
    }
    int s, e;
    shape_range(node, x->shape.rank, &s, &e);
    int64_t len = e - s;
    out[0].shape = cc_shape_make(1, &len);
    return CC_OK;
}

/* Shape: the dims of [start, end); Size: the element count. Exact integers (S = 0). */
static cc_status describe_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                                 cc_err *err)
{
    (void)n_out;
    (void)err;
    const cc_tensor *x = shape_input(node, in, 0);
    if (node->op->id == CC_OP_ID_Size) {
        out[0].value[0] = (double)cc_shape_numel(&x->shape);
        out[0].mag[0] = 0;
    } else {
        int s, e;
        shape_range(node, x->shape.rank, &s, &e);
        for (int i = s; i < e; i++) {
            out[0].value[i - s] = (double)x->shape.dims[i];
            out[0].mag[i - s] = 0;
        }
    }
    out[0].k = 1;
    return CC_OK;
}

/* Reads nothing of the data: the output is written once. */
static void describe_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out,
                          double *flops, double *bytes)
{
    (void)node;
    (void)in;
    (void)n_out;
    *flops = 0;
    *bytes = (double)cc_tensor_bytes(&out[0]);
}

static const cc_sweep_row shape_sweep[] = {
    { Q, "@eltwise" },
    { Q, "data=2x3x4", "start=1" },
    { Q, "data=2x3x4", "end=-1" },
    { Q, "data=2x3x4x5", "start=-3,end=3" },
    { Q | EDGE, "data=2x3x4", "start=2,end=1" },   /* empty range */
    { EDGE, "data=2x3x4", "start=-10,end=10" },    /* clamped to the rank */
    { EDGE, "data=2x0x4" },                        /* an empty tensor still has a shape */
    { MODEL, "data=1x128x768" },                   /* a BERT-base hidden state */
};

static const cc_sweep_row size_sweep[] = {
    { Q, "@eltwise" },
    { Q, "data=2x3x4" },
    { Q | EDGE, "data=2x0x4" },
    { 0, "data=7x9" },
    { MODEL, "data=1x128x768" },
};

const cc_op_def cc_op_Shape = {
    .id = CC_OP_ID_Shape, .name = "Shape", .domain = "", .since_version = 15, .family = "shape",
    .n_inputs = 1, .inputs = { { .name = "data", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Shape, 15), .attrs = { CC_ONNX_ATTRS(Shape, 15) },
    .dtypes = DIMS_DTYPES,
    .infer = describe_infer, .cost = describe_cost, .golden = describe_golden,
    CC_SWEEP(shape_sweep),
};

const cc_op_def cc_op_Size = {
    .id = CC_OP_ID_Size, .name = "Size", .domain = "", .since_version = 13, .family = "shape",
    .n_inputs = 1, .inputs = { { .name = "data", .role = CC_IN_DATA } },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Size, 13),
    .dtypes = DIMS_DTYPES,
    .infer = describe_infer, .cost = describe_cost, .golden = describe_golden,
    CC_SWEEP(size_sweep),
};

/* ---- Unsqueeze, Squeeze ----------------------------------------------------------- */

static cc_status unsqueeze_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                                 cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return missing(node, err);
    int64_t axes[CC_MAX_INTS];
    int n, present;
    cc_status st = shape_const_ints(node, in, 1, "axes", axes, &n, &present, err);
    if (st) return st;
    if (!present) return cc_err_set(err, CC_ERR_ARG, "Unsqueeze: axes is required");
    int r = x->shape.rank + n;
    if (r > CC_MAX_RANK)
        return cc_err_set(err, CC_ERR_ARG, "Unsqueeze: %d axes on a rank-%d input make rank %d, more than %d", n,
                          x->shape.rank, r, CC_MAX_RANK);
    int inserted[CC_MAX_RANK] = { 0 };
    for (int i = 0; i < n; i++) {
        int a = shape_axis(axes[i], r);
        if (a < 0)
            return cc_err_set(err, CC_ERR_ARG, "Unsqueeze: axes[%d] = %lld is outside [%d, %d] for output rank %d", i,
                              (long long)axes[i], -r, r - 1, r);
        if (inserted[a]) return cc_err_set(err, CC_ERR_ARG, "Unsqueeze: axes names axis %d twice", a);
        inserted[a] = 1;
    }
    cc_shape o;
    memset(&o, 0, sizeof o);
    o.rank = r;
    for (int i = 0, j = 0; i < r; i++) o.dims[i] = inserted[i] ? 1 : x->shape.dims[j++];
    out[0].dtype = x->dtype;
    out[0].shape = o;
    out[0].data = NULL;
    return CC_OK;
}

static cc_status squeeze_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                               cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return missing(node, err);
    int64_t axes[CC_MAX_INTS];
    int n, present, r = x->shape.rank;
    cc_status st = shape_const_ints(node, in, 1, "axes", axes, &n, &present, err);
    if (st) return st;
    int drop[CC_MAX_RANK] = { 0 };
    if (!present) { /* every size-1 dim */
        for (int i = 0; i < r; i++) drop[i] = x->shape.dims[i] == 1;
    } else {
        for (int i = 0; i < n; i++) {
            int a = shape_axis(axes[i], r);
            if (a < 0)
                return cc_err_set(err, CC_ERR_ARG, "Squeeze: axes[%d] = %lld is outside [%d, %d] for rank %d", i,
                                  (long long)axes[i], -r, r - 1, r);
            if (drop[a]) return cc_err_set(err, CC_ERR_ARG, "Squeeze: axes names axis %d twice", a);
            if (x->shape.dims[a] != 1)
                return cc_err_set(err, CC_ERR_ARG, "Squeeze: axis %d has size %lld, not 1", a,
                                  (long long)x->shape.dims[a]);
            drop[a] = 1;
        }
    }
    cc_shape o;
    memset(&o, 0, sizeof o);
    for (int i = 0; i < r; i++)
        if (!drop[i]) o.dims[o.rank++] = x->shape.dims[i];
    out[0].dtype = x->dtype;
    out[0].shape = o;
    out[0].data = NULL;
    return CC_OK;
}

static const cc_sweep_row unsqueeze_sweep[] = {
    { Q, "data=2x3", "axes=[0]" },
    { Q, "data=2x3", "axes=[-1]" },
    { Q, "data=2x3x4", "axes=[1,3]" },
    { Q, "data=7", "axes=[0,2,-1]" },                 /* output rank 4: axes 0, 2, 3 */
    { Q | EDGE, "data=scalar", "axes=[0]" },          /* scalar to 1-D */
    { EDGE, "data=2x0", "axes=[1]" },
    { 0, "data=3x5", "axes=[2,0]" },                  /* unsorted */
    { MODEL, "data=1x128", "axes=[1,2]" },            /* a BERT attention mask to 1x1x1x128 */
};

static const cc_sweep_row squeeze_sweep[] = {
    { Q, "data=1x3x1x4" },                            /* every size-1 dim */
    { Q, "data=1x3x1x4", "axes=[0]" },
    { Q, "data=1x3x1x4", "axes=[-2]" },
    { Q, "data=2x1x1", "axes=[1,2]" },
    { Q | EDGE, "data=1", "axes=[0]" },               /* to a scalar */
    { EDGE, "data=2x3" },                             /* nothing to drop */
    { EDGE, "data=1x0x1" },
    { MODEL, "data=1x2048x1x1", "axes=[2,3]" },       /* a pooled feature vector */
};

const cc_op_def cc_op_Unsqueeze = {
    .id = CC_OP_ID_Unsqueeze, .name = "Unsqueeze", .domain = "", .since_version = 13, .family = "shape",
    .n_inputs = 2,
    .inputs = {
        { .name = "data", .role = CC_IN_DATA },
        { .name = "axes", .role = CC_IN_ATTR, .constant = 1 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Unsqueeze, 13) + 1,
    .attrs = {
        CC_ONNX_ATTRS(Unsqueeze, 13)
        { .name = "axes", .kind = CC_ATTR_INTS, .def = NULL, .required = 1, .input = 1, .input_dtype = CC_I64 },
    },
    .dtypes = DIMS_DTYPES,
    .infer = unsqueeze_infer, .cost = shape_move_cost, .golden = shape_copy_golden,
    CC_SWEEP(unsqueeze_sweep),
};

const cc_op_def cc_op_Squeeze = {
    .id = CC_OP_ID_Squeeze, .name = "Squeeze", .domain = "", .since_version = 13, .family = "shape",
    .n_inputs = 2,
    .inputs = {
        { .name = "data", .role = CC_IN_DATA },
        { .name = "axes", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Squeeze, 13) + 1,
    .attrs = {
        CC_ONNX_ATTRS(Squeeze, 13)
        { .name = "axes", .kind = CC_ATTR_INTS, .def = NULL, .input = 1, .input_dtype = CC_I64 },
    },
    .dtypes = DIMS_DTYPES,
    .infer = squeeze_infer, .cost = shape_move_cost, .golden = shape_copy_golden,
    CC_SWEEP(squeeze_sweep),
};

/* ---- Expand, Tile ------------------------------------------------------------------ */

/* Expand's output: the input's shape and `shape` broadcast against each other, aligned at
 * the last dim (equal sizes, or one of them 1). */
static cc_status expand_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                              cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return missing(node, err);
    int64_t s[CC_MAX_INTS];
    int n, present;
    cc_status st = shape_const_ints(node, in, 1, "shape", s, &n, &present, err);
    if (st) return st;
    if (!present) return cc_err_set(err, CC_ERR_ARG, "Expand: shape is required");
    int r = x->shape.rank > n ? x->shape.rank : n;
    if (r > CC_MAX_RANK) return cc_err_set(err, CC_ERR_ARG, "Expand: shape has %d entries, more than rank %d", n, CC_MAX_RANK);
    cc_shape o;
    memset(&o, 0, sizeof o);
    o.rank = r;
    for (int i = 0; i < r; i++) {
        int xi = i - (r - x->shape.rank), si = i - (r - n);
        int64_t a = xi >= 0 ? x->shape.dims[xi] : 1, b = si >= 0 ? s[si] : 1;
        if (b < 0) return cc_err_set(err, CC_ERR_ARG, "Expand: shape[%d] = %lld is negative", si, (long long)b);
        if (a != b && a != 1 && b != 1) {
            char xs[160];
            cc_shape_format(&x->shape, xs, sizeof xs);
            return cc_err_set(err, CC_ERR_ARG, "Expand: input %s does not broadcast to shape[%d] = %lld", xs, si,
                              (long long)b);
        }
        o.dims[i] = a == 1 ? b : a;
    }
    int64_t numel;
    cc_err e;
    if (cc_shape_numel_checked(&o, &numel, &e)) return cc_err_set(err, CC_ERR_ARG, "Expand: output: %s", e.msg);
    out[0].dtype = x->dtype;
    out[0].shape = o;
    out[0].data = NULL;
    return CC_OK;
}

/* Tile's repeats: one per input dim, none negative. */
static cc_status tile_repeats(const cc_node *node, const cc_tensor *const *in, const cc_tensor *x, int64_t *rep,
                              cc_err *err)
{
    int n, present;
    cc_status st = shape_const_ints(node, in, 1, "repeats", rep, &n, &present, err);
    if (st) return st;
    if (!present) return cc_err_set(err, CC_ERR_ARG, "Tile: repeats is required");
    if (n != x->shape.rank)
        return cc_err_set(err, CC_ERR_ARG, "Tile: repeats has %d entries for a rank-%d input", n, x->shape.rank);
    for (int i = 0; i < n; i++)
        if (rep[i] < 0) return cc_err_set(err, CC_ERR_ARG, "Tile: repeats[%d] = %lld is negative", i, (long long)rep[i]);
    return CC_OK;
}

static cc_status tile_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return missing(node, err);
    int64_t rep[CC_MAX_INTS];
    cc_status st = tile_repeats(node, in, x, rep, err);
    if (st) return st;
    cc_shape o = x->shape;
    for (int i = 0; i < o.rank; i++) {
        if (rep[i] && o.dims[i] > INT64_MAX / rep[i])
            return cc_err_set(err, CC_ERR_ARG, "Tile: output dim %d overflows", i);
        o.dims[i] *= rep[i];
    }
    int64_t numel;
    cc_err e;
    if (cc_shape_numel_checked(&o, &numel, &e)) return cc_err_set(err, CC_ERR_ARG, "Tile: output: %s", e.msg);
    out[0].dtype = x->dtype;
    out[0].shape = o;
    out[0].data = NULL;
    return CC_OK;
}

/* Expand: out[i] = x[i with broadcast dims at 0]; Tile: out[i] = x[i mod dims]. Both walk
 * the output's multi-index and map it onto the input's, dim by dim from the back. */
static cc_status repeat_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                               cc_err *err)
{
    (void)n_out;
    (void)err;
    const cc_tensor *x = shape_input(node, in, 0);
    const cc_shape *o = &out[0].shape;
    int64_t xst[CC_MAX_RANK], idx[CC_MAX_RANK] = { 0 };
    shape_strides(&x->shape, xst);
    int off = o->rank - x->shape.rank; /* Expand may add leading dims; Tile never */
    int64_t n = cc_shape_numel(o);
    for (int64_t j = 0; j < n; j++) {
        int64_t src = 0;
        for (int d = 0; d < x->shape.rank; d++) {
            int64_t xd = x->shape.dims[d], i = idx[d + off];
            src += (xd == 1 ? 0 : i % xd) * xst[d];
        }
        shape_put(&out[0], j, x, src);
        shape_next(o, idx);
    }
    out[0].k = 1;
    return CC_OK;
}

static const cc_sweep_row expand_sweep[] = {
    { Q, "input=3x1", "shape=[3,4]" },
    { Q, "input=3x1", "shape=[2,1,6]" },              /* both sides broadcast, a new leading dim */
    { Q, "input=1", "shape=[2,3]" },
    { Q, "input=2x3", "shape=[1]" },                  /* shape smaller than the input: unchanged */
    { Q, "input=1x4x1", "shape=[3,1,5]" },
    { Q | EDGE, "input=scalar", "shape=[4]" },
    { EDGE, "input=2x1", "shape=[2,0]" },             /* to an empty output */
    { EDGE, "input=2x3", "shape=[]" },
    { 0, "input=1x1x5", "shape=[2,3,1,5]" },
    { MODEL, "input=1x1x1x128", "shape=[1,12,128,128]" }, /* an attention mask over 12 heads */
};

static const cc_sweep_row tile_sweep[] = {
    { Q, "input=2x3", "repeats=[1,1]" },
    { Q, "input=2x3", "repeats=[2,3]" },
    { Q, "input=4", "repeats=[3]" },
    { Q, "input=2x1x3", "repeats=[1,4,2]" },
    { Q | EDGE, "input=2x3", "repeats=[0,2]" },        /* empty output */
    { EDGE, "input=scalar", "repeats=[]" },
    { EDGE, "input=1x1", "repeats=[5,7]" },
    { 0, "input=3x5x7", "repeats=[2,1,2]" },
    { MODEL, "input=1x1x256", "repeats=[1,400,1]" },   /* a query embedding over 400 positions */
};

const cc_op_def cc_op_Expand = {
    .id = CC_OP_ID_Expand, .name = "Expand", .domain = "", .since_version = 13, .family = "shape",
    .n_inputs = 2,
    .inputs = {
        { .name = "input", .role = CC_IN_DATA },
        { .name = "shape", .role = CC_IN_ATTR, .constant = 1 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Expand, 13) + 1,
    .attrs = {
        CC_ONNX_ATTRS(Expand, 13)
        { .name = "shape", .kind = CC_ATTR_INTS, .def = NULL, .required = 1, .input = 1, .input_dtype = CC_I64 },
    },
    .dtypes = DIMS_DTYPES,
    .infer = expand_infer, .cost = shape_move_cost, .golden = repeat_golden,
    CC_SWEEP(expand_sweep),
};

const cc_op_def cc_op_Tile = {
    .id = CC_OP_ID_Tile, .name = "Tile", .domain = "", .since_version = 13, .family = "shape",
    .n_inputs = 2,
    .inputs = {
        { .name = "input", .role = CC_IN_DATA },
        { .name = "repeats", .role = CC_IN_ATTR, .constant = 1 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Tile, 13) + 1,
    .attrs = {
        CC_ONNX_ATTRS(Tile, 13)
        { .name = "repeats", .kind = CC_ATTR_INTS, .def = NULL, .required = 1, .input = 1, .input_dtype = CC_I64 },
    },
    .dtypes = DIMS_DTYPES,
    .infer = tile_infer, .cost = shape_move_cost, .golden = repeat_golden,
    CC_SWEEP(tile_sweep),
};
