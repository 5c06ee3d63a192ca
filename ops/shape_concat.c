/* shape_concat.c — the shape family's joining and cutting ops: Concat (opset 13), Split
 * (opset 13, with opset 18's num_outputs as a case knob) and Slice (opset 13). The family
 * table is in shape.c. Pure data movement: the golden copies input values exactly,
 * S = |value|, K = 1. */
#include <stdint.h>
#include <stdio.h>

#include "shape_internal.h"
#include "sweep.h"

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

#define CONCAT_MAX_INPUTS CC_MAX_IO

/* ---- Concat ----------------------------------------------------------------------- */

/* Present inputs of a Concat node in order, and the normalised axis. */
static cc_status concat_plan(const cc_node *node, const cc_tensor *const *in, const cc_tensor **xs,
                             int *nx, int *axis, cc_tensor *out, cc_err *err)
{
    if (node->n_in > CONCAT_MAX_INPUTS)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "Concat: %d inputs, at most %d are supported",
                          node->n_in, CONCAT_MAX_INPUTS);
    int k = 0;
    for (int i = 0; i < CONCAT_MAX_INPUTS; i++) {
        const cc_tensor *t = shape_input(node, in, i);
        if (t) xs[k++] = t;
    }
    if (k == 0 || !shape_input(node, in, 0))
        return cc_err_set(err, CC_ERR_ARG, "Concat: input x0 is missing");
    const cc_tensor *x0 = xs[0];
    int r = x0->shape.rank;
    if (r == 0) return cc_err_set(err, CC_ERR_ARG, "Concat: inputs must have rank >= 1, got a scalar");
    if (!cc_attr_get(node, "axis")->set) return cc_err_set(err, CC_ERR_ARG, "Concat: axis is required");
    int64_t a = cc_attr_i(node, "axis");
    int ax = shape_axis(a, r);
    if (ax < 0)
        return cc_err_set(err, CC_ERR_ARG, "Concat: axis %lld is outside [%d, %d] for rank %d",
                          (long long)a, -r, r - 1, r);
    cc_shape o = x0->shape;
    o.dims[ax] = 0;
    for (int i = 0; i < k; i++) {
        const cc_tensor *t = xs[i];
        char s0[160], si[160];
        cc_shape_format(&x0->shape, s0, sizeof s0);
        cc_shape_format(&t->shape, si, sizeof si);
        if (t->dtype != x0->dtype)
            return cc_err_set(err, CC_ERR_ARG, "Concat: input %d is %s, the first is %s", i,
                              cc_dtype_name(t->dtype), cc_dtype_name(x0->dtype));
        if (t->shape.rank != r)
            return cc_err_set(err, CC_ERR_ARG, "Concat: input %d has shape %s, rank differs from %s",
                              i, si, s0);
        for (int d = 0; d < r; d++)
            if (d != ax && t->shape.dims[d] != x0->shape.dims[d])
                return cc_err_set(err, CC_ERR_ARG,
                                  "Concat: input %d has shape %s, incompatible with %s off axis %d", i,
                                  si, s0, ax);
        o.dims[ax] += t->shape.dims[ax];
    }
    int64_t n;
    cc_err e;
    if (cc_shape_numel_checked(&o, &n, &e)) return cc_err_set(err, CC_ERR_ARG, "Concat: output: %s", e.msg);
    *nx = k;
    *axis = ax;
    out->dtype = x0->dtype;
    out->shape = o;
    out->data = NULL;
    return CC_OK;
}

static cc_status concat_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_tensor *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *xs[CONCAT_MAX_INPUTS];
    int nx, ax;
    return concat_plan(node, in, xs, &nx, &ax, &out[0], err);
}

/* out viewed as [outer, D, inner]; input i fills rows [off_i, off_i + D_i) of D. */
static cc_status concat_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_golden *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *xs[CONCAT_MAX_INPUTS];
    int nx, ax;
    cc_tensor o;
    cc_status st = concat_plan(node, in, xs, &nx, &ax, &o, err);
    if (st) return st;
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < ax; d++) outer *= o.shape.dims[d];
    for (int d = ax + 1; d < o.shape.rank; d++) inner *= o.shape.dims[d];
    int64_t dout = o.shape.dims[ax], off = 0;
    for (int i = 0; i < nx; i++) {
        int64_t di = xs[i]->shape.dims[ax];
        for (int64_t p = 0; p < outer; p++)
            for (int64_t a = 0; a < di; a++)
                for (int64_t q = 0; q < inner; q++)
                    shape_put(&out[0], (p * dout + off + a) * inner + q, xs[i], (p * di + a) * inner + q);
        off += di;
    }
    out[0].k = 1;
    return CC_OK;
}

static const cc_sweep_row concat_sweep[] = {
    { Q, "x0=1x8x10x10,x1=1x8x10x10", "axis=1" },
    { Q, "x0=2x3,x1=2x5", "axis=-1" },
    { Q, "x0=2x3,x1=1x3,x2=4x3", "axis=0" },
    { Q | MODEL, "x0=1x16x5x5,x1=1x16x5x5,x2=1x16x5x5,x3=1x16x5x5", "axis=1" }, /* SPPF-style */
    { EDGE, "x0=4", "axis=0" }, /* one input */
    { 0, "x0=2x3x4,x1=2x3x1", "axis=2" },
    { 0, "x0=2x3x4,x1=2x1x4,x2=2x2x4", "axis=-2" },
    { EDGE, "x0=1x1x1,x1=1x1x1,x2=1x1x1,x3=1x1x1,x4=1x1x1,x5=1x1x1,x6=1x1x1,x7=1x1x1", "axis=0" },
    /* DenseNet-121's last dense block: 25 inputs along channels */
    { MODEL, "x0=1x32x7x7,x1=1x32x7x7,x2=1x32x7x7,x3=1x32x7x7,x4=1x32x7x7,x5=1x32x7x7,x6=1x32x7x7,"
          "x7=1x32x7x7,x8=1x32x7x7,x9=1x32x7x7,x10=1x32x7x7,x11=1x32x7x7,x12=1x32x7x7,"
          "x13=1x32x7x7,x14=1x32x7x7,x15=1x32x7x7,x16=1x32x7x7,x17=1x32x7x7,x18=1x32x7x7,"
          "x19=1x32x7x7,x20=1x32x7x7,x21=1x32x7x7,x22=1x32x7x7,x23=1x32x7x7,x24=1x32x7x7", "axis=1" },
    { MODEL, "x0=1x64x80x80,x1=1x64x80x80", "axis=1" },
    { MODEL, "x0=1x128x80x80,x1=1x128x80x80", "axis=1" }, /* YOLOv5s neck at 640 */
    { MODEL, "x0=1x256x40x40,x1=1x256x40x40", "axis=1" },
    { MODEL, "x0=1x256x20x20,x1=1x256x20x20,x2=1x256x20x20,x3=1x256x20x20", "axis=1" }, /* SPPF */
    { MODEL, "x0=1x32x160x160,x1=1x32x160x160,x2=1x32x160x160", "axis=1" }, /* YOLOv8s C2f */
    { MODEL, "x0=1x64x80x80,x1=1x64x80x80,x2=1x64x80x80,x3=1x64x80x80", "axis=1" },
    { MODEL, "x0=1x512x40x40,x1=1x256x40x40", "axis=1" }, /* YOLOv8s neck */
    { MODEL, "x0=1x144x6400,x1=1x144x1600,x2=1x144x400", "axis=2" }, /* YOLOv8s head */
    { MODEL, "x0=1x4x8400,x1=1x80x8400", "axis=1" },
};

const cc_op_def cc_op_Concat = {
    .id = CC_OP_ID_Concat,
    .name = "Concat",
    .domain = "",
    .since_version = 13,
    .family = "shape",
    .n_inputs = CONCAT_MAX_INPUTS,
    .inputs = {
        { .name = "x0", .role = CC_IN_DATA },
        { .name = "x1", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x2", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x3", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x4", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x5", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x6", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x7", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x8", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x9", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x10", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x11", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x12", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x13", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x14", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x15", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x16", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x17", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x18", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x19", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x20", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x21", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x22", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x23", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x24", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x25", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x26", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x27", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x28", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x29", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x30", .role = CC_IN_DATA, .optional = 1 },
        { .name = "x31", .role = CC_IN_DATA, .optional = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(Concat, 13),
    .attrs = { CC_ONNX_ATTRS(Concat, 13) },
    .dtypes = SHAPE_DTYPES,
    .infer = concat_infer,
    .cost = shape_move_cost,
    CC_SWEEP(concat_sweep),
    .golden = concat_golden,
};

/* ---- Split ------------------------------------------------------------------------ */

/* Outputs of a Split node: the length of split, else num_outputs, else the node's own
 * output count (a model's node), else 1. */
static int split_count_outputs(const cc_node *node)
{
    const cc_attr_value *s = cc_attr_get(node, "split");
    if (s->set) return s->n;
    const cc_attr_value *k = cc_attr_get(node, "num_outputs");
    if (k->set) return k->i < 0 || k->i > CC_MAX_IO ? -1 : (int)k->i;
    return node->n_out > 0 ? node->n_out : 1;
}

/* Sizes of the n_out pieces along the normalised axis. Without split, the pieces are
 * ceil(dim / n) long and only the last may be shorter (opset 18's rule, also used for
 * opset 13's equal split); where that leaves more than the last piece short, the
 * split is ambiguous and unsupported. */
static cc_status split_plan(const cc_node *node, const cc_tensor *const *in, int n_out, int *axis,
                            int64_t *sizes, cc_err *err)
{
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return cc_err_set(err, CC_ERR_ARG, "Split: input is missing");
    int r = x->shape.rank;
    if (r == 0) return cc_err_set(err, CC_ERR_ARG, "Split: input must have rank >= 1, got a scalar");
    int64_t a = cc_attr_i(node, "axis");
    int ax = shape_axis(a, r);
    if (ax < 0)
        return cc_err_set(err, CC_ERR_ARG, "Split: axis %lld is outside [%d, %d] for rank %d",
                          (long long)a, -r, r - 1, r);
    if (n_out < 1 || n_out > CC_MAX_IO)
        return cc_err_set(err, CC_ERR_ARG, "Split: %d outputs, must be 1 to %d", n_out, CC_MAX_IO);
    int64_t dim = x->shape.dims[ax];
    int64_t s[CC_MAX_INTS];
    int n, present;
    cc_status st = shape_const_ints(node, in, 1, "split", s, &n, &present, err);
    if (st) return st;
    const cc_attr_value *k = cc_attr_get(node, "num_outputs");
    if (present) {
        if (k->set) return cc_err_set(err, CC_ERR_ARG, "Split: give split or num_outputs, not both");
        if (n != n_out)
            return cc_err_set(err, CC_ERR_ARG, "Split: split has %d entries for %d outputs", n, n_out);
        int64_t sum = 0;
        for (int i = 0; i < n; i++) {
            if (s[i] < 0)
                return cc_err_set(err, CC_ERR_ARG, "Split: split[%d] = %lld is negative", i,
                                  (long long)s[i]);
            if (s[i] > dim)
                return cc_err_set(err, CC_ERR_ARG, "Split: split[%d] = %lld exceeds the axis length %lld",
                                  i, (long long)s[i], (long long)dim);
            sum += s[i];
            sizes[i] = s[i];
        }
        if (sum != dim)
            return cc_err_set(err, CC_ERR_ARG, "Split: split sums to %lld, the axis has %lld",
                              (long long)sum, (long long)dim);
    } else {
        if (k->set && k->i != n_out)
            return cc_err_set(err, CC_ERR_ARG, "Split: num_outputs is %lld but the node has %d outputs",
                              (long long)k->i, n_out);
        int64_t chunk = (dim + n_out - 1) / n_out;
        int64_t last = dim - chunk * (n_out - 1);
        if (last < 0)
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "Split: %lld into %d pieces of %lld leaves more than the last piece "
                              "short (ambiguous in ONNX)",
                              (long long)dim, n_out, (long long)chunk);
        for (int i = 0; i < n_out; i++) sizes[i] = i < n_out - 1 ? chunk : last;
    }
    *axis = ax;
    return CC_OK;
}

static cc_status split_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                             cc_tensor *out, cc_err *err)
{
    int ax;
    int64_t sizes[CC_MAX_IO];
    cc_status st = split_plan(node, in, n_out, &ax, sizes, err);
    if (st) return st;
    const cc_tensor *x = shape_input(node, in, 0);
    for (int j = 0; j < n_out; j++) {
        out[j].dtype = x->dtype;
        out[j].shape = x->shape;
        out[j].shape.dims[ax] = sizes[j];
        out[j].data = NULL;
    }
    return CC_OK;
}

/* x viewed as [outer, D, inner]; output j takes rows [off_j, off_j + size_j) of D. */
static cc_status split_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_golden *out, cc_err *err)
{
    int ax;
    int64_t sizes[CC_MAX_IO];
    cc_status st = split_plan(node, in, n_out, &ax, sizes, err);
    if (st) return st;
    const cc_tensor *x = shape_input(node, in, 0);
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < ax; d++) outer *= x->shape.dims[d];
    for (int d = ax + 1; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    int64_t dim = x->shape.dims[ax], off = 0;
    for (int j = 0; j < n_out; j++) {
        for (int64_t p = 0; p < outer; p++)
            for (int64_t a = 0; a < sizes[j]; a++)
                for (int64_t q = 0; q < inner; q++)
                    shape_put(&out[j], (p * sizes[j] + a) * inner + q, x, (p * dim + off + a) * inner + q);
        off += sizes[j];
        out[j].k = 1;
    }
    return CC_OK;
}

static const cc_sweep_row split_sweep[] = {
    { Q | MODEL, "input=1x16x8x8", "axis=1,num_outputs=2" }, /* C2f-style halves */
    { Q, "input=6x4", "num_outputs=3" }, /* default axis 0 */
    { Q, "input=2x10", "axis=-1,num_outputs=3" }, /* uneven: 4,4,2 */
    { Q, "input=1x14x9", "split=[6,8],axis=1" },
    { 0, "input=2x10", "split=[1,2,3,4],axis=1" },
    { EDGE, "input=5", "num_outputs=1" },
    { EDGE, "input=9x2", "num_outputs=4" }, /* 3,3,3,0: the last is empty */
    { 0, "input=3x4x5", "split=[3,1],axis=-2" },
    { 0, "input=7x3", "num_outputs=2" }, /* 4,3 */
    { MODEL, "input=1x64x160x160", "axis=1,num_outputs=2" }, /* YOLOv8s C2f at 640 */
    { MODEL, "input=1x128x80x80", "axis=1,num_outputs=2" },
    { MODEL, "input=1x256x40x40", "axis=1,num_outputs=2" },
    { MODEL, "input=1x512x20x20", "axis=1,num_outputs=2" },
    { MODEL, "input=1x144x8400", "split=[64,80],axis=1" }, /* YOLOv8 boxes | classes */
};

const cc_op_def cc_op_Split = {
    .id = CC_OP_ID_Split,
    .name = "Split",
    .domain = "",
    .since_version = 13,
    .family = "shape",
    .n_inputs = 2,
    .inputs = {
        { .name = "input", .role = CC_IN_DATA },
        { .name = "split", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = CC_MAX_IO,
    .n_attrs = CC_ONNX_NATTRS(Split, 13) + 2,
    .attrs = {
        CC_ONNX_ATTRS(Split, 13)
        { .name = "split", .kind = CC_ATTR_INTS, .def = NULL, .input = 1, .input_dtype = CC_I64 },
        { .name = "num_outputs", .kind = CC_ATTR_INT, .def = NULL, .input = -1, .knob = 1 },
    },
    .dtypes = SHAPE_DTYPES,
    .infer = split_infer,
    .cost = shape_move_cost,
    CC_SWEEP(split_sweep),
    .golden = split_golden,
    .count_outputs = split_count_outputs,
};

/* ---- Slice ------------------------------------------------------------------------ */

/* Per-axis first index, step and length of a Slice (axes not sliced: 0, 1, dim). */
typedef struct slice_plan {
    int64_t start[CC_MAX_RANK], step[CC_MAX_RANK];
    cc_shape out;
} slice_plan;

static cc_status slice_make_plan(const cc_node *node, const cc_tensor *const *in, slice_plan *p,
                                 cc_err *err)
{
    const cc_tensor *x = shape_input(node, in, 0);
    if (!x) return cc_err_set(err, CC_ERR_ARG, "Slice: data is missing");
    int r = x->shape.rank;
    if (r == 0) return cc_err_set(err, CC_ERR_ARG, "Slice: data must have rank >= 1, got a scalar");
    int64_t starts[CC_MAX_INTS], ends[CC_MAX_INTS], axes[CC_MAX_INTS], steps[CC_MAX_INTS];
    int ns, ne, na, nt, ps, pe, pa, pt;
    cc_status st = shape_const_ints(node, in, 1, "starts", starts, &ns, &ps, err);
    if (!st) st = shape_const_ints(node, in, 2, "ends", ends, &ne, &pe, err);
    if (!st) st = shape_const_ints(node, in, 3, "axes", axes, &na, &pa, err);
    if (!st) st = shape_const_ints(node, in, 4, "steps", steps, &nt, &pt, err);
    if (st) return st;
    if (!ps || !pe) return cc_err_set(err, CC_ERR_ARG, "Slice: starts and ends are required");
    if (ne != ns)
        return cc_err_set(err, CC_ERR_ARG, "Slice: starts has %d values, ends %d", ns, ne);
    if (pa && na != ns)
        return cc_err_set(err, CC_ERR_ARG, "Slice: starts has %d values, axes %d", ns, na);
    if (pt && nt != ns)
        return cc_err_set(err, CC_ERR_ARG, "Slice: starts has %d values, steps %d", ns, nt);
    if (ns > r) return cc_err_set(err, CC_ERR_ARG, "Slice: %d starts for a rank-%d input", ns, r);
    p->out = x->shape;
    for (int d = 0; d < r; d++) {
        p->start[d] = 0;
        p->step[d] = 1;
    }
    int seen[CC_MAX_RANK] = { 0 };
    for (int i = 0; i < ns; i++) {
        int64_t a = pa ? axes[i] : i;
        int ax = shape_axis(a, r);
        if (ax < 0)
            return cc_err_set(err, CC_ERR_ARG, "Slice: axes[%d] = %lld is outside [%d, %d]", i,
                              (long long)a, -r, r - 1);
        if (seen[ax]) return cc_err_set(err, CC_ERR_ARG, "Slice: axis %d is sliced twice", ax);
        seen[ax] = 1;
        int64_t step = pt ? steps[i] : 1;
        if (step == 0) return cc_err_set(err, CC_ERR_ARG, "Slice: steps[%d] is 0", i);
        int64_t dim = x->shape.dims[ax];
        int64_t s = starts[i], e = ends[i], len;
        if (s < 0) s += dim; /* no overflow: s < 0 <= dim */
        if (e < 0) e += dim;
        if (step > 0) {
            s = s < 0 ? 0 : s > dim ? dim : s;
            e = e < 0 ? 0 : e > dim ? dim : e;
            len = e > s ? (e - s - 1) / step + 1 : 0;
        } else if (dim == 0) {
            /* the clamp range [0, dim - 1] of a negative step is empty: nothing to take */
            s = 0;
            len = 0;
        } else {
            s = s < 0 ? 0 : s > dim - 1 ? dim - 1 : s;
            e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
            uint64_t mag = (uint64_t)0 - (uint64_t)step;
            len = s > e ? (int64_t)((uint64_t)(s - e - 1) / mag) + 1 : 0;
        }
        p->start[ax] = s;
        p->step[ax] = step;
        p->out.dims[ax] = len;
    }
    return CC_OK;
}

static cc_status slice_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                             cc_tensor *out, cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = shape_input(node, in, 0);
    if (x && cc_op_dynamic_shape(node->op, node->n_in, in)) {
        /* starts, ends, axes or steps computed at run time: every axis at most as long as x's */
        for (int i = 1; i < node->n_in && i < 5; i++) {
            const cc_tensor *t = shape_input(node, in, i);
            if (t && ((t->dtype != CC_I64 && t->dtype != CC_I32) || t->shape.rank != 1))
                return cc_err_set(err, CC_ERR_ARG, "Slice: input %d must be a 1-D int32 or int64 tensor", i);
        }
        out[0].dtype = x->dtype;
        out[0].shape = x->shape;
        out[0].data = NULL;
        return CC_OK;
    }
    slice_plan p;
    cc_status st = slice_make_plan(node, in, &p, err);
    if (st) return st;
    out[0].dtype = shape_input(node, in, 0)->dtype;
    out[0].shape = p.out;
    out[0].data = NULL;
    return CC_OK;
}

/* out[i] = x[start + i * step] on every axis. */
static cc_status slice_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_golden *out, cc_err *err)
{
    (void)n_out;
    slice_plan p;
    cc_status st = slice_make_plan(node, in, &p, err);
    if (st) return st;
    const cc_tensor *x = shape_input(node, in, 0);
    int64_t xst[CC_MAX_RANK], idx[CC_MAX_RANK] = { 0 };
    shape_strides(&x->shape, xst);
    int64_t n = cc_shape_numel(&p.out);
    out[0].shape = p.out; /* the actual shape where the bounds came at run time */
    for (int64_t j = 0; j < n; j++) {
        int64_t src = 0;
        for (int d = 0; d < p.out.rank; d++) src += (p.start[d] + idx[d] * p.step[d]) * xst[d];
        shape_put(&out[0], j, x, src);
        shape_next(&p.out, idx);
    }
    out[0].k = 1;
    return CC_OK;
}

#define I64MAX "9223372036854775807"
#define I64MIN "-9223372036854775808"

static const cc_sweep_row slice_sweep[] = {
    { Q, "data=2x3x4", "starts=[0,1],ends=[2,-1]" }, /* axes default */
    { Q | EDGE, "data=10x10", "starts=[-1],ends=[" I64MIN "],axes=[1],steps=[-1]" }, /* reverse */
    { Q | EDGE, "data=10x10", "starts=[-100,2],ends=[100,1000],axes=[0,1]" }, /* clamping */
    { Q, "data=1x3x16x16", "starts=[0,0],ends=[" I64MAX "," I64MAX "],axes=[2,3],steps=[2,2]" },
    { Q, "data=1x84x20", "starts=[4],ends=[84],axes=[1]" },
    { 0, "data=1x3x16x16", "starts=[1,0],ends=[" I64MAX "," I64MAX "],axes=[-2,-1],steps=[2,2]" },
    { 0, "data=10", "starts=[8],ends=[1],steps=[-3]" }, /* 8, 5, 2 */
    { 0, "data=10", "starts=[1],ends=[9],steps=[3]" }, /* 1, 4, 7 */
    { EDGE, "data=10", "starts=[5],ends=[5]" }, /* empty */
    { 0, "data=10", "starts=[100],ends=[-100],steps=[-2]" }, /* 9, 7, 5, 3, 1 */
    { 0, "data=4x5x6", "starts=[-1,-2],ends=[-" I64MAX ",0],axes=[2,0],steps=[-2,-1]" },
    { 0, "data=4x5x6", "starts=[1,1,1],ends=[3,4,5],steps=[1,2,3]" },
    { MODEL, "data=1x3x640x640", "starts=[0,0],ends=[" I64MAX "," I64MAX "],axes=[2,3],steps=[2,2]" },
    { MODEL, "data=1x3x640x640", "starts=[1,1],ends=[" I64MAX "," I64MAX "],axes=[2,3],steps=[2,2]" },
    { MODEL, "data=1x84x8400", "starts=[0],ends=[4],axes=[1]" }, /* YOLOv8 boxes */
    { MODEL, "data=1x84x8400", "starts=[4],ends=[84],axes=[1]" }, /* YOLOv8 classes */
    { MODEL, "data=1x25200x85", "starts=[5],ends=[" I64MAX "],axes=[2]" }, /* YOLOv5 class scores */
};

const cc_op_def cc_op_Slice = {
    .id = CC_OP_ID_Slice,
    .name = "Slice",
    .domain = "",
    .since_version = 13,
    .family = "shape",
    .n_inputs = 5,
    .inputs = {
        { .name = "data", .role = CC_IN_DATA },
        { .name = "starts", .role = CC_IN_ATTR, .constant = 1 },
        { .name = "ends", .role = CC_IN_ATTR, .constant = 1 },
        { .name = "axes", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
        { .name = "steps", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
    },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = 4,
    .attrs = {
        { .name = "starts", .kind = CC_ATTR_INTS, .def = NULL, .required = 1, .input = 1,
          .input_dtype = CC_I64 },
        { .name = "ends", .kind = CC_ATTR_INTS, .def = NULL, .required = 1, .input = 2,
          .input_dtype = CC_I64 },
        { .name = "axes", .kind = CC_ATTR_INTS, .def = NULL, .input = 3, .input_dtype = CC_I64 },
        { .name = "steps", .kind = CC_ATTR_INTS, .def = NULL, .input = 4, .input_dtype = CC_I64 },
    },
    .dtypes = SHAPE_DTYPES,
    .infer = slice_infer,
    .cost = shape_move_cost,
    CC_SWEEP(slice_sweep),
    .golden = slice_golden,
};
