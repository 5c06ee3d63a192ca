/* cast.c — the cpu backend's Cast and CastLike between every pair of dtypes: one loop per
 * element, the source read as a double (the float types: f32, f16, bf16 and f64 are exact
 * in double) or as 64 integer bits (the integer types and bool: signed ones sign-extended,
 * unsigned ones zero-extended, so a u64 past 2^53 stays exact), the destination written by
 * the conversion ONNX names:
 *   - to a float type, rounded once to nearest even: a double to f32 by the hardware's
 *     conversion, to f16/bf16 through a float rounded to odd (truncated, its last bit set
 *     where bits were lost), which the second rounding to nearest even cannot spoil; an
 *     integer the same way from its exact value (common.c);
 *   - a float to an integer type, truncated toward zero (a value outside the 64-bit range of
 *     the destination's signedness, or NaN, gives 0: ONNX leaves it undefined), then
 *     narrowed as integers are;
 *   - an integer to an integer type, keeping the low bits (two's complement);
 *   - to bool, nonzero is true (NaN too). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common.h"

#define PAR_ELEMS (1 << 16)

/* v (finite or not) truncated toward zero as 64 integer bits for a destination of the
 * given signedness; 0 outside its 64-bit range or for NaN. */
static uint64_t trunc_bits(double v, int to_unsigned)
{
    double t = trunc(v);
    if (to_unsigned && t >= 0 && t < 18446744073709551616.0) return (uint64_t)t;
    if (t >= -9223372036854775808.0 && t < 9223372036854775808.0) return (uint64_t)(int64_t)t;
    return 0;
}

static cc_status cast_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                          void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0];
    cc_dtype from = x->dtype, to = out[0].dtype;
    int64_t n = cc_tensor_numel(x);
    if (n != cc_tensor_numel(&out[0]))
        return cc_err_set(err, CC_ERR_ARG, "%s: output must have the input's size", node->op->name);
    const void *src = x->data;
    void *dst = out[0].data;
    const int from_float = cc_dtype_is_float(from), to_float = cc_dtype_is_float(to);
    const int from_unsigned = cc_cpu_is_unsigned(from), to_unsigned = cc_cpu_is_unsigned(to);
#pragma omp parallel for schedule(static) if (n >= PAR_ELEMS)
    for (int64_t i = 0; i < n; i++) {
        if (from_float) {
            double v = cc_cpu_real_at(src, from, i);
            if (to == CC_BOOL) cc_cpu_int_put(dst, to, i, v != 0); /* NaN != 0 */
            else if (to_float) cc_cpu_real_put(dst, to, i, v);
            else cc_cpu_int_put(dst, to, i, trunc_bits(v, to_unsigned));
        } else {
            uint64_t v = cc_cpu_int_at(src, from, i);
            if (to_float) cc_cpu_int_to_real_put(dst, to, i, v, from_unsigned);
            else cc_cpu_int_put(dst, to, i, v);
        }
    }
    return CC_OK;
}

static const cc_kernel kernels[] = {
    {.op = CC_OP_ID_Cast, .run = cast_run},
    {.op = CC_OP_ID_CastLike, .run = cast_run},
};

const cc_kernel_list cc_cpu_family_cast = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
