/* graph_exec.h — runs a whole graph (a model) on a target, falling back to the `cpu`
 * target, node by node, for what the target does not support. The graph is cut into
 * segments of consecutive nodes that run on one target; tensors cross segment boundaries
 * through host memory. Fallbacks are counted, never hidden. */
#ifndef CC_GRAPH_EXEC_H
#define CC_GRAPH_EXEC_H

#include "../../targets/target.h"

typedef struct cc_graph_exec cc_graph_exec;

typedef struct cc_graph_exec_info {
    int n_nodes;
    int n_fallback;              /* nodes run on cpu instead of the target */
    int n_segments;
    char fallback_ops[256];      /* "Resize x2, Softmax" */
    char first_unsupported[256]; /* the reason of the first node the target refused */
} cc_graph_exec_info;

/* Prepares g on target t (opened: ctx) with fallback target fb (opened: fb_ctx; NULL
 * forbids fallback: an unsupported node is then CC_ERR_UNSUPPORTED). g must outlive the
 * executor. */
cc_status cc_graph_exec_create(const cc_graph *g, const cc_target_iface *t, void *ctx,
                               const cc_target_iface *fb, void *fb_ctx, cc_graph_exec **out,
                               cc_graph_exec_info *info, cc_err *err);
/* Runs once: in[i] are host tensors for g->inputs[i]; out[j] host tensors (allocated by
 * the caller, g's output shapes and dtypes) receive g->outputs[j]. */
cc_status cc_graph_exec_run(cc_graph_exec *x, const cc_tensor *in, cc_tensor *out, cc_err *err);
/* Uploads the inputs once and then runs only the target's work: for timing. With a single
 * segment this is the target's run + sync on resident buffers. */
cc_status cc_graph_exec_bind(cc_graph_exec *x, const cc_tensor *in, cc_err *err);
cc_status cc_graph_exec_run_bound(cc_graph_exec *x, cc_err *err);
void cc_graph_exec_destroy(cc_graph_exec *x);
/* What the targets chose for x: each segment's describe_plan text (targets without one
 * write nothing), prefixed with "name nodes a-b: " when x has several segments, joined
 * with " | ", cut to fit buf (n bytes, NUL-terminated; "" when no target describes). */
void cc_graph_exec_describe(const cc_graph_exec *x, char *buf, size_t n);

#endif
