/* control_eval.h — the golden evaluation of control-flow nodes (If, Loop, Scan: ops/control.h):
 * their sub-graphs evaluated with the catalog's golden models, iteration by iteration, the
 * first-order error bounds of their inputs carried through (models/model.c calls it). */
#ifndef CC_CONTROL_EVAL_H
#define CC_CONTROL_EVAL_H

#include "model.h"

/* Loop's iterations at most, whatever M and cond say (a model that never ends is refused). */
#define CC_LOOP_MAX_ITERATIONS (1 << 20)

/* Evaluates control-flow node k of g on inputs inp[0..n_in) (in_err[i]: the bound on how far
 * a target's input i may lie from it, per element, or NULL). go[0..n_out) come allocated at
 * the node's output shapes (Loop's stacked outputs at their bound); fills value (the values
 * the sub-graphs store), mag (|value|), k = 1 and the actual shape. With out_err non-NULL,
 * out_err[j] gets, for a float output, a malloc'd bound per element of what the sub-graphs'
 * nodes let a target's value of output j lie from value (first order; NULL otherwise). */
cc_status cc_control_evaluate(const cc_graph *g, int k, const cc_tensor *const *inp, double *const *in_err,
                              cc_golden *go, double **out_err, cc_err *err);

#endif
