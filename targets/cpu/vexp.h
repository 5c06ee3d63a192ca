/* vexp.h — an f32 exponential for the cpu backend's kernels (Exp, Sigmoid, Softmax) written
 * so that GCC vectorises loops calling it: no branches, no library calls, integer
 * exponent built with shifts. Accuracy: within 1.5 ulp of exp over the whole float range
 * (checked in targets/cpu/tests/test_cpu_eltwise.c); overflow gives +inf, results below
 * the smallest subnormal round to 0, subnormal results are rounded once, NaN stays NaN.
 *
 * Method: k = round(x / ln 2), r = x - k ln 2 in two parts (Cody-Waite: k * LN2_HI is
 * exact), exp(r) by its degree-7 Taylor polynomial (|r| <= 0.347, truncation below
 * 0.1 ulp), then scaling by 2^k as two exact powers of two so the only rounding of the
 * scaling is the last product (correct for subnormal results too). */
#ifndef CC_CPU_VEXP_H
#define CC_CPU_VEXP_H

#include <stdint.h>
#include <string.h>

/* 2^e as a float for a normal exponent e (-126 .. 127). */
static inline float cc_cpu_pow2i(int32_t e)
{
    uint32_t b = (uint32_t)(e + 127) << 23;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* Bitwise select: a where mask is all ones, b where it is zero. FP selects written with
 * ?: stay branches under GCC's default -ftrapping-math; this form vectorises. */
static inline float cc_cpu_select(uint32_t mask, float a, float b)
{
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    ua = (ua & mask) | (ub & ~mask);
    float r;
    memcpy(&r, &ua, sizeof r);
    return r;
}

/* exp(x) in f32, within 1.5 ulp (see the top of this file). */
static inline float cc_cpu_expf(float x)
{
    const float log2e = 1.44269504088896341f;
    const float ln2_hi = 0.693359375f;          /* 9 significant bits: k * ln2_hi is exact */
    const float ln2_lo = -2.12194440054690583e-4f;
    const float round_magic = 12582912.0f;      /* 1.5 * 2^23: adding it rounds to an integer */
    uint32_t ux;
    memcpy(&ux, &x, sizeof ux);
    uint32_t is_nan = -(uint32_t)((ux & 0x7fffffffu) > 0x7f800000u);
    /* exp(-104) < 2^-150 rounds to 0 (NaN goes there too); exp(89) > FLT_MAX overflows */
    float xc = cc_cpu_select(-(uint32_t)(x > -104.0f), x, -104.0f);
    xc = cc_cpu_select(-(uint32_t)(xc < 89.0f), xc, 89.0f);
    float kf = (xc * log2e + round_magic) - round_magic;
    float r = xc - kf * ln2_hi;
    r = r - kf * ln2_lo;
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    int32_t k = (int32_t)kf;                    /* -150 .. 128 */
    int32_t k1 = k / 2, k2 = k - k1;            /* each -75 .. 64: normal powers of two */
    float y = (p * cc_cpu_pow2i(k1)) * cc_cpu_pow2i(k2);
    return cc_cpu_select(is_nan, x, y);
}

#endif
