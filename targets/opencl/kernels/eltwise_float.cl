/* eltwise_float.cl - template (S = f32, f16, bf16): the unary activations and Clip
 * (kernels elt_<name>: a bare exp or sqrt would collide with the built-in functions), the
 * broadcasting binary arithmetic ops and the per-channel affine map of an inference
 * BatchNormalization. One work-item per output element; n is the element count. */

/* The activations, one kernel elt_<name> each, from the formulas the built-in backends
 * share (targets/eltwise_formulas.h, whose text the host puts in front of this file). */
#define ACTIVATION_KERNEL(Op, name, P0, P1, F)                                                 \
    kernel void KN(elt_##name)(global const TY *x, global TY *y, int n, float p0, float p1)     \
    {                                                                                          \
        int i = get_global_id(0);                                                              \
        if (i >= n) return;                                                                    \
        float v = LD(x, i);                                                                    \
        ST(y, i, F);                                                                           \
    }
CC_ACTIVATIONS(ACTIVATION_KERNEL)

/* Clip: max(lo, x) then min(hi, .) by comparisons, so a NaN input stays NaN and lo > hi
 * gives hi everywhere (ONNX). Absent bounds arrive as -inf / +inf. */
kernel void KN(elt_clip)(global const TY *x, global TY *y, int n, float lo, float hi)
{
    int i = get_global_id(0);
    if (i >= n) return;
    float v = LD(x, i);
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    ST(y, i, v);
}

/* Binary ops (BINARY_KERNEL in common.cl), computed in float. */
#define BINARY_FLOAT(NAME, EXPR) BINARY_KERNEL(NAME, float, LD, ST, EXPR)

BINARY_FLOAT(add, u + v)
BINARY_FLOAT(sub, u - v)
BINARY_FLOAT(mul, u * v)
BINARY_FLOAT(div, u / v)

/* y = x * scale[c] + shift[c] (f32 parameters) over planes of `inner` elements: work-item
 * (e, p) handles element e of plane p, whose channel is p % channels. */
kernel void KN(affine_channel)(global const TY *restrict x, global TY *restrict y, int inner, int planes,
                               int channels, global const float *restrict scale,
                               global const float *restrict shift)
{
    int e = get_global_id(0), p = get_global_id(1);
    if (p >= planes) return;
    int c = p % channels;
    float s = scale[c], t = shift[c];
    global const TY *xp = x + p * inner;
    global TY *yp = y + p * inner;
    if (e < inner) ST(yp, e, LD(xp, e) * s + t);
}

/* BatchNormalization's scale and shift from parameters computed at run time (x's dtype),
 * for affine_channel: a = scale / sqrt(var + epsilon), shift = b - mean * a. */
kernel void KN(bn_fold)(global const TY *restrict sc, global const TY *restrict bb, global const TY *restrict mean,
                        global const TY *restrict var, int channels, float eps, global float *restrict scale,
                        global float *restrict shift)
{
    int c = get_global_id(0);
    if (c >= channels) return;
    float a = LD(sc, c) / sqrt(LD(var, c) + eps);
    scale[c] = a;
    shift[c] = LD(bb, c) - LD(mean, c) * a;
}

/* Pow, PRelu, Mod (fmod=1: C's fmod, exact), the variadic ops' Min and Max steps, and
 * first (y = a: a one-input Min/Max/Sum/Mean). Min and Max keep a where the other is not
 * below or above it. Named elt_<op>: min_f32, pow_f32 ... would collide with built-ins. */
BINARY_FLOAT(elt_min, v < u ? v : u)
BINARY_FLOAT(elt_max, v > u ? v : u)
BINARY_FLOAT(elt_pow, pow(u, v))
BINARY_FLOAT(elt_prelu, u < 0.0f ? v * u : u)
BINARY_FLOAT(elt_fmod, fmod(u, v))
BINARY_FLOAT(elt_first, u)

/* Mean's last step: y = x / p0 (the input count), in place. */
kernel void KN(elt_divide)(global const TY *x, global TY *y, int n, float p0, float p1)
{
    int i = get_global_id(0);
    if (i >= n) return;
    ST(y, i, LD(x, i) / p0);
}

/* Pow with an integer exponent (the exponent's own storage type IT, converted to float),
 * broadcast as BINARY_KERNEL does: kernels elt_pow_i8, elt_pow_u8, elt_pow_i16, elt_pow_u16,
 * elt_pow_i32, elt_pow_u32, elt_pow_i64, elt_pow_u64 (an f64 exponent: eltwise_f64.cl). */
#define POW_INT_KERNEL(NAME, IT)                                                              \
    kernel void KN(NAME)(global const TY *a, global const IT *b, global TY *y, int n, int rank,  \
                         int sa, int sb, global const int *g)                                  \
    {                                                                                          \
        int i = get_global_id(0);                                                              \
        if (i >= n) return;                                                                    \
        int ia = i * sa, ib = i * sb;                                                          \
        if (rank > 1) bcast_offsets(i, rank, g, &ia, &ib);                                     \
        ST(y, i, pow(LD(a, ia), (float)b[ib]));                                                \
    }
POW_INT_KERNEL(elt_pow_i8, char)
POW_INT_KERNEL(elt_pow_u8, uchar)
POW_INT_KERNEL(elt_pow_i32, int)
POW_INT_KERNEL(elt_pow_i64, long)
POW_INT_KERNEL(elt_pow_i16, short)
POW_INT_KERNEL(elt_pow_u16, ushort)
POW_INT_KERNEL(elt_pow_u32, uint)
POW_INT_KERNEL(elt_pow_u64, ulong)
