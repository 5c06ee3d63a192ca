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
 *           CC_FABSF, CC_SELECT and CC_CLAMPF, which each language defines below (a
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

#define CC_ACTIVATIONS(X)                                                                         \
    X(Relu, relu, "", "", CC_SELECT(v < 0.0f, 0.0f, v))                                            \
    X(LeakyRelu, leaky_relu, "alpha", "", CC_SELECT(v < 0.0f, p0 * v, v))                          \
    X(Sigmoid, sigmoid, "", "", cc_formula_sigmoid(v))                                             \
    X(Tanh, tanh, "", "", CC_TANHF(v))                                                             \
    X(HardSigmoid, hard_sigmoid, "alpha", "beta", CC_CLAMPF(p0 * v + p1, 0.0f, 1.0f))               \
    X(HardSwish, hard_swish, "", "", v * CC_CLAMPF(v / 6.0f + 0.5f, 0.0f, 1.0f))                    \
    X(Exp, exp, "", "", CC_EXPF(v))                                                                \
    X(Sqrt, sqrt, "", "", CC_SQRTF(v))                                                             \
    X(Softplus, softplus, "", "", cc_formula_softplus(v))

#endif
