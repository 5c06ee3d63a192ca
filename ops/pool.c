/* pool.c — the pooling family: MaxPool (opset 12) with its optional Indices output,
 * AveragePool (opset 11), GlobalAveragePool and GlobalMaxPool (opset 1), with shape
 * inference, cost, case sweeps and the golden reference (MaxUnpool is in pool_unpool.c).
 * Window geometry (auto_pad, ceil_mode, dilations) comes from window.c.
 *
 * ceil_mode and the edges of the input, exactly (ONNX as clarified in its current
 * spec, PyTorch, onnxruntime):
 *  - The output size is ceil((in + pad_begin + pad_end - extent) / stride) + 1, but a
 *    last window that would start at or beyond in + pad_begin, i.e. inside the end
 *    padding, is dropped: a window always starts in the begin padding or in the input.
 *  - A kept last window may reach past in + pad_end (the padded input). Those overhanging
 *    taps exist nowhere: MaxPool ignores them like padding, and AveragePool never counts
 *    them, even with count_include_pad = 1, whose divisor is the number of taps inside
 *    the padded input [-pad_begin, in + pad_end), not the kernel volume.
 *  - With count_include_pad = 0 the divisor is the number of taps on real input elements.
 * A window that covers no input element at all (possible with pads >= kernel extent, or
 * dilated windows straddling a tiny input) has no defined maximum or average without
 * padding: such nodes are CC_ERR_UNSUPPORTED here (AveragePool with count_include_pad = 1
 * is still defined: the average of zeros).
 *
 * MaxPool's Indices (int64, the shape of Y): where the maximum of each window lies, as a
 * flat index into x counting the image and channel, n * C * V + c * V + s with V the
 * spatial volume, and padding never (the spec: "the indices do not consider padding ...
 * the values in indices are in [0, N x C x D1 x ... x Dn)"). s is the spatial offset in
 * row-major order with storage_order = 0, i.e. (i1 * n2 + i2) * n3 + i3 over the
 * spatial axes 1..3, and in column-major order over the spatial axes with storage_order
 * = 1, i.e. i1 + i2 * n1 + i3 * n1 * n2 (ONNX's reference; the node test
 * test_maxpool_with_argmax_2d_precomputed_strides checks it). Ties go to the first tap
 * in scan order (kernel axes outermost first) holding the maximum, as ONNX's reference
 * and onnxruntime take the first value greater than every earlier one. A NaN never wins,
 * as for Y; a window whose taps are all -inf (or NaN) points at its first tap on the
 * input. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "op.h"
#include "sweep.h"
#include "window.h"

/* ---- geometry ---------------------------------------------------------------------- */

/* Does window o on axis d touch at least one input element? */
static int window_has_input(const cc_window *w, int d, int64_t o)
{
    int64_t start = o * w->stride[d] - w->pad_begin[d];
    int64_t j = 0; /* first tap at or after index 0 */
    if (start < 0) j = (-start + w->dilation[d] - 1) / w->dilation[d];
    return j < w->kernel[d] && start + j * w->dilation[d] < w->in[d];
}

/* Validates x (N x C x D1.., 1 to 3 spatial axes) and the node's window attributes
 * (kernel_shape required) and writes the window and the output shape. need_input: every
 * window must touch the input (see the file comment). */
static cc_status pool_geometry(const cc_node *node, const cc_shape *x, int need_input,
                               cc_window *win, cc_shape *y, cc_err *err)
{
    const char *op = node->op->name;
    if (x->rank < 3)
        return cc_err_set(err, CC_ERR_ARG, "%s: x must have rank >= 3 (N x C x D1...), got rank %d",
                          op, x->rank);
    int nsp = x->rank - 2;
    if (nsp > CC_WINDOW_MAX_SP)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %d spatial dimensions (1 to %d supported)",
                          op, nsp, CC_WINDOW_MAX_SP);
    const cc_attr_value *ks = cc_attr_get(node, "kernel_shape");
    if (!ks->set) return cc_err_set(err, CC_ERR_ARG, "%s: kernel_shape is required", op);
    if (ks->n != nsp)
        return cc_err_set(err, CC_ERR_ARG, "%s: kernel_shape has %d values, x has %d spatial axes",
                          op, ks->n, nsp);
    cc_window w;
    cc_status st = cc_window_resolve(node, nsp, x->dims + 2, ks->ints, &w, err);
    if (st) return st;
    if (need_input)
        for (int d = 0; d < nsp; d++) {
            /* only the first windows (starting in the begin padding) and the last one can
             * miss the input; the ones in between start inside it */
            int64_t last = w.out[d] - 1;
            for (int64_t o = 0; o <= last; o++) {
                if (o * w.stride[d] - w.pad_begin[d] >= 0) o = last;
                if (!window_has_input(&w, d, o))
                    return cc_err_set(err, CC_ERR_UNSUPPORTED,
                                      "%s: output %lld on spatial axis %d pools padding only (undefined)",
                                      op, (long long)o, d);
            }
        }
    cc_shape r = *x;
    for (int d = 0; d < nsp; d++) r.dims[2 + d] = w.out[d];
    int64_t numel;
    cc_err e;
    if (cc_shape_numel_checked(&r, &numel, &e))
        return cc_err_set(err, CC_ERR_ARG, "%s: output: %s", op, e.msg);
    *win = w;
    *y = r;
    return CC_OK;
}

static cc_status check_flag(const cc_node *node, const char *name, cc_err *err)
{
    int64_t v = cc_attr_i(node, name);
    if (v != 0 && v != 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must be 0 or 1, got %lld", node->op->name, name,
                          (long long)v);
    return CC_OK;
}

static double pool_bytes(const cc_tensor *x, const cc_tensor *out)
{
    return (double)cc_tensor_bytes(x) + (double)cc_tensor_bytes(out);
}

enum { POOL_MAX, POOL_AVG };

/* The golden window loop of both pools. For every output element it visits the kernel's
 * taps; a tap inside the input contributes its value, a tap inside the padded input
 * [-pad_begin, in + pad_end) counts for count_include_pad. MaxPool: value = the largest
 * input value, S = |value|, K = 1; with indices (non-NULL) also where it lies (the file
 * comment), in column-major spatial order where col_major, exact (K = 1). AveragePool:
 * value = sum / divisor, S = sum |x| / divisor, K = kernel volume (the longest sum). */
static void pool_run(const cc_window *win, const cc_tensor *x, int kind, int include_pad,
                     cc_golden *out, cc_golden *indices, int col_major)
{
    cc_window v;
    cc_window_as_3d(win, &v);
    const int64_t D = v.in[0], H = v.in[1], W = v.in[2];
    const int64_t planes = x->shape.dims[0] * x->shape.dims[1];
    int64_t o = 0;
    for (int64_t p = 0; p < planes; p++) {
        const size_t base = (size_t)(p * D * H * W);
        for (int64_t od = 0; od < v.out[0]; od++)
            for (int64_t oh = 0; oh < v.out[1]; oh++)
                for (int64_t ow = 0; ow < v.out[2]; ow++, o++) {
                    double best = -INFINITY, sum = 0, abs_sum = 0;
                    int64_t real = 0, padded = 0, at = -1, first = -1;
                    for (int64_t kd = 0; kd < v.kernel[0]; kd++) {
                        int64_t id = od * v.stride[0] - v.pad_begin[0] + kd * v.dilation[0];
                        for (int64_t kh = 0; kh < v.kernel[1]; kh++) {
                            int64_t ih = oh * v.stride[1] - v.pad_begin[1] + kh * v.dilation[1];
                            for (int64_t kw = 0; kw < v.kernel[2]; kw++) {
                                int64_t iw = ow * v.stride[2] - v.pad_begin[2] + kw * v.dilation[2];
                                int in_padded = id >= -v.pad_begin[0] && id < D + v.pad_end[0] &&
                                                ih >= -v.pad_begin[1] && ih < H + v.pad_end[1] &&
                                                iw >= -v.pad_begin[2] && iw < W + v.pad_end[2];
                                int in_input = id >= 0 && id < D && ih >= 0 && ih < H && iw >= 0 && iw < W;
                                padded += in_padded;
                                if (!in_input) continue;
                                double xv = cc_load(x->data, x->dtype, base + (size_t)((id * H + ih) * W + iw));
                                int64_t spatial = col_major ? (iw * H + ih) * D + id : (id * H + ih) * W + iw;
                                real++;
                                if (first < 0) first = spatial;
                                if (xv > best) {
                                    best = xv;
                                    at = spatial;
                                }
                                sum += xv;
                                abs_sum += fabs(xv);
                            }
                        }
                    }
                    if (kind == POOL_MAX) {
                        out->value[o] = best;
                        out->mag[o] = fabs(best);
                        if (indices) {
                            indices->value[o] = (double)(p * D * H * W + (at >= 0 ? at : first));
                            indices->mag[o] = indices->value[o];
                        }
                    } else {
                        double n = (double)(include_pad ? padded : real);
                        out->value[o] = n > 0 ? sum / n : 0;
                        out->mag[o] = n > 0 ? abs_sum / n : 0;
                    }
                }
    }
    out->k = kind == POOL_MAX ? 1 : (double)cc_window_kernel_numel(win);
    if (indices) indices->k = 1;
}

/* clang-format off */
#define POOL_DTYPES_MAX (CC_DTYPES_FLOAT | CC_DTYPE_BIT(CC_U8) | CC_DTYPE_BIT(CC_I8))
/* clang-format on */

/* ---- MaxPool ------------------------------------------------------------------------ */

static cc_status maxpool_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_tensor *out, cc_err *err)
{
    if (n_out != 1 && n_out != 2) return cc_err_set(err, CC_ERR_ARG, "MaxPool: has 1 or 2 outputs, %d requested", n_out);
    const cc_attr_value *outs = cc_attr_get(node, "outputs");
    if (outs->set && outs->i != n_out)
        return cc_err_set(err, CC_ERR_ARG, "MaxPool: outputs is %lld but %d are asked for", (long long)outs->i, n_out);
    const cc_tensor *x = in[0];
    if (!x) return cc_err_set(err, CC_ERR_ARG, "MaxPool: input x is required");
    if (!(POOL_DTYPES_MAX & CC_DTYPE_BIT(x->dtype)))
        return cc_err_set(err, CC_ERR_ARG, "MaxPool: x must be f32, f16, bf16, u8 or i8, got %s",
                          cc_dtype_name(x->dtype));
    cc_status st = check_flag(node, "storage_order", err);
    if (st) return st;
    cc_window w;
    st = pool_geometry(node, &x->shape, 1, &w, &out[0].shape, err);
    if (st) return st;
    out[0].dtype = x->dtype;
    out[0].data = NULL;
    if (n_out == 2) {
        out[1].dtype = CC_I64;
        out[1].shape = out[0].shape;
        out[1].data = NULL;
    }
    return CC_OK;
}

/* the case knob outputs (a model node has its own outputs): 1, or 2 with Indices */
static int maxpool_count_outputs(const cc_node *node)
{
    const cc_attr_value *k = cc_attr_get(node, "outputs");
    return k->set ? (int)k->i : 1;
}

/* One comparison per tap. */
static void maxpool_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                         const cc_tensor *out, double *flops, double *bytes)
{
    cc_window w;
    cc_shape y;
    *flops = 0;
    if (pool_geometry(node, &in[0]->shape, 1, &w, &y, NULL) == CC_OK)
        *flops = (double)cc_shape_numel(&y) * (double)cc_window_kernel_numel(&w);
    *bytes = pool_bytes(in[0], &out[0]) + (n_out > 1 ? (double)cc_tensor_bytes(&out[1]) : 0);
}

static cc_status maxpool_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                                cc_golden *out, cc_err *err)
{
    cc_window w;
    cc_shape y;
    cc_status st = pool_geometry(node, &in[0]->shape, 1, &w, &y, err);
    if (st) return st;
    pool_run(&w, in[0], POOL_MAX, 0, &out[0], n_out > 1 ? &out[1] : NULL, cc_attr_i(node, "storage_order") != 0);
    return CC_OK;
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* clang-format off */
static const cc_sweep_row maxpool_sweep[] = {
    { Q, "x=1x3x8x8", "kernel_shape=[2,2],strides=[2,2]" },
    { Q, "x=1x4x9x9", "kernel_shape=[3,3],pads=[1,1,1,1],strides=[2,2]" },
    { Q, "x=1x4x10x10", "kernel_shape=[5,5],pads=[2,2,2,2]" },
    { Q, "x=1x2x7x7", "ceil_mode=1,kernel_shape=[3,3],strides=[2,2]" },
    { Q, "x=1x2x9x9", "dilations=[2,2],kernel_shape=[3,3]" },
    { Q, "x=1x3x7x8", "auto_pad=SAME_UPPER,kernel_shape=[3,2],strides=[2,2]" },
    { Q, "x=1x3x12", "kernel_shape=[3],strides=[2]" },
    { Q, "x=1x2x6x6x6", "kernel_shape=[2,2,2],strides=[2,2,2]" },
    /* ResNet50 after the stem; YOLOv5s SPPF (chained 3 times); older SPP's 9 and 13 */
    { MODEL, "x=1x64x112x112", "kernel_shape=[3,3],pads=[1,1,1,1],strides=[2,2]" },
    { MODEL, "x=1x256x20x20", "kernel_shape=[5,5],pads=[2,2,2,2]" },
    { MODEL, "x=1x256x20x20", "kernel_shape=[9,9],pads=[4,4,4,4]" },
    { MODEL, "x=1x256x20x20", "kernel_shape=[13,13],pads=[6,6,6,6]" },
    /* ceil_mode: last window dropped (it would start in the end padding) */
    { EDGE, "x=1x2x5x5", "ceil_mode=1,kernel_shape=[2,2],pads=[1,1,1,1],strides=[2,2]" },
    /* ceil_mode: last window kept and overhanging the padded input */
    { EDGE, "x=1x2x6x6", "ceil_mode=1,kernel_shape=[3,3],pads=[1,1,1,1],strides=[2,2]" },
    { EDGE, "x=1x2x8x7", "ceil_mode=1,kernel_shape=[3,3],pads=[0,1,2,0],strides=[3,2]" },
    { EDGE, "x=1x2x10x10", "ceil_mode=1,dilations=[2,2],kernel_shape=[3,3],pads=[2,2,2,2],strides=[2,2]" },
    { EDGE, "x=2x3x11", "ceil_mode=1,kernel_shape=[4],pads=[1,2],strides=[3]" },
    { EDGE, "x=1x3x7x7", "auto_pad=SAME_LOWER,kernel_shape=[4,4],strides=[2,2]" },
    { EDGE, "x=1x3x9x9", "auto_pad=VALID,kernel_shape=[3,3],strides=[2,2]" },
    { EDGE, "x=1x3x6x6", "kernel_shape=[2,2],storage_order=1,strides=[2,2]" },
    { EDGE, "x=1x8x7x7", "kernel_shape=[7,7]" },
    { EDGE, "x=1x4x8x8", "kernel_shape=[1,1],strides=[2,2]" },
    { EDGE, "x=1x2x10x10", "kernel_shape=[2,2],strides=[3,3]" },
    { EDGE, "x=1x1x1x9", "kernel_shape=[1,3]" },
    { 0, "x=1x2x5x6x7", "kernel_shape=[3,3,3],pads=[1,1,1,1,1,1],strides=[2,2,2]" },
    { 0, "x=4x3x6x6", "kernel_shape=[2,2],strides=[2,2]" },
    /* every padding mode with strides, dilations and ceil_mode, on odd sizes: a cross product */
    { EDGE, "x=1x2x9x10", "auto_pad=-|SAME_UPPER|SAME_LOWER|VALID,ceil_mode=-|1,dilations=-|[2,1],"
      "kernel_shape=[3,2],strides=-|[2,3]" },
    /* with Indices, in both storage orders: windows apart, overlapping (ties between windows
     * in the exact regime), padded, 1-D and 3-D with batches (the image and channel offsets) */
    { Q, "x=1x3x8x8", "kernel_shape=[2,2],outputs=2,storage_order=-|1,strides=[2,2]" },
    { Q, "x=2x2x7x9", "kernel_shape=[3,3],outputs=2,pads=[1,1,1,1],storage_order=-|1,strides=[2,2]" },
    { Q, "x=2x3x12", "kernel_shape=[3],outputs=2,strides=[2]" },
    { Q, "x=2x2x4x5x6", "kernel_shape=[2,3,2],outputs=2,storage_order=-|1,strides=[2,2,2]" },
    { EDGE, "x=1x2x6x7", "ceil_mode=1,kernel_shape=[3,3],outputs=2,pads=[1,1,1,1],storage_order=1,strides=[2,2]" },
    { EDGE, "x=1x2x9x9", "dilations=[2,2],kernel_shape=[3,3],outputs=2,storage_order=-|1" },
    { EDGE, "x=1x3x7x8", "auto_pad=SAME_LOWER,kernel_shape=[4,3],outputs=2,strides=[2,2]" },
    { EDGE, "x=1x1x5x5", "kernel_shape=[5,5],outputs=2,pads=[2,2,2,2]" },   /* the node test's geometry */
    { EDGE, "x=1x4x1x1", "kernel_shape=[1,1],outputs=2" },
    /* SegNet's and ENet's encoders keep the indices for their decoders' MaxUnpool */
    { MODEL, "x=1x64x224x224", "kernel_shape=[2,2],outputs=2,strides=[2,2]" },
    { MODEL, "x=1x16x256x256", "kernel_shape=[2,2],outputs=2,strides=[2,2]" },
};

static const cc_sweep_row avgpool_sweep[] = {
    { Q, "x=1x3x8x8", "kernel_shape=[2,2],strides=[2,2]" },
    { Q, "x=1x4x9x9", "kernel_shape=[3,3],pads=[1,1,1,1],strides=[2,2]" },
    { Q, "x=1x4x9x9", "count_include_pad=1,kernel_shape=[3,3],pads=[1,1,1,1],strides=[2,2]" },
    { Q, "x=1x2x7x7", "ceil_mode=1,kernel_shape=[3,3],strides=[2,2]" },
    { Q, "x=1x2x6x6", "ceil_mode=1,count_include_pad=1,kernel_shape=[3,3],pads=[1,1,1,1],strides=[2,2]" },
    { Q, "x=1x3x7x8", "auto_pad=SAME_UPPER,kernel_shape=[3,2],strides=[2,2]" },
    { Q, "x=1x3x12", "kernel_shape=[3],pads=[1,1],strides=[2]" },
    { Q, "x=1x2x6x6x6", "kernel_shape=[2,2,2],strides=[2,2,2]" },
    /* Inception blocks (both exporters' count_include_pad), ResNet head, ResNet-D shortcut */
    { MODEL, "x=1x256x35x35", "kernel_shape=[3,3],pads=[1,1,1,1]" },
    { MODEL, "x=1x256x35x35", "count_include_pad=1,kernel_shape=[3,3],pads=[1,1,1,1]" },
    { MODEL, "x=1x2048x7x7", "kernel_shape=[7,7]" },
    { MODEL, "x=1x256x56x56", "ceil_mode=1,kernel_shape=[2,2],strides=[2,2]" },
    { MODEL, "x=1x64x15x15", "ceil_mode=1,kernel_shape=[2,2],strides=[2,2]" },
    /* ceil_mode: dropped last window, and kept windows overhanging the padded input */
    { EDGE, "x=1x2x5x5", "ceil_mode=1,kernel_shape=[2,2],pads=[1,1,1,1],strides=[2,2]" },
    { EDGE, "x=1x2x5x5", "ceil_mode=1,count_include_pad=1,kernel_shape=[2,2],pads=[1,1,1,1],strides=[2,2]" },
    { EDGE, "x=1x2x6x6", "ceil_mode=1,kernel_shape=[3,3],pads=[1,1,1,1],strides=[2,2]" },
    { EDGE, "x=1x2x8x7", "ceil_mode=1,count_include_pad=1,kernel_shape=[3,3],pads=[0,1,2,0],strides=[3,2]" },
    { EDGE, "x=1x2x8x7", "ceil_mode=1,kernel_shape=[3,3],pads=[0,1,2,0],strides=[3,2]" },
    { EDGE, "x=2x3x11", "ceil_mode=1,count_include_pad=1,kernel_shape=[4],pads=[1,2],strides=[3]" },
    { EDGE, "x=1x3x7x7", "auto_pad=SAME_LOWER,count_include_pad=1,kernel_shape=[4,4],strides=[2,2]" },
    { EDGE, "x=1x3x7x7", "auto_pad=SAME_UPPER,kernel_shape=[4,4],strides=[2,2]" },
    { EDGE, "x=1x3x9x9", "auto_pad=VALID,kernel_shape=[3,3],strides=[2,2]" },
    { EDGE, "x=1x4x8x8", "kernel_shape=[1,1],strides=[2,2]" },
    { EDGE, "x=1x2x10x10", "kernel_shape=[2,2],strides=[3,3]" },
    { EDGE, "x=1x1x1x9", "count_include_pad=1,kernel_shape=[1,3],pads=[0,1,0,1]" },
    { 0, "x=1x2x5x6x7", "count_include_pad=1,kernel_shape=[3,3,3],pads=[1,1,1,1,1,1],strides=[2,2,2]" },
    { 0, "x=4x3x6x6", "kernel_shape=[2,2],strides=[2,2]" },
    /* every padding mode with strides, ceil_mode and count_include_pad: a cross product */
    { EDGE, "x=1x2x9x10", "auto_pad=-|SAME_UPPER|SAME_LOWER|VALID,ceil_mode=-|1,count_include_pad=-|1,"
      "kernel_shape=[3,2],strides=-|[2,3]" },
};
/* clang-format on */

const cc_op_def cc_op_MaxPool = {
    .id = CC_OP_ID_MaxPool,
    .name = "MaxPool",
    .domain = "",
    .since_version = 12,
    .family = "pool",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .min_outputs = 1,
    .max_outputs = 2,
    .count_outputs = maxpool_count_outputs,
    .n_attrs = CC_ONNX_NATTRS(MaxPool, 12) + 1,
    .attrs = {
        CC_ONNX_ATTRS(MaxPool, 12)
        { .name = "outputs", .kind = CC_ATTR_INT, .def = NULL, .input = -1, .knob = 1 },
    },
    .dtypes = POOL_DTYPES_MAX,
    .infer = maxpool_infer,
    .cost = maxpool_cost,
    CC_SWEEP(maxpool_sweep),
    .golden = maxpool_golden,
};

/* ---- AveragePool -------------------------------------------------------------------- */

static cc_status avgpool_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_tensor *out, cc_err *err)
{
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "AveragePool: has 1 output, %d requested", n_out);
    const cc_tensor *x = in[0];
    if (!x) return cc_err_set(err, CC_ERR_ARG, "AveragePool: input x is required");
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "AveragePool: x must be f32, f16 or bf16, got %s",
                          cc_dtype_name(x->dtype));
    cc_status st = check_flag(node, "count_include_pad", err);
    if (st) return st;
    cc_window w;
    st = pool_geometry(node, &x->shape, !cc_attr_i(node, "count_include_pad"), &w, &out[0].shape, err);
    if (st) return st;
    out[0].dtype = x->dtype;
    out[0].data = NULL;
    return CC_OK;
}

/* One add per tap and one division per output. */
static void avgpool_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                         const cc_tensor *out, double *flops, double *bytes)
{
    (void)n_out;
    cc_window w;
    cc_shape y;
    *flops = 0;
    if (pool_geometry(node, &in[0]->shape, 0, &w, &y, NULL) == CC_OK)
        *flops = (double)cc_shape_numel(&y) * ((double)cc_window_kernel_numel(&w) + 1);
    *bytes = pool_bytes(in[0], &out[0]);
}

static cc_status avgpool_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                                cc_golden *out, cc_err *err)
{
    (void)n_out;
    int include_pad = cc_attr_i(node, "count_include_pad") != 0;
    cc_window w;
    cc_shape y;
    cc_status st = pool_geometry(node, &in[0]->shape, !include_pad, &w, &y, err);
    if (st) return st;
    pool_run(&w, in[0], POOL_AVG, include_pad, &out[0], NULL, 0);
    return CC_OK;
}

const cc_op_def cc_op_AveragePool = {
    .id = CC_OP_ID_AveragePool,
    .name = "AveragePool",
    .domain = "",
    .since_version = 11,
    .family = "pool",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .min_outputs = 1,
    .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(AveragePool, 11),
    .attrs = { CC_ONNX_ATTRS(AveragePool, 11) },
    .dtypes = CC_DTYPES_FLOAT,
    .infer = avgpool_infer,
    .cost = avgpool_cost,
    CC_SWEEP(avgpool_sweep),
    .golden = avgpool_golden,
};

/* ---- GlobalAveragePool, GlobalMaxPool ------------------------------------------------ */

static cc_status gap_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                           cc_tensor *out, cc_err *err)
{
    const char *op = node->op->name;
    if (n_out != 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, %d requested", op, n_out);
    const cc_tensor *x = in[0];
    if (!x) return cc_err_set(err, CC_ERR_ARG, "%s: input x is required", op);
    if (!cc_dtype_is_float(x->dtype))
        return cc_err_set(err, CC_ERR_ARG, "%s: x must be f32, f16 or bf16, got %s", op, cc_dtype_name(x->dtype));
    if (x->shape.rank < 3)
        return cc_err_set(err, CC_ERR_ARG, "%s: x must have rank >= 3 (N x C x D1...), got rank %d", op,
                          x->shape.rank);
    cc_shape y = x->shape;
    for (int d = 2; d < y.rank; d++) {
        if (y.dims[d] == 0)
            return cc_err_set(err, CC_ERR_ARG, "%s: spatial axis %d is empty", op, d - 2);
        y.dims[d] = 1;
    }
    out[0].dtype = x->dtype;
    out[0].shape = y;
    out[0].data = NULL;
    return CC_OK;
}

/* One add per input element and one division per output; GlobalMaxPool a comparison per
 * input element. */
static void gap_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                     const cc_tensor *out, double *flops, double *bytes)
{
    (void)n_out;
    *flops = (double)cc_tensor_numel(in[0]) +
             (node->op->id == CC_OP_ID_GlobalMaxPool ? 0 : (double)cc_tensor_numel(&out[0]));
    *bytes = pool_bytes(in[0], &out[0]);
}

/* GlobalAveragePool: value = mean over the spatial axes; S = sum |x| / n; K = n.
 * GlobalMaxPool: value = the largest (a NaN wins); S = |value|; K = 1. */
static cc_status gap_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                            cc_golden *out, cc_err *err)
{
    (void)n_out;
    (void)err;
    const cc_tensor *x = in[0];
    int is_max = node->op->id == CC_OP_ID_GlobalMaxPool;
    int64_t planes = x->shape.dims[0] * x->shape.dims[1];
    int64_t n = 1;
    for (int d = 2; d < x->shape.rank; d++) n *= x->shape.dims[d];
    for (int64_t p = 0; p < planes; p++) {
        double sum = 0, abs_sum = 0, mx = -INFINITY;
        for (int64_t i = 0; i < n; i++) {
            double v = cc_load(x->data, x->dtype, (size_t)(p * n + i));
            sum += v;
            abs_sum += fabs(v);
            if ((v > mx || isnan(v)) && !isnan(mx)) mx = v;
        }
        out[0].value[p] = is_max ? mx : sum / (double)n;
        out[0].mag[p] = is_max ? fabs(mx) : abs_sum / (double)n;
    }
    out[0].k = is_max ? 1 : (double)n;
    return CC_OK;
}

/* quick: 2-D, batch 2 with odd sizes, 1-D, 3-D; full: ResNet50 head, YOLO-sized map,
 * MobileNetV2 head, 1x1 spatial, a full image */
static const cc_sweep_row gap_sweep[] = {
    { Q, "x=1x8x6x6" },         { Q, "x=2x3x5x7" },          { Q, "x=1x4x10" },
    { Q, "x=1x2x3x4x5" },       { MODEL, "x=1x2048x7x7" },   { MODEL, "x=1x512x20x20" },
    { MODEL, "x=1x1280x7x7" },  { EDGE, "x=1x16x1x1" },      { 0, "x=1x3x224x224" },
    { 0, "x=4x64x14x14" },
};

#define GLOBAL_POOL_DEF(OP, ...)                                                           \
    {                                                                                      \
        .id = CC_OP_ID_##OP, .name = #OP, .domain = "", .since_version = 1, .family = "pool", \
        .n_inputs = 1, .inputs = { { .name = "x", .role = CC_IN_DATA, __VA_ARGS__ } },       \
        .min_outputs = 1, .max_outputs = 1, .n_attrs = 0, .dtypes = CC_DTYPES_FLOAT,        \
        .infer = gap_infer, .cost = gap_cost, CC_SWEEP(gap_sweep), .golden = gap_golden,    \
    }

/* GlobalMaxPool's exact regime uses wide integers, as ReduceMax's: with -4..4 the maximum
 * of a plane is 4 everywhere, a constant output the check cannot trust. */
const cc_op_def cc_op_GlobalMaxPool = GLOBAL_POOL_DEF(GlobalMaxPool, .lo = -1, .hi = 1, .ilo = -60000, .ihi = 60000);
const cc_op_def cc_op_GlobalAveragePool = GLOBAL_POOL_DEF(GlobalAveragePool);
