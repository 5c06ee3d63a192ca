/* policy.c — the versioned tolerance table (see policy.h for the formula): one row per op
 * of ops/ops.def, indexed by op id: the named preset (below) its tolerance column gives. A
 * row holds for every dtype of its op; an op that needs other constants at some dtype gets
 * a table of (op, dtype) rows consulted before this one. There is no default: every
 * ops.def entry must name a preset (the macro takes eight arguments), and a row whose why
 * is NULL makes cc_policy_of return NULL and the catalog test name the op.
 * Changing a constant changes what "passed" means: bump CC_POLICY_VERSION with it. */
#include "policy.h"

#include <math.h>
#include <stddef.h>

#define CC_TOL(c_, r_, atol_, exact_, why_) \
    { .c = (c_), .r = (r_), .atol = (atol_), .sqrt_gamma = 0, .exact = (exact_), .why = (why_) }

/* no error allowed: an exact operation whose result is representable */
#define CC_TOL_EXACT(why_) CC_TOL(0.0, 0.0, 0.0, 1, why_)
/* data movement and exact selections */
#define CC_TOL_COPY CC_TOL_EXACT("values are copied or selected: any difference is a bug")
/* one rounding of an exact operation */
#define CC_TOL_ROUNDING CC_TOL(1.0, 1.0, 0.0, 1, "one rounding of an exact operation")
/* dot products: gamma(K)*u*sum|a*b| is the classical bound for any summation order */
#define CC_TOL_DOT CC_TOL(1.0, 1.0, 0.0, 1, "dot product: gamma(K)*u*sum|a*b| holds for any summation order")
/* c roundings where a target may take another path than the exact one (a reciprocal, a
 * product with a float32 constant): not bit-exact in the exact regime */
#define CC_TOL_ROUNDINGS(c_, why_) CC_TOL(c_, 1.0, 0.0, 0, why_)
/* averages: a sum of K terms then a division */
#define CC_TOL_AVERAGE CC_TOL_ROUNDINGS(1.0, "a sum of K terms then a division")
/* transcendental functions: a few ulps of a libm-quality exp/tanh, composed */
#define CC_TOL_TRANSCENDENTAL(why_) CC_TOL_ROUNDINGS(4.0, why_)
/* requantization: a float32 rescale may land on the other side of a .5 tie than the exact
 * value does, one unit of the 8-bit output */
#define CC_TOL_REQUANTIZE(exact_, why_) CC_TOL(0.0, 0.0, 1.0, exact_, why_)

/* each op's row: the tolerance column of ops/ops.def */
static const cc_tol table[CC_OP_ID_COUNT] = {
#define CC_OP(symbol, name, domain, since, versions, family, traits, tol) [CC_OP_ID_##symbol] = tol,
#include "ops.def"
#undef CC_OP
};

const cc_tol *cc_policy_of(const cc_op_def *op, cc_dtype dt)
{
    if ((unsigned)op->id >= CC_OP_ID_COUNT || (unsigned)dt >= CC_DTYPE_COUNT || !table[op->id].why) return NULL;
    return &table[op->id];
}

const cc_tol *cc_policy_lookup(const char *op, cc_dtype dt)
{
    const cc_op_def *def = cc_catalog_find(op);
    return def ? cc_policy_of(def, dt) : NULL;
}

void cc_tol_int_range(const cc_tol *tol, double b, double real, cc_dtype d, double *lo, double *hi)
{
    double atol = tol ? tol->atol : 0, dmin = cc_dtype_min(d), dmax = cc_dtype_max(d);
    double l = ceil(real - b - 0.5) - atol, h = floor(real + b + 0.5) + atol;
    *lo = l < dmin ? dmin : l > dmax ? dmax : l;
    *hi = h < dmin ? dmin : h > dmax ? dmax : h;
}
