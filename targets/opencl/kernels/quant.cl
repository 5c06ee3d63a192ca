/* quant.cl - template (S = u8, i8, i32: the quantized type): QuantizeLinear from f32 and
 * DequantizeLinear to f32, per tensor or per axis. Work-item (e, r) handles element e of
 * row r (rows of `inner` elements), which uses parameter c = r % channels (channels = 1
 * per tensor). Zero points arrive as int32.
 *   quantize:   y = saturate(rint(x / scale[c]) + zp[c])   (rint: half to even)
 *   dequantize: y = (float)(x - zp[c]) * scale[c]
 * DynamicQuantizeLinear (used in the u8 copy): dql_range, one work-group of up to 256
 * work-items, reduces x's range with 0 and writes p = { scale, zero point }; dql_apply
 * quantizes every element with them and writes the optional scale and zero point outputs. */

kernel void KN(quantize)(global const float *x, global TY *y, int inner, int rows, int channels,
                         global const float *scale, global const int *zp)
{
    int e = get_global_id(0), r = get_global_id(1);
    if (r >= rows) return;
    int c = r % channels;
    float s = scale[c], z = (float)zp[c];
    global const float *xr = x + r * inner;
    global TY *yr = y + r * inner;
    if (e < inner) ST(yr, e, rint(xr[e] / s) + z);
}

kernel void KN(dequantize)(global const TY *x, global float *y, int inner, int rows, int channels,
                           global const float *scale, global const int *zp)
{
    int e = get_global_id(0), r = get_global_id(1);
    if (r >= rows) return;
    int c = r % channels, z = zp[c];
    float s = scale[c];
    global const TY *xr = x + r * inner;
    global float *yr = y + r * inner;
    if (e < inner) yr[e] = (float)((int)xr[e] - z) * s;
}

/* A zero point computed at run time, widened to the int32 the kernels above read: out[i] =
 * zp[i], or zp[0] for every i where zp has one element. */
kernel void KN(zp_widen)(global const TY *zp, int nzp, global int *out, int n)
{
    int i = get_global_id(0);
    if (i < n) out[i] = (int)zp[nzp > 1 ? i : 0];
}

kernel void KN(dql_range)(global const float *x, int n, global float *p)
{
    local float lo[256], hi[256];
    int l = get_local_id(0), L = get_local_size(0);
    float a = 0.0f, b = 0.0f;
    for (int i = l; i < n; i += L) {
        a = fmin(a, x[i]);
        b = fmax(b, x[i]);
    }
    lo[l] = a;
    hi[l] = b;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = L / 2; h > 0; h /= 2) {
        if (l < h) {
            lo[l] = fmin(lo[l], lo[l + h]);
            hi[l] = fmax(hi[l], hi[l + h]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        float s = (hi[0] - lo[0]) / 255.0f;
        p[0] = s;
        p[1] = clamp(rint(-lo[0] / s), 0.0f, 255.0f);
    }
}

kernel void KN(dql_apply)(global const float *x, global TY *y, int n, global const float *p, global float *ys,
                          global TY *yz, int outs)
{
    int g = get_global_id(0);
    if (g < n) ST(y, g, rint(x[g] / p[0]) + p[1]);
    if (g == 0 && outs > 1) ys[0] = p[0];
    if (g == 0 && outs > 2) ST(yz, 0, p[1]);
}
