/* common.h — helpers shared by the cpu backend's kernel files (not part of the backend
 * ABI): plan notes, f32 staging of f16/bf16 tensors, attribute lists with defaults, the
 * window geometry of convolutions and pools, and quantization parameter access. */
#ifndef CC_CPU_COMMON_H
#define CC_CPU_COMMON_H

#include "cpu.h"

/* Records a short note on how the kernel whose prepare() is running will execute its
 * node ("im2col+sgemm"); cpu.c shows it in describe_plan. Call from prepare() only
 * (single-threaded); a later call replaces the note. */
void cc_cpu_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- f32 staging --------------------------------------------------------------------- */

/* f32 view of t's data: t->data itself when t is f32, else the values converted into
 * scratch (which must hold numel(t) floats). */
const float *cc_cpu_f32_in(const cc_tensor *t, float *scratch);

/* Allocates n floats (64-byte aligned, at least one), NULL on failure; free with free(). */
float *cc_cpu_alloc_f32(int64_t n);

/* ---- attributes ---------------------------------------------------------------------- */

/* Fills v[0..n-1] from the ints attribute `name` when the schema has it and it is set,
 * else with `def`. Returns -1 when a set attribute has a length other than n. */
int cc_cpu_attr_ints(const cc_node *node, const char *name, int n, int64_t def, int64_t *v);
/* Integer attribute `name` if the schema has it and it is set, else def. */
int64_t cc_cpu_attr_int(const cc_node *node, const char *name, int64_t def);

/* ---- windows (Conv, pools) ------------------------------------------------------------ */

#define CC_CPU_MAX_SPATIAL 3

/* Geometry of a sliding window over the spatial dims of an N x C x spatial tensor,
 * always as three axes (depth, height, width): a 1-D or 2-D window fills the last axes
 * and leaves the leading ones of size 1 (in, out, k, stride, dilation 1; pads 0), so
 * kernels are written once for 1-D, 2-D and 3-D. */
typedef struct cc_cpu_window {
    int nsp;                              /* true spatial rank, 1..CC_CPU_MAX_SPATIAL */
    int64_t in[CC_CPU_MAX_SPATIAL];       /* input extent */
    int64_t out[CC_CPU_MAX_SPATIAL];      /* output extent (from the inferred output) */
    int64_t k[CC_CPU_MAX_SPATIAL];        /* kernel extent */
    int64_t stride[CC_CPU_MAX_SPATIAL];
    int64_t dil[CC_CPU_MAX_SPATIAL];
    int64_t pad0[CC_CPU_MAX_SPATIAL];     /* padding before (begin) */
    int64_t pad1[CC_CPU_MAX_SPATIAL];     /* padding after (end) */
} cc_cpu_window;

/* Resolves strides, dilations (when the op has them), pads and auto_pad for an input of
 * shape x (N x C x spatial), kernel extents k and output shape y. CC_ERR_ARG or
 * CC_ERR_UNSUPPORTED with a one-line message naming op. */
cc_status cc_cpu_window_make(const cc_node *node, const cc_shape *x, const int64_t *k,
                             const cc_shape *y, cc_cpu_window *w, cc_err *err);

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
