/* axis.cl - template (S = f32, f16, bf16, i8, u8, i32, i64): the walks along one axis of x
 * viewed as [outer, len, inner] (ArgMax, ArgMin, CumSum, TopK), one work-item per line, for
 * every number type.
 * ArgMax and ArgMin write an int64 index per line: NaN beats every number; ties, and NaN
 * against NaN, go to the first index, or the last with last = 1. Floats compare as float,
 * integers as their own type. CumSum writes the running sums of a line (in float for
 * float types, in long for integers), from the end with rev = 1, each without its own
 * element with ex = 1. */

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

#if defined(S_IS_FLOAT)
#define ACC float
#define PUT(y, i, v) ST(y, i, v)
#else
#define ACC long
#define PUT(y, i, v) ((y)[i] = (TY)(v))
#endif

kernel void KN(cumsum)(global const TY *restrict x, global TY *restrict y, int n, int len, int inner, int ex, int rev)
{
    int j = get_global_id(0);
    if (j >= n) return;
    long base = (long)(j / inner) * len * inner + j % inner;
    ACC sum = 0;
    for (int s = 0; s < len; s++) {
        long at = base + (long)(rev ? len - 1 - s : s) * inner;
        ACC v = GET(x, at);
        if (!ex) sum += v;
        PUT(y, at, sum);
        if (ex) sum += v;
    }
}

/* TopK: one work-item per line; K passes, each taking the first element after the
 * previous one in the output order (the value, then the lower index; a NaN is larger
 * than every number). Values are copied as stored, indices written as int64. */
#if defined(S_IS_FLOAT)
#define KEY_NAN(v) isnan(v)
#else
#define KEY_NAN(v) 0
#endif

int KN(topk_before)(KEY a, int ia, KEY b, int ib, int largest)
{
    int na = KEY_NAN(a), nb = KEY_NAN(b);
    if (na != nb) return largest ? na : nb;
    if (!na && a != b) return largest ? a > b : a < b;
    return ia < ib;
}

kernel void KN(topk)(global const TY *restrict x, global TY *restrict y, global long *restrict yi, int n, int len,
                     int inner, int k, int largest)
{
    int j = get_global_id(0);
    if (j >= n) return;
    long base = (long)(j / inner) * len * inner + j % inner, obase = (long)(j / inner) * k * inner + j % inner;
    int prev = -1;
    KEY pv = 0;
    for (int t = 0; t < k; t++) {
        int best = -1;
        KEY bv = 0;
        for (int q = 0; q < len; q++) {
            KEY v = GET(x, base + (long)q * inner);
            if (prev >= 0 && !KN(topk_before)(pv, prev, v, q, largest)) continue;
            if (best < 0 || KN(topk_before)(v, q, bv, best, largest)) {
                best = q;
                bv = v;
            }
        }
        y[obase + (long)t * inner] = x[base + (long)best * inner];
        yi[obase + (long)t * inner] = best;
        prev = best;
        pv = bv;
    }
}
