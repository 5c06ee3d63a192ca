/* common.h — helpers shared by the cpu backend's kernel files (not part of the backend
 * ABI): f32 staging of f16/bf16 tensors, valid output ranges of sliding windows, and
 * quantization parameter access; plan notes, attributes with defaults, broadcasting and
 * window geometry are the backends' shared ones (../backend.h). */
#ifndef CC_CPU_COMMON_H
#define CC_CPU_COMMON_H

#include "cpu.h"
#include "../backend.h"

/* ---- f32 staging --------------------------------------------------------------------- */

/* f32 view of t's data: t->data itself when t is f32, else the values converted into
 * scratch (which must hold numel(t) floats). */
const float *cc_cpu_f32_in(const cc_tensor *t, float *scratch);

/* For an operand t that is not f32 (a constant weight or bias of f16/bf16 data): allocates
 * *copy (numel(t) floats) and, when t holds data at prepare time, converts it there and
 * sets *fixed (run converts it otherwise). Nothing for an absent or f32 t. -1 when out of
 * memory, else 0. */
int cc_cpu_stage_operand(const cc_tensor *t, float **copy, int *fixed);

/* Allocates n floats (64-byte aligned, at least one), NULL on failure; free with free(). */
float *cc_cpu_alloc_f32(int64_t n);

/* ---- windows (Conv, pools; their geometry: cc_backend_window_make) ---------------------- */

/* First and one-past-last output index o along an axis whose input index
 * o * stride + off lies in [0, in), clamped to [0, out). */
void cc_cpu_valid_range(int64_t off, int64_t stride, int64_t in, int64_t out, int64_t *lo,
                        int64_t *hi);

/* ---- quantization parameters ---------------------------------------------------------- */

/* Element i of a scale tensor (f32, f16 or bf16) as float; a scalar or 1-element tensor
 * gives the same value for every i. */
float cc_cpu_scale_at(const cc_tensor *t, int64_t i);
/* Element i of a zero-point tensor (any integer type) as int32; NULL gives 0; a scalar
 * or 1-element tensor gives the same value for every i. */
int32_t cc_cpu_zp_at(const cc_tensor *t, int64_t i);
/* c = alpha * op(a) @ op(b) + beta * c, row-major (op transposes when trans_*), with
 * op(a) m x k and op(b) k x n, on every OpenMP thread: c's rows (or, when it has few,
 * its columns) are split evenly and each part is one single-threaded cblas_sgemm called
 * inside the parallel region. The cpu backend runs OpenBLAS single-threaded (this
 * function makes sure of it): OpenBLAS's own worker threads and OpenMP's, each spinning
 * while the other works, would fight over the cores. Small products run on one thread.
 * Must not be called inside an OpenMP parallel region. */
void cc_cpu_sgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                  const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                  int64_t ldc);

/* Makes OpenBLAS single-threaded (once per process); see cc_cpu_sgemm. */
void cc_cpu_blas_single_thread(void);

/* c[M x N] (row stride ldc) = a[M x K] @ bt[N x K]^T, both operands int16 with rows of
 * K contiguous elements, accumulated exactly in int32 (|sum| < 2^31 is the caller's
 * promise). Blocks of 4x4 outputs share their operand loads; each output is a dot
 * product over contiguous K, which compilers turn into multiply-add-pairs instructions
 * (pmaddwd; vpdpwssd with VNNI under -march=native). On both cores when large. */
void cc_cpu_igemm_nt(int64_t m, int64_t n, int64_t k, const int16_t *a, const int16_t *bt,
                     int32_t *c, int64_t ldc);

/* dst[C x R] = src[R x C]^T for int16 elements (blocked; on both cores when large). */
void cc_cpu_transpose16(const int16_t *src, int64_t rows, int64_t cols, int16_t *dst);

/* ---- elements of every dtype (the generic kernels: ABI 8's f64, i16, u16, u32, u64) ----- */

/* 1 for the unsigned integer types (u8, u16, u32, u64) and bool. */
static inline int cc_cpu_is_unsigned(cc_dtype d)
{
    return d == CC_U8 || d == CC_U16 || d == CC_U32 || d == CC_U64 || d == CC_BOOL;
}

/* Element i of integer or bool data of dtype d as 64 bits: signed types sign-extended,
 * unsigned ones zero-extended (so a u64 past 2^63 keeps its value as uint64_t); 0 for a
 * float dtype. */
static inline uint64_t cc_cpu_int_at(const void *p, cc_dtype d, int64_t i)
{
    switch (d) {
    case CC_I8: return (uint64_t)(int64_t)((const int8_t *)p)[i];
    case CC_U8: case CC_BOOL: return ((const uint8_t *)p)[i];
    case CC_I16: return (uint64_t)(int64_t)((const int16_t *)p)[i];
    case CC_U16: return ((const uint16_t *)p)[i];
    case CC_I32: return (uint64_t)(int64_t)((const int32_t *)p)[i];
    case CC_U32: return ((const uint32_t *)p)[i];
    case CC_I64: return (uint64_t)((const int64_t *)p)[i];
    case CC_U64: return ((const uint64_t *)p)[i];
    default: return 0;
    }
}

/* Stores the low bits of v as element i of integer data of dtype d (two's complement
 * wrap-around, as numpy and ONNX runtimes narrow); bool stores v != 0. */
static inline void cc_cpu_int_put(void *p, cc_dtype d, int64_t i, uint64_t v)
{
    switch (d) {
    case CC_I8: case CC_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
    case CC_BOOL: ((uint8_t *)p)[i] = v != 0; break;
    case CC_I16: case CC_U16: ((uint16_t *)p)[i] = (uint16_t)v; break;
    case CC_I32: case CC_U32: ((uint32_t *)p)[i] = (uint32_t)v; break;
    case CC_I64: case CC_U64: ((uint64_t *)p)[i] = v; break;
    default: break;
    }
}

/* Element i of float data (f32, f16, bf16, f64) as a double, exactly; 0 for others. */
static inline double cc_cpu_real_at(const void *p, cc_dtype d, int64_t i)
{
    switch (d) {
    case CC_F32: return ((const float *)p)[i];
    case CC_F64: return ((const double *)p)[i];
    case CC_F16: return cc_f16_to_f32(((const uint16_t *)p)[i]);
    case CC_BF16: return cc_bf16_to_f32(((const uint16_t *)p)[i]);
    default: return 0;
    }
}

/* v rounded to float by rounding to odd: truncated toward zero, its last bit set where
 * bits were lost (NaN stays NaN). A second rounding of the result to f16 or bf16, whose
 * significands are shorter by far more than two bits, rounds as v itself would. */
float cc_cpu_f64_to_f32_odd(double v);

/* Stores v as element i of float data of dtype d (f32, f16, bf16, f64), rounded once to
 * nearest even (f16 and bf16 through cc_cpu_f64_to_f32_odd). */
void cc_cpu_real_put(void *p, cc_dtype d, int64_t i, double v);

/* The integer (bits as from cc_cpu_int_at; unsigned when is_unsigned) rounded once to
 * nearest even as a double. */
static inline double cc_cpu_int_to_real(uint64_t bits, int is_unsigned)
{
    return is_unsigned && (int64_t)bits < 0 ? (double)bits : (double)(int64_t)bits;
}

/* Stores the integer (bits; unsigned when is_unsigned) as element i of float data of
 * dtype d, rounded once to nearest even (a 64-bit integer past 2^53 too). */
void cc_cpu_int_to_real_put(void *p, cc_dtype d, int64_t i, uint64_t bits, int is_unsigned);

/* Rounds v to the nearest integer, ties to even (the default rounding mode), for
 * |v| < 2^51 (larger values come back unchanged or off by the rounding of v + 1.5*2^52;
 * callers saturate far below that). Adding 1.5 * 2^52 leaves no fraction bits. */
static inline double cc_cpu_rne(double v)
{
    const double big = 6755399441055744.0;
    return (v + big) - big;
}

#endif
