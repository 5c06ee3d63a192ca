/* eltwise_int.cl - template (S = i8, u8, i16, u16, i32, u32, i64, u64): the broadcasting
 * binary arithmetic ops on integers, computed in the stored type (unsigned types compare
 * and divide unsigned). Add, Sub and Mul wrap around (two's complement, computed unsigned);
 * Div truncates toward zero, and (signed types) x / -1 is a wrapping negation (INT_MIN / -1 = INT_MIN). */

/* Binary ops (BINARY_KERNEL in common.cl) on the stored integers themselves. */
#define INT_LOAD(p, i) (p)[i]
#define INT_STORE(p, i, v) ((p)[i] = (v))
#define BINARY_INT(NAME, EXPR) BINARY_KERNEL(NAME, TY, INT_LOAD, INT_STORE, EXPR)

BINARY_INT(add, (TY)((UT)u + (UT)v))
BINARY_INT(sub, (TY)((UT)u - (UT)v))
BINARY_INT(mul, (TY)((UT)u * (UT)v))
BINARY_INT(div, (SIGNED && v == (TY)-1) ? (TY)((UT)0 - (UT)u) : (TY)(u / v))

/* Min, Max, Mod and first (y = a) on integers. fmod truncates (C's %, the sign of the
 * dividend); imod (Mod fmod=0) takes the sign of the divisor. A divisor of 0 gives 0 and
 * x % -1 is 0 (INT_MIN % -1 would trap). */
TY KN(imod_of)(TY u, TY v, int floor_)
{
#if SIGNED
    if (v == 0 || v == (TY)-1) return 0;
#else
    if (v == 0) return 0; /* (a constant || would draw a compiler warning) */
#endif
    TY m = u % v;
    if (floor_ && m != 0 && ((m < 0) != (v < 0))) m += v;
    return m;
}

/* Integer Pow as numpy computes it: repeated squaring wrapping modulo 2^64, narrowed to TY;
 * a negative exponent (neg: the exponent's bits e read as a signed type's) gives the real
 * power truncated (1 or -1 for 1 and -1, else 0). */
TY KN(ipow_of)(TY u, ulong e, int neg)
{
    if (neg) return (long)u == 1 ? (TY)1 : (long)u == -1 ? (TY)((e & 1) ? -1 : 1) : (TY)0;
    ulong r = 1, b = (ulong)(long)u;
    for (; e > 0; e >>= 1) {
        if (e & 1) r *= b;
        b *= b;
    }
    return (TY)r;
}

BINARY_INT(elt_pow, KN(ipow_of)(u, (ulong)(long)v, SIGNED && v < 0))
BINARY_INT(elt_prelu, u < 0 ? (TY)((UT)u * (UT)v) : u)
BINARY_INT(elt_min, v < u ? v : u)
BINARY_INT(elt_max, v > u ? v : u)
BINARY_INT(elt_fmod, KN(imod_of)(u, v, 0))
BINARY_INT(elt_imod, KN(imod_of)(u, v, 1))
BINARY_INT(elt_first, u)

/* Clip on 8-bit and 32-bit integers: the bounds (the dtype's own, where absent) as int. */
kernel void KN(elt_clip)(global const TY *x, global TY *y, int n, int lo, int hi)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int v = (int)x[i];
    y[i] = (TY)(v < lo ? lo : v > hi ? hi : v);
}

/* Pow with an integer exponent of another dtype (storage ET, signed when ES), broadcast as
 * BINARY_KERNEL does: kernels elt_pow_<exponent>_<S>. A u64 exponent is unsigned. */
#define POW_EXP_KERNEL(NAME, ET, ES)                                                          \
    kernel void KN(NAME)(global const TY *a, global const ET *b, global TY *y, int n, int rank,  \
                         int sa, int sb, global const int *g)                                  \
    {                                                                                          \
        int i = get_global_id(0);                                                              \
        if (i >= n) return;                                                                    \
        int ia = i * sa, ib = i * sb;                                                          \
        if (rank > 1) bcast_offsets(i, rank, g, &ia, &ib);                                     \
        ET e = b[ib];                                                                          \
        y[i] = KN(ipow_of)(a[ia], (ulong)(long)e, ES && (long)e < 0);                         \
    }
POW_EXP_KERNEL(elt_pow_i8, char, 1)
POW_EXP_KERNEL(elt_pow_u8, uchar, 0)
POW_EXP_KERNEL(elt_pow_i16, short, 1)
POW_EXP_KERNEL(elt_pow_u16, ushort, 0)
POW_EXP_KERNEL(elt_pow_i32, int, 1)
POW_EXP_KERNEL(elt_pow_u32, uint, 0)
POW_EXP_KERNEL(elt_pow_i64, long, 1)
POW_EXP_KERNEL(elt_pow_u64, ulong, 0)
