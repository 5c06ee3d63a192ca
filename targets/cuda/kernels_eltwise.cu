/* kernels_eltwise.cu — the cuda backend's elementwise, normalisation, softmax, reduction
 * and quantization kernels (launchers declared in kernels.h).
 *
 * The activations' formulas are those of targets/eltwise_formulas.h (through kernels.h).
 * Floating data is computed in f32 with the accurate CUDA math functions (expf, tanhf,
 * IEEE division and square root: the build never uses fast-math), one rounding to the
 * output dtype. Integer data is computed in int64 and stored with wrap-around. */
#include "device.cuh"

/* ---- unary ------------------------------------------------------------------------------ */

struct unary_args {
    int op;
    float a, b, lo, hi;
    int64_t ilo, ihi;
};

__device__ __forceinline__ float unary_f(const unary_args &u, float v)
{
    const float p0 = u.a, p1 = u.b;
    (void)p0;
    (void)p1;
    switch (u.op) {
#define ACT_CASE(Op, name, P0, P1, F) \
    case CC_CUDA_ACT_##Op: return (F);
        CC_ACTIVATIONS(ACT_CASE)
#undef ACT_CASE
    case CC_CUDA_CLIP: {
        /* NaN passes through; with lo > hi every element becomes hi */
        float c = v < u.lo ? u.lo : v;
        return c > u.hi ? u.hi : c;
    }
    default: return v;
    }
}

template <typename T>
__global__ void unary_float_k(unary_args u, const T *x, T *y, int64_t n)
{
    GRID_LOOP(i, n) stf(y, i, unary_f(u, ldf(x, i)));
}

template <typename T>
__global__ void unary_int_k(unary_args u, const T *x, T *y, int64_t n)
{
    GRID_LOOP(i, n) {
        int64_t v = (int64_t)x[i];
        if (u.op == CC_CUDA_RELU) {
            v = v < 0 ? 0 : v;
        } else {
            v = v < u.ilo ? u.ilo : v;
            v = v > u.ihi ? u.ihi : v;
        }
        y[i] = (T)v;
    }
}

extern "C" cudaError_t cc_cuda_unary(cudaStream_t s, int op, int dtype, const void *x, void *y,
                                     int64_t n, float a, float b, float lo, float hi,
                                     int64_t ilo, int64_t ihi)
{
    if (n <= 0) return cudaSuccess;
    unary_args u = {op, a, b, lo, hi, ilo, ihi};
    unsigned g = cc_cuda_blocks(n, CC_CUDA_THREADS);
    int is_int = dtype == CC_I8 || dtype == CC_U8 || dtype == CC_I32 || dtype == CC_I64;
    if (is_int && op != CC_CUDA_RELU && op != CC_CUDA_CLIP) return cudaErrorInvalidValue;
    switch (dtype) {
    case CC_F32:
        unary_float_k<<<g, CC_CUDA_THREADS, 0, s>>>(u, (const float *)x, (float *)y, n);
        break;
    case CC_F16:
        unary_float_k<<<g, CC_CUDA_THREADS, 0, s>>>(u, (const __half *)x, (__half *)y, n);
        break;
    case CC_BF16:
        unary_float_k<<<g, CC_CUDA_THREADS, 0, s>>>(u, (const __nv_bfloat16 *)x,
                                                    (__nv_bfloat16 *)y, n);
        break;
    case CC_I8:
        unary_int_k<<<g, CC_CUDA_THREADS, 0, s>>>(u, (const int8_t *)x, (int8_t *)y, n);
        break;
    case CC_U8:
        unary_int_k<<<g, CC_CUDA_THREADS, 0, s>>>(u, (const uint8_t *)x, (uint8_t *)y, n);
        break;
    case CC_I32:
        unary_int_k<<<g, CC_CUDA_THREADS, 0, s>>>(u, (const int32_t *)x, (int32_t *)y, n);
        break;
    case CC_I64:
        unary_int_k<<<g, CC_CUDA_THREADS, 0, s>>>(u, (const int64_t *)x, (int64_t *)y, n);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- binary with broadcasting ------------------------------------------------------------ */

__device__ __forceinline__ float binary_f(int op, float a, float b)
{
    switch (op) {
    case CC_CUDA_ADD: return a + b;
    case CC_CUDA_SUB: return a - b;
    case CC_CUDA_MUL: return a * b;
    case CC_CUDA_MIN: return b < a ? b : a;
    case CC_CUDA_MAX: return b > a ? b : a;
    case CC_CUDA_POW: return powf(a, b);
    case CC_CUDA_PRELU: return a < 0.0f ? b * a : a;
    case CC_CUDA_FMOD:
    case CC_CUDA_IMOD: return fmodf(a, b); /* floats have fmod=1 only */
    case CC_CUDA_FIRST: return a;
    default: return a / b;
    }
}

__device__ __forceinline__ int64_t binary_i(int op, int64_t a, int64_t b)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (op) {
    case CC_CUDA_ADD: return (int64_t)(ua + ub);
    case CC_CUDA_SUB: return (int64_t)(ua - ub);
    case CC_CUDA_MUL: return (int64_t)(ua * ub);
    case CC_CUDA_MIN: return b < a ? b : a;
    case CC_CUDA_MAX: return b > a ? b : a;
    case CC_CUDA_FIRST: return a;
    case CC_CUDA_FMOD:
    case CC_CUDA_IMOD: {
        if (b == 0 || b == -1) return 0; /* undefined / INT64_MIN % -1 traps */
        int64_t m = a % b;
        if (op == CC_CUDA_IMOD && m != 0 && ((m < 0) != (b < 0))) m += b;
        return m;
    }
    default:
        if (b == 0) return 0;                  /* undefined in ONNX; never trap */
        if (b == -1) return (int64_t)(0 - ua); /* INT64_MIN / -1 wraps */
        return a / b;                          /* truncates toward zero */
    }
}

template <typename T>
__global__ void binary_float_k(int op, const T *a, const T *b, T *y, cc_cuda_walk w, int64_t n)
{
    if (w.rank == 1 && w.st[0][0] == 1 && w.st[1][0] == 1 && w.st[2][0] == 1) {
        GRID_LOOP(i, n) stf(y, i, binary_f(op, ldf(a, i), ldf(b, i)));
        return;
    }
    GRID_LOOP(i, n) {
        float va = ldf(a, walk_off(w, 0, i)), vb = ldf(b, walk_off(w, 1, i));
        stf(y, walk_off(w, 2, i), binary_f(op, va, vb));
    }
}

template <typename T>
__global__ void binary_int_k(int op, const T *a, const T *b, T *y, cc_cuda_walk w, int64_t n)
{
    GRID_LOOP(i, n) {
        int64_t va = (int64_t)a[walk_off(w, 0, i)], vb = (int64_t)b[walk_off(w, 1, i)];
        y[walk_off(w, 2, i)] = (T)(uint64_t)binary_i(op, va, vb);
    }
}

static int64_t walk_numel(const cc_cuda_walk *w)
{
    int64_t n = 1;
    for (int d = 0; d < w->rank; d++) n *= w->dims[d];
    return n;
}

/* Pow of a float base to an integer exponent, in float as the float-exponent form. */
template <typename T, typename E>
__global__ void pow_int_exp_k(const T *a, const E *e, T *y, cc_cuda_walk w, int64_t n)
{
    GRID_LOOP(i, n) {
        float va = ldf(a, walk_off(w, 0, i)), ve = (float)e[walk_off(w, 1, i)];
        stf(y, walk_off(w, 2, i), powf(va, ve));
    }
}

template <typename T>
static cudaError_t pow_int_exp_launch(cudaStream_t s, int edtype, const T *a, const void *e, T *y,
                                      const cc_cuda_walk *w, int64_t n)
{
    unsigned g = cc_cuda_blocks(n, CC_CUDA_THREADS);
    if (edtype == CC_I32) pow_int_exp_k<<<g, CC_CUDA_THREADS, 0, s>>>(a, (const int32_t *)e, y, *w, n);
    else if (edtype == CC_I64) pow_int_exp_k<<<g, CC_CUDA_THREADS, 0, s>>>(a, (const int64_t *)e, y, *w, n);
    else return cudaErrorInvalidValue;
    return cudaGetLastError();
}

extern "C" cudaError_t cc_cuda_pow_int_exp(cudaStream_t s, int dtype, int edtype, const void *a, const void *e,
                                           void *y, const cc_cuda_walk *w)
{
    int64_t n = walk_numel(w);
    if (n <= 0) return cudaSuccess;
    switch (dtype) {
    case CC_F32: return pow_int_exp_launch(s, edtype, (const float *)a, e, (float *)y, w, n);
    case CC_F16: return pow_int_exp_launch(s, edtype, (const __half *)a, e, (__half *)y, w, n);
    case CC_BF16:
        return pow_int_exp_launch(s, edtype, (const __nv_bfloat16 *)a, e, (__nv_bfloat16 *)y, w, n);
    default: return cudaErrorInvalidValue;
    }
}

extern "C" cudaError_t cc_cuda_binary(cudaStream_t s, int op, int dtype, const void *a,
                                      const void *b, void *y, const cc_cuda_walk *w)
{
    int64_t n = walk_numel(w);
    if (n <= 0) return cudaSuccess;
    unsigned g = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (dtype) {
    case CC_F32:
        binary_float_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const float *)a, (const float *)b,
                                                     (float *)y, *w, n);
        break;
    case CC_F16:
        binary_float_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const __half *)a, (const __half *)b,
                                                     (__half *)y, *w, n);
        break;
    case CC_BF16:
        binary_float_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const __nv_bfloat16 *)a,
                                                     (const __nv_bfloat16 *)b,
                                                     (__nv_bfloat16 *)y, *w, n);
        break;
    case CC_I8:
        binary_int_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const int8_t *)a, (const int8_t *)b,
                                                   (int8_t *)y, *w, n);
        break;
    case CC_U8:
        binary_int_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const uint8_t *)a, (const uint8_t *)b,
                                                   (uint8_t *)y, *w, n);
        break;
    case CC_I32:
        binary_int_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const int32_t *)a, (const int32_t *)b,
                                                   (int32_t *)y, *w, n);
        break;
    case CC_I64:
        binary_int_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const int64_t *)a, (const int64_t *)b,
                                                   (int64_t *)y, *w, n);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- the logic family -------------------------------------------------------------------- */

template <typename V>
__device__ __forceinline__ uint8_t compare_v(int op, V a, V b)
{
    switch (op) {
    case CC_CUDA_EQ: return a == b;
    case CC_CUDA_GT: return a > b;
    case CC_CUDA_GE: return a >= b;
    case CC_CUDA_LT: return a < b;
    default: return a <= b;
    }
}

/* floats in f32 (NaN compares false, as in C) */
template <typename T>
__global__ void compare_float_k(int op, const T *a, const T *b, uint8_t *y, cc_cuda_walk w, int64_t n)
{
    GRID_LOOP(i, n) y[walk_off(w, 2, i)] = compare_v(op, ldf(a, walk_off(w, 0, i)), ldf(b, walk_off(w, 1, i)));
}

template <typename T>
__global__ void compare_int_k(int op, const T *a, const T *b, uint8_t *y, cc_cuda_walk w, int64_t n)
{
    GRID_LOOP(i, n) {
        int64_t va = (int64_t)a[walk_off(w, 0, i)], vb = (int64_t)b[walk_off(w, 1, i)];
        y[walk_off(w, 2, i)] = compare_v(op, va, vb);
    }
}

/* bool operands (nonzero is true): Equal, And, Or, Xor; u8 operands: the shifts */
__global__ void bool_k(int op, const uint8_t *a, const uint8_t *b, uint8_t *y, cc_cuda_walk w, int64_t n)
{
    GRID_LOOP(i, n) {
        unsigned va = a[walk_off(w, 0, i)], vb = b[walk_off(w, 1, i)];
        uint8_t r;
        switch (op) {
        case CC_CUDA_AND: r = va != 0 && vb != 0; break;
        case CC_CUDA_OR: r = va != 0 || vb != 0; break;
        case CC_CUDA_XOR: r = (va != 0) != (vb != 0); break;
        case CC_CUDA_SHL: r = vb >= 8 ? 0 : (uint8_t)(va << vb); break;
        case CC_CUDA_SHR: r = vb >= 8 ? 0 : (uint8_t)(va >> vb); break;
        default: r = (va != 0) == (vb != 0); break; /* EQ */
        }
        y[walk_off(w, 2, i)] = r;
    }
}

extern "C" cudaError_t cc_cuda_logic(cudaStream_t s, int op, int dtype, const void *a, const void *b, void *y,
                                     const cc_cuda_walk *w)
{
    int64_t n = walk_numel(w);
    if (n <= 0) return cudaSuccess;
    unsigned g = cc_cuda_blocks(n, CC_CUDA_THREADS);
    uint8_t *o = (uint8_t *)y;
    if (op >= CC_CUDA_AND || dtype == CC_BOOL) {
        bool_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const uint8_t *)a, (const uint8_t *)b, o, *w, n);
        return cudaGetLastError();
    }
    switch (dtype) {
    case CC_F32: compare_float_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const float *)a, (const float *)b, o, *w, n); break;
    case CC_F16: compare_float_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const __half *)a, (const __half *)b, o, *w, n); break;
    case CC_BF16:
        compare_float_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const __nv_bfloat16 *)a, (const __nv_bfloat16 *)b, o, *w, n);
        break;
    case CC_I8: compare_int_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const int8_t *)a, (const int8_t *)b, o, *w, n); break;
    case CC_U8: compare_int_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const uint8_t *)a, (const uint8_t *)b, o, *w, n); break;
    case CC_I32: compare_int_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const int32_t *)a, (const int32_t *)b, o, *w, n); break;
    case CC_I64: compare_int_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const int64_t *)a, (const int64_t *)b, o, *w, n); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

template <typename T>
__global__ void where_k(const uint8_t *c, const T *x, const T *y, T *out, cc_cuda_walk w, int64_t n)
{
    GRID_LOOP(i, n) out[i] = c[walk_off(w, 0, i)] ? x[walk_off(w, 1, i)] : y[walk_off(w, 2, i)];
}

extern "C" cudaError_t cc_cuda_where(cudaStream_t s, size_t elem, const void *c, const void *x, const void *y,
                                     void *out, const cc_cuda_walk *w)
{
    int64_t n = walk_numel(w);
    if (n <= 0) return cudaSuccess;
    unsigned g = cc_cuda_blocks(n, CC_CUDA_THREADS);
    const uint8_t *cc = (const uint8_t *)c;
    switch (elem) {
    case 1: where_k<<<g, CC_CUDA_THREADS, 0, s>>>(cc, (const uint8_t *)x, (const uint8_t *)y, (uint8_t *)out, *w, n); break;
    case 2: where_k<<<g, CC_CUDA_THREADS, 0, s>>>(cc, (const uint16_t *)x, (const uint16_t *)y, (uint16_t *)out, *w, n); break;
    case 4: where_k<<<g, CC_CUDA_THREADS, 0, s>>>(cc, (const uint32_t *)x, (const uint32_t *)y, (uint32_t *)out, *w, n); break;
    case 8: where_k<<<g, CC_CUDA_THREADS, 0, s>>>(cc, (const uint64_t *)x, (const uint64_t *)y, (uint64_t *)out, *w, n); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

template <typename T>
__global__ void classify_k(int op, const T *x, uint8_t *y, int64_t n, int neg, int pos)
{
    GRID_LOOP(i, n) {
        float v = ldf(x, i);
        y[i] = op == 1 ? isnan(v) != 0 : isinf(v) && (v > 0.0f ? pos : neg);
    }
}

__global__ void not_k(const uint8_t *x, uint8_t *y, int64_t n)
{
    GRID_LOOP(i, n) y[i] = x[i] == 0;
}

extern "C" cudaError_t cc_cuda_classify(cudaStream_t s, int op, int dtype, const void *x, void *y, int64_t n,
                                        int neg, int pos)
{
    if (n <= 0) return cudaSuccess;
    unsigned g = cc_cuda_blocks(n, CC_CUDA_THREADS);
    uint8_t *o = (uint8_t *)y;
    if (op == 0) {
        not_k<<<g, CC_CUDA_THREADS, 0, s>>>((const uint8_t *)x, o, n);
        return cudaGetLastError();
    }
    switch (dtype) {
    case CC_F32: classify_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const float *)x, o, n, neg, pos); break;
    case CC_F16: classify_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const __half *)x, o, n, neg, pos); break;
    case CC_BF16: classify_k<<<g, CC_CUDA_THREADS, 0, s>>>(op, (const __nv_bfloat16 *)x, o, n, neg, pos); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

template <typename T>
__global__ void divide_k(T *y, int64_t n, float d)
{
    GRID_LOOP(i, n) stf(y, i, ldf(y, i) / d);
}

extern "C" cudaError_t cc_cuda_divide(cudaStream_t s, int dtype, void *y, int64_t n, float d)
{
    if (n <= 0) return cudaSuccess;
    unsigned g = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (dtype) {
    case CC_F32: divide_k<<<g, CC_CUDA_THREADS, 0, s>>>((float *)y, n, d); break;
    case CC_F16: divide_k<<<g, CC_CUDA_THREADS, 0, s>>>((__half *)y, n, d); break;
    case CC_BF16: divide_k<<<g, CC_CUDA_THREADS, 0, s>>>((__nv_bfloat16 *)y, n, d); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- strided copy ------------------------------------------------------------------------- */

template <typename T>
__global__ void copy_k(const T *src, int64_t src_off, T *dst, int64_t dst_off, cc_cuda_walk w,
                       int64_t n)
{
    GRID_LOOP(i, n) dst[dst_off + walk_off(w, 1, i)] = src[src_off + walk_off(w, 0, i)];
}

extern "C" cudaError_t cc_cuda_copy(cudaStream_t s, size_t elem, const void *src, int64_t src_off,
                                    void *dst, int64_t dst_off, const cc_cuda_walk *w)
{
    int64_t n = walk_numel(w);
    if (n <= 0) return cudaSuccess;
    unsigned g = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (elem) {
    case 1:
        copy_k<<<g, CC_CUDA_THREADS, 0, s>>>((const uint8_t *)src, src_off, (uint8_t *)dst,
                                             dst_off, *w, n);
        break;
    case 2:
        copy_k<<<g, CC_CUDA_THREADS, 0, s>>>((const uint16_t *)src, src_off, (uint16_t *)dst,
                                             dst_off, *w, n);
        break;
    case 4:
        copy_k<<<g, CC_CUDA_THREADS, 0, s>>>((const uint32_t *)src, src_off, (uint32_t *)dst,
                                             dst_off, *w, n);
        break;
    case 8:
        copy_k<<<g, CC_CUDA_THREADS, 0, s>>>((const uint64_t *)src, src_off, (uint64_t *)dst,
                                             dst_off, *w, n);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- bias, batch normalization ------------------------------------------------------------ */

template <typename T>
__global__ void bias_add_k(T *y, const T *bias, int64_t n, int64_t channels, int64_t inner)
{
    GRID_LOOP(i, n) stf(y, i, ldf(y, i) + ldf(bias, (i / inner) % channels));
}

extern "C" cudaError_t cc_cuda_bias_add(cudaStream_t s, int dtype, void *y, const void *bias,
                                        int64_t outer, int64_t channels, int64_t inner)
{
    int64_t n = outer * channels * inner;
    if (n <= 0) return cudaSuccess;
    unsigned g = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (dtype) {
    case CC_F32:
        bias_add_k<<<g, CC_CUDA_THREADS, 0, s>>>((float *)y, (const float *)bias, n, channels,
                                                 inner);
        break;
    case CC_F16:
        bias_add_k<<<g, CC_CUDA_THREADS, 0, s>>>((__half *)y, (const __half *)bias, n, channels,
                                                 inner);
        break;
    case CC_BF16:
        bias_add_k<<<g, CC_CUDA_THREADS, 0, s>>>((__nv_bfloat16 *)y,
                                                 (const __nv_bfloat16 *)bias, n, channels, inner);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

__global__ void bn_fold_k(int sdtype, const void *scale, const void *b, int mdtype,
                          const void *mean, const void *var, double eps, float *fold,
                          int64_t channels)
{
    GRID_LOOP(c, channels) {
        double a = ld_any(scale, sdtype, c) / sqrt(ld_any(var, mdtype, c) + eps);
        fold[c] = (float)a;
        fold[channels + c] = (float)ld_any(b, sdtype, c);
        fold[2 * channels + c] = (float)ld_any(mean, mdtype, c);
    }
}

extern "C" cudaError_t cc_cuda_bn_fold(cudaStream_t s, int sdtype, const void *scale,
                                       const void *b, int mdtype, const void *mean,
                                       const void *var, double eps, float *fold,
                                       int64_t channels)
{
    if (channels <= 0) return cudaSuccess;
    bn_fold_k<<<cc_cuda_blocks(channels, 128), 128, 0, s>>>(sdtype, scale, b, mdtype, mean, var,
                                                            eps, fold, channels);
    return cudaGetLastError();
}

template <typename T>
__global__ void bn_apply_k(const T *x, T *y, const float *fold, int64_t n, int64_t channels,
                           int64_t inner)
{
    GRID_LOOP(i, n) {
        int64_t c = (i / inner) % channels;
        stf(y, i, (ldf(x, i) - fold[2 * channels + c]) * fold[c] + fold[channels + c]);
    }
}

extern "C" cudaError_t cc_cuda_bn_apply(cudaStream_t s, int dtype, const void *x, void *y,
                                        const float *fold, int64_t outer, int64_t channels,
                                        int64_t inner)
{
    int64_t n = outer * channels * inner;
    if (n <= 0) return cudaSuccess;
    unsigned g = cc_cuda_blocks(n, CC_CUDA_THREADS);
    switch (dtype) {
    case CC_F32:
        bn_apply_k<<<g, CC_CUDA_THREADS, 0, s>>>((const float *)x, (float *)y, fold, n, channels,
                                                 inner);
        break;
    case CC_F16:
        bn_apply_k<<<g, CC_CUDA_THREADS, 0, s>>>((const __half *)x, (__half *)y, fold, n,
                                                 channels, inner);
        break;
    case CC_BF16:
        bn_apply_k<<<g, CC_CUDA_THREADS, 0, s>>>((const __nv_bfloat16 *)x, (__nv_bfloat16 *)y,
                                                 fold, n, channels, inner);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- softmax ------------------------------------------------------------------------------ */

__device__ __forceinline__ float min_nan(float a, float b) { return (b < a || b != b) && a == a ? b : a; }

/* Combines a and b: 0 sum, 1 max, 2 min, 3 product (max and min keep a NaN). */
__device__ __forceinline__ float combine(int m, float a, float b)
{
    switch (m) {
    case 1: return a != a ? a : max_nan(a, b);
    case 2: return min_nan(a, b);
    case 3: return a * b;
    default: return a + b;
    }
}

__device__ __forceinline__ float combine_identity(int m)
{
    return m == 1 ? -INFINITY : m == 2 ? INFINITY : m == 3 ? 1.0f : 0.0f;
}

/* v combined over the block (every thread gets the result); sh holds 32 floats. */
__device__ float block_combine(float v, int m, float *sh)
{
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
    for (int o = 16; o > 0; o >>= 1) v = combine(m, v, __shfl_xor_sync(0xffffffffu, v, o));
    __syncthreads(); /* sh may still be read by a previous reduction */
    if (lane == 0) sh[wid] = v;
    __syncthreads();
    float r = lane < nw ? sh[lane] : combine_identity(m);
    for (int o = 16; o > 0; o >>= 1) r = combine(m, r, __shfl_xor_sync(0xffffffffu, r, o));
    return r;
}

/* One block per row (outer x inner rows of k elements, inner apart). */
template <typename T>
__global__ void softmax_k(int mode, const T *x, T *y, int64_t outer, int64_t k, int64_t inner)
{
    __shared__ float sh[32];
    for (int64_t row = blockIdx.x; row < outer * inner; row += gridDim.x) {
        int64_t o = row / inner, base = o * k * inner + (row - o * inner);
        if (mode == CC_CUDA_HARDMAX) {
            float m = -INFINITY;
            for (int64_t j = threadIdx.x; j < k; j += blockDim.x) m = combine(1, m, ldf(x, base + j * inner));
            m = block_combine(m, 1, sh);
            float first = (float)k;
            for (int64_t j = threadIdx.x; j < k; j += blockDim.x) {
                float v = ldf(x, base + j * inner);
                if (v == m || (v != v && m != m)) first = fminf(first, (float)j);
            }
            first = block_combine(first, 2, sh);
            for (int64_t j = threadIdx.x; j < k; j += blockDim.x)
                stf(y, base + j * inner, (float)j == first ? 1.0f : 0.0f);
            continue;
        }
        float m = -INFINITY;
        for (int64_t j = threadIdx.x; j < k; j += blockDim.x) m = fmaxf(m, ldf(x, base + j * inner));
        m = block_reduce(m, 1, sh);
        float sum = 0.0f;
        for (int64_t j = threadIdx.x; j < k; j += blockDim.x)
            sum += expf(ldf(x, base + j * inner) - m);
        sum = block_reduce(sum, 0, sh);
        float lse = logf(sum);
        for (int64_t j = threadIdx.x; j < k; j += blockDim.x) {
            float d = ldf(x, base + j * inner) - m;
            stf(y, base + j * inner, mode == CC_CUDA_LOGSOFTMAX ? d - lse : expf(d) / sum);
        }
    }
}

/* Threads per block for rows of k elements: a power of two from 32 to 256. */
static int row_threads(int64_t k)
{
    int t = 32;
    while (t < 256 && t < k) t *= 2;
    return t;
}

static unsigned row_blocks(int64_t rows)
{
    return (unsigned)(rows < (1 << 20) ? rows : (1 << 20));
}

extern "C" cudaError_t cc_cuda_softmax(cudaStream_t s, int mode, int dtype, const void *x, void *y,
                                       int64_t outer, int64_t k, int64_t inner)
{
    int64_t rows = outer * inner;
    if (rows <= 0 || k <= 0) return cudaSuccess;
    int t = row_threads(k);
    unsigned g = row_blocks(rows);
    switch (dtype) {
    case CC_F32: softmax_k<<<g, t, 0, s>>>(mode, (const float *)x, (float *)y, outer, k, inner); break;
    case CC_F16: softmax_k<<<g, t, 0, s>>>(mode, (const __half *)x, (__half *)y, outer, k, inner); break;
    case CC_BF16:
        softmax_k<<<g, t, 0, s>>>(mode, (const __nv_bfloat16 *)x, (__nv_bfloat16 *)y, outer, k, inner);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- LayerNormalization --------------------------------------------------------------------- */

/* One block per row. */
template <typename T>
__global__ void layernorm_k(const T *x, const T *sc, const T *b, T *y, float *mean_out, float *inv_out,
                            int64_t rows, int64_t n, float eps, const int32_t *sidx, const int32_t *bidx,
                            int64_t rmod)
{
    __shared__ float sh[32];
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        int64_t base = r * n;
        float sum = 0.0f;
        for (int64_t j = threadIdx.x; j < n; j += blockDim.x) sum += ldf(x, base + j);
        float mean = block_reduce(sum, 0, sh) / (float)n;
        float var = 0.0f;
        for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
            float d = ldf(x, base + j) - mean;
            var += d * d;
        }
        float inv = 1.0f / sqrtf(block_reduce(var, 0, sh) / (float)n + eps);
        int64_t ch = r % rmod;
        for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
            float v = (ldf(x, base + j) - mean) * inv * ldf(sc, sidx[j] + ch);
            if (b) v += ldf(b, bidx[j] + ch);
            stf(y, base + j, v);
        }
        if (threadIdx.x == 0) {
            if (mean_out) mean_out[r] = mean;
            if (inv_out) inv_out[r] = inv;
        }
    }
}

extern "C" cudaError_t cc_cuda_layernorm(cudaStream_t s, int dtype, const void *x, const void *sc, const void *b,
                                         void *y, float *mean, float *inv, int64_t rows, int64_t n, float eps,
                                         const int32_t *sidx, const int32_t *bidx, int64_t rmod)
{
    if (rows <= 0 || n <= 0) return cudaSuccess;
    int t = row_threads(n);
    unsigned g = row_blocks(rows);
    switch (dtype) {
    case CC_F32:
        layernorm_k<<<g, t, 0, s>>>((const float *)x, (const float *)sc, (const float *)b, (float *)y, mean, inv,
                                    rows, n, eps, sidx, bidx, rmod);
        break;
    case CC_F16:
        layernorm_k<<<g, t, 0, s>>>((const __half *)x, (const __half *)sc, (const __half *)b, (__half *)y, mean,
                                    inv, rows, n, eps, sidx, bidx, rmod);
        break;
    case CC_BF16:
        layernorm_k<<<g, t, 0, s>>>((const __nv_bfloat16 *)x, (const __nv_bfloat16 *)sc, (const __nv_bfloat16 *)b,
                                    (__nv_bfloat16 *)y, mean, inv, rows, n, eps, sidx, bidx, rmod);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- MeanVarianceNormalization, BatchNormalization in training mode -------------------------- */

/* One block per group: element j of group g at base[g] + off[j]; two passes in f32. Mode 0
 * (MeanVarianceNormalization): y = (x - mean) / (sqrt(var) + eps). Mode 1 (BatchNormalization
 * training, the group is the channel): y = (x - mean) / sqrt(var + eps) * p[0][g] + p[1][g],
 * and where rm (rv) is not NULL rm[g] = p[2][g] * mom + mean * (1 - mom) (rv[g] = p[3][g] *
 * mom + var * (1 - mom)). */
template <typename T>
__global__ void groupnorm_k(const T *x, T *y, const int64_t *base, const int64_t *off, int64_t groups, int64_t n,
                            int mode, float eps, const T *sc, const T *bi, const T *im, const T *iv, T *rm, T *rv,
                            float mom)
{
    __shared__ float sh[32];
    for (int64_t g = blockIdx.x; g < groups; g += gridDim.x) {
        const int64_t b = base[g];
        float sum = 0.0f;
        for (int64_t j = threadIdx.x; j < n; j += blockDim.x) sum += ldf(x, b + off[j]);
        const float mean = block_reduce(sum, 0, sh) / (float)n;
        float var = 0.0f;
        for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
            float d = ldf(x, b + off[j]) - mean;
            var += d * d;
        }
        var = block_reduce(var, 0, sh) / (float)n;
        const float inv = mode ? 1.0f / sqrtf(var + eps) : 1.0f / (sqrtf(var) + eps);
        const float a = mode ? inv * ldf(sc, g) : inv, c = mode ? ldf(bi, g) : 0.0f;
        for (int64_t j = threadIdx.x; j < n; j += blockDim.x) stf(y, b + off[j], (ldf(x, b + off[j]) - mean) * a + c);
        if (mode && threadIdx.x == 0) {
            if (rm) stf(rm, g, ldf(im, g) * mom + mean * (1.0f - mom));
            if (rv) stf(rv, g, ldf(iv, g) * mom + var * (1.0f - mom));
        }
    }
}

extern "C" cudaError_t cc_cuda_groupnorm(cudaStream_t s, int dtype, const void *x, void *y, const int64_t *base,
                                         const int64_t *off, int64_t groups, int64_t n, int mode, float eps,
                                         const void *const *p, void *rm, void *rv, float mom)
{
    if (groups <= 0 || n <= 0) return cudaSuccess;
    int t = row_threads(n);
    unsigned g = row_blocks(groups);
    const void *q[4] = { p ? p[0] : NULL, p ? p[1] : NULL, p ? p[2] : NULL, p ? p[3] : NULL };
    switch (dtype) {
    case CC_F32:
        groupnorm_k<<<g, t, 0, s>>>((const float *)x, (float *)y, base, off, groups, n, mode, eps, (const float *)q[0],
                                    (const float *)q[1], (const float *)q[2], (const float *)q[3], (float *)rm,
                                    (float *)rv, mom);
        break;
    case CC_F16:
        groupnorm_k<<<g, t, 0, s>>>((const __half *)x, (__half *)y, base, off, groups, n, mode, eps, (const __half *)q[0],
                                    (const __half *)q[1], (const __half *)q[2], (const __half *)q[3], (__half *)rm,
                                    (__half *)rv, mom);
        break;
    case CC_BF16:
        groupnorm_k<<<g, t, 0, s>>>((const __nv_bfloat16 *)x, (__nv_bfloat16 *)y, base, off, groups, n, mode, eps,
                                    (const __nv_bfloat16 *)q[0], (const __nv_bfloat16 *)q[1], (const __nv_bfloat16 *)q[2],
                                    (const __nv_bfloat16 *)q[3], (__nv_bfloat16 *)rm, (__nv_bfloat16 *)rv, mom);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- LRN ------------------------------------------------------------------------------------ */

/* One thread per element: the window's sum of squares across channels in f32, then
 * y = x / powf(bias + scale * sum, beta). */
template <typename T>
__global__ void lrn_k(const T *x, T *y, int64_t total, int64_t c, int64_t inner, int64_t lo, int64_t hi, float scale,
                      float beta, float bias)
{
    GRID_LOOP(i, total) {
        int64_t pos = i % inner, ch = (i / inner) % c, img = i / inner / c;
        int64_t k0 = ch - lo < 0 ? 0 : ch - lo, k1 = ch + hi >= c ? c - 1 : ch + hi;
        float sq = 0.0f;
        for (int64_t k = k0; k <= k1; k++) {
            float v = ldf(x, (img * c + k) * inner + pos);
            sq += v * v;
        }
        stf(y, i, ldf(x, i) / powf(bias + scale * sq, beta));
    }
}

extern "C" cudaError_t cc_cuda_lrn(cudaStream_t s, int dtype, const void *x, void *y, int64_t total, int64_t c,
                                   int64_t inner, int64_t size, float alpha, float beta, float bias)
{
    if (total <= 0) return cudaSuccess;
    unsigned b = cc_cuda_blocks(total, CC_CUDA_THREADS);
    int64_t lo = (size - 1) / 2, hi = size - 1 - lo;
    float scale = alpha / (float)size;
    switch (dtype) {
    case CC_F32:
        lrn_k<<<b, CC_CUDA_THREADS, 0, s>>>((const float *)x, (float *)y, total, c, inner, lo, hi, scale, beta, bias);
        break;
    case CC_F16:
        lrn_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __half *)x, (__half *)y, total, c, inner, lo, hi, scale, beta, bias);
        break;
    case CC_BF16:
        lrn_k<<<b, CC_CUDA_THREADS, 0, s>>>((const __nv_bfloat16 *)x, (__nv_bfloat16 *)y, total, c, inner, lo, hi,
                                            scale, beta, bias);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss -------------------------------------- */

/* One thread for the whole loss (losses are small); see cc_cuda_loss. */
template <typename T>
__global__ void loss_k(const T *x, const void *t, int is64, const T *w, T *y, T *lpo, cc_cuda_loss_geom g)
{
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    float total = 0.0f, den = 0.0f;
    for (int64_t img = 0; img < g.n; img++)
        for (int64_t j = 0; j < g.d; j++) {
            int64_t at0 = img * g.d + j;
            int64_t cls = is64 ? ((const int64_t *)t)[at0] : (int64_t)((const int32_t *)t)[at0];
            float shift = 0.0f, ls = 0.0f;
            if (g.softmax) {
                float m = -INFINITY, sum = 0.0f;
                for (int64_t k = 0; k < g.c; k++) m = fmaxf(m, ldf(x, (img * g.c + k) * g.d + j));
                for (int64_t k = 0; k < g.c; k++) sum += expf(ldf(x, (img * g.c + k) * g.d + j) - m);
                shift = m;
                ls = logf(sum);
                for (int64_t k = 0; lpo && k < g.c; k++) {
                    int64_t at = (img * g.c + k) * g.d + j;
                    stf(lpo, at, ldf(x, at) - shift - ls);
                }
            }
            float term = 0.0f, wt = 0.0f;
            if (!(g.has_ignore && cls == g.ignore) && cls >= 0 && cls < g.c) {
                wt = w ? ldf(w, cls) : 1.0f;
                float lp = ldf(x, (img * g.c + cls) * g.d + j);
                if (g.softmax) lp = lp - shift - ls;
                term = -lp * wt;
            }
            if (g.reduction == 0) stf(y, at0, term);
            total += term;
            den += wt;
        }
    if (g.reduction == 1) stf(y, 0, total);
    else if (g.reduction == 2) stf(y, 0, total / den);
}

extern "C" cudaError_t cc_cuda_loss(cudaStream_t s, int dtype, const void *x, const void *t, int is64, const void *w,
                                    void *y, void *lpo, const cc_cuda_loss_geom *g)
{
    switch (dtype) {
    case CC_F32:
        loss_k<<<1, 1, 0, s>>>((const float *)x, t, is64, (const float *)w, (float *)y, (float *)lpo, *g);
        break;
    case CC_F16:
        loss_k<<<1, 1, 0, s>>>((const __half *)x, t, is64, (const __half *)w, (__half *)y, (__half *)lpo, *g);
        break;
    case CC_BF16:
        loss_k<<<1, 1, 0, s>>>((const __nv_bfloat16 *)x, t, is64, (const __nv_bfloat16 *)w, (__nv_bfloat16 *)y,
                               (__nv_bfloat16 *)lpo, *g);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- reductions ---------------------------------------------------------------------------- */

/* One block per output element: each thread folds its share of the reduced elements, the
 * block combines the partial results. */
template <typename T>
__global__ void reduce_k(int op, const T *x, T *y, cc_cuda_walk kept, cc_cuda_walk red,
                         int64_t n_out, int64_t n_red)
{
    __shared__ float sh[32];
    int m = op == CC_CUDA_REDUCE_MAX ? 1 : op == CC_CUDA_REDUCE_MIN ? 2 : op == CC_CUDA_REDUCE_PROD ? 3 : 0;
    for (int64_t o = blockIdx.x; o < n_out; o += gridDim.x) {
        int64_t base = walk_off(kept, 0, o);
        float shift = 0.0f;
        if (op == CC_CUDA_REDUCE_LOGSUMEXP) {
            float mx = -INFINITY;
            for (int64_t r = threadIdx.x; r < n_red; r += blockDim.x)
                mx = combine(1, mx, ldf(x, base + walk_off(red, 0, r)));
            shift = block_combine(mx, 1, sh);
        }
        float acc = combine_identity(m);
        for (int64_t r = threadIdx.x; r < n_red; r += blockDim.x) {
            float v = ldf(x, base + walk_off(red, 0, r));
            switch (op) {
            case CC_CUDA_REDUCE_L1: v = fabsf(v); break;
            case CC_CUDA_REDUCE_L2: case CC_CUDA_REDUCE_SUMSQUARE: v = v * v; break;
            case CC_CUDA_REDUCE_LOGSUMEXP: v = expf(v - shift); break;
            default: break;
            }
            acc = combine(m, acc, v);
        }
        acc = block_combine(acc, m, sh);
        if (threadIdx.x == 0) {
            float r = acc;
            switch (op) {
            case CC_CUDA_REDUCE_MEAN: r = acc / (float)n_red; break;
            case CC_CUDA_REDUCE_L2: r = sqrtf(acc); break;
            case CC_CUDA_REDUCE_LOGSUM: r = logf(acc); break;
            case CC_CUDA_REDUCE_LOGSUMEXP: r = isfinite(shift) ? shift + logf(acc) : shift; break;
            default: break;
            }
            stf(y, o, r);
        }
    }
}

/* The integer reductions (Max, Min, Sum, Prod, L1, SumSquare), one thread per output:
 * exactly, in 64-bit two's complement arithmetic wrapped to T at the end, as the golden
 * model computes them. */
template <typename T>
__global__ void reduce_int_k(int op, const T *x, T *y, cc_cuda_walk kept, cc_cuda_walk red, int64_t n_out,
                             int64_t n_red)
{
    GRID_LOOP(o, n_out) {
        int64_t base = walk_off(kept, 0, o);
        uint64_t acc = op == CC_CUDA_REDUCE_PROD  ? 1u
                       : op == CC_CUDA_REDUCE_MAX ? (uint64_t)INT64_MIN
                       : op == CC_CUDA_REDUCE_MIN ? (uint64_t)INT64_MAX
                                                  : 0u;
        for (int64_t r = 0; r < n_red; r++) {
            int64_t v = (int64_t)x[base + walk_off(red, 0, r)];
            uint64_t u = (uint64_t)v;
            switch (op) {
            case CC_CUDA_REDUCE_MAX: if (v > (int64_t)acc) acc = u; break;
            case CC_CUDA_REDUCE_MIN: if (v < (int64_t)acc) acc = u; break;
            case CC_CUDA_REDUCE_PROD: acc *= u; break;
            case CC_CUDA_REDUCE_L1: acc += v < 0 ? 0u - u : u; break;
            case CC_CUDA_REDUCE_SUMSQUARE: acc += u * u; break;
            default: acc += u; break;
            }
        }
        y[o] = (T)acc;
    }
}

template <typename T>
static cudaError_t reduce_int_launch(cudaStream_t s, int op, const void *x, void *y, const cc_cuda_walk *kept,
                                     const cc_cuda_walk *red, int64_t n_out, int64_t n_red)
{
    switch (op) {
    case CC_CUDA_REDUCE_MAX: case CC_CUDA_REDUCE_MIN: case CC_CUDA_REDUCE_SUM: case CC_CUDA_REDUCE_PROD:
    case CC_CUDA_REDUCE_L1: case CC_CUDA_REDUCE_SUMSQUARE: break;
    default: return cudaErrorInvalidValue; /* the golden model defines no integer mean or log */
    }
    reduce_int_k<<<cc_cuda_blocks(n_out, CC_CUDA_THREADS), CC_CUDA_THREADS, 0, s>>>(op, (const T *)x, (T *)y, *kept,
                                                                                   *red, n_out, n_red);
    return cudaGetLastError();
}

extern "C" cudaError_t cc_cuda_reduce(cudaStream_t s, int op, int dtype, const void *x, void *y,
                                      const cc_cuda_walk *kept, const cc_cuda_walk *red)
{
    int64_t n_out = walk_numel(kept), n_red = walk_numel(red);
    if (n_out <= 0) return cudaSuccess;
    if (n_red <= 0) return cudaErrorInvalidValue; /* an empty reduction has no value here */
    int t = row_threads(n_red);
    unsigned g = row_blocks(n_out);
    switch (dtype) {
    case CC_F32:
        reduce_k<<<g, t, 0, s>>>(op, (const float *)x, (float *)y, *kept, *red, n_out, n_red);
        break;
    case CC_F16:
        reduce_k<<<g, t, 0, s>>>(op, (const __half *)x, (__half *)y, *kept, *red, n_out, n_red);
        break;
    case CC_BF16:
        reduce_k<<<g, t, 0, s>>>(op, (const __nv_bfloat16 *)x, (__nv_bfloat16 *)y, *kept, *red,
                                 n_out, n_red);
        break;
    case CC_I8: return reduce_int_launch<int8_t>(s, op, x, y, kept, red, n_out, n_red);
    case CC_U8: return reduce_int_launch<uint8_t>(s, op, x, y, kept, red, n_out, n_red);
    case CC_I32: return reduce_int_launch<int32_t>(s, op, x, y, kept, red, n_out, n_red);
    case CC_I64: return reduce_int_launch<int64_t>(s, op, x, y, kept, red, n_out, n_red);
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* ---- quantization -------------------------------------------------------------------------- */

__global__ void quantize_k(int xdtype, const void *x, cc_cuda_qparam scale, cc_cuda_qparam zp,
                           int y_u8, void *y, int64_t n, int64_t dim, int64_t inner)
{
    GRID_LOOP(i, n) {
        int64_t c = (i / inner) % dim;
        double v = ld_any(x, xdtype, i) / qp_at(scale, c);
        v = v < -1e9 ? -1e9 : v > 1e9 ? 1e9 : v; /* saturates below anyway */
        v = v != v ? 0.0 : rint(v) + qp_at(zp, c);
        st_q8(y, y_u8, i, v);
    }
}

extern "C" cudaError_t cc_cuda_quantize(cudaStream_t s, int xdtype, const void *x,
                                        cc_cuda_qparam scale, cc_cuda_qparam zp, int ydtype,
                                        void *y, int64_t n, int64_t dim, int64_t inner)
{
    if (n <= 0) return cudaSuccess;
    if (ydtype != CC_U8 && ydtype != CC_I8) return cudaErrorInvalidValue;
    quantize_k<<<cc_cuda_blocks(n, CC_CUDA_THREADS), CC_CUDA_THREADS, 0, s>>>(
        xdtype, x, scale, zp, ydtype == CC_U8, y, n, dim, inner);
    return cudaGetLastError();
}

__global__ void dequantize_k(int xdtype, const void *x, cc_cuda_qparam scale, cc_cuda_qparam zp,
                             float *y, int64_t n, int64_t dim, int64_t inner)
{
    GRID_LOOP(i, n) {
        int64_t c = (i / inner) % dim;
        int64_t d = (int64_t)ld_any(x, xdtype, i) - (int64_t)qp_at(zp, c);
        y[i] = (float)((double)d * qp_at(scale, c));
    }
}

extern "C" cudaError_t cc_cuda_dequantize(cudaStream_t s, int xdtype, const void *x,
                                          cc_cuda_qparam scale, cc_cuda_qparam zp, float *y,
                                          int64_t n, int64_t dim, int64_t inner)
{
    if (n <= 0) return cudaSuccess;
    dequantize_k<<<cc_cuda_blocks(n, CC_CUDA_THREADS), CC_CUDA_THREADS, 0, s>>>(
        xdtype, x, scale, zp, y, n, dim, inner);
    return cudaGetLastError();
}

/* ---- DynamicQuantizeLinear -------------------------------------------------------------------- */

__global__ void dql_range_k(const float *x, int64_t n, float *p)
{
    __shared__ float lo[256], hi[256];
    int l = threadIdx.x;
    float a = 0.0f, b = 0.0f;
    for (int64_t i = l; i < n; i += blockDim.x) {
        a = fminf(a, x[i]);
        b = fmaxf(b, x[i]);
    }
    lo[l] = a;
    hi[l] = b;
    __syncthreads();
    for (int h = blockDim.x / 2; h > 0; h /= 2) {
        if (l < h) {
            lo[l] = fminf(lo[l], lo[l + h]);
            hi[l] = fmaxf(hi[l], hi[l + h]);
        }
        __syncthreads();
    }
    if (l == 0) {
        float s = (hi[0] - lo[0]) / 255.0f;
        p[0] = s;
        p[1] = fminf(fmaxf(rintf(-lo[0] / s), 0.0f), 255.0f);
    }
}

__global__ void dql_apply_k(const float *x, uint8_t *y, int64_t n, const float *p, float *ys, uint8_t *yz)
{
    GRID_LOOP(i, n) y[i] = (uint8_t)fminf(fmaxf(rintf(x[i] / p[0]) + p[1], 0.0f), 255.0f);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        if (ys) ys[0] = p[0];
        if (yz) yz[0] = (uint8_t)p[1];
    }
}

extern "C" cudaError_t cc_cuda_dynamic_quantize(cudaStream_t s, const float *x, uint8_t *y, int64_t n, float *p,
                                                float *ys, uint8_t *yz)
{
    dql_range_k<<<1, 256, 0, s>>>(x, n, p);
    dql_apply_k<<<cc_cuda_blocks(n > 0 ? n : 1, CC_CUDA_THREADS), CC_CUDA_THREADS, 0, s>>>(x, y, n, p, ys, yz);
    return cudaGetLastError();
}
