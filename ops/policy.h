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
 * subnormal of the output dtype. Integer outputs pass when |y - yhat| <= atol; an integer
 * output the golden model also gives before rounding (cc_golden.real: Resize's
 * interpolations, computed in float and rounded) passes when it is what a value within
 * c * gamma(K) * (u * S + eta) of that real value rounds to (either way at a tie), +- atol.
 * In the exact regime (small-integer inputs) ops marked exact must match FP32 and
 * integer results bit for bit (the exact-regime generators of requantizing ops use
 * power-of-two scales, so there is no rounding to tolerate).
 *
 * The constants are a versioned table per op and dtype (ops/policy.c), never per target:
 * every op of ops/ops.def declares its row, indexed by op id; there is no default row, and
 * an op without one fails ops/tests/test_catalog.c. */
#ifndef CC_POLICY_H
#define CC_POLICY_H

#include "op.h"

#define CC_POLICY_VERSION 4

typedef struct cc_tol {
    double c;            /* multiplier of gamma(K) * u * S */
    double r;            /* multiplier of u_out * |yhat| */
    double atol;         /* absolute term (integer outputs: allowed difference) */
    int sqrt_gamma;      /* 1: gamma(K) = sqrt(K) */
    int exact;           /* 1: in the exact regime f32/integer outputs must be exact */
    const char *why;     /* the reason for these constants; never NULL in a declared row */
} cc_tol;

/* The policy row of op at case dtype dt (static storage). NULL when op's id has no row
 * (a bug the catalog test reports) or dt is not a dtype. */
const cc_tol *cc_policy_of(const cc_op_def *op, cc_dtype dt);

/* For an integer output of dtype d rounded from the float value real: the integers [*lo,
 * *hi] that a value within b of real rounds to (either way at a tie), widened by tol's atol
 * and saturated to d. What the checkers accept where a golden output carries real. */
void cc_tol_int_range(const cc_tol *tol, double b, double real, cc_dtype d, double *lo, double *hi);

/* The same for the catalog op named op (cc_catalog_find); NULL for a name the catalog
 * does not have. */
const cc_tol *cc_policy_lookup(const char *op, cc_dtype dt);

#endif
