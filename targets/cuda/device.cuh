/* device.cuh — device-side helpers shared by the cuda backend's kernel files
 * (kernels_*.cu; never included by C): element loads and stores that convert to and from
 * f32 or int64, launch geometry for grid-stride loops, index walks and block reductions. */
#ifndef CC_CUDA_DEVICE_CUH
#define CC_CUDA_DEVICE_CUH

#include <stdint.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "../../ops/core/dtype.h"
#include "kernels.h"

#define CC_CUDA_THREADS 256

/* Blocks for a grid-stride loop over n items (at least 1, at most 2^20). */
static inline unsigned cc_cuda_blocks(int64_t n, int threads)
{
    int64_t b = (n + threads - 1) / threads;
    if (b < 1) b = 1;
    if (b > (1 << 20)) b = 1 << 20;
    return (unsigned)b;
}

#define GRID_LOOP(i, n)                                                                  \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n);            \
         i += (int64_t)gridDim.x * blockDim.x)

/* ---- element access ------------------------------------------------------------------- */

__device__ __forceinline__ float ldf(const float *p, int64_t i) { return p[i]; }
__device__ __forceinline__ float ldf(const __half *p, int64_t i) { return __half2float(p[i]); }
__device__ __forceinline__ float ldf(const __nv_bfloat16 *p, int64_t i)
{
    return __bfloat162float(p[i]);
}
__device__ __forceinline__ float ldf(const int8_t *p, int64_t i) { return (float)p[i]; }
__device__ __forceinline__ float ldf(const uint8_t *p, int64_t i) { return (float)p[i]; }

__device__ __forceinline__ void stf(float *p, int64_t i, float v) { p[i] = v; }
__device__ __forceinline__ void stf(__half *p, int64_t i, float v) { p[i] = __float2half_rn(v); }
__device__ __forceinline__ void stf(__nv_bfloat16 *p, int64_t i, float v)
{
    p[i] = __float2bfloat16_rn(v);
}
/* 8-bit stores round half to even and saturate (NaN stores 0). */
__device__ __forceinline__ void stf(int8_t *p, int64_t i, float v)
{
    float r = rintf(v);
    r = r < -128.0f ? -128.0f : r > 127.0f ? 127.0f : r;
    p[i] = (int8_t)(v != v ? 0.0f : r);
}
__device__ __forceinline__ void stf(uint8_t *p, int64_t i, float v)
{
    float r = rintf(v);
    r = r < 0.0f ? 0.0f : r > 255.0f ? 255.0f : r;
    p[i] = (uint8_t)(v != v ? 0.0f : r);
}

/* Element i of data of dtype d as double (any cc_dtype). */
__device__ __forceinline__ double ld_any(const void *p, int d, int64_t i)
{
    switch (d) {
    case CC_F32: return ((const float *)p)[i];
    case CC_F16: return __half2float(((const __half *)p)[i]);
    case CC_BF16: return __bfloat162float(((const __nv_bfloat16 *)p)[i]);
    case CC_I8: return ((const int8_t *)p)[i];
    case CC_U8: return ((const uint8_t *)p)[i];
    case CC_I32: return ((const int32_t *)p)[i];
    case CC_I64: return (double)((const int64_t *)p)[i];
    case CC_BOOL: return ((const uint8_t *)p)[i] != 0;
    default: return 0;
    }
}

/* Element i of a quantization parameter (0 for an absent one; one value for n == 1). */
__device__ __forceinline__ double qp_at(const cc_cuda_qparam &q, int64_t i)
{
    if (!q.p) return 0;
    return ld_any(q.p, q.dtype, q.n == 1 ? 0 : i);
}

/* Integer element i of an 8-bit tensor (u8 when is_u8, else i8). */
__device__ __forceinline__ int32_t ld_q8(const void *p, int is_u8, int64_t i)
{
    return is_u8 ? (int32_t)((const uint8_t *)p)[i] : (int32_t)((const int8_t *)p)[i];
}

/* Saturating store of an integer-valued double into u8 / i8. */
__device__ __forceinline__ void st_q8(void *p, int is_u8, int64_t i, double v)
{
    double lo = is_u8 ? 0.0 : -128.0, hi = is_u8 ? 255.0 : 127.0;
    v = v < lo ? lo : v > hi ? hi : v;
    if (is_u8) ((uint8_t *)p)[i] = (uint8_t)v;
    else ((int8_t *)p)[i] = (int8_t)v;
}

/* ---- walks ------------------------------------------------------------------------------ */

/* Offset of flat index i of walk w along operand k's strides. */
__device__ __forceinline__ int64_t walk_off(const cc_cuda_walk &w, int k, int64_t i)
{
    int64_t off = 0;
    for (int d = w.rank - 1; d >= 0; d--) {
        int64_t n = w.dims[d];
        int64_t q = i / n;
        off += (i - q * n) * w.st[k][d];
        i = q;
    }
    return off;
}

/* ---- block reductions (blockDim.x a multiple of 32, at most 1024) ------------------- */

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* NaN-propagating max. */
__device__ __forceinline__ float max_nan(float a, float b) { return (b > a || b != b) ? b : a; }

__device__ __forceinline__ float warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1) v = max_nan(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

/* Sum (or max) of v over the block; every thread gets the result. `sh` holds 32 floats;
 * the call synchronises the block twice. */
__device__ __forceinline__ float block_reduce(float v, int is_max, float *sh)
{
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
    v = is_max ? warp_max(v) : warp_sum(v);
    __syncthreads(); /* sh may still be read by a previous reduction */
    if (lane == 0) sh[wid] = v;
    __syncthreads();
    float r = lane < nw ? sh[lane] : (is_max ? -INFINITY : 0.0f);
    return is_max ? warp_max(r) : warp_sum(r);
}

#endif
