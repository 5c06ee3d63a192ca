/* eltwise_logic.cl - template (S = f32, f16, bf16, i8, u8, i32, i64, u16, u32, u64; bool
 * data runs as u8): the broadcasting comparisons with a bool (uchar) output, compared in
 * float for the float types (f16/bf16 widen exactly) and in the stored type for integers,
 * BitShift on the unsigned types, and Where, which moves elements as stored (no
 * conversion): the host runs it from the u8, u16, u32 or u64 copy by the element's size,
 * so f64 and the other wide types need no copies of their own. The host defines
 * LOGIC_FLOAT for the float copies. */

#ifdef LOGIC_FLOAT
#define CV(p, i) LD(p, i)
#else
#define CV(p, i) ((p)[i])
#endif

/* y[i] = EXPR ? 1 : 0 over the broadcast of a and b (EXPR reads a[ia] and b[ib]) */
#define PAIR_KERNEL(NAME, EXPR)                                                           \
    kernel void KN(NAME)(global const TY *a, global const TY *b, global uchar *y, int n,  \
                         int rank, int sa, int sb, global const int *g)                   \
    {                                                                                     \
        int i = get_global_id(0);                                                         \
        if (i >= n) return;                                                               \
        int ia = i * sa, ib = i * sb;                                                     \
        if (rank > 1) bcast_offsets(i, rank, g, &ia, &ib);                                \
        y[i] = (EXPR) ? 1 : 0;                                                            \
    }
#define COMPARE(OP) (CV(a, ia) OP CV(b, ib))
#define LOGICAL(OP) ((a[ia] != 0) OP (b[ib] != 0)) /* And, Or, Xor of bool (uchar) operands */

PAIR_KERNEL(elt_equal, COMPARE(==))
PAIR_KERNEL(elt_greater, COMPARE(>))
PAIR_KERNEL(elt_greater_equal, COMPARE(>=))
PAIR_KERNEL(elt_less, COMPARE(<))
PAIR_KERNEL(elt_less_equal, COMPARE(<=))
PAIR_KERNEL(elt_and, LOGICAL(&&))
PAIR_KERNEL(elt_or, LOGICAL(||))
PAIR_KERNEL(elt_xor, LOGICAL(!=))

/* out[i] = c[ic] ? x[ix] : y[iy]; g holds the output dims[rank], then the strides of c,
 * x and y (rank each, 0 along broadcast axes). */
kernel void KN(elt_where)(global const uchar *c, global const TY *x, global const TY *y, global TY *out,
                          int n, int rank, global const int *g)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int oc = 0, ox = 0, oy = 0, r = i;
    for (int d = rank - 1; d >= 0; d--) {
        int dim = g[d];
        int k = r % dim;
        r /= dim;
        oc += k * g[rank + d];
        ox += k * g[2 * rank + d];
        oy += k * g[3 * rank + d];
    }
    out[i] = c[oc] ? x[ox] : y[oy];
}


/* Not: one operand of the output's shape. */
kernel void KN(elt_not)(global const TY *a, global uchar *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = a[i] == 0 ? 1 : 0;
}

#ifdef LOGIC_FLOAT
/* IsNaN, IsInf (neg, pos: which infinities count) on the value widened to float. */
kernel void KN(elt_isnan)(global const TY *a, global uchar *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = isnan(LD(a, i)) ? 1 : 0;
}

kernel void KN(elt_isinf)(global const TY *a, global uchar *y, int n, int neg, int pos)
{
    int i = get_global_id(0);
    if (i >= n) return;
    float v = LD(a, i);
    y[i] = isinf(v) && (v > 0 ? pos : neg) ? 1 : 0;
}
#else
/* BitShift (unsigned types): amounts of the type's width or more give 0. */
kernel void KN(elt_bitshift)(global const TY *a, global const TY *b, global TY *y, int n, int rank, int sa,
                             int sb, global const int *g, int left)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int ia = i * sa, ib = i * sb;
    if (rank > 1) bcast_offsets(i, rank, g, &ia, &ib);
    ulong x = (ulong)a[ia], s = (ulong)b[ib];
    y[i] = s >= 8 * sizeof(TY) ? (TY)0 : (TY)(left ? x << s : x >> s);
}
#endif

/* y[i] = 1 (true): Dropout's mask in inference, every element kept */
kernel void KN(elt_fill_true)(global uchar *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = 1;
}
