/* policy.h — the numerics policy: when is a target's result right?
 *
 * Element by element a result y passes against the golden value yhat (exact, in double)
 * when
 *     |y - yhat| <= atol + c * gamma(K) * (u * S + eta) + r * u_out * |yhat| + sub_out
 * with u the unit roundoff of the case dtype (the precision a target may compute in),
 * eta half its smallest subnormal (what one operation may lose to underflow),
 * u_out that of the output dtype (the final rounding), S and K the magnitude term and
 * reduction length the golden model reports beside each output, gamma(K) = K (or sqrt(K)
 * where the policy says the statistical bound applies), and sub_out half the smallest
 * subnormal of the output dtype. Integer outputs pass when |y - yhat| <= atol.
 * In the exact regime (small-integer inputs) ops marked exact must match FP32 and
 * integer results bit for bit (the exact-regime generators of requantizing ops use
 * power-of-two scales, so there is no rounding to tolerate).
 *
 * The constants are a versioned table per op and dtype (ops/policy.c), never per target. */
#ifndef CC_POLICY_H
#define CC_POLICY_H

#include "op.h"

#define CC_POLICY_VERSION 3

typedef struct cc_tol {
    const char *op;      /* ONNX op name, or "*" for the default row */
    int dtype;           /* a cc_dtype, or -1 for any */
    double c;            /* multiplier of gamma(K) * u * S */
    double r;            /* multiplier of u_out * |yhat| */
    double atol;         /* absolute term (integer outputs: allowed difference) */
    int sqrt_gamma;      /* 1: gamma(K) = sqrt(K) */
    int exact;           /* 1: in the exact regime f32/integer outputs must be exact */
    const char *why;     /* the reason for any constant other than the default */
} cc_tol;

/* The policy row for op at case dtype dt (most specific match wins). Never NULL. */
const cc_tol *cc_policy_lookup(const char *op, cc_dtype dt);

#endif
