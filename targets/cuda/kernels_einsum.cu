/* kernels_einsum.cu — the cuda backend's Einsum kernel (its launcher declared in
 * kernels.h): one thread per output element over the stride tables of targets/lower.h. */
#include "device.cuh"

/* The operands' offsets for output element o, from its coordinates along the n_out output
 * axes. */
__device__ __forceinline__ void einsum_first(int64_t o, const int64_t *g, int n, int n_out, int axes, int64_t *off)
{
    for (int t = 0; t < n; t++) off[t] = 0;
    for (int a = n_out - 1; a >= 0; a--) {
        int64_t k = o % g[a];
        o /= g[a];
        for (int t = 0; t < n; t++) off[t] += k * g[axes + t * axes + a];
    }
}

/* The odometer over the summed labels: the next combination's offsets. */
__device__ __forceinline__ void einsum_step(const int64_t *g, int n, int n_out, int n_sum, int axes, int64_t *c,
                                            int64_t *off)
{
    for (int s = n_sum - 1; s >= 0; s--) {
        const int a = n_out + s;
        for (int t = 0; t < n; t++) off[t] += g[axes + t * axes + a];
        if (++c[s] < g[a]) return;
        c[s] = 0;
        for (int t = 0; t < n; t++) off[t] -= g[axes + t * axes + a] * g[a];
    }
}

template <typename T>
__global__ void einsum_float_k(cc_cuda_operands x, T *y, const int64_t *g, int n, int n_out, int n_sum,
                               int64_t out_count, int64_t sum_count)
{
    const int axes = n_out + n_sum;
    GRID_LOOP(o, out_count) {
        int64_t off[CC_CUDA_EINSUM_MAX_IN], c[CC_CUDA_EINSUM_MAX_SUM];
        for (int s = 0; s < n_sum; s++) c[s] = 0;
        einsum_first(o, g, n, n_out, axes, off);
        float acc = 0.0f;
        for (int64_t step = 0; step < sum_count; step++) {
            float p = ldf((const T *)x.x[0], off[0]);
            for (int t = 1; t < n - 1; t++) p *= ldf((const T *)x.x[t], off[t]);
            acc = n == 1 ? acc + p : fmaf(p, ldf((const T *)x.x[n - 1], off[n - 1]), acc);
            einsum_step(g, n, n_out, n_sum, axes, c, off);
        }
        stf(y, o, acc);
    }
}

template <typename T>
__global__ void einsum_int_k(cc_cuda_operands x, T *y, const int64_t *g, int n, int n_out, int n_sum,
                             int64_t out_count, int64_t sum_count)
{
    const int axes = n_out + n_sum;
    GRID_LOOP(o, out_count) {
        int64_t off[CC_CUDA_EINSUM_MAX_IN], c[CC_CUDA_EINSUM_MAX_SUM];
        for (int s = 0; s < n_sum; s++) c[s] = 0;
        einsum_first(o, g, n, n_out, axes, off);
        uint64_t acc = 0;
        for (int64_t step = 0; step < sum_count; step++) {
            uint64_t p = (uint64_t)(int64_t)((const T *)x.x[0])[off[0]];
            for (int t = 1; t < n; t++) p *= (uint64_t)(int64_t)((const T *)x.x[t])[off[t]];
            acc += p;
            einsum_step(g, n, n_out, n_sum, axes, c, off);
        }
        y[o] = (T)acc;
    }
}

extern "C" cudaError_t cc_cuda_einsum(cudaStream_t s, int dtype, cc_cuda_operands x, void *y, const int64_t *g, int n,
                                      int n_out, int n_sum, int64_t out_count, int64_t sum_count)
{
    if (out_count <= 0) return cudaSuccess;
    if (n < 1 || n > CC_CUDA_EINSUM_MAX_IN || n_sum > CC_CUDA_EINSUM_MAX_SUM) return cudaErrorInvalidValue;
    const int threads = 128;
    unsigned b = cc_cuda_blocks(out_count, threads);
    switch (dtype) {
    case CC_F32: einsum_float_k<<<b, threads, 0, s>>>(x, (float *)y, g, n, n_out, n_sum, out_count, sum_count); break;
    case CC_F16: einsum_float_k<<<b, threads, 0, s>>>(x, (__half *)y, g, n, n_out, n_sum, out_count, sum_count); break;
    case CC_BF16:
        einsum_float_k<<<b, threads, 0, s>>>(x, (__nv_bfloat16 *)y, g, n, n_out, n_sum, out_count, sum_count);
        break;
    case CC_I32: einsum_int_k<<<b, threads, 0, s>>>(x, (int32_t *)y, g, n, n_out, n_sum, out_count, sum_count); break;
    case CC_I64: einsum_int_k<<<b, threads, 0, s>>>(x, (int64_t *)y, g, n, n_out, n_sum, out_count, sum_count); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}
