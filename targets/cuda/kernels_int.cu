/* kernels_int.cu — the cuda backend's integer kernels (launchers declared in kernels.h):
 * ConvInteger/QLinearConv accumulation as a direct convolution, MatMulInteger/
 * QLinearMatMul accumulation as a direct matmul, both exact in int32 with zero points
 * subtracted per element, and the requantization of QLinearConv and QLinearMatMul in
 * double. One thread per output element: simple and exact rather than fast; cuDNN's and
 * cuBLASLt's int8 paths need NHWC layouts, channel counts in multiples of 4 and signed
 * operands only, which the ONNX ops do not guarantee. */
#include "device.cuh"

/* ---- convolution ------------------------------------------------------------------------ */

__global__ void conv_int_k(const void *x, int x_u8, cc_cuda_qparam xzp, const void *w, int w_u8,
                           cc_cuda_qparam wzp, int32_t *acc, cc_cuda_conv g, int64_t n)
{
    const cc_cuda_window &v = g.win;
    const int64_t D = v.in[0], H = v.in[1], W = v.in[2];
    const int64_t OD = v.out[0], OH = v.out[1], OW = v.out[2];
    const int64_t KD = v.k[0], KH = v.k[1], KW = v.k[2];
    const int64_t cg = g.c / g.group, mg = g.m / g.group;
    const int32_t zx = (int32_t)qp_at(xzp, 0);
    GRID_LOOP(o, n) {
        int64_t r = o;
        int64_t ow = r % OW;
        r /= OW;
        int64_t oh = r % OH;
        r /= OH;
        int64_t od = r % OD;
        r /= OD;
        int64_t m = r % g.m, img = r / g.m;
        const int32_t zw = (int32_t)qp_at(wzp, m);
        const int64_t c0 = (m / mg) * cg;
        int32_t sum = 0;
        for (int64_t c = 0; c < cg; c++) {
            const int64_t xb = (img * g.c + c0 + c) * D * H * W;
            const int64_t wb = (m * cg + c) * KD * KH * KW;
            for (int64_t kd = 0; kd < KD; kd++) {
                int64_t id = od * v.stride[0] - v.pad0[0] + kd * v.dil[0];
                if (id < 0 || id >= D) continue;
                for (int64_t kh = 0; kh < KH; kh++) {
                    int64_t ih = oh * v.stride[1] - v.pad0[1] + kh * v.dil[1];
                    if (ih < 0 || ih >= H) continue;
                    for (int64_t kw = 0; kw < KW; kw++) {
                        int64_t iw = ow * v.stride[2] - v.pad0[2] + kw * v.dil[2];
                        if (iw < 0 || iw >= W) continue;
                        int32_t xv = ld_q8(x, x_u8, xb + (id * H + ih) * W + iw) - zx;
                        int32_t wv = ld_q8(w, w_u8, wb + (kd * KH + kh) * KW + kw) - zw;
                        sum += xv * wv;
                    }
                }
            }
        }
        acc[o] = sum;
    }
}

extern "C" cudaError_t cc_cuda_conv_int(cudaStream_t s, int xdtype, const void *x,
                                        cc_cuda_qparam xzp, int wdtype, const void *w,
                                        cc_cuda_qparam wzp, int32_t *acc, const cc_cuda_conv *g)
{
    if ((xdtype != CC_U8 && xdtype != CC_I8) || (wdtype != CC_U8 && wdtype != CC_I8))
        return cudaErrorInvalidValue;
    if (g->group < 1 || g->c % g->group || g->m % g->group) return cudaErrorInvalidValue;
    int64_t n = g->n * g->m * g->win.out[0] * g->win.out[1] * g->win.out[2];
    if (n <= 0) return cudaSuccess;
    conv_int_k<<<cc_cuda_blocks(n, CC_CUDA_THREADS), CC_CUDA_THREADS, 0, s>>>(
        x, xdtype == CC_U8, xzp, w, wdtype == CC_U8, wzp, acc, *g, n);
    return cudaGetLastError();
}

__global__ void requant_conv_k(const int32_t *acc, const int32_t *bias, cc_cuda_qparam xs,
                               cc_cuda_qparam ws, cc_cuda_qparam ys, cc_cuda_qparam yzp, int y_u8,
                               void *y, int64_t n, int64_t m, int64_t inner)
{
    GRID_LOOP(i, n) {
        int64_t c = (i / inner) % m;
        double mult = qp_at(xs, 0) * qp_at(ws, c) / qp_at(ys, 0);
        int64_t a = (int64_t)acc[i] + (bias ? (int64_t)bias[c] : 0);
        st_q8(y, y_u8, i, rint((double)a * mult) + qp_at(yzp, 0));
    }
}

extern "C" cudaError_t cc_cuda_requant_conv(cudaStream_t s, const int32_t *acc,
                                            const int32_t *bias, cc_cuda_qparam xs,
                                            cc_cuda_qparam ws, cc_cuda_qparam ys,
                                            cc_cuda_qparam yzp, int ydtype, void *y,
                                            int64_t outer, int64_t m, int64_t inner)
{
    if (ydtype != CC_U8 && ydtype != CC_I8) return cudaErrorInvalidValue;
    int64_t n = outer * m * inner;
    if (n <= 0) return cudaSuccess;
    requant_conv_k<<<cc_cuda_blocks(n, CC_CUDA_THREADS), CC_CUDA_THREADS, 0, s>>>(
        acc, bias, xs, ws, ys, yzp, ydtype == CC_U8, y, n, m, inner);
    return cudaGetLastError();
}

/* ---- matmul ------------------------------------------------------------------------------- */

__device__ __forceinline__ int64_t qp_index(int layout, int64_t mat, int64_t len, int64_t i)
{
    return layout == 0 ? 0 : layout == 1 ? i : mat * len + i;
}

__global__ void matmul_int_k(const void *a, int a_u8, cc_cuda_qparam azp, const void *b, int b_u8,
                             cc_cuda_qparam bzp, int32_t *acc, cc_cuda_mm g, int64_t n)
{
    GRID_LOOP(o, n) {
        int64_t j = o % g.n, r = o / g.n;
        int64_t i = r % g.m, t = r / g.m;
        int64_t ai = g.mats[2 * t], bi = g.mats[2 * t + 1];
        const int32_t za = (int32_t)qp_at(azp, qp_index(g.a_layout, ai, g.m, i));
        const int32_t zb = (int32_t)qp_at(bzp, qp_index(g.b_layout, bi, g.n, j));
        const int64_t ab = (ai * g.m + i) * g.k, bb = bi * g.k * g.n + j;
        int32_t sum = 0;
        for (int64_t k = 0; k < g.k; k++)
            sum += (ld_q8(a, a_u8, ab + k) - za) * (ld_q8(b, b_u8, bb + k * g.n) - zb);
        acc[o] = sum;
    }
}

extern "C" cudaError_t cc_cuda_matmul_int(cudaStream_t s, int adtype, const void *a,
                                          cc_cuda_qparam azp, int bdtype, const void *b,
                                          cc_cuda_qparam bzp, int32_t *acc, const cc_cuda_mm *g)
{
    if ((adtype != CC_U8 && adtype != CC_I8) || (bdtype != CC_U8 && bdtype != CC_I8))
        return cudaErrorInvalidValue;
    int64_t n = g->n_mat * g->m * g->n;
    if (n <= 0) return cudaSuccess;
    matmul_int_k<<<cc_cuda_blocks(n, CC_CUDA_THREADS), CC_CUDA_THREADS, 0, s>>>(
        a, adtype == CC_U8, azp, b, bdtype == CC_U8, bzp, acc, *g, n);
    return cudaGetLastError();
}

__global__ void requant_mm_k(const int32_t *acc, cc_cuda_qparam as, cc_cuda_qparam bs,
                             cc_cuda_qparam ys, cc_cuda_qparam yzp, int y_u8, void *y,
                             cc_cuda_mm g, int64_t n)
{
    GRID_LOOP(o, n) {
        int64_t j = o % g.n, r = o / g.n;
        int64_t i = r % g.m, t = r / g.m;
        int64_t ai = g.mats[2 * t], bi = g.mats[2 * t + 1];
        double sa = qp_at(as, qp_index(g.a_layout, ai, g.m, i));
        double sb = qp_at(bs, qp_index(g.b_layout, bi, g.n, j));
        double mult = sa * sb / qp_at(ys, 0);
        st_q8(y, y_u8, o, rint((double)acc[o] * mult) + qp_at(yzp, 0));
    }
}

extern "C" cudaError_t cc_cuda_requant_mm(cudaStream_t s, const int32_t *acc, cc_cuda_qparam as,
                                          cc_cuda_qparam bs, cc_cuda_qparam ys,
                                          cc_cuda_qparam yzp, int ydtype, void *y,
                                          const cc_cuda_mm *g)
{
    if (ydtype != CC_U8 && ydtype != CC_I8) return cudaErrorInvalidValue;
    int64_t n = g->n_mat * g->m * g->n;
    if (n <= 0) return cudaSuccess;
    requant_mm_k<<<cc_cuda_blocks(n, CC_CUDA_THREADS), CC_CUDA_THREADS, 0, s>>>(
        acc, as, bs, ys, yzp, ydtype == CC_U8, y, *g, n);
    return cudaGetLastError();
}
