/* cast.c — the cpu backend's Cast and CastLike: one loop per element, the source read as a
 * float (f32/f16/bf16: exact in float) or as an int64 (the integer types and bool), the
 * destination written by the conversion ONNX names: float to float rounded to nearest even;
 * an integer to f32 by the hardware's rounding conversion, to f16/bf16 through a float
 * rounded to odd (truncated, its last bit set where bits were lost), which a second
 * round-to-nearest-even cannot spoil; float to integer truncated toward zero (a value
 * outside int64, or NaN, gives 0: ONNX leaves it undefined); integer to integer keeping
 * the low bits; to bool, nonzero is true. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common.h"

#define PAR_ELEMS (1 << 16)

/* v as a float rounded to odd (see above). */
static float int_to_float_odd(int64_t v)
{
    float f = (float)v;
    long double diff = (long double)f - (long double)v; /* exact: long double holds every int64 */
    if (diff != 0) {
        if ((diff > 0) == (v > 0)) f = nextafterf(f, 0.0f);
        uint32_t b;
        memcpy(&b, &f, 4);
        b |= 1u;
        memcpy(&f, &b, 4);
    }
    return f;
}

static int is_float(cc_dtype d) { return d == CC_F32 || d == CC_F16 || d == CC_BF16; }

static float load_f(const void *p, cc_dtype d, int64_t i)
{
    switch (d) {
    case CC_F16: return cc_f16_to_f32(((const uint16_t *)p)[i]);
    case CC_BF16: return cc_bf16_to_f32(((const uint16_t *)p)[i]);
    default: return ((const float *)p)[i];
    }
}

static int64_t load_i(const void *p, cc_dtype d, int64_t i)
{
    switch (d) {
    case CC_I8: return ((const int8_t *)p)[i];
    case CC_I32: return ((const int32_t *)p)[i];
    case CC_I64: return ((const int64_t *)p)[i];
    default: return ((const uint8_t *)p)[i]; /* u8, bool */
    }
}

static void store_f(void *p, cc_dtype d, int64_t i, float f)
{
    switch (d) {
    case CC_F16: ((uint16_t *)p)[i] = cc_f32_to_f16(f); break;
    case CC_BF16: ((uint16_t *)p)[i] = cc_f32_to_bf16(f); break;
    default: ((float *)p)[i] = f; break;
    }
}

static void store_i(void *p, cc_dtype d, int64_t i, int64_t v)
{
    switch (d) {
    case CC_I8: ((int8_t *)p)[i] = (int8_t)(uint8_t)(uint64_t)v; break;
    case CC_U8: ((uint8_t *)p)[i] = (uint8_t)(uint64_t)v; break;
    case CC_I32: ((int32_t *)p)[i] = (int32_t)(uint32_t)(uint64_t)v; break;
    case CC_I64: ((int64_t *)p)[i] = v; break;
    default: ((uint8_t *)p)[i] = v != 0; break; /* bool */
    }
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
#pragma omp parallel for schedule(static) if (n >= PAR_ELEMS)
    for (int64_t i = 0; i < n; i++) {
        if (is_float(from)) {
            float f = load_f(src, from, i);
            if (to == CC_BOOL) store_i(dst, to, i, f != 0);
            else if (is_float(to)) store_f(dst, to, i, f);
            else store_i(dst, to, i, f > -9.2e18f && f < 9.2e18f ? (int64_t)f : 0);
        } else {
            int64_t v = load_i(src, from, i);
            if (to == CC_F32) store_f(dst, to, i, (float)v);
            else if (is_float(to)) store_f(dst, to, i, int_to_float_odd(v));
            else store_i(dst, to, i, v);
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
