/* dtype.c — element types and the f16/bf16 conversions (round to nearest even). */
#include "dtype.h"

#include <math.h>
#include <string.h>

static const char *const names[CC_DTYPE_COUNT] = {
    "f32", "f16", "bf16", "i8", "u8", "i32", "i64", "bool", "f64", "i16", "u16", "u32", "u64"
};
static const size_t sizes[CC_DTYPE_COUNT] = { 4, 2, 2, 1, 1, 4, 8, 1, 8, 2, 2, 4, 8 };

size_t cc_dtype_size(cc_dtype d) { return (unsigned)d < CC_DTYPE_COUNT ? sizes[d] : 0; }

const char *cc_dtype_name(cc_dtype d) { return (unsigned)d < CC_DTYPE_COUNT ? names[d] : "?"; }

int cc_dtype_parse(const char *name, cc_dtype *out)
{
    for (int i = 0; i < CC_DTYPE_COUNT; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (cc_dtype)i;
            return 0;
        }
    return -1;
}

int cc_dtype_is_float(cc_dtype d) { return d == CC_F32 || d == CC_F16 || d == CC_BF16 || d == CC_F64; }

double cc_dtype_unit_roundoff(cc_dtype d)
{
    switch (d) {
    case CC_F32: return ldexp(1.0, -24);
    case CC_F16: return ldexp(1.0, -11);
    case CC_BF16: return ldexp(1.0, -8);
    case CC_F64: return ldexp(1.0, -53);
    default: return 0.0;
    }
}

double cc_dtype_min_subnormal(cc_dtype d)
{
    switch (d) {
    case CC_F32: return ldexp(1.0, -149);
    case CC_F16: return ldexp(1.0, -24);
    case CC_BF16: return ldexp(1.0, -133);
    case CC_F64: return ldexp(1.0, -1074);
    default: return 0.0;
    }
}

double cc_dtype_min(cc_dtype d)
{
    switch (d) {
    case CC_F32: return -3.4028234663852886e38;
    case CC_F16: return -65504.0;
    case CC_BF16: return -3.3895313892515355e38;
    case CC_I8: return -128;
    case CC_U8: return 0;
    case CC_I32: return -2147483648.0;
    case CC_I64: return -9223372036854775808.0;
    case CC_BOOL: return 0;
    case CC_F64: return -1.7976931348623157e308;
    case CC_I16: return -32768;
    case CC_U16: case CC_U32: case CC_U64: return 0;
    default: return 0;
    }
}

double cc_dtype_max(cc_dtype d)
{
    switch (d) {
    case CC_F32: return 3.4028234663852886e38;
    case CC_F16: return 65504.0;
    case CC_BF16: return 3.3895313892515355e38;
    case CC_I8: return 127;
    case CC_U8: return 255;
    case CC_I32: return 2147483647.0;
    case CC_I64: return 9223372036854775807.0;
    case CC_BOOL: return 1;
    case CC_F64: return 1.7976931348623157e308;
    case CC_I16: return 32767;
    case CC_U16: return 65535;
    case CC_U32: return 4294967295.0;
    case CC_U64: return 18446744073709551615.0;
    default: return 0;
    }
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* f32 -> f16 on the bit patterns: the kept bits are the top of the significand, the
 * rest decides rounding (round half to even), with subnormal outputs shifted further. */
uint16_t cc_f32_to_f16(float f)
{
    uint32_t x = f32_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;

    if (exp == 0xffu) { /* inf or NaN */
        if (man == 0) return sign | 0x7c00u;
        return sign | 0x7e00u | (uint16_t)(man >> 13); /* quiet NaN, payload top bits */
    }
    int e = (int)exp - 127 + 15; /* biased f16 exponent */
    if (e >= 31) return sign | 0x7c00u; /* overflow to inf (rounding cannot save it) */
    if (e <= 0) {
        /* subnormal (or zero) in f16: value = man' * 2^-24 */
        if (e < -10) return sign; /* below half the smallest subnormal: rounds to 0 */
        uint32_t m = man | 0x800000u;     /* implicit bit */
        int shift = 14 - e;               /* 24-bit significand down to the f16 subnormal grid */
        uint32_t kept = m >> shift;
        uint32_t rest = m & ((1u << shift) - 1u);
        uint32_t half = 1u << (shift - 1);
        if (rest > half || (rest == half && (kept & 1u))) kept++;
        return sign | (uint16_t)kept; /* a carry into bit 10 gives the smallest normal: correct */
    }
    uint32_t kept = man >> 13;
    uint32_t rest = man & 0x1fffu;
    uint16_t h = sign | (uint16_t)((uint32_t)e << 10) | (uint16_t)kept;
    if (rest > 0x1000u || (rest == 0x1000u && (kept & 1u))) h++; /* carry may reach inf: correct */
    return h;
}

float cc_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0x1fu) return bits_f32(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        /* zero or subnormal: man * 2^-24, exact in f32 */
        float v = (float)man * 5.9604644775390625e-08f;
        return sign ? -v : v;
    }
    return bits_f32(sign | ((exp - 15 + 127) << 23) | (man << 13));
}

uint16_t cc_f32_to_bf16(float f)
{
    uint32_t x = f32_bits(f);
    if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu))
        return (uint16_t)((x >> 16) | 0x40u); /* NaN stays NaN: set the quiet bit */
    uint32_t rest = x & 0xffffu;
    uint32_t kept = x >> 16;
    if (rest > 0x8000u || (rest == 0x8000u && (kept & 1u))) kept++;
    return (uint16_t)kept;
}

float cc_bf16_to_f32(uint16_t h) { return bits_f32((uint32_t)h << 16); }

double cc_load(const void *data, cc_dtype d, size_t i)
{
    switch (d) {
    case CC_F32: return ((const float *)data)[i];
    case CC_F16: return cc_f16_to_f32(((const uint16_t *)data)[i]);
    case CC_BF16: return cc_bf16_to_f32(((const uint16_t *)data)[i]);
    case CC_I8: return ((const int8_t *)data)[i];
    case CC_U8: return ((const uint8_t *)data)[i];
    case CC_I32: return ((const int32_t *)data)[i];
    case CC_I64: return (double)((const int64_t *)data)[i];
    case CC_BOOL: return ((const uint8_t *)data)[i] ? 1.0 : 0.0;
    case CC_F64: return ((const double *)data)[i];
    case CC_I16: return ((const int16_t *)data)[i];
    case CC_U16: return ((const uint16_t *)data)[i];
    case CC_U32: return ((const uint32_t *)data)[i];
    case CC_U64: return (double)((const uint64_t *)data)[i];
    default: return NAN;
    }
}

int64_t cc_load_i64(const void *data, cc_dtype d, size_t i)
{
    switch (d) {
    case CC_I64: return ((const int64_t *)data)[i];
    case CC_U64: {
        uint64_t u = ((const uint64_t *)data)[i];
        return u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
    }
    default: {
        double v = cc_load(data, d, i);
        if (isnan(v)) return 0;
        if (v >= 9223372036854775808.0) return INT64_MAX; /* 2^63: past every int64 */
        if (v < -9223372036854775808.0) return INT64_MIN;
        return (int64_t)v; /* toward zero */
    }
    }
}

static double round_sat(double v, double lo, double hi)
{
    if (isnan(v)) return 0;
    double r = nearbyint(v); /* default rounding mode: ties to even */
    if (r < lo) r = lo;
    if (r > hi) r = hi;
    return r;
}

/* Rounding a double to f16/bf16 through f32 can double-round; go straight from double. */
static double round_to_grid(double v, int man_bits, int emin, double maxv)
{
    if (isnan(v) || isinf(v) || v == 0) return v;
    int e;
    frexp(v, &e); /* v = m * 2^e, 0.5 <= |m| < 1 */
    int exp = e - 1;
    if (exp < emin) exp = emin; /* subnormal grid */
    double quantum = ldexp(1.0, exp - man_bits);
    double r = nearbyint(v / quantum) * quantum;
    if (fabs(r) > maxv) return v > 0 ? INFINITY : -INFINITY;
    return r;
}

int cc_dtype_from_onnx(int64_t onnx, cc_dtype *out, const char **onnx_name)
{
    static const struct {
        const char *name;
        int dtype; /* -1: none in crosscheck */
    } types[] = {
        [1] = { "FLOAT", CC_F32 },       [2] = { "UINT8", CC_U8 },         [3] = { "INT8", CC_I8 },
        [4] = { "UINT16", CC_U16 },      [5] = { "INT16", CC_I16 },        [6] = { "INT32", CC_I32 },
        [7] = { "INT64", CC_I64 },       [8] = { "STRING", -1 },           [9] = { "BOOL", CC_BOOL },
        [10] = { "FLOAT16", CC_F16 },    [11] = { "DOUBLE", CC_F64 },      [12] = { "UINT32", CC_U32 },
        [13] = { "UINT64", CC_U64 },         [14] = { "COMPLEX64", -1 },       [15] = { "COMPLEX128", -1 },
        [16] = { "BFLOAT16", CC_BF16 },
    };
    if (onnx_name) *onnx_name = NULL;
    if (onnx < 1 || onnx >= (int64_t)(sizeof types / sizeof types[0])) return -1;
    if (onnx_name) *onnx_name = types[onnx].name;
    if (types[onnx].dtype < 0) return -1;
    *out = (cc_dtype)types[onnx].dtype;
    return 0;
}

double cc_round_to(cc_dtype d, double v)
{
    switch (d) {
    case CC_F32: return (double)(float)v;
    case CC_F16: return round_to_grid(v, 10, -14, 65504.0);
    case CC_BF16: return round_to_grid(v, 7, -126, 3.3895313892515355e38);
    default: return v;
    }
}

void cc_store(void *data, cc_dtype d, size_t i, double v)
{
    switch (d) {
    case CC_F32: ((float *)data)[i] = (float)v; break;
    case CC_F16: ((uint16_t *)data)[i] = cc_f32_to_f16((float)cc_round_to(CC_F16, v)); break;
    case CC_BF16: ((uint16_t *)data)[i] = cc_f32_to_bf16((float)cc_round_to(CC_BF16, v)); break;
    case CC_I8: ((int8_t *)data)[i] = (int8_t)round_sat(v, -128, 127); break;
    case CC_U8: ((uint8_t *)data)[i] = (uint8_t)round_sat(v, 0, 255); break;
    case CC_I32: ((int32_t *)data)[i] = (int32_t)round_sat(v, -2147483648.0, 2147483647.0); break;
    case CC_I64: ((int64_t *)data)[i] = (int64_t)round_sat(v, -9223372036854775808.0, 9223372036854774784.0); break;
    case CC_BOOL: ((uint8_t *)data)[i] = v != 0; break;
    case CC_F64: ((double *)data)[i] = v; break;
    case CC_I16: ((int16_t *)data)[i] = (int16_t)round_sat(v, -32768, 32767); break;
    case CC_U16: ((uint16_t *)data)[i] = (uint16_t)round_sat(v, 0, 65535); break;
    case CC_U32: ((uint32_t *)data)[i] = (uint32_t)round_sat(v, 0, 4294967295.0); break;
    case CC_U64: ((uint64_t *)data)[i] = (uint64_t)round_sat(v, 0, 18446744073709549568.0); break;
    default: break;
    }
}

double cc_ulp_distance(cc_dtype d, double a, double b)
{
    if (!cc_dtype_is_float(d)) return fabs(a - b);
    if (isnan(a) || isnan(b)) return (isnan(a) && isnan(b)) ? 0 : INFINITY;
    if (a == b) return 0;
    if (isinf(a) || isinf(b)) return INFINITY;
    /* ulp of the larger magnitude, on the dtype's grid (subnormal grid at the bottom) */
    int man_bits = d == CC_F64 ? 52 : d == CC_F32 ? 23 : d == CC_F16 ? 10 : 7;
    int emin = d == CC_F64 ? -1022 : d == CC_F16 ? -14 : -126;
    double m = fmax(fabs(a), fabs(b));
    int e;
    frexp(m, &e);
    int exp = e - 1 < emin ? emin : e - 1;
    return fabs(a - b) / ldexp(1.0, exp - man_bits);
}
