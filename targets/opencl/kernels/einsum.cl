/* einsum.cl - template (S = f32, f16, bf16, f64 with S_IS_FLOAT; i16, u16, i32, u32, i64,
 * u64): Einsum, one
 * work-item per output element, over the stride tables of targets/lower.h
 * (cc_lower_einsum): g holds the dims of the n_out output axes and of the n_sum summed
 * labels, then, for each of the n operands, its element stride along each of those axes.
 * The operands are x0..x7 (those past n are not read). Per output element: its
 * coordinates give each operand's first offset, then an odometer over the summed labels
 * steps the offsets. Floats multiply in their compute type CT (float; f64: double) and add
 * the last factor through fma; integers multiply and add in 64 bits, wrapping, and the
 * store wraps to the dtype. */

#define MAX_IN 8
#define MAX_SUM 16

#if defined(S_IS_FLOAT)
#define ACC CT
#define LOAD(p, i) LD(p, i)
#else
#define ACC ulong
#define LOAD(p, i) ((ulong)(long)(p)[i])
#endif

kernel void KN(einsum)(global const TY *x0, global const TY *x1, global const TY *x2, global const TY *x3,
                       global const TY *x4, global const TY *x5, global const TY *x6, global const TY *x7,
                       global TY *y, global const int *g, int n, int n_out, int n_sum, int out_count,
                       int sum_count)
{
    int o = get_global_id(0);
    if (o >= out_count) return;
    global const TY *x[MAX_IN] = { x0, x1, x2, x3, x4, x5, x6, x7 };
    const int axes = n_out + n_sum;
    global const int *dims = g, *st = g + axes;
    int off[MAX_IN], c[MAX_SUM];
    for (int t = 0; t < n; t++) off[t] = 0;
    for (int s = 0; s < n_sum; s++) c[s] = 0;
    int rest = o;
    for (int a = n_out - 1; a >= 0; a--) {
        int k = rest % dims[a];
        rest /= dims[a];
        for (int t = 0; t < n; t++) off[t] += k * st[t * axes + a];
    }
    ACC acc = 0;
    for (int step = 0; step < sum_count; step++) {
        ACC p = LOAD(x[0], off[0]);
#if defined(S_IS_FLOAT)
        for (int t = 1; t < n - 1; t++) p *= LOAD(x[t], off[t]);
        acc = n == 1 ? acc + p : fma(p, LOAD(x[n - 1], off[n - 1]), acc);
#else
        for (int t = 1; t < n; t++) p *= LOAD(x[t], off[t]);
        acc += p;
#endif
        for (int s = n_sum - 1; s >= 0; s--) {
            const int a = n_out + s;
            for (int t = 0; t < n; t++) off[t] += st[t * axes + a];
            if (++c[s] < dims[a]) break;
            c[s] = 0;
            for (int t = 0; t < n; t++) off[t] -= st[t * axes + a] * dims[a];
        }
    }
#if defined(S_IS_FLOAT)
    ST(y, o, acc);
#else
    y[o] = (TY)acc;
#endif
}
