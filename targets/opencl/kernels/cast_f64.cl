/* cast_f64.cl - Cast and CastLike from or to f64 (program cast_f64, S = f64: built only
 * where the device has cl_khr_fp64), one work-item per element: kernels cast_to_<d>_f64
 * from f64 to every destination, and cast_to_f64_<s> from every source to f64 (bool read
 * as u8). As the golden model does (ops/eltwise_cast.c):
 *   - f64 to f32: rounded to nearest even; to f16 and bf16 rounded once, through a float
 *     rounded to odd (fp64.cl);
 *   - f64 to an integer type: truncated toward zero (in range: ONNX leaves other values
 *     undefined; they saturate, NaN gives 0), the low bits kept below 64 bits; to bool,
 *     nonzero (NaN too) is true;
 *   - to f64: floats exactly, integers rounded to nearest even (a u64 as unsigned, an i64
 *     past 2^53 rounded once). */

kernel void cast_to_f64_f64(global const double *x, global double *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = x[i];
}
kernel void cast_to_f32_f64(global const double *x, global float *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = convert_float_rte(x[i]);
}
kernel void cast_to_f16_f64(global const double *x, global ushort *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = f32_to_f16(f64_to_f32_odd(x[i]));
}
kernel void cast_to_bf16_f64(global const double *x, global ushort *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = f32_to_bf16(f64_to_f32_odd(x[i]));
}

#define FROM_F64_TO_INT(D, T)                                                             \
    kernel void cast_to_##D##_f64(global const double *x, global T *y, int n)             \
    {                                                                                     \
        int i = get_global_id(0);                                                         \
        if (i < n) y[i] = (T)convert_long_sat_rtz(x[i]);                                  \
    }
FROM_F64_TO_INT(i8, char)
FROM_F64_TO_INT(u8, uchar)
FROM_F64_TO_INT(i16, short)
FROM_F64_TO_INT(u16, ushort)
FROM_F64_TO_INT(i32, int)
FROM_F64_TO_INT(u32, uint)
FROM_F64_TO_INT(i64, long)

kernel void cast_to_u64_f64(global const double *x, global ulong *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = convert_ulong_sat_rtz(x[i]);
}
kernel void cast_to_bool_f64(global const double *x, global uchar *y, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = x[i] != 0.0 ? 1 : 0;
}

/* from a source of storage T, its value as VALUE(x[i]) */
#define TO_F64(SFX, T, VALUE)                                                             \
    kernel void cast_to_f64_##SFX(global const T *x, global double *y, int n)             \
    {                                                                                     \
        int i = get_global_id(0);                                                         \
        if (i < n) y[i] = VALUE;                                                          \
    }
TO_F64(f32, float, (double)x[i])
TO_F64(f16, ushort, (double)f16_to_f32(x[i]))
TO_F64(bf16, ushort, (double)bf16_to_f32(x[i]))
TO_F64(i8, char, (double)x[i])
TO_F64(u8, uchar, (double)x[i])
TO_F64(i16, short, (double)x[i])
TO_F64(u16, ushort, (double)x[i])
TO_F64(i32, int, (double)x[i])
TO_F64(u32, uint, (double)x[i])
TO_F64(i64, long, convert_double_rte(x[i]))
TO_F64(u64, ulong, convert_double_rte(x[i]))
