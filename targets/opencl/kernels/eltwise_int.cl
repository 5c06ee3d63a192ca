/* eltwise_int.cl - template (S = i8, u8, i32, i64): the broadcasting binary arithmetic
 * ops on integers. Add, Sub and Mul wrap around (two's complement, computed unsigned);
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
    if (v == 0 || (SIGNED && v == (TY)-1)) return 0;
    TY m = u % v;
    if (floor_ && m != 0 && ((m < 0) != (v < 0))) m += v;
    return m;
}

BINARY_INT(elt_min, v < u ? v : u)
BINARY_INT(elt_max, v > u ? v : u)
BINARY_INT(elt_fmod, KN(imod_of)(u, v, 0))
BINARY_INT(elt_imod, KN(imod_of)(u, v, 1))
BINARY_INT(elt_first, u)
