/* kernels_data.cu — the cuda backend's window and resampling kernels (launchers declared
 * in kernels.h): the direct pooling kernel used where cuDNN's pooling does not have ONNX's
 * semantics (dilations, ceil_mode windows that overhang the padding, asymmetric pads,
 * bf16 and 8-bit data), Resize by per-axis tap tables, GridSample, RoiAlign, and the
 * gathers (Gather, GatherElements, GatherND) as one index map. */
#include "device.cuh"

/* ---- pooling --------------------------------------------------------------------------- */

/* One thread per output element; the loop over taps mirrors the ONNX definition. */
template <typename T>
__global__ void pool_k(int max, int include_pad, const T *x, T *y, cc_cuda_window g, int64_t n)
{
    const int64_t D = g.in[0], H = g.in[1], W = g.in[2];
    const int64_t OD = g.out[0], OH = g.out[1], OW = g.out[2];
    GRID_LOOP(o, n) {
        int64_t r = o;
        int64_t ow = r % OW;
        r /= OW;
        int64_t oh = r % OH;
        r /= OH;
        int64_t od = r % OD;
        int64_t p = r / OD;
        const int64_t base = p * D * H * W;
        float best = -INFINITY, sum = 0.0f;
        int64_t real = 0, padded = 0;
        for (int64_t kd = 0; kd < g.k[0]; kd++) {
            int64_t id = od * g.stride[0] - g.pad0[0] + kd * g.dil[0];
            int pd = id >= -g.pad0[0] && id < D + g.pad1[0], vd = id >= 0 && id < D;
            for (int64_t kh = 0; kh < g.k[1]; kh++) {
                int64_t ih = oh * g.stride[1] - g.pad0[1] + kh * g.dil[1];
                int ph = ih >= -g.pad0[1] && ih < H + g.pad1[1], vh = ih >= 0 && ih < H;
                for (int64_t kw = 0; kw < g.k[2]; kw++) {
                    int64_t iw = ow * g.stride[2] - g.pad0[2] + kw * g.dil[2];
                    int pw = iw >= -g.pad0[2] && iw < W + g.pad1[2], vw = iw >= 0 && iw < W;
                    padded += pd && ph && pw;
                    if (!(vd && vh && vw)) continue;
                    float v = ldf(x, base + (id * H + ih) * W + iw);
                    real++;
                    if (v > best) best = v;
                    sum += v;
                }
            }
        }
        if (max) {
            stf(y, o, best);
        } else {
            int64_t cnt = include_pad ? padded : real;
            stf(y, o, cnt > 0 ? sum / (float)cnt : 0.0f);
        }
    }
}

extern "C" cudaError_t cc_cuda_pool(cudaStream_t s, int max, int include_pad, int dtype,
                                    const void *x, void *y, const cc_cuda_window *g)
{
    int64_t n = g->planes * g->out[0] * g->out[1] * g->out[2];
    if (n <= 0) return cudaSuccess;
    unsigned b = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (dtype) {
    case CC_F32:
        pool_k<<<b, CC_CUDA_THREADS, 0, s>>>(max, include_pad, (const float *)x, (float *)y, *g, n);
        break;
    case CC_F16:
        pool_k<<<b, CC_CUDA_THREADS, 0, s>>>(max, include_pad, (const __half *)x, (__half *)y, *g,
                                             n);
        break;
    case CC_BF16:
        pool_k<<<b, CC_CUDA_THREADS, 0, s>>>(max, include_pad, (const __nv_bfloat16 *)x,
                                             (__nv_bfloat16 *)y, *g, n);
        break;
    case CC_I8:
        if (!max) return cudaErrorInvalidValue;
        pool_k<<<b, CC_CUDA_THREADS, 0, s>>>(1, 0, (const int8_t *)x, (int8_t *)y, *g, n);
        break;
    case CC_U8:
        if (!max) return cudaErrorInvalidValue;
        pool_k<<<b, CC_CUDA_THREADS, 0, s>>>(1, 0, (const uint8_t *)x, (uint8_t *)y, *g, n);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* MaxPool with Indices: one thread per output element, the first tap in scan order holding
 * the maximum (the first tap on the input where every tap is -inf) and its flat index into
 * x: plane * D*H*W plus the row-major spatial offset, or with col_major the column-major
 * one over the spatial axes. */
template <typename T>
__global__ void maxpool_idx_k(const T *x, T *y, int64_t *ind, int col_major, cc_cuda_window g, int64_t n)
{
    const int64_t D = g.in[0], H = g.in[1], W = g.in[2];
    const int64_t OD = g.out[0], OH = g.out[1], OW = g.out[2];
    GRID_LOOP(o, n) {
        int64_t r = o;
        int64_t ow = r % OW;
        r /= OW;
        int64_t oh = r % OH;
        r /= OH;
        int64_t od = r % OD;
        int64_t p = r / OD;
        const int64_t base = p * D * H * W;
        float best = -INFINITY;
        int64_t at = -1, first = -1;
        for (int64_t kd = 0; kd < g.k[0]; kd++) {
            int64_t id = od * g.stride[0] - g.pad0[0] + kd * g.dil[0];
            if (id < 0 || id >= D) continue;
            for (int64_t kh = 0; kh < g.k[1]; kh++) {
                int64_t ih = oh * g.stride[1] - g.pad0[1] + kh * g.dil[1];
                if (ih < 0 || ih >= H) continue;
                for (int64_t kw = 0; kw < g.k[2]; kw++) {
                    int64_t iw = ow * g.stride[2] - g.pad0[2] + kw * g.dil[2];
                    if (iw < 0 || iw >= W) continue;
                    float v = ldf(x, base + (id * H + ih) * W + iw);
                    int64_t sp = col_major ? (iw * H + ih) * D + id : (id * H + ih) * W + iw;
                    if (first < 0) first = sp;
                    if (v > best) {
                        best = v;
                        at = sp;
                    }
                }
            }
        }
        stf(y, o, best);
        ind[o] = base + (at >= 0 ? at : first);
    }
}

extern "C" cudaError_t cc_cuda_maxpool_indices(cudaStream_t s, int dtype, const void *x, void *y, int64_t *ind,
                                               int col_major, const cc_cuda_window *g)
{
    int64_t n = g->planes * g->out[0] * g->out[1] * g->out[2];
    if (n <= 0) return cudaSuccess;
    unsigned b = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (dtype) {
    case CC_F32: maxpool_idx_k<<<b, CC_CUDA_THREADS, 0, s>>>((const float *)x, (float *)y, ind, col_major, *g, n); break;
    case CC_F16: maxpool_idx_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __half *)x, (__half *)y, ind, col_major, *g, n); break;
    case CC_BF16:
        maxpool_idx_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __nv_bfloat16 *)x, (__nv_bfloat16 *)y, ind, col_major, *g, n);
        break;
    case CC_I8: maxpool_idx_k<<<b, CC_CUDA_THREADS, 0, s>>>((const int8_t *)x, (int8_t *)y, ind, col_major, *g, n); break;
    case CC_U8: maxpool_idx_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint8_t *)x, (uint8_t *)y, ind, col_major, *g, n); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* MaxUnpool: an owner table of the unpooled elements, -1, then claimed by atomicMax from
 * every element of X (the last in X's order wins), then each output element copies X at
 * its owner (raw bits) where it lies in the unpooled corner and one owns it, else 0. */
__global__ void unpool_clear_k(int *owner, int64_t nu)
{
    GRID_LOOP(i, nu) owner[i] = -1;
}

__global__ void unpool_claim_k(const int64_t *ind, int *owner, int64_t nx, int64_t nu)
{
    GRID_LOOP(k, nx) {
        int64_t at = ind[k];
        if (at >= 0 && at < nu) atomicMax(&owner[at], (int)k);
    }
}

template <typename T>
__global__ void unpool_gather_k(const T *x, T *y, const int *owner, cc_cuda_unpool g, int64_t ny)
{
    GRID_LOOP(o, ny) {
        int64_t rest = o, at = 0, unit = 1;
        int inside = 1;
        for (int a = g.rank - 1; a >= 0; a--) {
            int64_t c = rest % g.y[a];
            rest /= g.y[a];
            inside = inside && c < g.u[a];
            at += c * unit;
            unit *= g.u[a];
        }
        int w = inside ? owner[at] : -1;
        y[o] = w >= 0 ? x[w] : (T)0;
    }
}

extern "C" cudaError_t cc_cuda_maxunpool(cudaStream_t s, size_t elem, const void *x, const int64_t *ind, void *y,
                                         int *owner, const cc_cuda_unpool *g, int64_t nx)
{
    int64_t nu = 1, ny = 1;
    for (int a = 0; a < g->rank; a++) {
        nu *= g->u[a];
        ny *= g->y[a];
    }
    if (nu > 0) unpool_clear_k<<<cc_cuda_blocks(nu, CC_CUDA_THREADS), CC_CUDA_THREADS, 0, s>>>(owner, nu);
    if (nu > 0 && nx > 0) unpool_claim_k<<<cc_cuda_blocks(nx, CC_CUDA_THREADS), CC_CUDA_THREADS, 0, s>>>(ind, owner, nx, nu);
    if (ny > 0) {
        unsigned b = cc_cuda_blocks(ny, CC_CUDA_THREADS);
        if (elem == 4) unpool_gather_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint32_t *)x, (uint32_t *)y, owner, *g, ny);
        else if (elem == 2) unpool_gather_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint16_t *)x, (uint16_t *)y, owner, *g, ny);
        else return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- ConvTranspose ----------------------------------------------------------------------- */

/* One thread per output element: the sum over the channels of the output's group and the
 * taps whose input position (o + pad0 - k * dil) / stride is whole and inside the input. */
template <typename T>
__global__ void conv_transpose_k(const T *x, const T *w, const T *bias, T *y, cc_cuda_window g, int64_t c,
                                 int64_t m, int64_t group, int64_t n)
{
    const int64_t D = g.in[0], H = g.in[1], W = g.in[2];
    const int64_t OD = g.out[0], OH = g.out[1], OW = g.out[2];
    const int64_t cg = c / group, mg = m / group, kv = g.k[0] * g.k[1] * g.k[2];
    GRID_LOOP(o, n) {
        int64_t r = o;
        int64_t ow = r % OW;
        r /= OW;
        int64_t oh = r % OH;
        r /= OH;
        int64_t od = r % OD;
        r /= OD;
        int64_t f = r % m, img = r / m;
        int64_t c0 = f / mg * cg, mm = f % mg;
        float acc = 0.0f;
        for (int64_t kd = 0; kd < g.k[0]; kd++) {
            int64_t td = od + g.pad0[0] - kd * g.dil[0];
            if (td < 0 || td % g.stride[0]) continue;
            int64_t id = td / g.stride[0];
            if (id >= D) continue;
            for (int64_t kh = 0; kh < g.k[1]; kh++) {
                int64_t th = oh + g.pad0[1] - kh * g.dil[1];
                if (th < 0 || th % g.stride[1]) continue;
                int64_t ih = th / g.stride[1];
                if (ih >= H) continue;
                for (int64_t kw = 0; kw < g.k[2]; kw++) {
                    int64_t tw = ow + g.pad0[2] - kw * g.dil[2];
                    if (tw < 0 || tw % g.stride[2]) continue;
                    int64_t iw = tw / g.stride[2];
                    if (iw >= W) continue;
                    int64_t tap = (kd * g.k[1] + kh) * g.k[2] + kw;
                    for (int64_t ci = 0; ci < cg; ci++)
                        acc = fmaf(ldf(x, (((img * c + c0 + ci) * D + id) * H + ih) * W + iw),
                                   ldf(w, ((c0 + ci) * mg + mm) * kv + tap), acc);
                }
            }
        }
        if (bias) acc += ldf(bias, f);
        stf(y, o, acc);
    }
}

extern "C" cudaError_t cc_cuda_conv_transpose(cudaStream_t s, int dtype, const void *x, const void *w,
                                              const void *bias, void *y, const cc_cuda_window *g, int64_t n_img,
                                              int64_t c, int64_t m, int64_t group)
{
    int64_t n = n_img * m * g->out[0] * g->out[1] * g->out[2];
    if (n <= 0) return cudaSuccess;
    unsigned b = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (dtype) {
    case CC_F32:
        conv_transpose_k<<<b, CC_CUDA_THREADS, 0, s>>>((const float *)x, (const float *)w, (const float *)bias,
                                                       (float *)y, *g, c, m, group, n);
        break;
    case CC_F16:
        conv_transpose_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __half *)x, (const __half *)w, (const __half *)bias,
                                                       (__half *)y, *g, c, m, group, n);
        break;
    case CC_BF16:
        conv_transpose_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __nv_bfloat16 *)x, (const __nv_bfloat16 *)w,
                                                       (const __nv_bfloat16 *)bias, (__nv_bfloat16 *)y, *g, c, m,
                                                       group, n);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- resize ------------------------------------------------------------------------------ */

template <typename T>
__global__ void resize_k(const T *x, T *y, cc_cuda_resize g, const int64_t *idx, const float *w,
                         const unsigned char *outside, int64_t n)
{
    GRID_LOOP(o, n) {
        int64_t oc[CC_CUDA_MAX_RANK];
        int64_t r = o;
        int ext = 0;
        for (int a = g.rank - 1; a >= 0; a--) {
            oc[a] = r % g.out[a];
            r /= g.out[a];
            if (g.has_outside && outside[g.off_out[a] + oc[a]]) ext = 1;
        }
        if (ext) {
            stf(y, o, g.extrapolation);
            continue;
        }
        int64_t combos = 1;
        for (int a = 0; a < g.rank; a++) combos *= g.nt[a];
        float acc = 0.0f;
        for (int64_t t = 0; t < combos; t++) {
            int64_t rest = t, off = 0, stride = 1;
            float wt = 1.0f;
            for (int a = g.rank - 1; a >= 0; a--) {
                int64_t k = rest % g.nt[a];
                rest /= g.nt[a];
                int64_t e = g.off[a] + oc[a] * g.nt[a] + k;
                off += idx[e] * stride;
                wt *= w[e];
                stride *= g.in[a];
            }
            acc += wt * ldf(x, off);
        }
        stf(y, o, acc);
    }
}

extern "C" cudaError_t cc_cuda_resize_run(cudaStream_t s, int dtype, const void *x, void *y,
                                          const cc_cuda_resize *g, const int64_t *idx,
                                          const float *w, const unsigned char *outside)
{
    int64_t n = 1;
    for (int a = 0; a < g->rank; a++) n *= g->out[a];
    if (n <= 0) return cudaSuccess;
    unsigned b = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (dtype) {
    case CC_F32:
        resize_k<<<b, CC_CUDA_THREADS, 0, s>>>((const float *)x, (float *)y, *g, idx, w, outside, n);
        break;
    case CC_F16:
        resize_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __half *)x, (__half *)y, *g, idx, w, outside,
                                               n);
        break;
    case CC_BF16:
        resize_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __nv_bfloat16 *)x, (__nv_bfloat16 *)y, *g,
                                               idx, w, outside, n);
        break;
    case CC_I8:
        resize_k<<<b, CC_CUDA_THREADS, 0, s>>>((const int8_t *)x, (int8_t *)y, *g, idx, w, outside,
                                               n);
        break;
    case CC_U8:
        resize_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint8_t *)x, (uint8_t *)y, *g, idx, w,
                                               outside, n);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- GridSample ------------------------------------------------------------------------ */

/* The pixel tap i reads along an axis of length len, -1 for a zero: border clamps,
 * reflection repeats the axis mirrored (period 2 len about the outer edges, 2 (len - 1)
 * about the end pixels' centres under align_corners). */
__device__ inline int64_t gs_pad_tap(int64_t i, int64_t len, int pad, int align)
{
    if (i >= 0 && i < len) return i;
    if (pad == 0) return -1;
    if (pad == 1 || (align && len == 1)) return i < 0 ? 0 : len - 1;
    int64_t period = align ? 2 * (len - 1) : 2 * len, m = i % period;
    if (m < 0) m += period;
    if (m < len) return m;
    return align ? period - m : period - 1 - m;
}

/* The taps of normalised coordinate v along axis a: their count, indices and weights. */
__device__ inline int gs_taps(const cc_cuda_gridsample &g, int a, int64_t len, float v, int64_t *idx, float *w)
{
    float x = fmaf(v, g.scale[a], g.offset[a]), lo = g.lo[a], hi = g.hi[a];
    if (g.mode == 1) {
        float r = rintf(x);
        if (fabsf(x - r) == 0.5f) { /* a tie after x's rounding: the exact coordinate decides */
            float d = fmaf(v, g.scale[a], g.offset[a] - x);
            if (d != 0.0f) r = d > 0.0f ? x + 0.5f : x - 0.5f;
        }
        x = r;
    }
    if (x < lo || x > hi) {
        if (g.pad == 1) {
            x = fminf(fmaxf(x, 0.0f), (float)(len - 1));
        } else if (g.pad == 2) {
            float span = hi - lo, m = fmodf(fabsf(x - lo), 2.0f * span);
            x = span > 0.0f ? lo + (m > span ? 2.0f * span - m : m) : lo;
        } else {
            x = fminf(fmaxf(x, lo - 3.0f), hi + 3.0f); /* every tap beyond reads 0 either way */
        }
    }
    if (g.mode == 1) {
        idx[0] = gs_pad_tap((int64_t)x, len, g.pad, g.align);
        w[0] = 1.0f;
        return 1;
    }
    float f = floorf(x), u = x - f, s = 1.0f - u;
    int64_t i0 = (int64_t)f;
    if (g.mode == 0) {
        idx[0] = gs_pad_tap(i0, len, g.pad, g.align);
        idx[1] = gs_pad_tap(i0 + 1, len, g.pad, g.align);
        w[0] = s;
        w[1] = u;
        return 2;
    }
    const float A = -0.75f;
    for (int k = 0; k < 4; k++) idx[k] = gs_pad_tap(i0 - 1 + k, len, g.pad, g.align);
    w[0] = A * u * s * s;
    w[1] = s * (1.0f + u - (A + 2.0f) * u * u);
    w[2] = u * (1.0f + s - (A + 2.0f) * s * s);
    w[3] = A * u * u * s;
    return 4;
}

template <typename T>
__global__ void gridsample_k(const T *x, const T *grid, T *y, cc_cuda_gridsample g, int64_t total)
{
    GRID_LOOP(e, total) {
        int64_t n = e / g.pts, q = e % g.pts;
        float gx = ldf(grid, 2 * e), gy = ldf(grid, 2 * e + 1);
        T *yq = y + n * g.c * g.pts + q;
        if (!isfinite(gx) || !isfinite(gy)) {
            for (int64_t c = 0; c < g.c; c++) stf(yq, c * g.pts, NAN);
            continue;
        }
        int64_t ix[4], iy[4];
        float wx[4], wy[4];
        int nx = gs_taps(g, 0, g.w_in, gx, ix, wx), ny = gs_taps(g, 1, g.h_in, gy, iy, wy);
        for (int64_t c = 0; c < g.c; c++) {
            const T *img = x + (n * g.c + c) * g.h_in * g.w_in;
            float acc = 0.0f;
            for (int i = 0; i < ny; i++) {
                if (iy[i] < 0) continue;
                float r = 0.0f;
                for (int j = 0; j < nx; j++)
                    if (ix[j] >= 0) r = fmaf(wx[j], ldf(img, iy[i] * g.w_in + ix[j]), r);
                acc = fmaf(wy[i], r, acc);
            }
            stf(yq, c * g.pts, acc);
        }
    }
}

extern "C" cudaError_t cc_cuda_gridsample_run(cudaStream_t s, int dtype, const void *x, const void *grid, void *y,
                                              const cc_cuda_gridsample *g)
{
    int64_t total = g->n * g->pts;
    if (total <= 0 || g->c <= 0) return cudaSuccess;
    unsigned b = cc_cuda_blocks(total, CC_CUDA_THREADS);
    switch (dtype) {
    case CC_F32:
        gridsample_k<<<b, CC_CUDA_THREADS, 0, s>>>((const float *)x, (const float *)grid, (float *)y, *g, total);
        break;
    case CC_F16:
        gridsample_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __half *)x, (const __half *)grid, (__half *)y, *g, total);
        break;
    case CC_BF16:
        gridsample_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __nv_bfloat16 *)x, (const __nv_bfloat16 *)grid,
                                                   (__nv_bfloat16 *)y, *g, total);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- RoiAlign -------------------------------------------------------------------------- */

/* Samples along an axis of a roi (../lower.h): the sampling ratio, or the least g with
 * g * out >= size (0 where the roi has no size), at most 2048. */
__device__ inline int ra_grid(float size, float bin, float out, int sampling)
{
    if (sampling > 0) return sampling;
    if (!(size > 0.0f)) return 0;
    if (!(bin <= 2048.0f)) return 2048;
    int k = max((int)ceilf(bin), 1);
    while (k > 1 && (float)(k - 1) * out >= size) k--;
    while ((float)k * out < size) k++;
    return min(k, 2048);
}

/* The sample at v over len pixels: false outside [-1, len]; else its two pixels and weights. */
__device__ inline bool ra_tap(float v, int64_t len, int64_t *i0, int64_t *i1, float *w0, float *w1)
{
    if (!(v >= -1.0f && v <= (float)len)) return false;
    v = fmaxf(v, 0.0f);
    int64_t lo = (int64_t)v;
    if (lo >= len - 1) {
        *i0 = *i1 = len - 1;
        *w0 = 1.0f;
        *w1 = 0.0f;
    } else {
        *i0 = lo;
        *i1 = lo + 1;
        *w1 = v - (float)lo;
        *w0 = 1.0f - *w1;
    }
    return true;
}

template <typename T>
__global__ void roialign_k(const T *x, const T *rois, const int64_t *bi, T *y, cc_cuda_roialign g, int64_t total)
{
    GRID_LOOP(e, total) {
        int64_t pw = e % g.out_w, t = e / g.out_w, ph = t % g.out_h;
        t /= g.out_h;
        int64_t ch = t % g.c, r = t / g.c, b = bi[r];
        if (b < 0 || b >= g.n) {
            stf(y, e, 0.0f);
            continue;
        }
        float x1 = ldf(rois, 4 * r), y1 = ldf(rois, 4 * r + 1), x2 = ldf(rois, 4 * r + 2), y2 = ldf(rois, 4 * r + 3);
        float sy = fmaf(y1, g.scale, -g.offset), sx = fmaf(x1, g.scale, -g.offset);
        float hs = (y2 - y1) * g.scale, ws = (x2 - x1) * g.scale;
        if (g.min_size_one) {
            hs = fmaxf(hs, 1.0f);
            ws = fmaxf(ws, 1.0f);
        }
        float bh = hs / (float)g.out_h, bw = ws / (float)g.out_w;
        int gy = ra_grid(hs, bh, (float)g.out_h, g.sampling), gx = ra_grid(ws, bw, (float)g.out_w, g.sampling);
        if (gy <= 0 || gx <= 0) {
            stf(y, e, 0.0f);
            continue;
        }
        const T *img = x + (b * g.c + ch) * g.h * g.w;
        float acc = 0.0f, best = -INFINITY;
        for (int i = 0; i < gy; i++) {
            float vy = fmaf(bh, (float)(2 * (ph * gy + i) + 1) / (float)(2 * gy), sy);
            int64_t r0, r1;
            float wy0, wy1;
            bool iny = ra_tap(vy, g.h, &r0, &r1, &wy0, &wy1);
            for (int j = 0; j < gx; j++) {
                float vx = fmaf(bw, (float)(2 * (pw * gx + j) + 1) / (float)(2 * gx), sx);
                int64_t c0, c1;
                float wx0, wx1;
                if (!iny || !ra_tap(vx, g.w, &c0, &c1, &wx0, &wx1)) {
                    best = fmaxf(best, 0.0f);
                    continue;
                }
                float p00 = wy0 * wx0 * ldf(img, r0 * g.w + c0), p01 = wy0 * wx1 * ldf(img, r0 * g.w + c1);
                float p10 = wy1 * wx0 * ldf(img, r1 * g.w + c0), p11 = wy1 * wx1 * ldf(img, r1 * g.w + c1);
                if (g.max_mode)
                    best = fmaxf(best, fmaxf(fmaxf(p00, p01), fmaxf(p10, p11)));
                else
                    acc += (p00 + p01) + (p10 + p11);
            }
        }
        stf(y, e, g.max_mode ? best : acc / (float)(gy * gx));
    }
}

extern "C" cudaError_t cc_cuda_roialign_run(cudaStream_t s, int dtype, const void *x, const void *rois,
                                            const int64_t *bi, void *y, const cc_cuda_roialign *g)
{
    int64_t total = g->rois * g->c * g->out_h * g->out_w;
    if (total <= 0) return cudaSuccess;
    unsigned b = cc_cuda_blocks(total, CC_CUDA_THREADS);
    switch (dtype) {
    case CC_F32:
        roialign_k<<<b, CC_CUDA_THREADS, 0, s>>>((const float *)x, (const float *)rois, bi, (float *)y, *g, total);
        break;
    case CC_F16:
        roialign_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __half *)x, (const __half *)rois, bi, (__half *)y, *g, total);
        break;
    case CC_BF16:
        roialign_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __nv_bfloat16 *)x, (const __nv_bfloat16 *)rois, bi,
                                                 (__nv_bfloat16 *)y, *g, total);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- Gather, GatherElements, GatherND -------------------------------------------------- */

template <typename IX>
__device__ inline int64_t gather_index(const IX *idx, int64_t i, int64_t dim)
{
    int64_t v = (int64_t)idx[i];
    if (v < 0) v += dim;
    return v >= 0 && v < dim ? v : -1;
}

/* One thread per output element; the source offset follows the mode's formula (kernels.h). */
template <typename T, typename IX>
__global__ void gather_k(const T *x, const IX *idx, T *y, int64_t n, cc_cuda_gather g)
{
    GRID_LOOP(p, n) {
        int64_t off = 0;
        if (g.mode == CC_CUDA_GATHER) {
            int64_t i = p % g.inner, t = p / g.inner, k = gather_index(idx, t % g.nidx, g.dim);
            off = k < 0 ? -1 : ((t / g.nidx) * g.dim + k) * g.inner + i;
        } else if (g.mode == CC_CUDA_GATHER_ELEMENTS) {
            int64_t rem = p, k = gather_index(idx, p, g.dim);
            for (int d = g.rank - 1; d >= 0 && k >= 0; d--) {
                int64_t c = rem % g.dims[d];
                rem /= g.dims[d];
                off += (d == g.axis ? k : c) * g.st[d];
            }
            if (k < 0) off = -1;
        } else {
            int64_t bt = p / g.inner;
            off = (bt / g.tuples) * g.bsize + p % g.inner;
            for (int k = 0; k < g.m && off >= 0; k++) {
                int64_t v = gather_index(idx, bt * g.m + k, g.dims[k]);
                off = v < 0 ? -1 : off + v * g.st[k];
            }
        }
        y[p] = off < 0 ? T(0) : x[off];
    }
}

template <typename T>
static cudaError_t gather_launch(cudaStream_t s, int idx64, const void *x, const void *idx, void *y, int64_t n,
                                 const cc_cuda_gather *g)
{
    unsigned b = cc_cuda_blocks(n, CC_CUDA_THREADS);
    if (idx64) gather_k<<<b, CC_CUDA_THREADS, 0, s>>>((const T *)x, (const int64_t *)idx, (T *)y, n, *g);
    else gather_k<<<b, CC_CUDA_THREADS, 0, s>>>((const T *)x, (const int32_t *)idx, (T *)y, n, *g);
    return cudaGetLastError();
}

extern "C" cudaError_t cc_cuda_gather_run(cudaStream_t s, size_t elem, int idx64, const void *x, const void *idx,
                                          void *y, int64_t n, const cc_cuda_gather *g)
{
    if (n <= 0) return cudaSuccess;
    switch (elem) {
    case 1: return gather_launch<uint8_t>(s, idx64, x, idx, y, n, g);
    case 2: return gather_launch<uint16_t>(s, idx64, x, idx, y, n, g);
    case 4: return gather_launch<uint32_t>(s, idx64, x, idx, y, n, g);
    case 8: return gather_launch<uint64_t>(s, idx64, x, idx, y, n, g);
    default: return cudaErrorInvalidValue;
    }
}

/* ---- Cast, CastLike ------------------------------------------------------------------------- */

/* A source element as the conversion needs it: float sources as float (exact), integer and
 * bool sources as long long. */
__device__ __forceinline__ float cast_get(const float *p, int64_t i) { return p[i]; }
__device__ __forceinline__ float cast_get(const __half *p, int64_t i) { return __half2float(p[i]); }
__device__ __forceinline__ float cast_get(const __nv_bfloat16 *p, int64_t i) { return __bfloat162float(p[i]); }
template <typename S> __device__ __forceinline__ long long cast_get(const S *p, int64_t i) { return (long long)p[i]; }

/* Integer to float: f32 rounded to nearest; for f16/bf16 a float rounded to odd first
 * (truncated, last bit set where bits were lost), which the final rounding cannot spoil. */
__device__ __forceinline__ float cast_float(float v, int) { return v; }
__device__ __forceinline__ float cast_float(long long v, int odd)
{
    if (!odd) return __ll2float_rn(v);
    float f = __ll2float_rz(v);
    return (long long)f == v ? f : __uint_as_float(__float_as_uint(f) | 1u);
}
/* To an integer: floats truncated toward zero (beyond int64 or NaN: 0, ONNX leaves them
 * undefined); integers as they are, the store keeping the low bits. */
__device__ __forceinline__ long long cast_int(float v) { return v > -9.2e18f && v < 9.2e18f ? (long long)v : 0; }
__device__ __forceinline__ long long cast_int(long long v) { return v; }

/* The store by destination: integer types keep the low bits (or 0/1 for bool), float types
 * are rounded from cast_float's value. */
template <typename D, typename V> __device__ __forceinline__ void cast_store(D *y, int64_t i, V v, int to_bool)
{
    y[i] = to_bool ? (D)(v != 0 ? 1 : 0) : (D)(unsigned long long)cast_int(v);
}
template <typename V> __device__ __forceinline__ void cast_store(float *y, int64_t i, V v, int)
{
    y[i] = cast_float(v, 0);
}
template <typename V> __device__ __forceinline__ void cast_store(__half *y, int64_t i, V v, int)
{
    y[i] = __float2half_rn(cast_float(v, 1));
}
template <typename V> __device__ __forceinline__ void cast_store(__nv_bfloat16 *y, int64_t i, V v, int)
{
    y[i] = __float2bfloat16_rn(cast_float(v, 1));
}

template <typename S, typename D>
__global__ void cast_k(const S *x, D *y, int64_t n, int to_bool)
{
    GRID_LOOP(i, n) cast_store(y, i, cast_get(x, i), to_bool);
}

/* The integer destinations share one kernel per width through unsigned stores, which keep
 * the low bits (two's complement); float destinations use their own types. */
template <typename S, typename D> static void cast_launch(cudaStream_t s, const void *x, void *y, int64_t n, int b)
{
    cast_k<S, D><<<cc_cuda_blocks(n, CC_CUDA_THREADS), CC_CUDA_THREADS, 0, s>>>((const S *)x, (D *)y, n, b);
}

template <typename S> static cudaError_t cast_to(cudaStream_t s, int to, const void *x, void *y, int64_t n)
{
    switch (to) {
    case CC_F32: cast_launch<S, float>(s, x, y, n, 0); break;
    case CC_F16: cast_launch<S, __half>(s, x, y, n, 0); break;
    case CC_BF16: cast_launch<S, __nv_bfloat16>(s, x, y, n, 0); break;
    case CC_I8: case CC_U8: cast_launch<S, uint8_t>(s, x, y, n, 0); break;
    case CC_BOOL: cast_launch<S, uint8_t>(s, x, y, n, 1); break;
    case CC_I32: cast_launch<S, uint32_t>(s, x, y, n, 0); break;
    case CC_I64: cast_launch<S, unsigned long long>(s, x, y, n, 0); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

extern "C" cudaError_t cc_cuda_cast(cudaStream_t s, int from, int to, const void *x, void *y, int64_t n)
{
    if (n <= 0) return cudaSuccess;
    switch (from) {
    case CC_F32: return cast_to<float>(s, to, x, y, n);
    case CC_F16: return cast_to<__half>(s, to, x, y, n);
    case CC_BF16: return cast_to<__nv_bfloat16>(s, to, x, y, n);
    case CC_I8: return cast_to<int8_t>(s, to, x, y, n);
    case CC_U8: case CC_BOOL: return cast_to<uint8_t>(s, to, x, y, n);
    case CC_I32: return cast_to<int32_t>(s, to, x, y, n);
    case CC_I64: return cast_to<long long>(s, to, x, y, n);
    default: return cudaErrorInvalidValue;
    }
}

/* ---- OneHot ----------------------------------------------------------------------------------- */

template <typename T, typename I>
__global__ void onehot_k(const I *idx, const T *v, T *y, int64_t outer, int64_t depth, int64_t inner)
{
    GRID_LOOP(g, outer * depth * inner) {
        int64_t i = g % inner, t = g / inner, d = t % depth, o = t / depth;
        int64_t k = (int64_t)idx[o * inner + i];
        if (k < 0) k += depth;
        y[g] = v[k == d ? 1 : 0];
    }
}

template <typename T>
static cudaError_t onehot_launch(cudaStream_t s, int idx_type, const void *idx, const void *v, void *y, int64_t outer,
                                 int64_t depth, int64_t inner)
{
    unsigned b = cc_cuda_blocks(outer * depth * inner, CC_CUDA_THREADS);
    switch (idx_type) {
    case 0: onehot_k<<<b, CC_CUDA_THREADS, 0, s>>>((const int32_t *)idx, (const T *)v, (T *)y, outer, depth, inner); break;
    case 1: onehot_k<<<b, CC_CUDA_THREADS, 0, s>>>((const int64_t *)idx, (const T *)v, (T *)y, outer, depth, inner); break;
    case 2: onehot_k<<<b, CC_CUDA_THREADS, 0, s>>>((const float *)idx, (const T *)v, (T *)y, outer, depth, inner); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

extern "C" cudaError_t cc_cuda_onehot(cudaStream_t s, size_t elem, int idx_type, const void *idx, const void *v, void *y,
                                      int64_t outer, int64_t depth, int64_t inner)
{
    if (outer * depth * inner <= 0) return cudaSuccess;
    switch (elem) {
    case 1: return onehot_launch<uint8_t>(s, idx_type, idx, v, y, outer, depth, inner);
    case 2: return onehot_launch<uint16_t>(s, idx_type, idx, v, y, outer, depth, inner);
    case 4: return onehot_launch<uint32_t>(s, idx_type, idx, v, y, outer, depth, inner);
    case 8: return onehot_launch<uint64_t>(s, idx_type, idx, v, y, outer, depth, inner);
    default: return cudaErrorInvalidValue;
    }
}

/* ---- Det -------------------------------------------------------------------------------------- */

template <typename T>
__global__ void det_k(const T *x, T *y, float *w, int64_t n, int64_t count)
{
    GRID_LOOP(b, count) {
        float *a = w + b * n * n;
        for (int64_t i = 0; i < n * n; i++) a[i] = ldf(x, b * n * n + i);
        float det = 1.0f;
        for (int64_t k = 0; k < n; k++) {
            int64_t p = k;
            for (int64_t i = k + 1; i < n; i++)
                if (fabsf(a[i * n + k]) > fabsf(a[p * n + k])) p = i;
            if (p != k) {
                for (int64_t j = k; j < n; j++) {
                    float t = a[k * n + j];
                    a[k * n + j] = a[p * n + j];
                    a[p * n + j] = t;
                }
                det = -det;
            }
            float piv = a[k * n + k];
            det *= piv;
            if (piv == 0.0f) break;
            for (int64_t i = k + 1; i < n; i++) {
                float f = a[i * n + k] / piv;
                for (int64_t j = k + 1; j < n; j++) a[i * n + j] = fmaf(-f, a[k * n + j], a[i * n + j]);
            }
        }
        stf(y, b, det);
    }
}

extern "C" cudaError_t cc_cuda_det(cudaStream_t s, int dtype, const void *x, void *y, float *w, int64_t n, int64_t count)
{
    if (count <= 0) return cudaSuccess;
    unsigned g = cc_cuda_blocks(count, 64);
    switch (dtype) {
    case CC_F32: det_k<<<g, 64, 0, s>>>((const float *)x, (float *)y, w, n, count); break;
    case CC_F16: det_k<<<g, 64, 0, s>>>((const __half *)x, (__half *)y, w, n, count); break;
    case CC_BF16: det_k<<<g, 64, 0, s>>>((const __nv_bfloat16 *)x, (__nv_bfloat16 *)y, w, n, count); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- ReverseSequence -------------------------------------------------------------------------- */

template <typename T>
__global__ void reverse_sequence_k(const T *x, const int64_t *lens, T *y, int64_t d0, int64_t d1, int64_t inner, int ta)
{
    GRID_LOOP(g, d0 * d1 * inner) {
        int64_t i = g % inner, p = g / inner, p1 = p % d1, p0 = p / d1;
        int64_t t = ta == 0 ? p0 : p1, b = ta == 0 ? p1 : p0, time = ta == 0 ? d0 : d1, len = lens[b];
        int64_t from = (len >= 0 && len <= time && t < len) ? len - 1 - t : t;
        int64_t q = ta == 0 ? from * d1 + p1 : p0 * d1 + from;
        y[g] = x[q * inner + i];
    }
}

extern "C" cudaError_t cc_cuda_reverse_sequence(cudaStream_t s, size_t elem, const void *x, const int64_t *lens, void *y,
                                                int64_t d0, int64_t d1, int64_t inner, int ta)
{
    int64_t n = d0 * d1 * inner;
    if (n <= 0) return cudaSuccess;
    unsigned b = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (elem) {
    case 1: reverse_sequence_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint8_t *)x, lens, (uint8_t *)y, d0, d1, inner, ta); break;
    case 2: reverse_sequence_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint16_t *)x, lens, (uint16_t *)y, d0, d1, inner, ta); break;
    case 4: reverse_sequence_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint32_t *)x, lens, (uint32_t *)y, d0, d1, inner, ta); break;
    case 8: reverse_sequence_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint64_t *)x, lens, (uint64_t *)y, d0, d1, inner, ta); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- Trilu ------------------------------------------------------------------------------------ */

template <typename T>
__global__ void trilu_k(const T *x, T *y, int64_t n, int64_t rows, int64_t cols, int64_t k, int upper)
{
    GRID_LOOP(i, n) {
        int64_t c = i % cols, r = (i / cols) % rows;
        bool keep = upper ? c - r >= k : c - r <= k;
        y[i] = keep ? x[i] : T(0);
    }
}

extern "C" cudaError_t cc_cuda_trilu(cudaStream_t s, size_t elem, const void *x, void *y, int64_t n, int64_t rows,
                                     int64_t cols, int64_t k, int upper)
{
    if (n <= 0) return cudaSuccess;
    unsigned b = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (elem) {
    case 1: trilu_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint8_t *)x, (uint8_t *)y, n, rows, cols, k, upper); break;
    case 2: trilu_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint16_t *)x, (uint16_t *)y, n, rows, cols, k, upper); break;
    case 4: trilu_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint32_t *)x, (uint32_t *)y, n, rows, cols, k, upper); break;
    case 8: trilu_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint64_t *)x, (uint64_t *)y, n, rows, cols, k, upper); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- ArgMax, ArgMin ------------------------------------------------------------------------- */

__device__ __forceinline__ float arg_key(const float *p, int64_t i) { return p[i]; }
__device__ __forceinline__ float arg_key(const __half *p, int64_t i) { return __half2float(p[i]); }
__device__ __forceinline__ float arg_key(const __nv_bfloat16 *p, int64_t i) { return __bfloat162float(p[i]); }
template <typename T> __device__ __forceinline__ long long arg_key(const T *p, int64_t i) { return (long long)p[i]; }

__device__ __forceinline__ bool arg_nan(float v) { return isnan(v); }
__device__ __forceinline__ bool arg_nan(long long) { return false; }

template <typename T>
__global__ void arg_k(const T *x, int64_t *y, int64_t n, int64_t len, int64_t inner, int max, int last)
{
    GRID_LOOP(j, n) {
        int64_t base = (j / inner) * len * inner + j % inner, best = 0;
        auto b = arg_key(x, base);
        for (int64_t k = 1; k < len; k++) {
            auto v = arg_key(x, base + k * inner);
            bool win = arg_nan(b) ? last && arg_nan(v) : arg_nan(v) ? true : v == b ? last != 0 : max ? v > b : v < b;
            if (win) {
                best = k;
                b = v;
            }
        }
        y[j] = best;
    }
}

extern "C" cudaError_t cc_cuda_arg(cudaStream_t s, int dtype, const void *x, int64_t *y, int64_t outer, int64_t len,
                                   int64_t inner, int max, int last)
{
    int64_t n = outer * inner;
    if (n <= 0) return cudaSuccess;
    unsigned b = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (dtype) {
    case CC_F32: arg_k<<<b, CC_CUDA_THREADS, 0, s>>>((const float *)x, y, n, len, inner, max, last); break;
    case CC_F16: arg_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __half *)x, y, n, len, inner, max, last); break;
    case CC_BF16: arg_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __nv_bfloat16 *)x, y, n, len, inner, max, last); break;
    case CC_I8: arg_k<<<b, CC_CUDA_THREADS, 0, s>>>((const int8_t *)x, y, n, len, inner, max, last); break;
    case CC_U8: arg_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint8_t *)x, y, n, len, inner, max, last); break;
    case CC_I32: arg_k<<<b, CC_CUDA_THREADS, 0, s>>>((const int32_t *)x, y, n, len, inner, max, last); break;
    case CC_I64: arg_k<<<b, CC_CUDA_THREADS, 0, s>>>((const long long *)x, y, n, len, inner, max, last); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- TopK -------------------------------------------------------------------------------------- */

/* a before b in TopK's output order: the value (a NaN larger than every number), then the
 * lower index */
template <typename K>
__device__ __forceinline__ bool topk_before(K a, int64_t ia, K b, int64_t ib, int largest)
{
    bool na = arg_nan(a), nb = arg_nan(b);
    if (na != nb) return largest ? na : nb;
    if (!na && a != b) return largest ? a > b : a < b;
    return ia < ib;
}

/* One thread per line; K passes, each taking the first element after the previous one. */
template <typename T>
__global__ void topk_k(const T *x, T *y, int64_t *yi, int64_t lines, int64_t len, int64_t inner, int64_t k,
                       int largest)
{
    GRID_LOOP(j, lines) {
        int64_t base = (j / inner) * len * inner + j % inner, obase = (j / inner) * k * inner + j % inner;
        int64_t prev = -1;
        decltype(arg_key(x, 0)) pv = 0;
        for (int64_t t = 0; t < k; t++) {
            int64_t best = -1;
            decltype(arg_key(x, 0)) bv = 0;
            for (int64_t q = 0; q < len; q++) {
                auto v = arg_key(x, base + q * inner);
                if (prev >= 0 && !topk_before(pv, prev, v, q, largest)) continue;
                if (best < 0 || topk_before(v, q, bv, best, largest)) {
                    best = q;
                    bv = v;
                }
            }
            y[obase + t * inner] = x[base + best * inner];
            yi[obase + t * inner] = best;
            prev = best;
            pv = bv;
        }
    }
}

extern "C" cudaError_t cc_cuda_topk(cudaStream_t s, int dtype, const void *x, void *y, int64_t *yi, int64_t outer,
                                    int64_t len, int64_t inner, int64_t k, int largest)
{
    int64_t n = outer * inner;
    if (n <= 0 || k <= 0) return cudaSuccess;
    unsigned b = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (dtype) {
    case CC_F32: topk_k<<<b, CC_CUDA_THREADS, 0, s>>>((const float *)x, (float *)y, yi, n, len, inner, k, largest); break;
    case CC_F16:
        topk_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __half *)x, (__half *)y, yi, n, len, inner, k, largest);
        break;
    case CC_BF16:
        topk_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __nv_bfloat16 *)x, (__nv_bfloat16 *)y, yi, n, len, inner, k,
                                             largest);
        break;
    case CC_I32:
        topk_k<<<b, CC_CUDA_THREADS, 0, s>>>((const int32_t *)x, (int32_t *)y, yi, n, len, inner, k, largest);
        break;
    case CC_I64:
        topk_k<<<b, CC_CUDA_THREADS, 0, s>>>((const long long *)x, (long long *)y, yi, n, len, inner, k, largest);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- CumSum ------------------------------------------------------------------------------------ */

__device__ __forceinline__ void cum_put(float *p, int64_t i, float v) { p[i] = v; }
__device__ __forceinline__ void cum_put(__half *p, int64_t i, float v) { p[i] = __float2half_rn(v); }
__device__ __forceinline__ void cum_put(__nv_bfloat16 *p, int64_t i, float v) { p[i] = __float2bfloat16_rn(v); }
template <typename T> __device__ __forceinline__ void cum_put(T *p, int64_t i, long long v) { p[i] = (T)v; }

/* One thread per line; the accumulator has arg_key's type (float or long long). */
template <typename T>
__global__ void cumsum_k(const T *x, T *y, int64_t lines, int64_t len, int64_t inner, int ex, int rev)
{
    GRID_LOOP(j, lines) {
        int64_t base = (j / inner) * len * inner + j % inner;
        decltype(arg_key(x, 0)) sum = 0;
        for (int64_t s = 0; s < len; s++) {
            int64_t at = base + (rev ? len - 1 - s : s) * inner;
            auto v = arg_key(x, at);
            if (!ex) sum += v;
            cum_put(y, at, sum);
            if (ex) sum += v;
        }
    }
}

extern "C" cudaError_t cc_cuda_cumsum(cudaStream_t s, int dtype, const void *x, void *y, int64_t outer, int64_t len,
                                      int64_t inner, int ex, int rev)
{
    int64_t lines = outer * inner;
    if (lines <= 0 || len <= 0) return cudaSuccess;
    unsigned b = cc_cuda_blocks(lines, CC_CUDA_THREADS);
    switch (dtype) {
    case CC_F32: cumsum_k<<<b, CC_CUDA_THREADS, 0, s>>>((const float *)x, (float *)y, lines, len, inner, ex, rev); break;
    case CC_F16: cumsum_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __half *)x, (__half *)y, lines, len, inner, ex, rev); break;
    case CC_BF16:
        cumsum_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __nv_bfloat16 *)x, (__nv_bfloat16 *)y, lines, len, inner, ex, rev);
        break;
    case CC_I32: cumsum_k<<<b, CC_CUDA_THREADS, 0, s>>>((const int32_t *)x, (int32_t *)y, lines, len, inner, ex, rev); break;
    case CC_I64: cumsum_k<<<b, CC_CUDA_THREADS, 0, s>>>((const long long *)x, (long long *)y, lines, len, inner, ex, rev); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- ScatterND, ScatterElements ------------------------------------------------------------ */

/* The output offset of update element p (geometry as kernels.h's cc_cuda_scatter_run); -1
 * for an index outside its dim. */
template <typename IX>
__device__ int64_t scatter_place(const IX *idx, int64_t p, const cc_cuda_gather &g)
{
    if (g.mode == CC_CUDA_GATHER_ND) {
        int64_t j = p / g.inner, off = p % g.inner;
        for (int k = 0; k < g.m; k++) {
            int64_t v = gather_index(idx, j * g.m + k, g.dims[k]);
            if (v < 0) return -1;
            off += v * g.st[k];
        }
        return off;
    }
    int64_t rem = p, off = 0, k = gather_index(idx, p, g.dim);
    if (k < 0) return -1;
    for (int d = g.rank - 1; d >= 0; d--) {
        int64_t c = rem % g.dims[d];
        rem /= g.dims[d];
        off += (d == g.axis ? k : c) * g.st[d];
    }
    return off;
}

/* reduction none: one thread per update element (distinct places) */
template <typename T, typename IX>
__global__ void scatter_k(const T *u, const IX *idx, T *y, int64_t n, cc_cuda_gather g)
{
    GRID_LOOP(p, n) {
        int64_t off = scatter_place(idx, p, g);
        if (off >= 0) y[off] = u[p];
    }
}

/* reduction add or mul: one thread, the updates in order (repeated places accumulate) */
template <typename T, typename IX>
__global__ void scatter_reduce_k(const T *u, const IX *idx, T *y, int64_t n, cc_cuda_gather g, int mul)
{
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    for (int64_t p = 0; p < n; p++) {
        int64_t off = scatter_place(idx, p, g);
        if (off < 0) continue;
        auto a = arg_key(y, off), b = arg_key(u, p);
        cum_put(y, off, mul ? a * b : a + b);
    }
}

template <typename T>
static cudaError_t scatter_launch(cudaStream_t s, int idx64, const void *u, const void *idx, void *y, int64_t n,
                                  const cc_cuda_gather *g, int red)
{
    unsigned b = cc_cuda_blocks(n, CC_CUDA_THREADS);
    if (red && idx64) scatter_reduce_k<<<1, 1, 0, s>>>((const T *)u, (const int64_t *)idx, (T *)y, n, *g, red == 2);
    else if (red) scatter_reduce_k<<<1, 1, 0, s>>>((const T *)u, (const int32_t *)idx, (T *)y, n, *g, red == 2);
    else if (idx64) scatter_k<<<b, CC_CUDA_THREADS, 0, s>>>((const T *)u, (const int64_t *)idx, (T *)y, n, *g);
    else scatter_k<<<b, CC_CUDA_THREADS, 0, s>>>((const T *)u, (const int32_t *)idx, (T *)y, n, *g);
    return cudaGetLastError();
}

extern "C" cudaError_t cc_cuda_scatter_run(cudaStream_t s, int dtype, int idx64, const void *u, const void *idx,
                                           void *y, int64_t n, const cc_cuda_gather *g, int red)
{
    if (n <= 0) return cudaSuccess;
    switch (dtype) {
    case CC_F32: return scatter_launch<float>(s, idx64, u, idx, y, n, g, red);
    case CC_F16: return scatter_launch<__half>(s, idx64, u, idx, y, n, g, red);
    case CC_BF16: return scatter_launch<__nv_bfloat16>(s, idx64, u, idx, y, n, g, red);
    case CC_I8: return scatter_launch<int8_t>(s, idx64, u, idx, y, n, g, red);
    case CC_U8: return scatter_launch<uint8_t>(s, idx64, u, idx, y, n, g, red);
    case CC_I32: return scatter_launch<int32_t>(s, idx64, u, idx, y, n, g, red);
    case CC_I64: return scatter_launch<long long>(s, idx64, u, idx, y, n, g, red);
    case CC_BOOL: return red ? cudaErrorInvalidValue : scatter_launch<uint8_t>(s, idx64, u, idx, y, n, g, 0);
    default: return cudaErrorInvalidValue;
    }
}

/* ---- Pad --------------------------------------------------------------------------------------- */

template <typename T>
__global__ void pad_k(const T *x, T *y, int64_t n, cc_cuda_pad p)
{
    T c;
    memcpy(&c, &p.cbits, sizeof c);
    GRID_LOOP(i, n) {
        int64_t rem = i, off = 0;
        bool constant = false;
        for (int d = p.rank - 1; d >= 0 && !constant; d--) {
            int64_t o = rem % p.odims[d], len = p.idims[d], s = o - p.begin[d];
            rem /= p.odims[d];
            if (s < 0 || s >= len) {
                if (p.mode == 0) constant = true;
                else if (p.mode == 1 || len == 1) s = s < 0 ? 0 : len - 1;
                else {
                    int64_t period = 2 * (len - 1);
                    s %= period;
                    if (s < 0) s += period;
                    if (s >= len) s = period - s;
                }
            }
            off += s * p.ist[d];
        }
        y[i] = constant ? c : x[off];
    }
}

extern "C" cudaError_t cc_cuda_pad_run(cudaStream_t s, size_t elem, const void *x, void *y, int64_t n, const cc_cuda_pad *p)
{
    if (n <= 0) return cudaSuccess;
    unsigned b = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (elem) {
    case 1: pad_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint8_t *)x, (uint8_t *)y, n, *p); break;
    case 2: pad_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint16_t *)x, (uint16_t *)y, n, *p); break;
    case 4: pad_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint32_t *)x, (uint32_t *)y, n, *p); break;
    case 8: pad_k<<<b, CC_CUDA_THREADS, 0, s>>>((const uint64_t *)x, (uint64_t *)y, n, *p); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}
