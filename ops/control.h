/* control.h — what code outside the control-flow family needs of If, Loop and Scan
 * (CC_TRAIT_SUBGRAPH, ops/control.c): their outputs' types from their sub-graphs, and the
 * layout of their inputs and outputs. */
#ifndef CC_CONTROL_H
#define CC_CONTROL_H

#include "op.h"

/* The sub-graphs at most one control-flow node nests (a Loop in an If in a Loop...):
 * deeper models are refused at import. */
#define CC_CONTROL_MAX_DEPTH 8

/* Checks node nd of a control-flow op against its sub-graphs subs[0..n_subs) (the
 * graph's that holds it: its CC_ATTR_GRAPH attributes index them) and its inputs
 * in[0..nd->n_in) (NULL for an absent optional one; data may be read where a constant),
 * and writes each output's dtype and shape (Loop's stacked outputs: at their bound).
 * One-line CC_ERR_ARG (CC_ERR_UNSUPPORTED for what the catalog does not run) naming the
 * op. Input layout, captured outer values last (each sub-graph takes them as its last
 * inputs, in the node's order):
 *   If     cond, captured...;            each branch: captured... -> outputs
 *   Loop   M, cond, v_initial[carried], captured...;
 *          body: iteration, cond, v[carried], captured... -> cond, v[carried], scan outputs
 *   Scan   state[carried], scan inputs[num_scan_inputs], captured...;
 *          body: state[carried], slices, captured... -> state[carried], scan outputs
 * "carried" is a knob the importer sets (the count of loop-carried values); Loop's
 * "max_trips" knob, when positive, bounds the stacked outputs where M is not a constant. */
cc_status cc_control_infer(const cc_node *nd, const cc_graph *subs, int n_subs, const cc_tensor *const *in,
                           int n_out, cc_tensor *out, cc_err *err);

/* 1 when If node nd's outputs follow the data: a branch output's shape does (within the
 * branch), or the branches give an output different extents (the node's shape is then
 * their bound, cc_control_infer, and each run the taken branch's). 0 otherwise. */
int cc_control_if_varies(const cc_node *nd, const cc_graph *subs, int n_subs);

/* The sub-graph index of nd's graph attribute `name` (then_branch, else_branch, body). */
int cc_control_subgraph(const cc_node *nd, const char *name);

#endif
