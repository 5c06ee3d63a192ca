/* common.c — helpers shared by the cpu kernel files: valid output ranges of sliding
 * windows, quantization parameter access, integer GEMM and transposes, and
 * OpenBLAS sgemm on every OpenMP thread (common.h). */
#include "common.h"

#include <math.h>
#include <omp.h>
#include <string.h>

#include <cblas.h>

void cc_cpu_valid_range(int64_t off, int64_t stride, int64_t in, int64_t out, int64_t *lo,
                        int64_t *hi)
{
    int64_t l = off >= 0 ? 0 : (-off + stride - 1) / stride;
    int64_t h = in - 1 - off < 0 ? 0 : (in - 1 - off) / stride + 1;
    if (h > out) h = out;
    if (l > h) l = h;
    *lo = l;
    *hi = h;
}

float cc_cpu_scale_at(const cc_tensor *t, int64_t i)
{
    if (cc_tensor_numel(t) == 1) i = 0;
    return (float)cc_load(t->data, t->dtype, (size_t)i);
}

int32_t cc_cpu_zp_at(const cc_tensor *t, int64_t i)
{
    if (!t || !t->data) return 0;
    if (cc_tensor_numel(t) == 1) i = 0;
    return (int32_t)cc_load(t->data, t->dtype, (size_t)i);
}

/* One 4x4 block of c: 16 dot products over k sharing 8 row loads per step. */
static void igemm_tile44(int64_t k, const int16_t *a, const int16_t *bt, int32_t *c, int64_t ldc)
{
    const int16_t *a0 = a, *a1 = a + k, *a2 = a + 2 * k, *a3 = a + 3 * k;
    const int16_t *b0 = bt, *b1 = bt + k, *b2 = bt + 2 * k, *b3 = bt + 3 * k;
    int32_t s00 = 0, s01 = 0, s02 = 0, s03 = 0, s10 = 0, s11 = 0, s12 = 0, s13 = 0;
    int32_t s20 = 0, s21 = 0, s22 = 0, s23 = 0, s30 = 0, s31 = 0, s32 = 0, s33 = 0;
    for (int64_t l = 0; l < k; l++) {
        int32_t x0 = a0[l], x1 = a1[l], x2 = a2[l], x3 = a3[l];
        int32_t y0 = b0[l], y1 = b1[l], y2 = b2[l], y3 = b3[l];
        s00 += x0 * y0, s01 += x0 * y1, s02 += x0 * y2, s03 += x0 * y3;
        s10 += x1 * y0, s11 += x1 * y1, s12 += x1 * y2, s13 += x1 * y3;
        s20 += x2 * y0, s21 += x2 * y1, s22 += x2 * y2, s23 += x2 * y3;
        s30 += x3 * y0, s31 += x3 * y1, s32 += x3 * y2, s33 += x3 * y3;
    }
    int32_t *c0 = c, *c1 = c + ldc, *c2 = c + 2 * ldc, *c3 = c + 3 * ldc;
    c0[0] = s00, c0[1] = s01, c0[2] = s02, c0[3] = s03;
    c1[0] = s10, c1[1] = s11, c1[2] = s12, c1[3] = s13;
    c2[0] = s20, c2[1] = s21, c2[2] = s22, c2[3] = s23;
    c3[0] = s30, c3[1] = s31, c3[2] = s32, c3[3] = s33;
}

static int32_t idot(int64_t k, const int16_t *a, const int16_t *b)
{
    int32_t s = 0;
    for (int64_t l = 0; l < k; l++) s += (int32_t)a[l] * b[l];
    return s;
}

void cc_cpu_igemm_nt(int64_t m, int64_t n, int64_t k, const int16_t *a, const int16_t *bt,
                     int32_t *c, int64_t ldc)
{
    const int64_t mt = (m + 3) / 4, nt = (n + 3) / 4;
#pragma omp parallel for schedule(static) if (m * n * k > 65536)
    for (int64_t t = 0; t < mt * nt; t++) {
        int64_t i0 = t / nt * 4, j0 = t % nt * 4;
        if (i0 + 4 <= m && j0 + 4 <= n) {
            igemm_tile44(k, a + i0 * k, bt + j0 * k, c + i0 * ldc + j0, ldc);
            continue;
        }
        for (int64_t i = i0; i < i0 + 4 && i < m; i++)
            for (int64_t j = j0; j < j0 + 4 && j < n; j++) c[i * ldc + j] = idot(k, a + i * k, bt + j * k);
    }
}

void cc_cpu_transpose16(const int16_t *src, int64_t rows, int64_t cols, int16_t *dst)
{
    enum { TB = 64 };
    const int64_t rb = (rows + TB - 1) / TB, cb = (cols + TB - 1) / TB;
#pragma omp parallel for schedule(static) if (rows * cols > 65536)
    for (int64_t t = 0; t < rb * cb; t++) {
        int64_t r0 = t / cb * TB, c0 = t % cb * TB;
        int64_t r1 = r0 + TB < rows ? r0 + TB : rows, c1 = c0 + TB < cols ? c0 + TB : cols;
        for (int64_t r = r0; r < r1; r++)
            for (int64_t c = c0; c < c1; c++) dst[c * rows + r] = src[r * cols + c];
    }
}

void cc_cpu_blas_single_thread(void)
{
    static int done;
    if (__atomic_load_n(&done, __ATOMIC_ACQUIRE)) return;
    openblas_set_num_threads(1);
    __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
}

/* Below this many multiply-adds a product runs on one thread. */
#define SGEMM_PAR_MIN 65536

void cc_cpu_sgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                  const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                  int64_t ldc)
{
    if (m <= 0 || n <= 0) return;
    cc_cpu_blas_single_thread();
    const enum CBLAS_TRANSPOSE ta = trans_a ? CblasTrans : CblasNoTrans;
    const enum CBLAS_TRANSPOSE tb = trans_b ? CblasTrans : CblasNoTrans;
    if (lda < 1) lda = 1;
    if (ldb < 1) ldb = 1;
    if (ldc < 1) ldc = 1;
    if (k <= 0) {
        /* no products: c = beta * c (beta 0 writes zeros, whatever c held) */
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) c[i * ldc + j] = beta == 0.0f ? 0.0f : beta * c[i * ldc + j];
        return;
    }
    int nt = omp_get_max_threads();
    if (nt < 2 || (double)m * (double)n * (double)k < SGEMM_PAR_MIN) {
        cblas_sgemm(CblasRowMajor, ta, tb, (int)m, (int)n, (int)k, alpha, a, (int)lda, b, (int)ldb, beta,
                    c, (int)ldc);
        return;
    }
    /* split the rows unless there are too few of them to keep every thread busy; split
     * columns in multiples of 16 (the width of the sgemm micro-kernels' vectors) */
    int by_rows = m >= 8 * (int64_t)nt || m >= n;
    int64_t extent = by_rows ? m : n;
    int parts = (int)(extent < nt ? extent : nt);
#pragma omp parallel num_threads(parts)
    {
        int id = omp_get_thread_num(), np = omp_get_num_threads();
        int64_t lo = extent * id / np, hi = extent * (id + 1) / np;
        if (!by_rows) {
            lo = id == 0 ? 0 : lo / 16 * 16;
            hi = id == np - 1 ? extent : hi / 16 * 16;
        }
        if (hi > lo) {
            if (by_rows)
                cblas_sgemm(CblasRowMajor, ta, tb, (int)(hi - lo), (int)n, (int)k, alpha,
                            trans_a ? a + lo : a + lo * lda, (int)lda, b, (int)ldb, beta, c + lo * ldc,
                            (int)ldc);
            else
                cblas_sgemm(CblasRowMajor, ta, tb, (int)m, (int)(hi - lo), (int)k, alpha, a, (int)lda,
                            trans_b ? b + lo * ldb : b + lo, (int)ldb, beta, c + lo, (int)ldc);
        }
    }
}

int cc_cpu_stage_operand(const cc_tensor *t, float **copy, int *fixed)
{
    if (!t || t->dtype == CC_F32) return 0;
    if (!(*copy = cc_cpu_alloc_f32(cc_tensor_numel(t)))) return -1;
    if (t->data) {
        cc_cpu_to_f32(t->data, t->dtype, *copy, cc_tensor_numel(t));
        *fixed = 1;
    }
    return 0;
}

/* ---- elements of every dtype ------------------------------------------------------------ */

/* f with its last significand bit set (f finite or zero, of either sign). */
static float set_last_bit(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    b |= 1u;
    memcpy(&f, &b, 4);
    return f;
}

float cc_cpu_f64_to_f32_odd(double v)
{
    float f = (float)v;
    if (v != v || (double)f == v) return f;
    if (fabs((double)f) > fabs(v)) f = nextafterf(f, 0.0f); /* toward zero: from inf too */
    return set_last_bit(f);
}

void cc_cpu_real_put(void *p, cc_dtype d, int64_t i, double v)
{
    switch (d) {
    case CC_F64: ((double *)p)[i] = v; break;
    case CC_F32: ((float *)p)[i] = (float)v; break;
    case CC_F16: ((uint16_t *)p)[i] = cc_f32_to_f16(cc_cpu_f64_to_f32_odd(v)); break;
    case CC_BF16: ((uint16_t *)p)[i] = cc_f32_to_bf16(cc_cpu_f64_to_f32_odd(v)); break;
    default: break;
    }
}

void cc_cpu_int_to_real_put(void *p, cc_dtype d, int64_t i, uint64_t bits, int is_unsigned)
{
    /* an unsigned value below 2^63 converts as signed: the faster instruction, same value */
    int uns = is_unsigned && (int64_t)bits < 0;
    switch (d) {
    case CC_F64: ((double *)p)[i] = uns ? (double)bits : (double)(int64_t)bits; break;
    case CC_F32: ((float *)p)[i] = uns ? (float)bits : (float)(int64_t)bits; break;
    case CC_F16:
    case CC_BF16: {
        /* rounded to odd as a float: long double holds every 64-bit integer exactly */
        long double x = is_unsigned ? (long double)bits : (long double)(int64_t)bits;
        float f = (float)x;
        if ((long double)f != x) {
            if (fabsl((long double)f) > fabsl(x)) f = nextafterf(f, 0.0f);
            f = set_last_bit(f);
        }
        ((uint16_t *)p)[i] = d == CC_F16 ? cc_f32_to_f16(f) : cc_f32_to_bf16(f);
        break;
    }
    default: break;
    }
}
