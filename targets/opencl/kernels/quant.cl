/* quant.cl - template (S = u8, i8, i32: the quantized type): QuantizeLinear from f32 and
 * DequantizeLinear to f32, per tensor or per axis. Work-item (e, r) handles element e of
 * row r (rows of `inner` elements), which uses parameter c = r % channels (channels = 1
 * per tensor). Zero points arrive as int32.
 *   quantize:   y = saturate(rint(x / scale[c]) + zp[c])   (rint: half to even)
 *   dequantize: y = (float)(x - zp[c]) * scale[c] */

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
