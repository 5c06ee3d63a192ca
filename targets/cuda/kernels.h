/* kernels.h — the cuda backend's own CUDA kernels as its C files see them: plain C
 * launchers (defined in kernels_*.cu) that enqueue work on a stream and return the
 * launch status (cudaGetLastError), never waiting for the device.
 *
 * Conventions shared by every launcher:
 *  - dtypes are cc_dtype values passed as int; element counts and offsets are in
 *    elements, 64-bit;
 *  - floating data (f32, f16, bf16) is computed in f32 and rounded once to the output
 *    dtype (round to nearest even); integer data in 64-bit integers;
 *  - a launch with nothing to do (zero elements) enqueues nothing and returns
 *    cudaSuccess;
 *  - a dtype a launcher does not handle returns cudaErrorInvalidValue (callers check
 *    dtypes in supports(), so this is a bug, not an input error). */
#ifndef CC_CUDA_KERNELS_H
#define CC_CUDA_KERNELS_H

#include "../eltwise_formulas.h"
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CC_CUDA_MAX_RANK 8

/* An index space of `rank` dims walked in row-major order, with the element strides of up
 * to three operands along each dim (0 along a broadcast dim, negative for a reversed
 * slice). rank 0 is a single element. */
typedef struct cc_cuda_walk {
    int rank;
    int64_t dims[CC_CUDA_MAX_RANK];
    int64_t st[3][CC_CUDA_MAX_RANK];
} cc_cuda_walk;

/* A quantization parameter in device memory: n values of an integer or floating dtype
 * (n == 1: one value for every index). p == NULL reads as 0 (an absent zero point). */
typedef struct cc_cuda_qparam {
    const void *p;
    int dtype;
    int64_t n;
} cc_cuda_qparam;

/* ---- elementwise (kernels_eltwise.cu) ------------------------------------------------- */

/* The activations of targets/eltwise_formulas.h (CC_CUDA_ACT_<Op>), then Clip. */
enum {
#define CC_CUDA_ACT_ENUM(Op, name, P0, P1, F) CC_CUDA_ACT_##Op,
    CC_ACTIVATIONS(CC_CUDA_ACT_ENUM)
#undef CC_CUDA_ACT_ENUM
    CC_CUDA_CLIP
};
#define CC_CUDA_RELU CC_CUDA_ACT_Relu

/* y[i] = op(x[i]) for n elements. a, b: the activation's p0, p1 (eltwise_formulas.h);
 * lo, hi: Clip bounds of floating data, ilo, ihi of integer data (Relu and Clip are the
 * only ops on integers). */
cudaError_t cc_cuda_unary(cudaStream_t s, int op, int dtype, const void *x, void *y, int64_t n,
                          float a, float b, float lo, float hi, int64_t ilo, int64_t ihi);

/* FMOD is C's fmod (integers: truncating %), IMOD the integer modulo whose sign follows
 * the divisor (Mod fmod=0), FIRST copies a; POW and PRELU have float forms only. */
enum {
    CC_CUDA_ADD, CC_CUDA_SUB, CC_CUDA_MUL, CC_CUDA_DIV, CC_CUDA_MIN, CC_CUDA_MAX, CC_CUDA_POW,
    CC_CUDA_PRELU, CC_CUDA_FMOD, CC_CUDA_IMOD, CC_CUDA_FIRST
};

/* y = a op b over walk w (the output's dims; st[0] a's strides, st[1] b's, st[2] y's).
 * Integers wrap around; integer Div and Mod give 0 for a zero divisor (Div truncates
 * toward zero). y may be a (the steps of a variadic op). */
cudaError_t cc_cuda_binary(cudaStream_t s, int op, int dtype, const void *a, const void *b,
                           void *y, const cc_cuda_walk *w);

/* Pow with a float base (f32, f16, bf16) and an integer exponent (edtype i32 or i64): y =
 * powf(a, (float)e) over walk w as cc_cuda_binary's. */
cudaError_t cc_cuda_pow_int_exp(cudaStream_t s, int dtype, int edtype, const void *a, const void *e, void *y,
                                const cc_cuda_walk *w);

/* The ops of the logic family (ops/eltwise_logic.c). */
enum {
    CC_CUDA_EQ, CC_CUDA_GT, CC_CUDA_GE, CC_CUDA_LT, CC_CUDA_LE, CC_CUDA_AND, CC_CUDA_OR, CC_CUDA_XOR,
    CC_CUDA_SHL, CC_CUDA_SHR
};

/* y = a op b over walk w (st[0] a's strides, st[1] b's, st[2] y's): the comparisons (floats
 * compared in f32, which f16 and bf16 widen to exactly; integers in int64; bool as 0/1 for
 * EQ) and AND, OR, XOR of bool data with a bool (u8) output; SHL, SHR of u8 data with a u8
 * output, 0 for a shift of 8 or more. */
cudaError_t cc_cuda_logic(cudaStream_t s, int op, int dtype, const void *a, const void *b, void *y,
                          const cc_cuda_walk *w);

/* out[i] = c[.] ? x[.] : y[.] over walk w (st[0] the condition's strides, st[1] x's, st[2]
 * y's; the output contiguous), elements of elem bytes (1, 2, 4 or 8) moved as they are. */
cudaError_t cc_cuda_where(cudaStream_t s, size_t elem, const void *c, const void *x, const void *y,
                          void *out, const cc_cuda_walk *w);

/* y[i] (bool) for n elements: Not of bool data (op 0), IsNaN (op 1) or IsInf (op 2, neg and
 * pos: which infinities count) of float data. */
cudaError_t cc_cuda_classify(cudaStream_t s, int op, int dtype, const void *x, void *y, int64_t n, int neg,
                             int pos);

/* y[i] /= d for n elements of a float dtype, in place (Mean's last step). */
cudaError_t cc_cuda_divide(cudaStream_t s, int dtype, void *y, int64_t n, float d);

/* dst[dst_off + sum idx*st[1]] = src[src_off + sum idx*st[0]] over walk w, elements of
 * elem bytes (1, 2, 4 or 8). */
cudaError_t cc_cuda_copy(cudaStream_t s, size_t elem, const void *src, int64_t src_off,
                         void *dst, int64_t dst_off, const cc_cuda_walk *w);

/* Gather, GatherElements and GatherND as one index map (the mode says which), with int32
 * or int64 indices; a negative index counts from the end of its dim, one still outside it
 * writes 0. Gather: y[o, j, i] = x[o, idx[j], i] over x as [outer, dim, inner], j < nidx.
 * GatherElements: y[p] = x[p with coordinate axis := idx[p]], p decoded by idims, x's
 * strides xst. GatherND: y[bt, i] = x[(bt / tuples) * bsize + sum_k idx[bt, k] * st[k] + i]
 * with idx[bt, k] < dims[k], k < m. */
enum { CC_CUDA_GATHER, CC_CUDA_GATHER_ELEMENTS, CC_CUDA_GATHER_ND };
typedef struct cc_cuda_gather {
    int mode, rank, axis, m;
    int64_t outer, dim, nidx, inner, tuples, bsize;
    int64_t dims[CC_CUDA_MAX_RANK], st[CC_CUDA_MAX_RANK];  /* idims and xst, or GatherND's dims and st */
} cc_cuda_gather;
cudaError_t cc_cuda_gather_run(cudaStream_t s, size_t elem, int idx64, const void *x, const void *idx, void *y,
                               int64_t n, const cc_cuda_gather *g);

/* ScatterND (mode CC_CUDA_GATHER_ND: m index values per update, dims and st of the
 * indexed dims, inner the slice) and ScatterElements (CC_CUDA_GATHER_ELEMENTS: dims the
 * indices' dims, st y's strides, axis and dim): update element p written at its place of y
 * (already a copy of the data); red 0 none (one thread per element), 1 add, 2 mul (one
 * thread, in update order). An index outside its dim is skipped. */
cudaError_t cc_cuda_scatter_run(cudaStream_t s, int dtype, int idx64, const void *u, const void *idx, void *y,
                                int64_t n, const cc_cuda_gather *g, int red);

/* OneHot over y as [outer, depth, inner] (elements of elem bytes): v[1] where the index of
 * (o, i) (int32 idx_type 0, int64 1, float32 2; truncated, + depth when negative) is d,
 * else v[0]. */
cudaError_t cc_cuda_onehot(cudaStream_t s, size_t elem, int idx_type, const void *idx, const void *v, void *y,
                           int64_t outer, int64_t depth, int64_t inner);

/* Det of count n x n matrices of x (dtype f32, f16 or bf16) into y: one thread per matrix,
 * eliminated in float with partial pivoting in its n x n block of the float workspace w. */
cudaError_t cc_cuda_det(cudaStream_t s, int dtype, const void *x, void *y, float *w, int64_t n, int64_t count);

/* ReverseSequence over x and y as [d0, d1, inner] (elements of elem bytes), time along axis
 * ta (0 or 1), the batch along the other: (t, b) reads step lens[b] - 1 - t where t <
 * lens[b] (within [0, time]), else t. */
cudaError_t cc_cuda_reverse_sequence(cudaStream_t s, size_t elem, const void *x, const int64_t *lens, void *y,
                                     int64_t d0, int64_t d1, int64_t inner, int ta);

/* Trilu: y[i] = x[i] where c - r >= k (upper) or c - r <= k (lower) for element i's column
 * c and row r of its rows x cols matrix, else 0; elements of elem bytes. */
cudaError_t cc_cuda_trilu(cudaStream_t s, size_t elem, const void *x, void *y, int64_t n, int64_t rows, int64_t cols,
                          int64_t k, int upper);

/* ArgMax (max = 1) / ArgMin along the middle axis of x viewed as outer x len x inner:
 * y[o * inner + i] (int64) the winning index; NaN beats every number, ties (and NaN
 * against NaN) go to the first index, or the last with last = 1. */
cudaError_t cc_cuda_arg(cudaStream_t s, int dtype, const void *x, int64_t *y, int64_t outer, int64_t len,
                        int64_t inner, int max, int last);

/* TopK along the middle axis of x viewed as outer x len x inner: the first k of each line
 * in order (largest or smallest first; equal values by index; NaN largest) into y (x's
 * dtype) and yi (int64 indices). f32, f16, bf16, i32, i64. */
cudaError_t cc_cuda_topk(cudaStream_t s, int dtype, const void *x, void *y, int64_t *yi, int64_t outer, int64_t len,
                         int64_t inner, int64_t k, int largest);

/* CumSum along the middle axis of x viewed as outer x len x inner (float types summed in
 * float, integers in int64): from the end with rev, each without its own element with ex. */
cudaError_t cc_cuda_cumsum(cudaStream_t s, int dtype, const void *x, void *y, int64_t outer, int64_t len,
                           int64_t inner, int ex, int rev);

/* Pad: y (odims) from x (idims, strides ist) with begin pads, mode 0 constant (cbits, the
 * constant's bytes), 1 edge, 2 reflect, as targets/lower.c's cc_lower_pad_source. */
typedef struct cc_cuda_pad {
    int rank, mode;
    int64_t odims[CC_CUDA_MAX_RANK], idims[CC_CUDA_MAX_RANK], begin[CC_CUDA_MAX_RANK], ist[CC_CUDA_MAX_RANK];
    unsigned long long cbits;
} cc_cuda_pad;
cudaError_t cc_cuda_pad_run(cudaStream_t s, size_t elem, const void *x, void *y, int64_t n, const cc_cuda_pad *p);

/* Cast/CastLike of n elements from dtype `from` to `to` (cc_dtype values), with ONNX's
 * conversions (ops/eltwise_cast.c). */
cudaError_t cc_cuda_cast(cudaStream_t s, int from, int to, const void *x, void *y, int64_t n);

/* y[(o * channels + c) * inner + i] += bias[c] (bias of y's dtype). */
cudaError_t cc_cuda_bias_add(cudaStream_t s, int dtype, void *y, const void *bias, int64_t outer,
                             int64_t channels, int64_t inner);

/* Per channel c: fold[c] = scale / sqrt(var + eps), fold[C + c] = b, fold[2C + c] = mean,
 * computed in double and stored as f32 (scale and b of dtype sdtype, mean and var of
 * mdtype). */
cudaError_t cc_cuda_bn_fold(cudaStream_t s, int sdtype, const void *scale, const void *b,
                            int mdtype, const void *mean, const void *var, double eps,
                            float *fold, int64_t channels);

/* y = (x - fold[2C + c]) * fold[c] + fold[C + c] per channel c = (i / inner) % channels. */
cudaError_t cc_cuda_bn_apply(cudaStream_t s, int dtype, const void *x, void *y, const float *fold,
                             int64_t outer, int64_t channels, int64_t inner);

/* LayerNormalization (and InstanceNormalization) of rows x n (the normalized axes
 * flattened): per row r the f32 mean and variance (two passes), y = (x - mean) * inv *
 * sc[sidx[j] + r % rmod] (+ b[bidx[j] + r % rmod] where b is not NULL); mean and inv (f32,
 * one per row) written where not NULL. */
cudaError_t cc_cuda_layernorm(cudaStream_t s, int dtype, const void *x, const void *sc, const void *b, void *y,
                              float *mean, float *inv, int64_t rows, int64_t n, float eps, const int32_t *sidx,
                              const int32_t *bidx, int64_t rmod);

/* MeanVarianceNormalization (mode 0) and BatchNormalization in training mode (mode 1) over
 * groups of n elements (targets/lower.c's groups: element j of group g at base[g] + off[j];
 * with BatchNormalization the group is the channel): per group the f32 mean and variance
 * (two passes), then mode 0: y = (x - mean) / (sqrt(var) + eps); mode 1: y = (x - mean) /
 * sqrt(var + eps) * p[0][g] + p[1][g], and the running statistics where rm and rv are not
 * NULL: rm[g] = p[2][g] * mom + mean * (1 - mom), rv[g] = p[3][g] * mom + var * (1 - mom). p's
 * four vectors and rm, rv share x's dtype (p unused and may be NULL in mode 0). */
cudaError_t cc_cuda_groupnorm(cudaStream_t s, int dtype, const void *x, void *y, const int64_t *base, const int64_t *off,
                              int64_t groups, int64_t n, int mode, float eps, const void *const *p, void *rm, void *rv,
                              float mom);

/* LRN across channels (x viewed as images x c x inner): y = x / (bias + alpha / size *
 * the window's sum of squares)^beta, the window floor((size - 1) / 2) channels before and
 * ceil((size - 1) / 2) after, clipped. */
cudaError_t cc_cuda_lrn(cudaStream_t s, int dtype, const void *x, void *y, int64_t total, int64_t c, int64_t inner,
                        int64_t size, float alpha, float beta, float bias);

/* NegativeLogLikelihoodLoss (softmax 0) and SoftmaxCrossEntropyLoss (1) of x (n x c x d)
 * with classes t (i32, or i64 with is64), weights w (NULL: 1), reduction 0 none, 1 sum, 2
 * mean, ignore_index where has_ignore: targets/lower.h's cc_lower_loss. log_prob into lpo
 * when it is not NULL. One thread; a class outside [0, c) counts as ignored (the golden
 * model refuses such cases). */
typedef struct cc_cuda_loss_geom {
    int64_t n, c, d, ignore;
    int reduction, has_ignore, softmax;
} cc_cuda_loss_geom;
cudaError_t cc_cuda_loss(cudaStream_t s, int dtype, const void *x, const void *t, int is64, const void *w, void *y,
                         void *lpo, const cc_cuda_loss_geom *g);

enum { CC_CUDA_SOFTMAX, CC_CUDA_LOGSOFTMAX, CC_CUDA_HARDMAX };

/* Softmax, LogSoftmax or Hardmax (mode: CC_CUDA_*) along the middle axis of x viewed as
 * outer x k x inner. Hardmax: 1 at the first largest element, a NaN counting as largest. */
cudaError_t cc_cuda_softmax(cudaStream_t s, int mode, int dtype, const void *x, void *y, int64_t outer,
                            int64_t k, int64_t inner);

/* The reductions, numbered as targets/lower.h's CC_REDUCE_* (cuda/reduce.c checks). */
enum { CC_CUDA_REDUCE_MEAN, CC_CUDA_REDUCE_MAX, CC_CUDA_REDUCE_MIN, CC_CUDA_REDUCE_SUM, CC_CUDA_REDUCE_PROD,
       CC_CUDA_REDUCE_L1, CC_CUDA_REDUCE_L2, CC_CUDA_REDUCE_LOGSUM, CC_CUDA_REDUCE_LOGSUMEXP,
       CC_CUDA_REDUCE_SUMSQUARE };

/* One output per index of `kept` (row-major: the output's own order); st[0] of kept and
 * red are x's strides along the kept and the reduced dims. MAX and MIN propagate NaN;
 * LOGSUMEXP shifts by the largest element. Integers (i8, u8, i32, i64): MAX, MIN, SUM, PROD,
 * L1 and SUMSQUARE, exactly, wrapping around as the golden model does. */
cudaError_t cc_cuda_reduce(cudaStream_t s, int op, int dtype, const void *x, void *y,
                           const cc_cuda_walk *kept, const cc_cuda_walk *red);

/* QuantizeLinear: y = saturate(rint(x / scale[c]) + zp[c]) with the quotient in double,
 * c = (i / inner) % dim (per tensor: dim = 1). x: f32, f16, bf16 or i32; y: u8 or i8. */
cudaError_t cc_cuda_quantize(cudaStream_t s, int xdtype, const void *x, cc_cuda_qparam scale,
                             cc_cuda_qparam zp, int ydtype, void *y, int64_t n, int64_t dim,
                             int64_t inner);

/* DequantizeLinear: y = (f32)((x - zp[c]) * scale[c]) in double. x: u8, i8 or i32. */
cudaError_t cc_cuda_dequantize(cudaStream_t s, int xdtype, const void *x, cc_cuda_qparam scale,
                               cc_cuda_qparam zp, float *y, int64_t n, int64_t dim,
                               int64_t inner);

/* DynamicQuantizeLinear of n f32 values: one block reduces x's range with 0 into p = {
 * scale, zero point } (float workspace), then y = saturate(rint(x / scale) + zero point),
 * with the scale written to ys and the zero point to yz where those are non-NULL. */
cudaError_t cc_cuda_dynamic_quantize(cudaStream_t s, const float *x, uint8_t *y, int64_t n, float *p, float *ys,
                                     uint8_t *yz);

/* ---- windows, resize, grid sampling, roi pooling (kernels_data.cu) -------------------- */

/* A sliding window over N*C planes, always as 3 spatial axes (a 1-D or 2-D window has
 * leading axes of size 1, kernel 1, stride 1, dilation 1, no pads). */
typedef struct cc_cuda_window {
    int64_t planes;
    int64_t in[3], out[3], k[3], stride[3], dil[3], pad0[3], pad1[3];
} cc_cuda_window;

/* MaxPool (max != 0) or AveragePool, ONNX semantics (see ops/pool.c): taps outside the
 * input are skipped; the average divides by the taps inside the input, or with
 * include_pad by the taps inside the padded input [-pad0, in + pad1). MaxPool also
 * handles i8 and u8. */
cudaError_t cc_cuda_pool(cudaStream_t s, int max, int include_pad, int dtype, const void *x,
                         void *y, const cc_cuda_window *g);

/* MaxPool with its Indices output (int64): per window the first tap in scan order holding
 * the maximum (the first tap on the input where every tap is -inf) and its flat index into
 * x, plane * spatial volume plus the spatial offset in row-major order or, with col_major
 * (storage_order 1), column-major order over the spatial axes. f32, f16, bf16, i8, u8. */
cudaError_t cc_cuda_maxpool_indices(cudaStream_t s, int dtype, const void *x, void *y, int64_t *ind, int col_major,
                                    const cc_cuda_window *g);

/* MaxUnpool (ops/pool_unpool.c; targets/lower.h's cc_lower_maxunpool): the output y (rank,
 * sides y[]) holds the unpooled tensor (sides u[]) in its leading corner. */
typedef struct cc_cuda_unpool {
    int rank;
    int64_t y[8], u[8];
} cc_cuda_unpool;

/* Unpooled element ind[k] gets x[k] for k < nx, the last k winning where indices repeat (an
 * index outside the unpooled elements is skipped), every other output element 0: owner (one
 * int per unpooled element, nx < 2^31) cleared to -1, claimed with atomicMax, then read by
 * one thread per output element copying elem-byte values (2 or 4). */
cudaError_t cc_cuda_maxunpool(cudaStream_t s, size_t elem, const void *x, const int64_t *ind, void *y, int *owner,
                              const cc_cuda_unpool *g, int64_t nx);

/* ConvTranspose of n_img images of c channels into m filters in `group` groups (w is
 * c x m/group x taps): one thread per output, y[o] = sum of x * w over the taps whose input
 * position (o + pad0 - k * dil) / stride is whole and inside the input (+ bias[m] when
 * bias is not NULL); f32 accumulation. g.planes is unused; pad0 may be negative. */
cudaError_t cc_cuda_conv_transpose(cudaStream_t s, int dtype, const void *x, const void *w, const void *bias,
                                   void *y, const cc_cuda_window *g, int64_t n_img, int64_t c, int64_t m,
                                   int64_t group);

/* Resize by per-axis tap tables: output coordinate o of axis a reads taps
 * idx[off[a] + o * nt[a] + t] with weights w[...] (t < nt[a]); the value is the sum over
 * every combination of taps of the product of their weights times x. Where
 * outside[off_out[a] + o] is set on any axis the value is `extrapolation`. Integer
 * outputs (i8, u8) are rounded half to even and saturated. */
typedef struct cc_cuda_resize {
    int rank;
    int64_t in[CC_CUDA_MAX_RANK], out[CC_CUDA_MAX_RANK];
    int nt[CC_CUDA_MAX_RANK];
    int64_t off[CC_CUDA_MAX_RANK];      /* start of axis a in idx and w */
    int64_t off_out[CC_CUDA_MAX_RANK];  /* start of axis a in outside */
    int has_outside;
    float extrapolation;
} cc_cuda_resize;

cudaError_t cc_cuda_resize_run(cudaStream_t s, int dtype, const void *x, void *y,
                               const cc_cuda_resize *g, const int64_t *idx, const float *w,
                               const unsigned char *outside);

/* GridSample (opset 16; ops/resize_gridsample.c states the semantics) of x (N x C x h_in x
 * w_in) at grid (N x pts x 2, the image's dtype: f32, f16 or bf16) into y (N x C x pts),
 * one thread per grid point looping over the channels. Along axis a (0: x over w_in, 1: y
 * over h_in) the coordinate is fmaf(g, scale[a], offset[a]), padded outside [lo[a], hi[a]]
 * (../lower.h's cc_lower_gridsample). mode: 0 bilinear, 1 nearest, 2 bicubic; pad: 0 zeros,
 * 1 border, 2 reflection. A grid point that is not finite gives NaN. */
typedef struct cc_cuda_gridsample {
    int mode, pad, align;
    int64_t n, c, h_in, w_in, pts;
    float scale[2], offset[2], lo[2], hi[2];
} cc_cuda_gridsample;

cudaError_t cc_cuda_gridsample_run(cudaStream_t s, int dtype, const void *x, const void *grid, void *y,
                                   const cc_cuda_gridsample *g);

/* RoiAlign (opset 16; ops/resize_roialign.c states the semantics) of x (n x c x h x w) over
 * rois (n_rois x 4: x1, y1, x2, y2, x's dtype: f32, f16 or bf16) of images bi (int64) into y
 * (n_rois x c x out_h x out_w), one thread per output element. A roi's geometry is
 * ../lower.h's float32 formula (cc_lower_roialign: scale, offset, min_size_one, sampling);
 * max_mode takes the largest weighted corner over a bin's samples, else their mean. A batch
 * index outside [0, n) writes 0 (the golden model and the cpu backend refuse it). */
typedef struct cc_cuda_roialign {
    int max_mode, min_size_one, sampling;
    int64_t n, c, h, w, rois, out_h, out_w;
    float scale, offset;
} cc_cuda_roialign;

cudaError_t cc_cuda_roialign_run(cudaStream_t s, int dtype, const void *x, const void *rois, const int64_t *bi,
                                 void *y, const cc_cuda_roialign *g);

/* ---- integer convolution and matmul (kernels_int.cu) ---------------------------------- */

typedef struct cc_cuda_conv {
    int64_t n, c, m, group;     /* images, input channels, output channels, groups */
    cc_cuda_window win;         /* planes unused */
} cc_cuda_conv;

/* acc[n][m][spatial] = sum over the group's channels and taps of (x - xzp) * (w - wzp[m]),
 * exactly in int32; taps in the padding contribute nothing. x, w: u8 or i8. */
cudaError_t cc_cuda_conv_int(cudaStream_t s, int xdtype, const void *x, cc_cuda_qparam xzp,
                             int wdtype, const void *w, cc_cuda_qparam wzp, int32_t *acc,
                             const cc_cuda_conv *g);

/* y[(o * m + c) * inner + i] = saturate(rint((acc + bias[c]) * (xs * ws[c] / ys)) + yzp),
 * multiplier in double; bias (i32) may be NULL. y: u8 or i8. */
cudaError_t cc_cuda_requant_conv(cudaStream_t s, const int32_t *acc, const int32_t *bias,
                                 cc_cuda_qparam xs, cc_cuda_qparam ws, cc_cuda_qparam ys,
                                 cc_cuda_qparam yzp, int ydtype, void *y, int64_t outer,
                                 int64_t m, int64_t inner);

/* Integer matmul geometry. mats (device memory, 2 * n_mat values) holds, for output
 * matrix t, the matrix index of a and of b that feed it. A zero point or scale of a is
 * indexed by layout: 0 one value, 1 the row, 2 a's matrix * m + row (b: column, b's
 * matrix * n + column). */
typedef struct cc_cuda_mm {
    int64_t m, n, k, n_mat;
    int a_layout, b_layout;
    const int64_t *mats;
} cc_cuda_mm;

/* acc[t][i][j] = sum_k (a - azp) * (b - bzp) exactly in int32. a, b: u8 or i8. */
cudaError_t cc_cuda_matmul_int(cudaStream_t s, int adtype, const void *a, cc_cuda_qparam azp,
                               int bdtype, const void *b, cc_cuda_qparam bzp, int32_t *acc,
                               const cc_cuda_mm *g);

/* y = saturate(rint(acc * (as * bs / ys)) + yzp) in double, as/bs indexed like the zero
 * points. y: u8 or i8. */
cudaError_t cc_cuda_requant_mm(cudaStream_t s, const int32_t *acc, cc_cuda_qparam as,
                               cc_cuda_qparam bs, cc_cuda_qparam ys, cc_cuda_qparam yzp,
                               int ydtype, void *y, const cc_cuda_mm *g);

/* ---- Einsum (kernels_einsum.cu) ------------------------------------------------------- */

/* Einsum over targets/lower.h's stride tables (cc_lower_einsum): g (device memory) holds
 * the dims of the n_out output axes and of the n_sum summed labels, then, for each of the
 * n operands x.x[0..n), its element stride along each of those axes. One thread per output
 * element: its coordinates give each operand's first offset, an odometer over the summed
 * labels steps them. f32, f16, bf16: products in float, the last factor added through
 * fmaf; i32, i64: products and sums in 64 bits, wrapping, stored wrapped to the dtype. */
#define CC_CUDA_EINSUM_MAX_IN 8
#define CC_CUDA_EINSUM_MAX_SUM 16
typedef struct cc_cuda_operands {
    const void *x[CC_CUDA_EINSUM_MAX_IN];
} cc_cuda_operands;
cudaError_t cc_cuda_einsum(cudaStream_t s, int dtype, cc_cuda_operands x, void *y, const int64_t *g, int n, int n_out,
                           int n_sum, int64_t out_count, int64_t sum_count);

#ifdef __cplusplus
}
#endif

#endif
