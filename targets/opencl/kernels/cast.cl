/* cast.cl - template (S = f32, f16, bf16: float sources; i8, u8, i16, u16, i32, u32, i64, u64:
 * integer sources, bool read as u8): Cast and CastLike from the source dtype S to each
 * destination type but f64, one kernel per destination (cast_to_<d>_<S>), one work-item
 * per element (casts from or to f64: cast_f64.cl, built where the device has fp64).
 *
 * Float sources are loaded as float (exact); to a float type they are rounded to nearest
 * even, to an integer type truncated toward zero (in range: ONNX leaves other values
 * undefined; they saturate, NaN gives 0), the low bits kept for a type narrower than 64
 * bits; to bool nonzero is true. Integer sources (as long, u64 as ulong, so a u64 past 2^63
 * keeps its value): to f32 by the rounding conversion; to f16/bf16 through a float rounded
 * to odd (truncated, its last bit set where bits were lost), which the
 * round-to-nearest-even packing cannot spoil; to an integer type the low bits kept (two's
 * complement); to bool nonzero is true. */

#if defined(S_IS_FLOAT)
#define SRC float
#define GET(x, i) LD(x, i)
long to_long(float v) { return convert_long_sat_rtz(v); }
ulong to_ulong(float v) { return convert_ulong_sat_rtz(v); }
float to_f32(float v) { return v; }
float to_f16ish(float v) { return v; }
#else
#if defined(S_IS_U64)
#define SRC ulong
#define BACK_RTZ(f) convert_ulong_rtz(f)
#else
#define SRC long
#define BACK_RTZ(f) convert_long_rtz(f)
#endif
#define GET(x, i) ((SRC)(x)[i])
long to_long(SRC v) { return (long)v; }
ulong to_ulong(SRC v) { return (ulong)v; }
float to_f32(SRC v) { return convert_float_rte(v); }
float to_f16ish(SRC v)
{
    float f = convert_float_rtz(v);
    if (BACK_RTZ(f) != v) f = as_float(as_uint(f) | 1u);
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

/* to an integer type of storage T: the low bits of the value as long */
#define CAST_TO_INT(D, T)                                                                 \
    kernel void KN(cast_to_##D)(global const TY *x, global T *y, int n)                   \
    {                                                                                     \
        int i = get_global_id(0);                                                         \
        if (i < n) y[i] = (T)to_long(GET(x, i));                                          \
    }
CAST_TO_INT(i8, char)
CAST_TO_INT(u8, uchar)
CAST_TO_INT(i16, short)
CAST_TO_INT(u16, ushort)
CAST_TO_INT(i32, int)
CAST_TO_INT(u32, uint)
CAST_TO_INT(i64, long)

kernel void KN(cast_to_u64)(global const TY *x, global ulong *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = to_ulong(GET(x, i));
}
kernel void KN(cast_to_bool)(global const TY *x, global uchar *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = GET(x, i) != 0 ? 1 : 0;
}
