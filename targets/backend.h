/* backend.h — helpers the built-in backends (cpu, cuda, opencl) share, compiled into
 * cc_targets beside the registry; not part of the backend ABI and not installed, so an
 * out-of-tree plugin keeps its own equivalents:
 *  - whether a node's inputs name values of the graph;
 *  - the note a kernel's prepare() leaves on how its node will run;
 *  - node attributes with defaults;
 *  - element strides of a broadcast operand;
 *  - the sliding-window geometry of Conv and pool nodes as three spatial axes;
 *  - the describe_plan text of a plan that is a list of nodes with a kernel note each. */
#ifndef CC_BACKEND_H
#define CC_BACKEND_H

#include <stddef.h>

#include "target.h"

/* ---- nodes and notes ------------------------------------------------------------------- */

/* 1 when every input of node names a value of g (or is absent, < 0); otherwise 0 with the
 * reason ("node input 1 names value 9 of 5") in reason[0..n). */
int cc_backend_inputs_valid(const cc_graph *g, const cc_node *node, char *reason, size_t n);

/* 1 when one of node's present inputs in[] or outputs out[] is of a dtype outside ABI 7's
 * (the wide dtypes of ABI 8: f64, i16, u16, u32, u64); *d names the first. 0 otherwise. */
int cc_backend_node_wide(const cc_node *node, const cc_tensor *const *in, const cc_tensor *out, cc_dtype *d);

/* For a node of data-dependent output shape (CC_TRAIT_DYNAMIC_SHAPE): every output must be
 * a graph output that no node of g reads (what reads one would be planned at its bound).
 * CC_OK for any other node; otherwise CC_ERR_UNSUPPORTED naming `who` and the output. */
cc_status cc_backend_dynamic_outputs_check(const cc_graph *g, const cc_node *node, const char *who, cc_err *err);

/* Records a short note on how the node whose kernel prepare() is running will execute
 * ("im2col+sgemm"); the backend shows it in describe_plan. Call from prepare() only; a
 * later call replaces the note. Notes are per thread and cut to CC_BACKEND_NOTE_MAX - 1
 * bytes. */
#define CC_BACKEND_NOTE_MAX 96
void cc_backend_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Forgets the note of this thread (before a kernel's prepare()). */
void cc_backend_note_clear(void);
/* The note recorded on this thread since the last clear, "" for none; valid until the next
 * cc_backend_note or cc_backend_note_clear on this thread. */
const char *cc_backend_note_get(void);

/* ---- attributes ---------------------------------------------------------------------- */

/* Integer attribute `name` when the op's schema has it and it is set, else def. */
int64_t cc_backend_attr_int(const cc_node *node, const char *name, int64_t def);
/* Fills v[0..n-1] from the ints attribute `name` when the schema has it and it is set
 * (with at least one value), else with def. Returns -1 when a set list has a length other
 * than n (v is then unspecified), 0 otherwise. */
int cc_backend_attr_ints(const cc_node *node, const char *name, int n, int64_t def, int64_t *v);

/* ---- broadcasting ---------------------------------------------------------------------- */

/* Row-major element strides of an operand of shape s read through the output shape o
 * (s aligned to o's trailing dims): st[0..o->rank-1], 0 along the dims where s has size 1
 * or that s lacks. Returns -1 when s does not broadcast to o (a dim neither 1 nor o's, or
 * s of higher rank), 0 otherwise. */
int cc_backend_broadcast_strides(const cc_shape *s, const cc_shape *o, int64_t *st);

/* ---- windows (Conv, pools) ------------------------------------------------------------ */

#define CC_BACKEND_MAX_SPATIAL 3

/* A window always as CC_BACKEND_MAX_SPATIAL axes: a 1-D or 2-D window uses the last axes
 * and leaves the leading ones of size 1 (in, out, k, stride, dilation 1; pads 0), so
 * kernels are written once for 1-D, 2-D and 3-D. */
typedef struct cc_backend_window {
    int nsp;                                  /* true spatial rank, 1..CC_BACKEND_MAX_SPATIAL */
    int64_t in[CC_BACKEND_MAX_SPATIAL];       /* input extent */
    int64_t out[CC_BACKEND_MAX_SPATIAL];      /* output extent (from the inferred output) */
    int64_t k[CC_BACKEND_MAX_SPATIAL];        /* kernel extent */
    int64_t stride[CC_BACKEND_MAX_SPATIAL];
    int64_t dil[CC_BACKEND_MAX_SPATIAL];
    int64_t pad0[CC_BACKEND_MAX_SPATIAL];     /* padding before (begin) */
    int64_t pad1[CC_BACKEND_MAX_SPATIAL];     /* padding after (end) */
} cc_backend_window;

/* Resolves strides, dilations (when the op has them), pads and auto_pad (SAME_*: from the
 * output size) of node for an input of shape x (N x C x spatial), kernel extents
 * k[0..nsp-1] and the inferred output shape y. One-line error naming the op:
 * CC_ERR_UNSUPPORTED for other than 1 to 3 spatial dims (naming `backend`), CC_ERR_ARG
 * for inconsistent attributes. *w is written only on success. */
cc_status cc_backend_window_make(const cc_node *node, const cc_shape *x, const int64_t *k,
                                 const cc_shape *y, const char *backend, cc_backend_window *w,
                                 cc_err *err);

/* ---- describe_plan -------------------------------------------------------------------- */

/* Node i of a plan as describe_plan shows it: returns the note on how it runs ("" for
 * none; owned by the plan) and sets *op to the node's op. */
typedef const char *(*cc_backend_note_fn)(const void *plan, int i, const cc_op_def **op);

/* Writes "Conv: im2col+sgemm; Relu" into buf (capacity n, always terminated when n > 0)
 * for nodes 0..n_nodes-1 of plan: one entry per distinct (op, note) in order of first
 * appearance, " xK" after one seen K > 1 times. Text that does not fit is cut. */
void cc_backend_describe_plan(const void *plan, int n_nodes, cc_backend_note_fn note_of, char *buf,
                              size_t n);

#endif
