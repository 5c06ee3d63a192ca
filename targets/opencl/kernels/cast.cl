/* cast.cl - template (S = f32, f16, bf16: float sources; i8, u8, i32, i64: integer sources,
 * bool read as u8): Cast and CastLike from the source dtype S to each destination type,
 * one kernel per destination (cast_to_<d>_<S>), one work-item per element. Float sources
 * are loaded as float (exact); to a float type they are rounded to nearest even, to an
 * integer type truncated toward zero (in range; ONNX leaves other values undefined: a
 * value beyond int64 or NaN gives 0), to bool nonzero is true. Integer sources: to f32 by
 * the rounding conversion; to f16/bf16 through a float rounded to odd (truncated, its
 * last bit set where bits were lost), which the round-to-nearest-even packing cannot
 * spoil; to an integer type the low bits kept; to bool nonzero is true. */

#if defined(S_IS_FLOAT)
#define SRC float
#define GET(x, i) LD(x, i)
long to_long(float v) { return v > -9.2e18f && v < 9.2e18f ? convert_long_rtz(v) : 0; }
float to_f32(float v) { return v; }
float to_f16ish(float v) { return v; }
#else
#define SRC long
#define GET(x, i) ((long)(x)[i])
long to_long(long v) { return v; }
float to_f32(long v) { return convert_float_rte(v); }
float to_f16ish(long v)
{
    float f = convert_float_rtz(v);
    if (convert_long_rtz(f) != v) f = as_float(as_uint(f) | 1u);
    return f;
}
#endif

kernel void KN(cast_to_f32)(global const TY *x, global float *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = to_f32(GET(x, i));
}
kernel void KN(cast_to_f16)(global const TY *x, global ushort *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = f32_to_f16(to_f16ish(GET(x, i)));
}
kernel void KN(cast_to_bf16)(global const TY *x, global ushort *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = f32_to_bf16(to_f16ish(GET(x, i)));
}
kernel void KN(cast_to_i8)(global const TY *x, global char *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = (char)to_long(GET(x, i));
}
kernel void KN(cast_to_u8)(global const TY *x, global uchar *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = (uchar)to_long(GET(x, i));
}
kernel void KN(cast_to_i32)(global const TY *x, global int *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = (int)to_long(GET(x, i));
}
kernel void KN(cast_to_i64)(global const TY *x, global long *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = to_long(GET(x, i));
}
kernel void KN(cast_to_bool)(global const TY *x, global uchar *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = GET(x, i) != 0 ? 1 : 0;
}
