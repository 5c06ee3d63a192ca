/* reduce.cl - template (S = f32, f16, bf16, f64 with S_IS_FLOAT; i8, u8, i32, i64): the ten
 * Reduce* ops (and GlobalAveragePool as a mean), Softmax, LogSoftmax, Hardmax and
 * LayerNormalization, one work-item per output element (per row for the softmaxes and
 * LayerNormalization), accumulating in f32. The f64 copy (S_IS_F64) has the Reduce*
 * kernels only, accumulating in double (CT). Integer
 * copies have Max, Min, Sum, Prod, L1 and SumSquare only, accumulating in 64-bit unsigned
 * arithmetic (two's complement wrap-around) and storing the low bits.
 *
 * Reductions: output element i has coordinates over the kept dims (nk of them; g holds
 * their sizes, then their input strides), and the reduced dims (nr; sizes, then strides,
 * after the kept ones in g) are walked odometer-style; R is their element count. */

int KN(reduce_base)(int i, int nk, global const int *g)
{
    int off = 0;
    for (int d = nk - 1; d >= 0; d--) {
        int c = i % g[d];
        i /= g[d];
        off += c * g[nk + d];
    }
    return off;
}

#if defined(S_IS_FLOAT)
#define VT CT
#define RLD(x, i) LD(x, i)
#else
#define VT long
#define RLD(x, i) ((long)(x)[i])
#endif

#define REDUCE_LOOP(BODY)                                                                 \
    global const int *rd = g + 2 * nk, *rs = g + 2 * nk + nr;                             \
    if (nr == 1) {                                                                        \
        const int step = rs[0];                                                           \
        for (int r = 0; r < R; r++) {                                                     \
            VT v = RLD(x, base + r * step);                                               \
            BODY;                                                                         \
        }                                                                                 \
    } else {                                                                              \
        int c[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };                                            \
        int off = base;                                                                   \
        for (int r = 0; r < R; r++) {                                                     \
            VT v = RLD(x, off);                                                           \
            BODY;                                                                         \
            for (int d = nr - 1; d >= 0; d--) {                                           \
                off += rs[d];                                                             \
                if (++c[d] < rd[d]) break;                                                \
                off -= rs[d] * rd[d];                                                     \
                c[d] = 0;                                                                 \
            }                                                                             \
        }                                                                                 \
    }

/* One kernel per reduction: an accumulator of type ACC starts at INIT, takes each value v
 * by BODY, and STORE writes output i from it. */
#define REDUCE_KERNEL_OF(NAME, ACC, INIT, BODY, STORE)                                     \
    kernel void KN(NAME)(global const TY *restrict x, global TY *restrict y, int n, int nk, int nr, int R, \
                         global const int *restrict g)                                    \
    {                                                                                     \
        int i = get_global_id(0);                                                         \
        if (i >= n) return;                                                               \
        int base = KN(reduce_base)(i, nk, g);                                             \
        ACC acc = INIT;                                                                   \
        REDUCE_LOOP(BODY)                                                                 \
        STORE;                                                                            \
    }

#if defined(S_IS_FLOAT)

/* Float reductions in CT: the output is FINAL. Max and Min keep the first NaN they meet. */
#define REDUCE_KERNEL(NAME, INIT, BODY, FINAL) REDUCE_KERNEL_OF(NAME, CT, INIT, BODY, ST(y, i, FINAL))

REDUCE_KERNEL(reduce_mean, 0.0f, acc += v, acc / (CT)R)
REDUCE_KERNEL(reduce_max, -INFINITY, acc = (v > acc || isnan(v)) && !isnan(acc) ? v : acc, acc)
REDUCE_KERNEL(reduce_min, INFINITY, acc = (v < acc || isnan(v)) && !isnan(acc) ? v : acc, acc)
REDUCE_KERNEL(reduce_sum, 0.0f, acc += v, acc)
REDUCE_KERNEL(reduce_prod, 1.0f, acc *= v, acc)
REDUCE_KERNEL(reduce_l1, 0.0f, acc += fabs(v), acc)
REDUCE_KERNEL(reduce_l2, 0.0f, acc += v * v, sqrt(acc))
REDUCE_KERNEL(reduce_sumsquare, 0.0f, acc += v * v, acc)
REDUCE_KERNEL(reduce_logsum, 0.0f, acc += v, log(acc))

/* log sum exp(v): the largest element m first, then m + log sum exp(v - m) (m itself where
 * it is infinite or NaN). */
kernel void KN(reduce_logsumexp)(global const TY *restrict x, global TY *restrict y, int n, int nk, int nr, int R,
                                 global const int *restrict g)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int base = KN(reduce_base)(i, nk, g);
    CT m = -INFINITY;
    {
        REDUCE_LOOP(m = (v > m || isnan(v)) && !isnan(m) ? v : m)
    }
    CT acc = 0.0f;
    {
        REDUCE_LOOP(acc += exp(v - m))
    }
    ST(y, i, isfinite(m) ? m + log(acc) : m);
}

#if !defined(S_IS_F64) /* the other kernels compute in float: not for f64 */

/* Softmax (mode 0: exp(x - max) / sum) or LogSoftmax (mode 1: (x - max) - log sum) along
 * an axis of length L: row i starts at (i / inner) * L * inner + i % inner and steps by
 * inner; sum = sum exp(x - max). */
kernel void KN(softmax)(global const TY *restrict x, global TY *restrict y, int n, int L, int inner, int mode)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int base = (i / inner) * L * inner + i % inner;
    float mx = -INFINITY;
    for (int l = 0; l < L; l++) {
        float v = LD(x, base + l * inner);
        mx = v > mx ? v : mx;
    }
    float sum = 0.0f;
    for (int l = 0; l < L; l++) sum += exp(LD(x, base + l * inner) - mx);
    float lse = log(sum);
    for (int l = 0; l < L; l++) {
        float d = LD(x, base + l * inner) - mx;
        ST(y, base + l * inner, mode ? d - lse : exp(d) / sum);
    }
}

/* Hardmax along the axis: 1 at the first largest element (a NaN counts as the largest),
 * 0 elsewhere. */
kernel void KN(hardmax)(global const TY *restrict x, global TY *restrict y, int n, int L, int inner)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int base = (i / inner) * L * inner + i % inner, at = 0;
    float b = LD(x, base);
    for (int l = 1; l < L && !isnan(b); l++) {
        float v = LD(x, base + l * inner);
        if (v > b || isnan(v)) {
            b = v;
            at = l;
        }
    }
    for (int l = 0; l < L; l++) ST(y, base + l * inner, l == at ? 1.0f : 0.0f);
}

/* LayerNormalization and InstanceNormalization: one work-item per row of n elements (the
 * normalized axes flattened; an (image, channel) plane), two passes in f32: the mean, then
 * the mean of squared differences; Scale and B read at sidx[j] + row % rmod (and bidx);
 * Mean and InvStdDev (f32) written when outs asks for them. */
kernel void KN(layernorm)(global const TY *restrict x, global const TY *restrict sc, global const TY *restrict bb,
                          global TY *restrict y, global float *restrict mo, global float *restrict io, int rows,
                          int n, float eps, global const int *restrict sidx, global const int *restrict bidx,
                          int has_b, int outs, int rmod)
{
    int r = get_global_id(0);
    if (r >= rows) return;
    long base = (long)r * n;
    float sum = 0.0f;
    for (int j = 0; j < n; j++) sum += LD(x, base + j);
    float mean = sum / (float)n, var = 0.0f;
    for (int j = 0; j < n; j++) {
        float d = LD(x, base + j) - mean;
        var += d * d;
    }
    float inv = 1.0f / sqrt(var / (float)n + eps);
    int ch = r % rmod;
    for (int j = 0; j < n; j++) {
        float v = (LD(x, base + j) - mean) * inv * LD(sc, sidx[j] + ch);
        if (has_b) v += LD(bb, bidx[j] + ch);
        ST(y, base + j, v);
    }
    if (outs > 1) mo[r] = mean;
    if (outs > 2) io[r] = inv;
}

/* LRN across channels, one work-item per element: the window's sum of squares in f32,
 * y = x / pow(bias + scale * sum, beta) (scale = alpha / size). */
kernel void KN(lrn)(global const TY *restrict x, global TY *restrict y, int total, int c, int inner, int lo,
                    int hi, float scale, float beta, float bias)
{
    int i = get_global_id(0);
    if (i >= total) return;
    int pos = i % inner, ch = (i / inner) % c, img = i / inner / c;
    int k0 = max(ch - lo, 0), k1 = min(ch + hi, c - 1);
    float sq = 0.0f;
    for (int k = k0; k <= k1; k++) {
        float v = LD(x, ((long)img * c + k) * inner + pos);
        sq += v * v;
    }
    ST(y, i, LD(x, i) / pow(bias + scale * sq, beta));
}

/* NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss in one work-item (the losses
 * are small): per position (img, j) the class's log-probability (softmax: shifted by the
 * classes' largest score, minus the log of the sum of exps; every class's written to lpo
 * when has_lp), the weighted term, and the reduction (0 none, 1 sum, 2 mean) in f32. The
 * classes come from t32 or t64 (the same buffer, is64 says which). A class outside [0, c)
 * that is not ignore_index (undefined in the specification; the golden model refuses such
 * cases) counts as ignored. */
kernel void KN(loss)(global const TY *restrict x, global const int *restrict t32, global const long *restrict t64,
                     int is64, global const TY *restrict w, int has_w, global TY *restrict y, global TY *restrict lpo,
                     int has_lp, int n, int c, int d, int reduction, int has_ignore, int ignore, int softmax)
{
    if (get_global_id(0) != 0) return;
    float total = 0.0f, den = 0.0f;
    for (int img = 0; img < n; img++)
        for (int j = 0; j < d; j++) {
            long cls = is64 ? t64[(long)img * d + j] : (long)t32[(long)img * d + j];
            float shift = 0.0f, ls = 0.0f;
            if (softmax) {
                float m = -INFINITY, sum = 0.0f;
                for (int k = 0; k < c; k++) m = fmax(m, LD(x, ((long)img * c + k) * d + j));
                for (int k = 0; k < c; k++) sum += exp(LD(x, ((long)img * c + k) * d + j) - m);
                shift = m;
                ls = log(sum);
                for (int k = 0; has_lp && k < c; k++) {
                    long at = ((long)img * c + k) * d + j;
                    ST(lpo, at, LD(x, at) - shift - ls);
                }
            }
            float term = 0.0f, wt = 0.0f;
            if (!(has_ignore && cls == (long)ignore) && cls >= 0 && cls < c) {
                wt = has_w ? LD(w, cls) : 1.0f;
                float lp = LD(x, ((long)img * c + cls) * d + j);
                if (softmax) lp = lp - shift - ls;
                term = -lp * wt;
            }
            if (reduction == 0) ST(y, (long)img * d + j, term);
            total += term;
            den += wt;
        }
    if (reduction == 1) ST(y, 0, total);
    else if (reduction == 2) ST(y, 0, total / den);
}

/* MeanVarianceNormalization: one work-item per group of n elements, element j of group k
 * at base[k] + off[j] (targets/lower.c's groups as tables); two passes in f32, the mean,
 * then the mean of squared differences; y = (x - mean) * (1 / (sqrt(var) + eps)). */
kernel void KN(mvn)(global const TY *restrict x, global TY *restrict y, global const int *restrict base,
                    global const int *restrict off, int groups, int n, float eps)
{
    int k = get_global_id(0);
    if (k >= groups) return;
    const int b = base[k];
    float sum = 0.0f, var = 0.0f;
    for (int j = 0; j < n; j++) sum += LD(x, b + off[j]);
    const float mean = sum / (float)n;
    for (int j = 0; j < n; j++) {
        float d = LD(x, b + off[j]) - mean;
        var += d * d;
    }
    const float inv = 1.0f / (sqrt(var / (float)n) + eps);
    for (int j = 0; j < n; j++) ST(y, b + off[j], (LD(x, b + off[j]) - mean) * inv);
}

/* BatchNormalization in training mode: one work-item per channel ch of x (n x c x inner),
 * two passes in f32 over its n * inner elements, the mean, then the mean of squared
 * differences (the population variance); y = (x - mean) * (scale / sqrt(var + eps)) + b;
 * with outs > 1 running_mean = input_mean * mom + mean * (1 - mom), with outs > 2
 * running_var likewise. The parameters and running statistics share x's storage type. */
kernel void KN(bn_train)(global const TY *restrict x, global TY *restrict y, global const TY *restrict sc,
                         global const TY *restrict bb, global const TY *restrict im, global const TY *restrict iv,
                         global TY *restrict rm, global TY *restrict rv, int n, int c, int inner, float eps, float mom,
                         int outs)
{
    int ch = get_global_id(0);
    if (ch >= c) return;
    const float count = (float)n * (float)inner;
    float sum = 0.0f, var = 0.0f;
    for (int i = 0; i < n; i++) {
        const long row = ((long)i * c + ch) * inner;
        for (int k = 0; k < inner; k++) sum += LD(x, row + k);
    }
    const float mean = sum / count;
    for (int i = 0; i < n; i++) {
        const long row = ((long)i * c + ch) * inner;
        for (int k = 0; k < inner; k++) {
            float d = LD(x, row + k) - mean;
            var += d * d;
        }
    }
    var /= count;
    const float a = LD(sc, ch) / sqrt(var + eps), b = LD(bb, ch);
    for (int i = 0; i < n; i++) {
        const long row = ((long)i * c + ch) * inner;
        for (int k = 0; k < inner; k++) ST(y, row + k, (LD(x, row + k) - mean) * a + b);
    }
    if (outs > 1) ST(rm, ch, LD(im, ch) * mom + mean * (1.0f - mom));
    if (outs > 2) ST(rv, ch, LD(iv, ch) * mom + var * (1.0f - mom));
}

#endif /* !S_IS_F64 */

#else /* integer copies */

#define REDUCE_INT_KERNEL(NAME, INIT, BODY) REDUCE_KERNEL_OF(NAME, ulong, INIT, BODY, y[i] = (TY)acc)

REDUCE_INT_KERNEL(reduce_max, (ulong)LONG_MIN, acc = v > (long)acc ? (ulong)v : acc)
REDUCE_INT_KERNEL(reduce_min, (ulong)LONG_MAX, acc = v < (long)acc ? (ulong)v : acc)
REDUCE_INT_KERNEL(reduce_sum, 0, acc += (ulong)v)
REDUCE_INT_KERNEL(reduce_prod, 1, acc *= (ulong)v)
REDUCE_INT_KERNEL(reduce_l1, 0, acc += v < 0 ? 0 - (ulong)v : (ulong)v)
REDUCE_INT_KERNEL(reduce_sumsquare, 0, acc += (ulong)v * (ulong)v)

#endif
