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

/* Rounds v to the nearest integer, ties to even (the default rounding mode), for
 * |v| < 2^51 (larger values come back unchanged or off by the rounding of v + 1.5*2^52;
 * callers saturate far below that). Adding 1.5 * 2^52 leaves no fraction bits. */
static inline double cc_cpu_rne(double v)
{
    const double big = 6755399441055744.0;
    return (v + big) - big;
}

#endif
