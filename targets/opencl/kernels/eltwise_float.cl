/* eltwise_float.cl - template (S = f32, f16, bf16): the unary activations and Clip
 * (kernels elt_<op>: a bare exp or sqrt would collide with the built-in functions), the
 * broadcasting binary arithmetic ops and the per-channel affine map of an inference
 * BatchNormalization. One work-item per output element; n is the element count. */

kernel void KN(elt_relu)(global const TY *x, global TY *y, int n, float p0, float p1)
{
    int i = get_global_id(0);
    if (i >= n) return;
    float v = LD(x, i);
    ST(y, i, v > 0.0f ? v : 0.0f);
}

kernel void KN(elt_leaky_relu)(global const TY *x, global TY *y, int n, float alpha, float p1)
{
    int i = get_global_id(0);
    if (i >= n) return;
    float v = LD(x, i);
    ST(y, i, v < 0.0f ? alpha * v : v);
}

kernel void KN(elt_sigmoid)(global const TY *x, global TY *y, int n, float p0, float p1)
{
    int i = get_global_id(0);
    if (i >= n) return;
    float v = LD(x, i);
    float r;
    if (v >= 0.0f) {
        r = 1.0f / (1.0f + exp(-v));
    } else {
        float e = exp(v);
        r = e / (1.0f + e);
    }
    ST(y, i, r);
}

kernel void KN(elt_tanh)(global const TY *x, global TY *y, int n, float p0, float p1)
{
    int i = get_global_id(0);
    if (i >= n) return;
    ST(y, i, tanh(LD(x, i)));
}

kernel void KN(elt_hard_sigmoid)(global const TY *x, global TY *y, int n, float alpha, float beta)
{
    int i = get_global_id(0);
    if (i >= n) return;
    float t = alpha * LD(x, i) + beta;
    ST(y, i, t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t));
}

kernel void KN(elt_hard_swish)(global const TY *x, global TY *y, int n, float p0, float p1)
{
    int i = get_global_id(0);
    if (i >= n) return;
    float v = LD(x, i);
    float t = v + 3.0f;
    t = t < 0.0f ? 0.0f : (t > 6.0f ? 6.0f : t);
    ST(y, i, v * t / 6.0f);
}

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

kernel void KN(elt_exp)(global const TY *x, global TY *y, int n, float p0, float p1)
{
    int i = get_global_id(0);
    if (i >= n) return;
    ST(y, i, exp(LD(x, i)));
}

kernel void KN(elt_sqrt)(global const TY *x, global TY *y, int n, float p0, float p1)
{
    int i = get_global_id(0);
    if (i >= n) return;
    ST(y, i, sqrt(LD(x, i)));
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
