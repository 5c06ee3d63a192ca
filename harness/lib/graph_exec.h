/* graph_exec.h — the one executor of graphs on targets: a model, or an op case as a
 * one-node graph. With a fallback target (a model on `cpu`), the nodes the target does not
 * support run there: the graph is cut into segments of consecutive nodes that run on one
 * target and tensors cross segment boundaries through host memory. Fallbacks are counted,
 * never hidden.
 *
 * Every output buffer of a segment ends in CC_GUARD_BYTES guard bytes and starts out
 * filled with a canary (all-ones bytes for floats: a NaN that equals no reference value),
 * so a target that writes past the end of an output, or leaves one unwritten, is caught
 * even where it does not crash. Timing uses the target's device timer where it has one. */
#ifndef CC_GRAPH_EXEC_H
#define CC_GRAPH_EXEC_H

#include "../../targets/target.h"

typedef struct cc_graph_exec cc_graph_exec;

/* Guard bytes after every output buffer, and their value. */
#define CC_GUARD_BYTES 64
#define CC_GUARD_BYTE 0xA5

typedef struct cc_graph_exec_info {
    int n_nodes;
    int n_fallback;              /* nodes run on cpu instead of the target */
    int n_segments;
    char fallback_ops[256];      /* "Resize x2, Softmax" */
    char first_unsupported[256]; /* the reason of the first node the target refused */
} cc_graph_exec_info;

/* Prepares g on target t (opened: ctx) with fallback target fb (opened: fb_ctx; NULL
 * forbids fallback: an unsupported node is then CC_ERR_UNSUPPORTED, and a failed prepare
 * returns the target's own status and message). g must outlive the executor. */
cc_status cc_graph_exec_create(const cc_graph *g, const cc_target_iface *t, void *ctx,
                               const cc_target_iface *fb, void *fb_ctx, cc_graph_exec **out,
                               cc_graph_exec_info *info, cc_err *err);
/* Runs once: in[i] are host tensors for g->inputs[i]; out[j] host tensors (allocated by
 * the caller, g's output shapes and dtypes) receive g->outputs[j]. CC_ERR_DEVICE with
 * "<target> wrote past the end of output <j> (guard byte <b> changed)" when a guard byte
 * changed (cc_graph_exec_overrun then says 1). */
cc_status cc_graph_exec_run(cc_graph_exec *x, const cc_tensor *in, cc_tensor *out, cc_err *err);
/* Uploads the inputs once and then runs only the target's work: for timing. With a single
 * segment this is the target's run + sync on resident buffers. */
cc_status cc_graph_exec_bind(cc_graph_exec *x, const cc_tensor *in, cc_err *err);
cc_status cc_graph_exec_run_bound(cc_graph_exec *x, cc_err *err);
/* run_bound once, timed: by the target's device timer (run_timed: OpenCL profiling
 * events, CUDA events) when x is one segment on a target that has one (*device = 1),
 * else by the host clock around run + sync (*device = 0). */
cc_status cc_graph_exec_run_timed(cc_graph_exec *x, double *seconds, int *device, cc_err *err);
/* 1 when the last run found a changed guard byte. */
int cc_graph_exec_overrun(const cc_graph_exec *x);
void cc_graph_exec_destroy(cc_graph_exec *x);
/* What the targets chose for x: each segment's describe_plan text (targets without one
 * write nothing), prefixed with "name nodes a-b: " when x has several segments, joined
 * with " | ", cut to fit buf (n bytes, NUL-terminated; "" when no target describes). */
void cc_graph_exec_describe(const cc_graph_exec *x, char *buf, size_t n);

/* How messages name node nd: "node NAME (Op)", or its name alone where the importer
 * already called an unnamed node "node K (Op)". Returns buf (n bytes). */
const char *cc_graph_node_label(const cc_node *nd, char *buf, size_t n);

#endif
