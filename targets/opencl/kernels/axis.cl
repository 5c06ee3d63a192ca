/* axis.cl - template (S = f32, f16, bf16, f64 with S_IS_FLOAT; i8, u8, i16, u16, i32, u32,
 * i64, u64): the walks along one axis of x viewed as [outer, len, inner] (ArgMax, ArgMin,
 * CumSum, TopK), one work-item per line, for every number type; and ScatterND/ScatterElements
 * with a reduction (below).
 * ArgMax and ArgMin write an int64 index per line: NaN beats every number; ties, and NaN
 * against NaN, go to the first index, or the last with last = 1. Floats compare in their
 * compute type CT (float; f64: double), integers as their own type (unsigned ones
 * unsigned). CumSum writes the running sums of a line (in CT for float types, in 64-bit
 * unsigned arithmetic for integers, wrapping, the low bits stored), from the end with
 * rev = 1, each without its own element with ex = 1. */

#if defined(S_IS_FLOAT)
#define KEY CT
#define GET(x, i) LD(x, i)
#define WINS(v, b, mx, last) (isnan(b) ? (last) && isnan(v) : isnan(v) ? 1 : (v) == (b) ? (last) : (mx) ? (v) > (b) : (v) < (b))
#else
#define KEY TY
#define GET(x, i) ((x)[i])
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
#define ACC CT
#define PUT(y, i, v) ST(y, i, v)
#else
#define ACC ulong /* a signed value converts modulo 2^64: sums wrap as two's complement */
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

/* ScatterND and ScatterElements with reduction add or mul, after y := data: one work-item
 * applies every update in index order (repeated places accumulate as the specification's
 * reference does; no atomics needed), in CT for float types and 64-bit unsigned arithmetic
 * for integers (wrapping, the low bits stored).
 * nd: update j's place from its k index values (meta: the k indexed dims, then their
 * strides; slice elements each); else the place of update element j is its own coordinates
 * with the one along axis replaced (meta: the indices' dims, then y's strides). */
#define SCATTER_REDUCE(IX, SFX)                                                                        \
kernel void KN(scatter_reduce_##SFX)(global const TY *restrict u, global TY *restrict y,              \
                                     global const IX *restrict idx, int count, int k, int slice,      \
                                     int nd, int axis, int dim, int mul, global const int *restrict meta) \
{                                                                                                      \
    if (get_global_id(0) != 0) return;                                                                 \
    for (int j = 0; j < count; j++) {                                                                  \
        long off = 0;                                                                                  \
        int ok = 1;                                                                                    \
        if (nd) {                                                                                      \
            for (int t = 0; t < k && ok; t++) {                                                        \
                long v = idx[(long)j * k + t];                                                         \
                if (v < 0) v += meta[t];                                                               \
                ok = v >= 0 && v < meta[t];                                                            \
                off += v * meta[k + t];                                                                \
            }                                                                                          \
        } else {                                                                                       \
            long v = idx[j];                                                                           \
            if (v < 0) v += dim;                                                                       \
            ok = v >= 0 && v < dim;                                                                    \
            int rem = j;                                                                               \
            for (int d = k - 1; d >= 0; d--) {                                                         \
                int c = rem % meta[d];                                                                 \
                rem /= meta[d];                                                                        \
                off += (d == axis ? v : c) * (long)meta[k + d];                                        \
            }                                                                                          \
        }                                                                                              \
        for (int e = 0; ok && e < slice; e++) {                                                        \
            ACC a = GET(y, off + e), b = GET(u, (long)j * slice + e);                                  \
            PUT(y, off + e, mul ? a * b : a + b);                                                      \
        }                                                                                              \
    }                                                                                                  \
}

SCATTER_REDUCE(int, ix32)
SCATTER_REDUCE(long, ix64)
