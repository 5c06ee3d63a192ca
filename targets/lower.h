/* lower.h — host-side lowering the built-in backends (cpu, opencl, cuda) share: what a
 * node means, turned into tables a device kernel only has to read. Written once so that a
 * fix to the semantics reaches every backend at once; the golden model (ops/) keeps its
 * own independent copy, because the law must not share a bug with what it judges.
 *
 * Resize (opset 13 semantics): per axis, for every output coordinate, the input taps
 * (clamped indices) and their weights, and whether the coordinate falls outside the crop
 * (tf_crop_and_resize). */
#ifndef CC_LOWER_H
#define CC_LOWER_H

#include "backend.h"
#include "target.h"

enum { CC_RESIZE_NEAREST, CC_RESIZE_LINEAR, CC_RESIZE_CUBIC, CC_RESIZE_MODE_COUNT };
enum { CC_RESIZE_HALF_PIXEL, CC_RESIZE_PYTORCH_HALF_PIXEL, CC_RESIZE_ALIGN_CORNERS,
       CC_RESIZE_ASYMMETRIC, CC_RESIZE_TF_HALF_PIXEL_FOR_NN, CC_RESIZE_TF_CROP_AND_RESIZE,
       CC_RESIZE_CT_COUNT };
enum { CC_RESIZE_ROUND_PREFER_FLOOR, CC_RESIZE_ROUND_PREFER_CEIL, CC_RESIZE_FLOOR, CC_RESIZE_CEIL,
       CC_RESIZE_NM_COUNT };

typedef struct cc_resize_axis {
    int64_t in_len, out_len;
    int taps;                /* 1 (nearest, or the axis maps each coordinate onto itself), 2, 4 */
    int64_t *idx;            /* [out_len * taps] input indices, clamped to the axis */
    float *w;                /* [out_len * taps] weights (0 where outside) */
    unsigned char *outside;  /* [out_len] 1: the output is extrapolation_value */
    int any_outside;
} cc_resize_axis;

typedef struct cc_resize_lowering {
    int rank, mode, ct, nm;
    float extrapolation;
    cc_resize_axis ax[CC_MAX_RANK];
} cc_resize_lowering;

/* Reads and checks the node's modes. 0 on success; otherwise -1 with the reason
 * ("Resize: unknown mode 'x'", "Resize: antialias is not implemented") in reason[0..n). */
int cc_lower_resize_modes(const cc_node *node, int *mode, int *ct, int *nm, char *reason, size_t n);

/* Builds the tables of node (input x = in[0], output shape y) from its constant roi,
 * scales and sizes (in[1..3] with data, or absent). CC_ERR_ARG on a bad scale, roi or an
 * exclude_outside that leaves no tap; CC_ERR_NOMEM. On success release with
 * cc_lower_resize_free. */
cc_status cc_lower_resize(const cc_node *node, const cc_tensor *const *in, const cc_shape *y,
                          cc_resize_lowering *out, cc_err *err);
void cc_lower_resize_free(cc_resize_lowering *r);

/* Shape (opset 15) and Size: the n int64 values of the node's output for input shape x
 * (Shape: x's dims from `start`, clamped into [0, rank]; Size: its element count).
 * CC_ERR_ARG when n does not fit the shape. */
cc_status cc_lower_describe(const cc_node *node, const cc_shape *x, int64_t *v, int64_t n, cc_err *err);

/* Expand and Tile as one strided copy over the output y (contiguous): Expand reads along a
 * broadcast (or new leading) dim with source stride 0; Tile splits each repeated dim d into
 * (repeats, x_d), the repeat read with stride 0 and written with x_d times y's stride.
 * Size-1 dims are dropped. Fills dims, sst (source strides) and dst (destination strides),
 * each of room 2 * CC_MAX_RANK, and returns their count (a backend declines more dims than
 * its copy kernel walks). */
int cc_lower_repeat(const cc_node *node, const cc_shape *x, const cc_shape *y, int64_t *dims, int64_t *sst, int64_t *dst);

/* EyeLike: writes its whole output (y's dtype and 2-D shape) into host, zeroed by the
 * caller: ones where column - row == k. */
void cc_lower_eyelike(const cc_node *node, const cc_tensor *y, void *host);

/* Pad (opset 13): the mode (0 constant, 1 edge, 2 reflect), each dim's begin padding
 * (begin[d], negative crops) and the constant's bytes in the data's dtype (cbytes, 8 bytes,
 * zero when absent), from the node's constant inputs. CC_ERR_UNSUPPORTED when pads or the
 * constant is not constant. The input index of output index o along a dim of n elements
 * is cc_lower_pad_source(o, begin, n, mode), -1 for the constant. */
cc_status cc_lower_pad(const cc_node *node, const cc_tensor *const *in, int *mode, int64_t *begin, unsigned char *cbytes,
                       cc_err *err);
int64_t cc_lower_pad_source(int64_t o, int64_t begin, int64_t n, int mode);

/* DepthToSpace and SpaceToDepth (opset 13) as one strided copy: six dims in the output's
 * own row-major order (the output is contiguous over them) and the input element stride of
 * each. DepthToSpace walks (N, C/b^2, H, b, W, b), the block row and column after each input
 * row and column; SpaceToDepth walks (N, b, b, C, H/b, W/b). x is the input's NCHW shape. */
void cc_lower_block(const cc_node *node, const cc_shape *x, int64_t dims[6], int64_t istride[6]);

/* ConstantOfShape (the value attribute, float32 0 when absent) and Range (start + i * delta
 * in the output's dtype: f32 products and sums in float32, f64's in double, integers (i16,
 * i32, i64) in 64 bits stored wrapped):
 * writes y's whole output into host (cc_tensor_bytes(y) bytes) from the node's constant
 * inputs (in[] with host data). CC_ERR_UNSUPPORTED when a Range input has no data. */
cc_status cc_lower_generate(const cc_node *node, const cc_tensor *const *in, const cc_tensor *y, void *host,
                            cc_err *err);

/* LayerNormalization (opset 17) and InstanceNormalization (opset 6, the rows (n, c) over
 * the spatial dims): rows of n elements (LayerNormalization: the axes [axis, rank)
 * flattened) and, for element j of row r, the index of its Scale, sidx[j] + r % *rmod, and
 * of its B, bidx[j] + r % *rmod (all 0 without B): LayerNormalization broadcasts Scale and
 * B to the normalized shape (*rmod = 1), InstanceNormalization takes channel r % C (sidx
 * and bidx 0, *rmod = C). sidx and bidx hold n entries (allocated here; free them).
 * CC_ERR_ARG for an axis out of range; CC_ERR_NOMEM. */
cc_status cc_lower_layernorm(const cc_node *node, const cc_tensor *const *in, int64_t *rows, int64_t *n,
                             int64_t *rmod, int32_t **sidx, int32_t **bidx, cc_err *err);

/* The reductions (opset 13): which one a node computes, as every built-in backend numbers
 * them (the cuda kernels take the number). */
enum { CC_REDUCE_MEAN, CC_REDUCE_MAX, CC_REDUCE_MIN, CC_REDUCE_SUM, CC_REDUCE_PROD, CC_REDUCE_L1, CC_REDUCE_L2,
       CC_REDUCE_LOGSUM, CC_REDUCE_LOGSUMEXP, CC_REDUCE_SUMSQUARE, CC_REDUCE_KIND_COUNT };

/* The CC_REDUCE_* of node's op; -1 for an op that is not one of the ten Reduce* ops. */
int cc_lower_reduce_kind(const cc_node *node);

/* The mask of reduced dims of a rank-r input: red[i] = 1 for a reduced dim. Axes come from
 * the axes attribute or, where the op takes them as an input (ReduceSum-13), from that
 * constant input; none (or none given) reduces every dim unless noop_with_empty_axes = 1.
 * CC_ERR_ARG for an axis out of range or repeated; CC_ERR_UNSUPPORTED for an axes input
 * without data. */
cc_status cc_lower_reduce_axes(const cc_node *node, const cc_tensor *const *in, int r, int *red, cc_err *err);

/* ConvTranspose (opset 11): x (N x C x in...) scatters x[n, c, i] * w[c, m, k] to output
 * o = i * stride - pad0 + k * dil of filter g * M/group + m of c's group g, per axis. Fills
 * w as a backend window whose in/out are x's and y's spatial sizes and whose pad0/pad1 are
 * the begin/end padding (negative where output_shape asks for more than the full size);
 * *group and *mg (filters per group) beside it. The padding follows from y's size wherever
 * output_shape or auto_pad SAME_* fixes it (total = full - out, halves floored, SAME_UPPER
 * the smaller half first), from pads otherwise (VALID: none). One-line CC_ERR_ARG naming
 * the op, CC_ERR_UNSUPPORTED for other than 1 to 3 spatial dims (naming backend). */
cc_status cc_lower_convtranspose(const cc_node *node, const cc_shape *x, const cc_shape *w, const cc_shape *y,
                                 const char *backend, cc_backend_window *win, int64_t *group, int64_t *mg,
                                 cc_err *err);

/* NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (opset 13) for an input x of shape
 * N x C x d...: the batch, the classes, the positions per (image, class) (the product of
 * d...), the reduction (0 none, 1 sum, 2 mean), ignore_index (has_ignore 0 when the
 * attribute is not set) and whether log_prob = LogSoftmax(x) over the classes comes first
 * (softmax: SoftmaxCrossEntropyLoss). Loss term of position (n, j) with class t: -lp[n, t,
 * j] * weight[t] (1 without weights; 0 with weight 0 where t is ignore_index); mean: the
 * terms' sum over the weights' sum. CC_ERR_ARG for rank < 2 or an unknown reduction. */
typedef struct cc_lower_loss_geom {
    int64_t n, c, d;
    int reduction, has_ignore, softmax;
    int64_t ignore;
} cc_lower_loss_geom;
cc_status cc_lower_loss(const cc_node *node, const cc_shape *x, cc_lower_loss_geom *g, cc_err *err);

/* RNN, GRU and LSTM (opset 14; ops/recurrent.c states the equations) for X and R of the
 * node's shapes: gates (1, 3: z r h, 4: i o f c), directions (reverse: the one direction
 * runs backwards), layout (1: batch-major X, Y and states), GRU's linear_before_reset,
 * clip, the sizes, and each direction's activations (f, g, h; the attribute's names,
 * case-insensitive, one list for both directions accepted, alpha and beta taken in order
 * by the activations that have them, else their defaults). CC_ERR_ARG for an invalid
 * attribute, CC_ERR_UNSUPPORTED for LSTM's input_forget=1. */
enum { CC_RNN_RELU, CC_RNN_TANH, CC_RNN_SIGMOID, CC_RNN_AFFINE, CC_RNN_LEAKYRELU, CC_RNN_THRESHOLDEDRELU,
       CC_RNN_SCALEDTANH, CC_RNN_HARDSIGMOID, CC_RNN_ELU, CC_RNN_SOFTSIGN, CC_RNN_SOFTPLUS };
typedef struct cc_lower_rnn_act {
    int kind;
    float alpha, beta;
} cc_lower_rnn_act;
typedef struct cc_lower_rnn_geom {
    int gates, dirs, reverse, layout, lbr, has_clip;
    float clip;
    int64_t seq, batch, in, hid;
    cc_lower_rnn_act act[2][3];
} cc_lower_rnn_geom;
cc_status cc_lower_rnn(const cc_node *node, const cc_shape *x, const cc_shape *r, cc_lower_rnn_geom *g, cc_err *err);

/* OneHot (opset 11) for indices of shape ix and the constant depth tensor: the output as
 * [outer, depth, inner] (depth inserted at axis). Element (o, d, i) is values[1] where
 * trunc(indices[o * inner + i]), + depth when negative, equals d, else values[0].
 * CC_ERR_UNSUPPORTED when depth has no data, CC_ERR_ARG when it is below 1. */
cc_status cc_lower_onehot(const cc_node *node, const cc_shape *ix, const cc_tensor *depth, int64_t *outer,
                          int64_t *depth_out, int64_t *inner, cc_err *err);

/* ReverseSequence (opset 10) over input of shape x: the input as [d0, d1, inner] with the
 * time axis time_axis (0 or 1; the batch the other one). Output element (p0, p1, i) of
 * batch b and step t is input element (.., L - 1 - t, ..) where t < L = sequence_lens[b],
 * else itself. CC_ERR_ARG when the axes are not 0 and 1 or the rank is below 2. */
cc_status cc_lower_reverse_sequence(const cc_node *node, const cc_shape *x, int *time_axis, int64_t *d0, int64_t *d1,
                                    int64_t *inner, cc_err *err);

/* GridSample (opset 16; ops/resize_gridsample.c states the semantics): the modes and the
 * geometry of X (N x C x H_in x W_in) and grid (N x H_out x W_out x 2). Along axis a (0: x,
 * the width; 1: y, the height) a normalised g is the pixel coordinate
 * g * scale[a] + offset[a], computed as fmaf(g, scale[a], offset[a]) (one rounding of the
 * exact value; the constants are exact in float32), and [lo[a], hi[a]] is the range outside
 * which border clamps that coordinate into [0, L - 1] and reflection folds it back. Keys'
 * cubic weights use A = CC_GRIDSAMPLE_CUBIC_A. CC_ERR_ARG for an unknown mode or shapes
 * infer() refuses, CC_ERR_UNSUPPORTED for an image side over 2^22. */
enum { CC_GRIDSAMPLE_BILINEAR, CC_GRIDSAMPLE_NEAREST, CC_GRIDSAMPLE_BICUBIC, CC_GRIDSAMPLE_MODE_COUNT };
enum { CC_GRIDSAMPLE_ZEROS, CC_GRIDSAMPLE_BORDER, CC_GRIDSAMPLE_REFLECTION, CC_GRIDSAMPLE_PAD_COUNT };
#define CC_GRIDSAMPLE_CUBIC_A (-0.75f)
typedef struct cc_lower_gridsample_geom {
    int mode, pad, align;
    int64_t n, c, h_in, w_in, h_out, w_out;
    float scale[2], offset[2], lo[2], hi[2];
} cc_lower_gridsample_geom;
cc_status cc_lower_gridsample(const cc_node *node, const cc_shape *x, const cc_shape *grid, cc_lower_gridsample_geom *g,
                              cc_err *err);
/* Whether backend `who` runs GridSample node on image x and grid: both f32, f16 or bf16 (of
 * one dtype where same_dtype) and a geometry cc_lower_gridsample accepts; 0, else -1 with
 * the reason in reason[0..n). */
int cc_lower_gridsample_check(const char *who, const cc_node *node, const cc_tensor *x, const cc_tensor *grid,
                              int same_dtype, char *reason, size_t n);

/* RoiAlign (opset 16; ops/resize_roialign.c states the semantics) of X (N x C x H x W)
 * and rois (R x 4: x1, y1, x2, y2): the modes, the shapes and the float32 constants. Every
 * backend computes a roi's geometry in float32 by one formula, per axis (y from y1, y2
 * over H; x from x1, x2 over W; o = offset):
 *     start = fmaf(lo, scale, -o),   size = (hi - lo) * scale, fmaxf(size, 1) where
 *     min_size_one (output_half_pixel),   bin = size / out,
 *     grid = sampling, or the least g >= 1 with (float)g * out >= size (ceil(size / out)
 *     decided by exact products; 0 where !(size > 0)), at most CC_ROIALIGN_MAX_GRID,
 * and sample i of bin b along it is fmaf(bin, (float)(2 (b grid + i) + 1) / (float)(2
 * grid), start): cc_lower_roialign_measure and cc_lower_roialign_coord on the host, the same
 * operations in the device kernels. A sample outside [-1, len] reads 0; in [-1, 0) it is 0; at
 * or past len - 1 it is the last pixel with weight 1; else bilinear with weights 1 - t and
 * t of t = v - (int)v. CC_ERR_ARG for what infer() refuses, CC_ERR_UNSUPPORTED for an
 * output side or sampling_ratio over 2^11 (the products above stay exact) or an image side
 * over 2^22. */
#define CC_ROIALIGN_MAX_GRID 2048
typedef struct cc_lower_roialign_geom {
    int max_mode, min_size_one;
    int64_t n, c, h, w, rois, out_h, out_w, sampling;
    float scale, offset;
} cc_lower_roialign_geom;
typedef struct cc_lower_roialign_roi {
    float start[2], bin[2]; /* [0] along y (H), [1] along x (W) */
    int grid[2];            /* samples per bin along each axis; 0: none */
} cc_lower_roialign_roi;
cc_status cc_lower_roialign(const cc_node *node, const cc_shape *x, const cc_shape *rois, cc_lower_roialign_geom *g,
                            cc_err *err);
/* Whether backend `who` runs RoiAlign node on image x and rois: both of one float type (f32,
 * f16, bf16) and a geometry cc_lower_roialign accepts; 0, else -1 with the reason. */
int cc_lower_roialign_check(const char *who, const cc_node *node, const cc_tensor *x, const cc_tensor *rois,
                            char *reason, size_t n);
/* Whether backend `who` (a device backend, which sizes its buffers at prepare) takes
 * TopK node with inputs in: 0, else -1 with the reason where K is computed at run time
 * (its outputs' shape then depends on the data: the host's cpu runs it). */
int cc_lower_topk_check(const char *who, const cc_node *node, const cc_tensor *const *in, char *reason, size_t n);
/* The geometry of the roi with box (x1, y1, x2, y2). */
void cc_lower_roialign_measure(const cc_lower_roialign_geom *g, const float box[4], cc_lower_roialign_roi *r);
/* Sample i of bin b along axis a (0: y, 1: x) of roi r. */
float cc_lower_roialign_coord(const cc_lower_roialign_roi *r, int a, int64_t b, int64_t i);

/* Einsum (opset 12; ops/matmul_einsum.c states the semantics) over operands in[0..n_in):
 * the output's axes (row-major, its rank) then the labels summed over (those of dim 1
 * dropped), with each axis's dim and each operand's element stride along it. A letter
 * repeated in an operand adds up the strides of its axes (a diagonal); an ellipsis dim of
 * 1 broadcast against a longer one has stride 0. Output element o: its coordinates along
 * the first n_out axes; the sum, over every coordinate of the n_sum others, of the product
 * of operand t's elements at sum_a coordinate_a * stride[t][a]. CC_ERR_ARG for an
 * equation that does not fit the operands (infer has refused it before), CC_ERR_UNSUPPORTED
 * for more operands or summed labels than the tables hold. */
#define CC_LOWER_EINSUM_MAX_IN 8
#define CC_LOWER_EINSUM_MAX_SUM 16
#define CC_LOWER_EINSUM_MAX_AXES (CC_MAX_RANK + CC_LOWER_EINSUM_MAX_SUM)
typedef struct cc_lower_einsum_geom {
    int n_in, n_out, n_sum;
    int64_t dims[CC_LOWER_EINSUM_MAX_AXES];
    int64_t stride[CC_LOWER_EINSUM_MAX_IN][CC_LOWER_EINSUM_MAX_AXES];
    int64_t out_count, sum_count; /* the products of the output's and the summed dims */
} cc_lower_einsum_geom;
cc_status cc_lower_einsum(const cc_node *node, const cc_tensor *const *in, cc_lower_einsum_geom *e, cc_err *err);

/* MaxUnpool (opset 11; ops/pool_unpool.c states the semantics) of X with the output shape
 * y: the unpooled shape u the indices count in, N x C x ((D - 1) * stride + kernel - pads)
 * per spatial axis (without the pads where output_shape is given: has_output_shape), which
 * the output holds in its leading corner (u == y without output_shape). Unpooled element
 * I[k] (row-major over u) is X[k], the later k winning where indices repeat; an index
 * outside [0, numel(u)) writes nothing; every other output element is 0. CC_ERR_ARG for
 * what infer() refuses (lower_unpool.c). */
cc_status cc_lower_maxunpool(const cc_node *node, const cc_shape *x, const cc_shape *y, int has_output_shape, cc_shape *u,
                             cc_err *err);
/* The output element (row-major over y) of unpooled element at (row-major over u), u
 * inside y's leading corner. */
int64_t cc_lower_maxunpool_place(const cc_shape *u, const cc_shape *y, int64_t at);

/* MeanVarianceNormalization (opset 13) and BatchNormalization in training mode (opset 15):
 * the groups of elements that share a mean and a variance. MeanVarianceNormalization
 * reduces over its axes (negative from the end; default [0, 2, 3]), BatchNormalization
 * over every axis but 1 (the channels). Adjacent axes that are both kept or both reduced
 * are merged, size-1 axes dropped: group k (row-major over the kept axes, so with
 * BatchNormalization the channel) starts at element sum_i c_i * kept_stride[i] of its kept
 * coordinates c, and its element j (row-major over the reduced axes) lies red_stride
 * further on the same way. groups and n are the products of the kept and reduced sizes.
 * CC_ERR_ARG for axes infer() refuses (lower_norm.c). */
typedef struct cc_lower_groups {
    int nk, nr;
    int64_t kept[CC_MAX_RANK], kept_stride[CC_MAX_RANK];
    int64_t red[CC_MAX_RANK], red_stride[CC_MAX_RANK];
    int64_t groups, n;
} cc_lower_groups;
cc_status cc_lower_norm_groups(const cc_node *node, const cc_shape *x, cc_lower_groups *g, cc_err *err);
/* The offset of element j of group k. */
int64_t cc_lower_group_base(const cc_lower_groups *g, int64_t k);
int64_t cc_lower_group_offset(const cc_lower_groups *g, int64_t j);

#endif
