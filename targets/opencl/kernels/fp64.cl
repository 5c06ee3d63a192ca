/* fp64.cl - put after common.cl in the programs that compute in double, and only in them:
 * the host builds such a program only for a device with cl_khr_fp64 (its
 * CL_DEVICE_DOUBLE_FP_CONFIG non-zero), so a device without it still builds every other
 * program. It names f64 storage for the templates (S = f64: stored, loaded and computed
 * as double, CT the compute type) and the rounding of a double to float by odd rounding,
 * which a later round to nearest even (f32_to_f16, f32_to_bf16) cannot spoil: the value
 * is rounded once, as the golden model does. */

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define TY_f64 double
#define CT_f64 double
#define LD_f64(p, i) ((p)[i])
#define ST_f64(p, i, v) ((p)[i] = (v))

/* v to float, truncated, with the last bit set where bits were lost (NaN stays NaN). */
float f64_to_f32_odd(double v)
{
    float f = convert_float_rtz(v);
    return (double)f != v && !isnan(v) ? as_float(as_uint(f) | 1u) : f;
}
