/* reduce.cl - template (S = f32, f16, bf16): ReduceMean, ReduceMax (and GlobalAveragePool
 * as a mean) and Softmax, one work-item per output element (per row for Softmax),
 * accumulating in f32.
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

#define REDUCE_LOOP(BODY)                                                                 \
    global const int *rd = g + 2 * nk, *rs = g + 2 * nk + nr;                             \
    if (nr == 1) {                                                                        \
        const int step = rs[0];                                                           \
        for (int r = 0; r < R; r++) {                                                     \
            float v = LD(x, base + r * step);                                             \
            BODY;                                                                         \
        }                                                                                 \
    } else {                                                                              \
        int c[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };                                            \
        int off = base;                                                                   \
        for (int r = 0; r < R; r++) {                                                     \
            float v = LD(x, off);                                                         \
            BODY;                                                                         \
            for (int d = nr - 1; d >= 0; d--) {                                           \
                off += rs[d];                                                             \
                if (++c[d] < rd[d]) break;                                                \
                off -= rs[d] * rd[d];                                                     \
                c[d] = 0;                                                                 \
            }                                                                             \
        }                                                                                 \
    }

kernel void KN(reduce_mean)(global const TY *restrict x, global TY *restrict y, int n, int nk, int nr, int R,
                            global const int *restrict g)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int base = KN(reduce_base)(i, nk, g);
    float sum = 0.0f;
    REDUCE_LOOP(sum += v)
    ST(y, i, sum / (float)R);
}

kernel void KN(reduce_max)(global const TY *restrict x, global TY *restrict y, int n, int nk, int nr, int R,
                           global const int *restrict g)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int base = KN(reduce_base)(i, nk, g);
    float best = -INFINITY;
    REDUCE_LOOP(best = v > best ? v : best)
    ST(y, i, best);
}

/* Softmax along an axis of length L: row i starts at (i / inner) * L * inner + i % inner
 * and steps by inner. exp(x - max) / sum. */
kernel void KN(softmax)(global const TY *restrict x, global TY *restrict y, int n, int L, int inner)
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
    for (int l = 0; l < L; l++) ST(y, base + l * inner, exp(LD(x, base + l * inner) - mx) / sum);
}
