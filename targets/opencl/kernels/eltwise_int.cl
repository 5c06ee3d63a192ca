/* eltwise_int.cl - template (S = i8, u8, i32, i64): the broadcasting binary arithmetic
 * ops on integers. Add, Sub and Mul wrap around (two's complement, computed unsigned);
 * Div truncates toward zero, and (signed types) x / -1 is a wrapping negation (INT_MIN / -1 = INT_MIN). */

#define BINARY_INT(NAME, EXPR)                                                            \
    kernel void KN(NAME)(global const TY *a, global const TY *b, global TY *y, int n,     \
                         int rank, int sa, int sb, global const int *g)                   \
    {                                                                                     \
        int i = get_global_id(0);                                                         \
        if (i >= n) return;                                                               \
        int ia = i * sa, ib = i * sb;                                                     \
        if (rank > 1) bcast_offsets(i, rank, g, &ia, &ib);                                \
        TY u = a[ia], v = b[ib];                                                          \
        y[i] = (EXPR);                                                                    \
    }

BINARY_INT(add, (TY)((UT)u + (UT)v))
BINARY_INT(sub, (TY)((UT)u - (UT)v))
BINARY_INT(mul, (TY)((UT)u * (UT)v))
BINARY_INT(div, (SIGNED && v == (TY)-1) ? (TY)((UT)0 - (UT)u) : (TY)(u / v))
