/* eltwise_formulas.h — the float formulas of the elementwise activations, written once
 * for the built-in backends: C (cpu), CUDA (cuda) and OpenCL C (opencl, where the text is
 * embedded and put in front of the kernel template) all include it.
 *
 * CC_ACTIVATIONS(X) calls X(Op, name, P0, P1, F) once per activation:
 *   Op      the ONNX op name (an identifier: the backends make tables and ids of it)
 *   name    the kernel name suffix (opencl's elt_<name>)
 *   P0, P1  the float attributes bound to p0 and p1 ("" when unused)
 *   F       the value, an expression of float v (the input element) and float p0, p1,
 *           computed in float, written with CC_EXPF, CC_LOG1PF, CC_TANHF, CC_SQRTF,
 *           CC_FABSF, CC_LIBMF(fn, x) for the other float functions of the C library
 *           (CC_LIBMF(sin, v); rint rounds half to even), CC_SELECT and CC_CLAMPF, which
 *           each language defines below (a
 *           backend may define CC_EXPF and CC_SELECT first, as the cpu does for a
 *           vectorisable exp and select), and the cc_formula_* functions below.
 * Adding an activation is one row here; its golden model, schema and cases stay in ops/.
 * Integer activations (Relu on ints) and Clip (bounds as inputs) are kernels of their own. */
#ifndef CC_ELTWISE_FORMULAS_H
#define CC_ELTWISE_FORMULAS_H

#if defined(__OPENCL_VERSION__)
#ifndef CC_EXPF
#define CC_EXPF(x) exp(x)
#endif
#define CC_LOG1PF(x) log1p(x)
#define CC_TANHF(x) tanh(x)
#define CC_SQRTF(x) sqrt(x)
#define CC_FABSF(x) fabs(x)
/* CC_LIBMF(sin, x): the float function of the C library, sin in OpenCL C */
#define CC_LIBMF(fn, x) fn(x)
#define CC_FORMULA_FN
#else
#include <math.h>
#ifndef CC_EXPF
#define CC_EXPF(x) expf(x)
#endif
#define CC_LOG1PF(x) log1pf(x)
#define CC_TANHF(x) tanhf(x)
#define CC_SQRTF(x) sqrtf(x)
#define CC_FABSF(x) fabsf(x)
#define CC_LIBMF(fn, x) fn##f(x) /* sinf */
#if defined(__CUDACC__)
#define CC_FORMULA_FN static __device__ __forceinline__
#else
#define CC_FORMULA_FN static inline
#endif
#endif
/* a when c holds, else b, both computed: a backend may make it a branch-free select (the
 * cpu does, so that its loops vectorise) */
#ifndef CC_SELECT
#define CC_SELECT(c, a, b) ((c) ? (a) : (b))
#endif
/* lo when x < lo, hi when x > hi, else x (NaN stays NaN) */
#define CC_CLAMPF(x, lo, hi) CC_SELECT((x) > (hi), (hi), CC_SELECT((x) < (lo), (lo), (x)))

/* Sigmoid: with e = exp(-|v|), which never overflows, 1/(1+e) for v >= 0 and e/(1+e)
 * below: one exp. */
CC_FORMULA_FN float cc_formula_sigmoid(float v)
{
    float e = CC_EXPF(-CC_FABSF(v)), s = 1.0f / (1.0f + e);
    return CC_SELECT(v >= 0.0f, s, e * s);
}

/* Softplus: log(1 + exp(v)) as max(v, 0) + log1p(exp(-|v|)), which neither overflows nor
 * loses the small values of large negative v. */
CC_FORMULA_FN float cc_formula_softplus(float v)
{
    return CC_SELECT(v > 0.0f, v, 0.0f) + CC_LOG1PF(CC_EXPF(-CC_FABSF(v)));
}

/* Sign: 1, -1, or the input itself for zeros and NaN */
CC_FORMULA_FN float cc_formula_sign(float v)
{
    return CC_SELECT(v > 0.0f, 1.0f, CC_SELECT(v < 0.0f, -1.0f, v));
}

/* Celu: max(0, v) + min(0, alpha * (exp(v / alpha) - 1)) */
CC_FORMULA_FN float cc_formula_celu(float v, float alpha)
{
    return CC_SELECT(v > 0.0f, v, alpha * CC_LIBMF(expm1, v / alpha));
}

/* Shrink: v + bias below -lambd, v - bias above lambd, 0 between */
CC_FORMULA_FN float cc_formula_shrink(float v, float lambd, float bias)
{
    return CC_SELECT(v < -lambd, v + bias, CC_SELECT(v > lambd, v - bias, 0.0f));
}

#define CC_ACTIVATIONS(X)                                                                         \
    X(Relu, relu, "", "", CC_SELECT(v < 0.0f, 0.0f, v))                                           \
    X(LeakyRelu, leaky_relu, "alpha", "", CC_SELECT(v < 0.0f, p0 * v, v))                         \
    X(Sigmoid, sigmoid, "", "", cc_formula_sigmoid(v))                                            \
    X(Tanh, tanh, "", "", CC_TANHF(v))                                                            \
    X(HardSigmoid, hard_sigmoid, "alpha", "beta", CC_CLAMPF(p0 * v + p1, 0.0f, 1.0f))             \
    X(HardSwish, hard_swish, "", "", v * CC_CLAMPF(v / 6.0f + 0.5f, 0.0f, 1.0f))                  \
    X(Exp, exp, "", "", CC_EXPF(v))                                                               \
    X(Sqrt, sqrt, "", "", CC_SQRTF(v))                                                            \
    X(Softplus, softplus, "", "", cc_formula_softplus(v))                                         \
    X(Neg, neg, "", "", -v)                                                                       \
    X(Abs, abs, "", "", CC_FABSF(v))                                                              \
    X(Sign, sign, "", "", cc_formula_sign(v))                                                     \
    X(Ceil, ceil, "", "", CC_LIBMF(ceil, v))                                                      \
    X(Floor, floor, "", "", CC_LIBMF(floor, v))                                                   \
    X(Round, round, "", "", CC_LIBMF(rint, v))                                                    \
    X(Reciprocal, reciprocal, "", "", 1.0f / v)                                                   \
    X(Log, log, "", "", CC_LIBMF(log, v))                                                         \
    X(Erf, erf, "", "", CC_LIBMF(erf, v))                                                         \
    X(Sin, sin, "", "", CC_LIBMF(sin, v))                                                         \
    X(Cos, cos, "", "", CC_LIBMF(cos, v))                                                         \
    X(Tan, tan, "", "", CC_LIBMF(tan, v))                                                         \
    X(Asin, asin, "", "", CC_LIBMF(asin, v))                                                      \
    X(Acos, acos, "", "", CC_LIBMF(acos, v))                                                      \
    X(Atan, atan, "", "", CC_LIBMF(atan, v))                                                      \
    X(Sinh, sinh, "", "", CC_LIBMF(sinh, v))                                                      \
    X(Cosh, cosh, "", "", CC_LIBMF(cosh, v))                                                      \
    X(Asinh, asinh, "", "", CC_LIBMF(asinh, v))                                                   \
    X(Acosh, acosh, "", "", CC_LIBMF(acosh, v))                                                   \
    X(Atanh, atanh, "", "", CC_LIBMF(atanh, v))                                                   \
    X(Elu, elu, "alpha", "", CC_SELECT(v < 0.0f, p0 * CC_LIBMF(expm1, v), v))                     \
    X(Selu, selu, "alpha", "gamma", p1 * CC_SELECT(v > 0.0f, v, p0 * CC_LIBMF(expm1, v)))         \
    X(Celu, celu, "alpha", "", cc_formula_celu(v, p0))                                            \
    X(ThresholdedRelu, thresholded_relu, "alpha", "", CC_SELECT(v > p0, v, 0.0f))                 \
    X(Softsign, softsign, "", "", v / (1.0f + CC_FABSF(v)))                                       \
    X(Shrink, shrink, "lambd", "bias", cc_formula_shrink(v, p0, p1))

#endif
