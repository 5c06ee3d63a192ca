/* conv.c — cuda kernels of the convolution family: ConvTranspose through the project's
 * gather kernel (kernels_data.cu), Conv through cuDNN
 * (cudnnConvolutionForward, NCHW, 1-D as 2-D with a unit height, 2-D and 3-D, groups and
 * dilations), and ConvInteger / QLinearConv through the project's int32 kernel
 * (kernels_int.cu).
 *
 * Conv's algorithm is chosen in prepare from cudnnGetConvolutionForwardAlgorithm_v7's
 * candidates whose workspace query succeeds, each timed on this shape (the fastest kept,
 * remembered per device context for later layers of the same shape), skipping the FFT and
 * Winograd algorithms (their rounding error is not a dot product's: the policy's
 * gamma(K) * u * sum|w x| bound, and the exact regime, do not hold for them). f32 runs
 * with CUDNN_FMA_MATH (no TF32) unless the device was opened with "tf32"; f16 and bf16
 * with tensor cores and f32 accumulation. cuDNN pads symmetrically only: asymmetric pads
 * (explicit or SAME_*) copy x into a zero-padded buffer (zeroed once in prepare) and
 * convolve that without padding. The bias is added by a kernel of the project. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "../lower.h"

/* ---- Conv ------------------------------------------------------------------------------- */

typedef struct conv_state {
    cudnnTensorDescriptor_t xd, yd;
    cudnnFilterDescriptor_t wd;
    cudnnConvolutionDescriptor_t cd;
    cudnnConvolutionFwdAlgo_t algo;
    void *ws;
    size_t ws_bytes;
    void *xpad;                 /* zero-padded copy of x (asymmetric pads) */
    cc_cuda_walk pad_walk;      /* x -> xpad interior */
    int64_t pad_off;
    int64_t m, inner;           /* output channels, output spatial size (bias) */
} conv_state;

static cc_support conv_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    cc_dtype d = in[0]->dtype;
    if (!cc_dtype_is_float(d)) {
        snprintf(reason, n, "Conv: cuda has no kernel for dtype %s", cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    if (in[0]->shape.rank < 3 || in[0]->shape.rank > 5) {
        snprintf(reason, n, "Conv: cuda convolves 1 to 3 spatial dims (cuDNN)");
        return CC_SUPPORT_NO;
    }
    if (!in[1] || in[1]->dtype != d || (node->n_in > 2 && in[2] && in[2]->dtype != d)) {
        snprintf(reason, n, "Conv: cuda needs w and b of x's dtype");
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static void conv_release(void *state)
{
    conv_state *s = state;
    if (!s) return;
    if (s->xd) cudnnDestroyTensorDescriptor(s->xd);
    if (s->yd) cudnnDestroyTensorDescriptor(s->yd);
    if (s->wd) cudnnDestroyFilterDescriptor(s->wd);
    if (s->cd) cudnnDestroyConvolutionDescriptor(s->cd);
    cc_cuda_free(s->ws);
    cc_cuda_free(s->xpad);
    free(s);
}

/* Fills dims[0..nd-1] with n, c and the window's spatial extents sp (its last nd - 2
 * axes) and the packed strides; CC_ERR_UNSUPPORTED beyond cuDNN's int range. */
static cc_status nd_dims(int64_t n, int64_t c, const int64_t *sp, int nd, int *dims, int *strides,
                         cc_err *err)
{
    int64_t d64[5] = { n, c, 0, 0, 0 };
    for (int i = 2; i < nd; i++) d64[i] = sp[3 - (nd - i)];
    int64_t run = 1;
    for (int i = nd - 1; i >= 0; i--) {
        if (d64[i] > INT_MAX || run > INT_MAX)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "Conv: tensor too large for cuDNN's int dims");
        dims[i] = (int)d64[i];
        strides[i] = (int)run;
        run *= d64[i];
    }
    return CC_OK;
}

static const char *algo_name(cudnnConvolutionFwdAlgo_t a)
{
    switch (a) {
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM: return "IMPLICIT_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM: return "IMPLICIT_PRECOMP_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_GEMM: return "GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT: return "DIRECT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT: return "FFT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING: return "FFT_TILING";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD: return "WINOGRAD";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: return "WINOGRAD_NONFUSED";
    default: return "?";
    }
}

static const char *math_name(cudnnMathType_t m)
{
    switch (m) {
    case CUDNN_FMA_MATH: return "FMA";
    case CUDNN_TENSOR_OP_MATH: return "tensor ops";
    case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION: return "tensor ops with conversion";
    default: return "default math";
    }
}

/* Sets the descriptor's math type, sizes and allocates the workspace of algorithm a. */
static cc_status use_algo(cc_cuda_ctx *c, conv_state *s, cudnnConvolutionFwdAlgo_t a, cudnnMathType_t math,
                          const char *how, cc_err *err)
{
    cc_status st = cc_cuda_dnn_check(cudnnSetConvolutionMathType(s->cd, math), "Conv math type", err);
    size_t ws = 0;
    if (!st)
        st = cc_cuda_dnn_check(cudnnGetConvolutionForwardWorkspaceSize(c->dnn, s->xd, s->wd, s->cd, s->yd, a, &ws),
                               "Conv workspace size", err);
    if (st) return st;
    s->algo = a;
    s->ws_bytes = ws;
    if (ws && (st = cc_cuda_alloc(ws, &s->ws, "Conv workspace", err))) return st;
    cc_backend_note("cudnn %s, %s, ws %zu B, %s%s", algo_name(a), math_name(math), ws, how,
                    s->xpad ? ", explicit asymmetric pad" : "");
    return CC_OK;
}

/* Times candidate (a, math) on zeroed scratch buffers: one warm-up run, then the faster of
 * two runs by CUDA events; a negative time where it does not run. */
static float time_algo(cc_cuda_ctx *c, conv_state *s, cudnnConvolutionFwdAlgo_t a, cudnnMathType_t math,
                       void *x, void *w, void *y, void *ws, size_t ws_cap)
{
    size_t need = 0;
    if (cudnnSetConvolutionMathType(s->cd, math) != CUDNN_STATUS_SUCCESS ||
        cudnnGetConvolutionForwardWorkspaceSize(c->dnn, s->xd, s->wd, s->cd, s->yd, a, &need) !=
            CUDNN_STATUS_SUCCESS ||
        need > ws_cap)
        return -1;
    const float one = 1.0f, zero = 0.0f;
    float best = -1;
    for (int r = 0; r < 3; r++) {
        if (cudaEventRecord(c->ev_start, c->stream) != cudaSuccess) return -1;
        if (cudnnConvolutionForward(c->dnn, &one, s->xd, x, s->wd, w, s->cd, a, ws, need, &zero, s->yd, y) !=
            CUDNN_STATUS_SUCCESS)
            return -1;
        float ms = 0;
        if (cudaEventRecord(c->ev_stop, c->stream) != cudaSuccess ||
            cudaEventSynchronize(c->ev_stop) != cudaSuccess ||
            cudaEventElapsedTime(&ms, c->ev_start, c->ev_stop) != cudaSuccess)
            return -1;
        if (r > 0 && (best < 0 || ms < best)) best = ms;
    }
    return best;
}

/* Largest workspace (bytes) a candidate may have when candidates are timed. */
#define CONV_TIMING_WS_CAP ((size_t)1 << 30)

/* Picks the algorithm (see the top of the file) and sizes its workspace. The candidates are
 * cuDNN's heuristic list less FFT and Winograd (and, for strict FP32, less tensor-op math);
 * with more than one, each is timed on this shape (x_bytes, w_bytes, y_bytes: the tensors'
 * sizes) and the fastest is kept, remembered per context under `key` for the layers of the
 * same shape (key NULL: not remembered). Where timing cannot run (no memory for scratch buffers, a failed call), the
 * heuristic's first candidate. */
static cc_status choose_algo(cc_cuda_ctx *c, conv_state *s, int strict_f32, const char *key, size_t x_bytes,
                             size_t w_bytes, size_t y_bytes, cc_err *err)
{
    for (int i = 0; key && i < c->n_conv_memo; i++)
        if (!strcmp(c->conv_memo[i].key, key))
            return use_algo(c, s, (cudnnConvolutionFwdAlgo_t)c->conv_memo[i].algo,
                            (cudnnMathType_t)c->conv_memo[i].math, "timed (same shape)", err);
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int got = 0;
    cc_status st = cc_cuda_dnn_check(
        cudnnGetConvolutionForwardAlgorithm_v7(c->dnn, s->xd, s->wd, s->cd, s->yd,
                                               CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf),
        "cudnnGetConvolutionForwardAlgorithm_v7", err);
    if (st) return st;
    cudnnConvolutionFwdAlgo_t algo[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    cudnnMathType_t maths[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int n = 0;
    for (int i = 0; i < got && n < CUDNN_CONVOLUTION_FWD_ALGO_COUNT; i++) {
        cudnnConvolutionFwdAlgo_t a = perf[i].algo;
        if (perf[i].status != CUDNN_STATUS_SUCCESS) continue;
        if (a == CUDNN_CONVOLUTION_FWD_ALGO_FFT || a == CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING ||
            a == CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD ||
            a == CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED)
            continue;
        cudnnMathType_t math = perf[i].mathType;
        if (strict_f32) {
            if (math == CUDNN_TENSOR_OP_MATH || math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)
                continue;
            math = CUDNN_FMA_MATH;
        }
        int dup = 0;
        for (int k = 0; k < n; k++) dup |= algo[k] == a && maths[k] == math;
        if (dup) continue;
        size_t ws = 0;
        if (cudnnSetConvolutionMathType(s->cd, math) != CUDNN_STATUS_SUCCESS ||
            cudnnGetConvolutionForwardWorkspaceSize(c->dnn, s->xd, s->wd, s->cd, s->yd, a, &ws) !=
                CUDNN_STATUS_SUCCESS)
            continue;
        algo[n] = a;
        maths[n++] = math;
    }
    if (n == 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "Conv: cuDNN offers no %sGEMM or direct algorithm for this convolution "
                          "(%d candidates)", strict_f32 ? "FMA-only " : "", got);
    int pick = 0;
    const char *how = "heuristic (one candidate)";
    if (n > 1) {
        void *x = NULL, *w = NULL, *y = NULL, *ws = NULL;
        size_t ws_cap = 0;
        for (int k = 0; k < n; k++) {
            size_t need = 0;
            cudnnSetConvolutionMathType(s->cd, maths[k]);
            if (cudnnGetConvolutionForwardWorkspaceSize(c->dnn, s->xd, s->wd, s->cd, s->yd, algo[k], &need) ==
                    CUDNN_STATUS_SUCCESS &&
                need > ws_cap && need <= CONV_TIMING_WS_CAP)
                ws_cap = need;
        }
        how = "heuristic (timing not possible)";
        if (cudaMalloc(&x, x_bytes) == cudaSuccess && cudaMalloc(&w, w_bytes) == cudaSuccess &&
            cudaMalloc(&y, y_bytes) == cudaSuccess && (!ws_cap || cudaMalloc(&ws, ws_cap) == cudaSuccess) &&
            cudaMemsetAsync(x, 0, x_bytes, c->stream) == cudaSuccess &&
            cudaMemsetAsync(w, 0, w_bytes, c->stream) == cudaSuccess) {
            float best = -1;
            for (int k = 0; k < n; k++) {
                float ms = time_algo(c, s, algo[k], maths[k], x, w, y, ws, ws_cap);
                if (ms >= 0 && (best < 0 || ms < best)) best = ms, pick = k;
            }
            if (best >= 0) how = "timed";
        }
        cudaGetLastError(); /* a failed scratch allocation leaves the heuristic's choice */
        cudaStreamSynchronize(c->stream);
        cudaFree(x);
        cudaFree(w);
        cudaFree(y);
        cudaFree(ws);
        if (key && !strcmp(how, "timed") && c->n_conv_memo < (int)(sizeof c->conv_memo / sizeof c->conv_memo[0])) {
            struct cc_cuda_algo_memo *m = &c->conv_memo[c->n_conv_memo++];
            snprintf(m->key, sizeof m->key, "%s", key);
            m->algo = (int)algo[pick];
            m->math = (int)maths[pick];
        }
    }
    return use_algo(c, s, algo[pick], maths[pick], how, err);
}

static cc_status conv_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                              int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    const cc_shape *x = &in[0]->shape, *w = &in[1]->shape, *y = &out[0].shape;
    int nsp = x->rank - 2, nd = nsp < 2 ? 4 : 2 + nsp;
    cc_dtype d = in[0]->dtype;
    cudnnDataType_t dt = (cudnnDataType_t)cc_cuda_dnn_type(d);
    int64_t group = cc_attr_i(node, "group");
    if (group < 1 || group > INT_MAX || x->dims[1] % group || w->dims[0] % group)
        return cc_err_set(err, CC_ERR_ARG, "Conv: group %lld does not divide the channels",
                          (long long)group);
    conv_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "Conv: out of memory");
    cc_cuda_window g;
    cc_status st = cc_cuda_window_make(node, x, w->dims + 2, y, &g, err);
    if (st) goto fail;
    s->m = y->dims[1];
    s->inner = 1;
    for (int i = 2; i < y->rank; i++) s->inner *= y->dims[i];

    int asym = 0;
    for (int a = 0; a < 3; a++) asym |= g.pad0[a] != g.pad1[a];
    int64_t xin[3];
    for (int a = 0; a < 3; a++) xin[a] = asym ? g.in[a] + g.pad0[a] + g.pad1[a] : g.in[a];
    if (asym) {
        /* xpad: N*C planes of the padded extents; x lands at offset pad0 in each */
        size_t es = cc_dtype_size(d);
        int64_t planes = x->dims[0] * x->dims[1], bytes = planes * xin[0] * xin[1] * xin[2] * (int64_t)es;
        if ((st = cc_cuda_alloc((size_t)bytes, &s->xpad, "Conv padded input", err))) goto fail;
        if ((st = cc_cuda_check(cudaMemsetAsync(s->xpad, 0, (size_t)bytes, c->stream), "Conv pad", err)) ||
            (st = cc_cuda_check(cudaStreamSynchronize(c->stream), "Conv pad", err)))
            goto fail;
        cc_cuda_walk *pw = &s->pad_walk;
        pw->rank = 4;
        pw->dims[0] = planes;
        for (int a = 0; a < 3; a++) pw->dims[1 + a] = g.in[a];
        pw->st[0][3] = 1;
        pw->st[0][2] = g.in[2];
        pw->st[0][1] = g.in[1] * g.in[2];
        pw->st[0][0] = g.in[0] * g.in[1] * g.in[2];
        pw->st[1][3] = 1;
        pw->st[1][2] = xin[2];
        pw->st[1][1] = xin[1] * xin[2];
        pw->st[1][0] = xin[0] * xin[1] * xin[2];
        s->pad_off = (g.pad0[0] * xin[1] + g.pad0[1]) * xin[2] + g.pad0[2];
        cc_cuda_walk_simplify(pw, 2);
    }

    int xdims[5], xst[5], ydims[5], yst[5], wdims[5], wst[5];
    if ((st = nd_dims(x->dims[0], x->dims[1], xin, nd, xdims, xst, err)) ||
        (st = nd_dims(y->dims[0], y->dims[1], g.out, nd, ydims, yst, err)) ||
        (st = nd_dims(w->dims[0], w->dims[1], g.k, nd, wdims, wst, err)))
        goto fail;
    int cn = nd - 2, pad[3], stride[3], dil[3];
    for (int i = 0; i < cn; i++) {
        int a = 3 - cn + i;
        if (g.stride[a] > INT_MAX || g.dil[a] > INT_MAX || g.pad0[a] > INT_MAX) {
            st = cc_err_set(err, CC_ERR_UNSUPPORTED, "Conv: window too large for cuDNN");
            goto fail;
        }
        pad[i] = asym ? 0 : (int)g.pad0[a];
        stride[i] = (int)g.stride[a];
        dil[i] = (int)g.dil[a];
    }
#define DNN(call, what)                                                                      \
    do {                                                                                     \
        if ((st = cc_cuda_dnn_check(call, what, err))) goto fail;                            \
    } while (0)
    if (cudnnCreateTensorDescriptor(&s->xd) != CUDNN_STATUS_SUCCESS) s->xd = NULL;
    if (cudnnCreateTensorDescriptor(&s->yd) != CUDNN_STATUS_SUCCESS) s->yd = NULL;
    if (cudnnCreateFilterDescriptor(&s->wd) != CUDNN_STATUS_SUCCESS) s->wd = NULL;
    if (cudnnCreateConvolutionDescriptor(&s->cd) != CUDNN_STATUS_SUCCESS) s->cd = NULL;
    if (!s->xd || !s->yd || !s->wd || !s->cd) {
        st = cc_err_set(err, CC_ERR_DEVICE, "cuDNN: Conv: cannot create descriptors");
        goto fail;
    }
    DNN(cudnnSetTensorNdDescriptor(s->xd, dt, nd, xdims, xst), "Conv x descriptor");
    DNN(cudnnSetTensorNdDescriptor(s->yd, dt, nd, ydims, yst), "Conv y descriptor");
    DNN(cudnnSetFilterNdDescriptor(s->wd, dt, CUDNN_TENSOR_NCHW, nd, wdims), "Conv w descriptor");
    DNN(cudnnSetConvolutionNdDescriptor(s->cd, cn, pad, stride, dil, CUDNN_CROSS_CORRELATION,
                                        CUDNN_DATA_FLOAT),
        "Conv descriptor");
    DNN(cudnnSetConvolutionGroupCount(s->cd, (int)group), "Conv group count");
    int strict = d == CC_F32 && !c->tf32;
    DNN(cudnnSetConvolutionMathType(s->cd, strict ? CUDNN_FMA_MATH : CUDNN_TENSOR_OP_MATH),
        "Conv math type");
    int odims[5];
    DNN(cudnnGetConvolutionNdForwardOutputDim(s->cd, s->xd, s->wd, nd, odims), "Conv output dims");
#undef DNN
    for (int i = 0; i < nd; i++)
        if (odims[i] != ydims[i]) {
            st = cc_err_set(err, CC_ERR_INTERNAL, "Conv: cuDNN computes output dim %d as %d, not %d",
                            i, odims[i], ydims[i]);
            goto fail;
        }
    /* the shape as cuDNN sees it, for the per-context memo of timed algorithms */
    char key[160];
    size_t es = cc_dtype_size(d), xb = es, wb = es, yb = es;
    int kl = snprintf(key, sizeof key, "%d %d %lld:", (int)dt, strict, (long long)group);
    for (int i = 0; i < nd; i++) {
        xb *= (size_t)xdims[i];
        wb *= (size_t)wdims[i];
        yb *= (size_t)ydims[i];
        kl += snprintf(key + kl, kl < (int)sizeof key ? sizeof key - (size_t)kl : 0, " %d/%d/%d", xdims[i], wdims[i],
                       ydims[i]);
    }
    for (int i = 0; i < cn; i++)
        kl += snprintf(key + kl, kl < (int)sizeof key ? sizeof key - (size_t)kl : 0, " %d,%d,%d", pad[i], stride[i],
                       dil[i]);
    if (kl >= (int)sizeof key) key[0] = '\0'; /* too long to remember: timed each time */
    if ((st = choose_algo(c, s, strict, key[0] ? key : NULL, xb, wb, yb, err))) goto fail;
    *state = s;
    return CC_OK;
fail:
    conv_release(s);
    return st;
}

static cc_status conv_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                          int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    conv_state *s = state;
    cc_status st;
    const void *x = in[0]->data;
    if (s->xpad) {
        st = cc_cuda_check(cc_cuda_copy(c->stream, cc_dtype_size(in[0]->dtype), x, 0, s->xpad,
                                        s->pad_off, &s->pad_walk),
                           "Conv pad", err);
        if (st) return st;
        x = s->xpad;
    }
    const float one = 1.0f, zero = 0.0f;
    st = cc_cuda_dnn_check(cudnnConvolutionForward(c->dnn, &one, s->xd, x, s->wd, in[1]->data, s->cd,
                                                   s->algo, s->ws, s->ws_bytes, &zero, s->yd,
                                                   out[0].data),
                           "cudnnConvolutionForward", err);
    if (st || node->n_in < 3 || !in[2]) return st;
    return cc_cuda_check(cc_cuda_bias_add(c->stream, out[0].dtype, out[0].data, in[2]->data,
                                          out[0].shape.dims[0], s->m, s->inner),
                         "Conv bias", err);
}

/* ---- ConvInteger, QLinearConv ------------------------------------------------------------- */

enum { CI_X, CI_W, CI_XZP, CI_WZP };
enum { QC_X, QC_XS, QC_XZP, QC_W, QC_WS, QC_WZP, QC_YS, QC_YZP, QC_B };

typedef struct qconv_state {
    int qlinear;
    cc_cuda_conv geom;
    int32_t *acc;       /* QLinearConv: the accumulators */
} qconv_state;

static int is_q8(cc_dtype d) { return d == CC_U8 || d == CC_I8; }

static cc_support qconv_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                 const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    int q = strcmp(node->op->name, "QLinearConv") == 0;
    const cc_tensor *x = in[q ? QC_X : CI_X], *w = in[q ? QC_W : CI_W];
    if (!x || !w || !is_q8(x->dtype) || !is_q8(w->dtype)) {
        snprintf(reason, n, "%s: cuda needs u8/i8 x and w", node->op->name);
        return CC_SUPPORT_NO;
    }
    if (x->shape.rank < 3 || x->shape.rank > 5) {
        snprintf(reason, n, "%s: cuda convolves 1 to 3 spatial dims", node->op->name);
        return CC_SUPPORT_NO;
    }
    if (q && (!in[QC_XS] || !in[QC_WS] || !in[QC_YS] || !cc_dtype_is_float(in[QC_XS]->dtype) ||
              !cc_dtype_is_float(in[QC_WS]->dtype) || !cc_dtype_is_float(in[QC_YS]->dtype))) {
        snprintf(reason, n, "QLinearConv: cuda needs float scales");
        return CC_SUPPORT_NO;
    }
    if (q && node->n_in > QC_B && in[QC_B] && in[QC_B]->dtype != CC_I32) {
        snprintf(reason, n, "QLinearConv: cuda needs an i32 bias");
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static void qconv_release(void *state)
{
    qconv_state *s = state;
    if (!s) return;
    cc_cuda_free(s->acc);
    free(s);
}

static cc_status qconv_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                               int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const char *op = node->op->name;
    int q = strcmp(op, "QLinearConv") == 0;
    const cc_shape *x = &in[q ? QC_X : CI_X]->shape, *w = &in[q ? QC_W : CI_W]->shape;
    int64_t group = cc_attr_i(node, "group");
    if (group < 1 || x->dims[1] % group || w->dims[0] % group || w->dims[1] * group != x->dims[1])
        return cc_err_set(err, CC_ERR_ARG, "%s: group %lld does not match the channels", op,
                          (long long)group);
    qconv_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    s->qlinear = q;
    cc_status st = cc_cuda_window_make(node, x, w->dims + 2, &out[0].shape, &s->geom.win, err);
    if (st) goto fail;
    s->geom.n = x->dims[0];
    s->geom.c = x->dims[1];
    s->geom.m = w->dims[0];
    s->geom.group = group;
    if (q) {
        void *buf = NULL;
        st = cc_cuda_alloc((size_t)cc_shape_numel(&out[0].shape) * sizeof(int32_t), &buf,
                           "QLinearConv accumulators", err);
        if (st) goto fail;
        s->acc = buf;
    }
    cc_backend_note("cuda direct int32 kernel%s", q ? " + requantization" : "");
    *state = s;
    return CC_OK;
fail:
    qconv_release(s);
    return st;
}

static const cc_tensor *opt_in(const cc_node *node, const cc_tensor *const *in, int i)
{
    return i < node->n_in ? in[i] : NULL;
}

static cc_status qconv_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                           int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    qconv_state *s = state;
    int q = s->qlinear;
    const cc_tensor *x = in[q ? QC_X : CI_X], *w = in[q ? QC_W : CI_W];
    int32_t *acc = q ? s->acc : (int32_t *)out[0].data;
    cc_status st = cc_cuda_check(
        cc_cuda_conv_int(c->stream, x->dtype, x->data, cc_cuda_qp(opt_in(node, in, q ? QC_XZP : CI_XZP)),
                         w->dtype, w->data, cc_cuda_qp(opt_in(node, in, q ? QC_WZP : CI_WZP)), acc,
                         &s->geom),
        node->op->name, err);
    if (st || !q) return st;
    const cc_tensor *b = opt_in(node, in, QC_B);
    int64_t inner = s->geom.win.out[0] * s->geom.win.out[1] * s->geom.win.out[2];
    return cc_cuda_check(cc_cuda_requant_conv(c->stream, acc, b ? b->data : NULL, cc_cuda_qp(in[QC_XS]),
                                              cc_cuda_qp(in[QC_WS]), cc_cuda_qp(in[QC_YS]),
                                              cc_cuda_qp(opt_in(node, in, QC_YZP)), out[0].dtype,
                                              out[0].data, s->geom.n, s->geom.m, inner),
                         "QLinearConv requantization", err);
}

/* ---- ConvTranspose ------------------------------------------------------------------------ */

typedef struct ct_state {
    cc_cuda_window win;
    int64_t group, m;
} ct_state;

static cc_support ct_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                              char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    cc_dtype d = in[0]->dtype;
    if (!cc_dtype_is_float(d)) {
        snprintf(reason, n, "ConvTranspose: cuda has no kernel for dtype %s", cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    if (in[0]->shape.rank < 3 || in[0]->shape.rank > 5) {
        snprintf(reason, n, "ConvTranspose: cuda handles 1 to 3 spatial dims");
        return CC_SUPPORT_NO;
    }
    if (!in[1] || in[1]->dtype != d || (node->n_in > 2 && in[2] && in[2]->dtype != d)) {
        snprintf(reason, n, "ConvTranspose: cuda needs w and b of x's dtype");
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static void ct_release(void *state) { free(state); }

/* The project's gather kernel (kernels_data.cu), one thread per output; targets/lower.c's
 * geometry. */
static cc_status ct_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                            const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    cc_backend_window b;
    int64_t group, mg;
    cc_status st = cc_lower_convtranspose(node, &in[0]->shape, &in[1]->shape, &out[0].shape, "cuda", &b, &group, &mg,
                                          err);
    if (st) return st;
    ct_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "ConvTranspose: out of memory");
    s->win.planes = in[0]->shape.dims[0] * in[0]->shape.dims[1];
    for (int a = 0; a < 3; a++) {
        s->win.in[a] = b.in[a];
        s->win.out[a] = b.out[a];
        s->win.k[a] = b.k[a];
        s->win.stride[a] = b.stride[a];
        s->win.dil[a] = b.dil[a];
        s->win.pad0[a] = b.pad0[a];
        s->win.pad1[a] = b.pad1[a];
    }
    s->group = group;
    s->m = group * mg;
    cc_backend_note("cuda direct gather kernel");
    *state = s;
    return CC_OK;
}

static cc_status ct_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                        void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    ct_state *s = state;
    const cc_tensor *b = node->n_in > 2 ? in[2] : NULL;
    return cc_cuda_check(cc_cuda_conv_transpose(c->stream, in[0]->dtype, in[0]->data, in[1]->data, b ? b->data : NULL,
                                                out[0].data, &s->win, in[0]->shape.dims[0], in[0]->shape.dims[1], s->m,
                                                s->group),
                         node->op->name, err);
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_ConvTranspose, .supports = ct_supports, .prepare = ct_prepare, .release = ct_release,
      .run = ct_run },
    { .op = CC_OP_ID_Conv, .supports = conv_supports, .prepare = conv_prepare, .release = conv_release,
      .run = conv_run },
    { .op = CC_OP_ID_ConvInteger, .supports = qconv_supports, .prepare = qconv_prepare,
      .release = qconv_release, .run = qconv_run },
    { .op = CC_OP_ID_QLinearConv, .supports = qconv_supports, .prepare = qconv_prepare,
      .release = qconv_release, .run = qconv_run },
};

const cc_kernel_list cc_cuda_family_conv = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
