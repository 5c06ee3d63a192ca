/* eltwise_f64.cl - program eltwise_f64 (S = f64; built only where the device has
 * cl_khr_fp64): the element-wise ops that compute in double, broadcast as BINARY_KERNEL
 * does (common.cl), one work-item per output element.
 *   - on f64 operands: add (Sum's steps), elt_min, elt_max (a kept where the other is not
 *     below or above it: a NaN in the first operand stays), elt_pow, elt_prelu,
 *     elt_fmod (C's fmod: Mod with fmod=1), elt_first (a one-input Min, Max, Sum or Mean)
 *     and elt_divide (Mean's last step);
 *   - Pow of an f64 base with an exponent of any other dtype (converted to double: exact
 *     but for a 64-bit integer past 2^53, rounded once): elt_pow_<exponent>_f64;
 *   - Pow of an f32, f16 or bf16 base with an f64 exponent, in double and rounded once to
 *     the base's dtype: elt_pow_f64_<base>;
 *   - Pow of an i32 or i64 base with a float exponent (f32, f16, bf16, f64), as the golden
 *     model computes it: the real power in double, truncated toward zero, its low bits
 *     kept in the base's dtype (0 where it is beyond 64-bit range or NaN: ONNX leaves it
 *     undefined): elt_pow_<exponent>_<base>. */

#define BINARY_F64(NAME, EXPR) BINARY_KERNEL(NAME, double, LD, ST, EXPR)

BINARY_F64(add, u + v)
BINARY_F64(elt_min, v < u ? v : u)
BINARY_F64(elt_max, v > u ? v : u)
BINARY_F64(elt_pow, pow(u, v))
BINARY_F64(elt_prelu, u < 0.0 ? v * u : u)
BINARY_F64(elt_fmod, fmod(u, v))
BINARY_F64(elt_first, u)

/* Mean's last step: y = x / p0 (the input count), in place. */
kernel void KN(elt_divide)(global const double *x, global double *y, int n, float p0, float p1)
{
    int i = get_global_id(0);
    if (i >= n) return;
    y[i] = x[i] / (double)p0;
}

/* y[i] = VALUE, where VALUE reads a[ia] (storage AT) and b[ib] (storage BT); y of storage YT */
#define MIXED_KERNEL(NAME, AT, BT, YT, VALUE)                                                  \
    kernel void NAME(global const AT *a, global const BT *b, global YT *y, int n, int rank, int sa, \
                     int sb, global const int *g)                                              \
    {                                                                                          \
        int i = get_global_id(0);                                                              \
        if (i >= n) return;                                                                    \
        int ia = i * sa, ib = i * sb;                                                          \
        if (rank > 1) bcast_offsets(i, rank, g, &ia, &ib);                                     \
        y[i] = VALUE;                                                                          \
    }

/* an operand of storage suffix SFX at index i, as double */
#define AS_F64_f32(p, i) ((double)(p)[i])
#define AS_F64_f16(p, i) ((double)f16_to_f32((p)[i]))
#define AS_F64_bf16(p, i) ((double)bf16_to_f32((p)[i]))
#define AS_F64_int(p, i) ((double)(p)[i])
#define AS_F64_f64(p, i) ((p)[i])

/* an f64 base */
#define POW_OF_F64(ESFX, ET, LOADE) MIXED_KERNEL(elt_pow_##ESFX##_f64, double, ET, double, pow(a[ia], LOADE(b, ib)))
POW_OF_F64(f32, float, AS_F64_f32)
POW_OF_F64(f16, ushort, AS_F64_f16)
POW_OF_F64(bf16, ushort, AS_F64_bf16)
POW_OF_F64(i8, char, AS_F64_int)
POW_OF_F64(u8, uchar, AS_F64_int)
POW_OF_F64(i16, short, AS_F64_int)
POW_OF_F64(u16, ushort, AS_F64_int)
POW_OF_F64(i32, int, AS_F64_int)
POW_OF_F64(u32, uint, AS_F64_int)
POW_OF_F64(i64, long, AS_F64_int)
POW_OF_F64(u64, ulong, AS_F64_int)

/* an f64 exponent of a 16/32-bit float base: rounded once to the base's dtype */
MIXED_KERNEL(elt_pow_f64_f32, float, double, float, convert_float_rte(pow((double)a[ia], b[ib])))
MIXED_KERNEL(elt_pow_f64_f16, ushort, double, ushort, f32_to_f16(f64_to_f32_odd(pow(AS_F64_f16(a, ia), b[ib]))))
MIXED_KERNEL(elt_pow_f64_bf16, ushort, double, ushort, f32_to_bf16(f64_to_f32_odd(pow(AS_F64_bf16(a, ia), b[ib]))))

/* an integer base (storage BT) with a float exponent */
long int_of_real(double t) { return fabs(t) < 9.2e18 ? (long)t : 0; }
#define POW_OF_INT(BSFX, BT, ESFX, ET, LOADE)                                                  \
    MIXED_KERNEL(elt_pow_##ESFX##_##BSFX, BT, ET, BT, (BT)int_of_real(trunc(pow((double)a[ia], LOADE(b, ib)))))
POW_OF_INT(i32, int, f32, float, AS_F64_f32)
POW_OF_INT(i32, int, f16, ushort, AS_F64_f16)
POW_OF_INT(i32, int, bf16, ushort, AS_F64_bf16)
POW_OF_INT(i32, int, f64, double, AS_F64_f64)
POW_OF_INT(i64, long, f32, float, AS_F64_f32)
POW_OF_INT(i64, long, f16, ushort, AS_F64_f16)
POW_OF_INT(i64, long, bf16, ushort, AS_F64_bf16)
POW_OF_INT(i64, long, f64, double, AS_F64_f64)
