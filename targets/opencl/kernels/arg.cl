/* arg.cl - template (S = f32, f16, bf16, i8, u8, i32, i64): ArgMax and ArgMin along one
 * axis of x viewed as [outer, len, inner], one work-item per output (an int64 index).
 * NaN beats every number; ties, and NaN against NaN, go to the first index, or the last
 * with last = 1. Floats compare as float, integers as their own type. */

#if defined(S_IS_FLOAT)
#define KEY float
#define GET(x, i) LD(x, i)
#define WINS(v, b, mx, last) (isnan(b) ? (last) && isnan(v) : isnan(v) ? 1 : (v) == (b) ? (last) : (mx) ? (v) > (b) : (v) < (b))
#else
#define KEY long
#define GET(x, i) ((long)(x)[i])
#define WINS(v, b, mx, last) ((v) == (b) ? (last) : (mx) ? (v) > (b) : (v) < (b))
#endif

kernel void KN(arg_reduce)(global const TY *restrict x, global long *restrict y, int n, int len, int inner, int mx,
                           int last)
{
    int j = get_global_id(0);
    if (j >= n) return;
    long base = (long)(j / inner) * len * inner + j % inner;
    KEY b = GET(x, base);
    long best = 0;
    for (int k = 1; k < len; k++) {
        KEY v = GET(x, base + (long)k * inner);
        if (WINS(v, b, mx, last)) {
            best = k;
            b = v;
        }
    }
    y[j] = best;
}
