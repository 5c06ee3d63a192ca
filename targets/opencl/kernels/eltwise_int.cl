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
