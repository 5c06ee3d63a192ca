/* model.h — models: graphs of catalog ops with owned constants and names, built with a
 * small builder (by the reference-model generators and the ONNX importer alike), and the
 * golden evaluation of a whole graph that calibration and divergence search use.
 *
 * A model runs through the same path as an op case: its cc_graph goes to a target's
 * prepare/run exactly like a one-node case graph. */
#ifndef CC_MODEL_H
#define CC_MODEL_H

#include "../ops/case.h"

#define CC_VALUE_NAME_MAX 96

typedef enum cc_model_task {
    CC_TASK_GENERIC = 0,   /* outputs compared element-wise only */
    CC_TASK_CLASSIFY,      /* output 0 is [N, classes] logits */
    CC_TASK_DETECT,        /* output 0 is [N, boxes, 5 + classes]: cx, cy, w, h (input pixels),
                              objectness, class scores (after sigmoid), ready for NMS */
    CC_TASK_DETECTIONS     /* the outputs are detections after NMS (models/detect.h: boxes
                              [k, 4] corners, scores [k], labels [k]), compared as sets */
} cc_model_task;

typedef struct cc_model {
    char name[64];
    cc_model_task task;
    int n_classes;                      /* CLASSIFY / DETECT */
    int det_out[3];                     /* DETECTIONS: the positions of boxes, scores and
                                           labels (-1: none) among the graph's outputs */
    cc_graph graph;                     /* owns values (constant data included) and nodes */
    char (*value_names)[CC_VALUE_NAME_MAX]; /* one per graph value */
    int n_folded;                       /* nodes folded into constants at build (cc_mb_fold_node) */
} cc_model;

typedef struct cc_model_builder cc_model_builder;

/* Starts a model. On error nothing is allocated. */
cc_status cc_mb_create(const char *name, cc_model_builder **out, cc_err *err);
/* Frees an unfinished builder and everything added to it. Accepts NULL. */
void cc_mb_destroy(cc_model_builder *b);
/* Adds a runtime input of the graph; its value index goes to *v. */
cc_status cc_mb_input(cc_model_builder *b, const char *name, cc_dtype dt, const cc_shape *s, int *v,
                      cc_err *err);
/* Adds a constant (a weight). Takes ownership of t->data (allocated with malloc-compatible
 * allocation, e.g. cc_tensor_alloc) even on failure; t->data is set to NULL. */
cc_status cc_mb_const(cc_model_builder *b, const char *name, cc_tensor *t, int *v, cc_err *err);
/* Adds a node of catalog op `op` with attributes in case-id syntax
 * ("strides=[2,2],pads=[1,1,1,1]", "" or NULL for the defaults). in[0..n_in-1] are value
 * indices (-1: an absent optional input). Creates n_out output values (named
 * "<name>:<j>", or out_names[j] when out_names is non-NULL), infers their shapes with the
 * op's infer(), and writes their indices to out. Unknown op, bad attribute or shape
 * inference failure: CC_ERR_ARG (CC_ERR_UNSUPPORTED from infer passes through) naming the
 * node. */
cc_status cc_mb_node(cc_model_builder *b, const char *op, const char *name, const char *attrs,
                     int n_in, const int *in, int n_out, int *out, const char *const *out_names,
                     cc_err *err);
/* Like cc_mb_node with resolved attribute values (indexed like the op's schema). */
cc_status cc_mb_node_values(cc_model_builder *b, const cc_op_def *op, const char *name,
                            const cc_attr_value *attrs, int n_in, const int *in, int n_out, int *out,
                            const char *const *out_names, cc_err *err);
/* Folds a node of shape computation into constants at build time, where it can be: its
 * op reads only its input's shape (Shape, Size; not the shape of a value with a dim that
 * follows the data), or every input it has is a constant — or a value computed at run time
 * whose values the builder knows exactly (a range with lo == hi: the fixed dim of the Shape
 * of a NonZero's output, a Gather of it) — and either its outputs are integers or
 * booleans (Gather, Concat, Unsqueeze, Mul, ... over int64 shapes) or it makes a tensor
 * from constants alone (ConstantOfShape, Range), with at most CC_MB_FOLD_MAX elements out,
 * or its outputs are float, at most CC_MB_FOLD_FLOAT_MAX elements, each exactly
 * representable in its dtype (size arithmetic in float: Div, Ceil, Mul of small integers).
 * Then the op's golden model computes the outputs (exact for these), which become
 * constants named out_names[j]; *folded = 1 and out[] holds their indices. Otherwise
 * *folded = 0 and nothing is added (cc_mb_node_values adds the node). Errors as
 * cc_mb_node_values. */
#define CC_MB_FOLD_MAX (1 << 16)
#define CC_MB_FOLD_FLOAT_MAX 64
cc_status cc_mb_fold_node(cc_model_builder *b, const cc_op_def *op, const char *name, const cc_attr_value *attrs,
                          int n_in, const int *in, int n_out, int *out, const char *const *out_names, int *folded,
                          cc_err *err);
/* Adds the graph of model sub (built with a builder of its own, its inputs what a
 * control-flow node passes in) as a sub-graph of the model being built; its index goes
 * to *index, for the node's CC_ATTR_GRAPH attribute (.i). Takes sub, even on failure. */
cc_status cc_mb_subgraph(cc_model_builder *b, cc_model *sub, int *index, cc_err *err);
/* Puts the graph inputs in the order v[0..n) (each an input, n of them: a permutation). */
cc_status cc_mb_order_inputs(cc_model_builder *b, int n, const int *v, cc_err *err);
/* Gives the builder copies of g's sub-graphs, at the same indices (a rewrite of g's model
 * copies its control-flow nodes as they are). Before any other sub-graph is added. */
cc_status cc_mb_copy_subgraphs(cc_model_builder *b, const cc_graph *g, cc_err *err);
/* A deep copy of src (constants, nodes, sub-graphs) into dst; free with
 * cc_graph_free_contents. On failure dst holds nothing. */
cc_status cc_graph_copy(const cc_graph *src, cc_graph *dst, cc_err *err);
/* Frees a graph's constants, nodes and sub-graphs (recursively) and zeroes it. */
void cc_graph_free_contents(cc_graph *g);
/* Marks value v as a graph output (in order). */
cc_status cc_mb_output(cc_model_builder *b, int v, cc_err *err);
/* Narrows the shape of value v, a value whose shape follows the data (its bound was
 * inferred), to s: a shape the model asserts for it (a sub-graph output that its file
 * declares), of v's rank and no larger than its bound in any dim. The golden evaluation and
 * the executor compute the actual shape and refuse one that outgrows s. */
cc_status cc_mb_narrow(cc_model_builder *b, int v, const cc_shape *s, cc_err *err);
/* Shape of value v (valid until finish). */
const cc_tensor *cc_mb_value(const cc_model_builder *b, int v);
/* Finishes the model; the builder is consumed (freed) whatever the result. With
 * CC_TASK_DETECTIONS the outputs are found by their signature (cc_detect_outputs_find);
 * a graph without it is CC_TASK_GENERIC. */
cc_status cc_mb_finish(cc_model_builder *b, cc_model_task task, int n_classes, cc_model **out,
                       cc_err *err);

/* Frees a model and its constants. Accepts NULL. */
void cc_model_free(cc_model *m);
/* Index of the value named `name`, or -1. */
int cc_model_find_value(const cc_model *m, const char *name);
/* Number of parameters as frameworks count them: elements of the constants nodes read as
 * data, without BatchNormalization's running statistics, int64 shape tensors and
 * constants named "buffer.*" (see model.c). */
double cc_model_params(const cc_model *m);
/* Multiply-accumulates of one execution (sum of the nodes' FLOPs / 2). */
double cc_model_macs(const cc_model *m);
/* The case id of node k as an op case (its data inputs' shapes and dtypes, constant-valued
 * inputs written as their attribute entries, and the op's knobs read off its generated
 * inputs: per-channel scales, non-zero zero points, output type; see model.c), so a layer
 * can be rerun alone with `crosscheck run --case`. The case generates its own data,
 * scales and zero points (of the same kinds). CC_ERR_UNSUPPORTED when a constant input
 * cannot be written in a case id (a list longer than CC_MAX_INTS) or the node runs
 * sub-graphs (If, Loop, Scan): buf then holds a description. */
cc_status cc_model_node_case_id(const cc_model *m, int k, char *buf, size_t n, cc_err *err);

/* ---- golden evaluation --------------------------------------------------------------- */

/* Every value of a graph after one golden execution: vals[i] holds value i in its dtype
 * (outputs of nodes rounded to their dtype exactly as a target stores them), and, when
 * keep_golden is set, gold[k*CC_MAX_IO + j] the exact golden output j of node k (value,
 * magnitude, K). Free with cc_model_eval_free. */
typedef struct cc_model_eval {
    int n_values, n_nodes;
    cc_tensor *vals;
    cc_golden *gold;     /* NULL unless keep_golden */
    /* With keep_golden == CC_EVAL_PROPAGATE, per value (NULL where zero: graph inputs,
     * constants, integer values): err[v][i] bounds how far a target's value v may lie from
     * vals[v] to first order (its producer's own bound, as the checker computes it with
     * factor 1, plus prop[v][i]); prop[v][i] is the part its inputs' errors pass on,
     * sum over the node's float data inputs of max |f(x + s*h) - f(x)| / lambda, with
     * h = lambda * err of the input and s all +1, all -1 and a fixed +-1 pattern and its
     * negation (a Jacobian's |J| err, exact where each output reads one element of an
     * input or all terms have one sign; sampled by the sign patterns otherwise). */
    double **err, **prop;
} cc_model_eval;

#define CC_EVAL_GOLDEN 1      /* keep each node's golden output */
#define CC_EVAL_PROPAGATE 2   /* keep it and propagate error bounds (err, prop above) */

/* Runs the golden model over g with the runtime inputs in[0..g->n_inputs-1] (host tensors
 * of the graph inputs' dtypes and shapes). When `feed` is non-NULL, node inputs are taken
 * from feed->vals instead of the values computed here (for local error: each node fed
 * with another execution's tensors); constants always come from the graph. */
cc_status cc_model_evaluate(const cc_graph *g, const cc_tensor *in, int keep_golden,
                        const cc_model_eval *feed, cc_model_eval *out, cc_err *err);

/* cc_model_evaluate with a first-order error bound on each runtime input: in_err[i] (NULL,
 * or one double per element of input i, kept by the caller) bounds how far a target's
 * input i may lie from in[i]; with CC_EVAL_PROPAGATE, err and prop then carry it on (the
 * control-flow ops pass their loop-carried values' bounds from iteration to iteration). */
cc_status cc_model_evaluate_err(const cc_graph *g, const cc_tensor *in, double *const *in_err, int keep_golden,
                                const cc_model_eval *feed, cc_model_eval *out, cc_err *err);

/* The checker's bound (with factor 1) on element i of a node's golden output go, node k of
 * g: atol + c * gamma(K) * u * S + r * u_out * |value| + half the output dtype's smallest
 * subnormal, from the op's policy at the case dtype (the dtype of the node's first input);
 * the atol alone for an integer output; 0 where the op has no policy row. */
double cc_golden_bound(const cc_graph *g, int k, const cc_golden *go, int64_t i);
/* For an integer output rounded from a float computation (go->real set, ops/op.h): the
 * integers [*lo, *hi] that a value within factor times the op's float error bound of
 * real[i] rounds to (either way at a tie), saturated to the dtype; 0. Without real: -1. */
int cc_golden_int_range(const cc_graph *g, int k, const cc_golden *go, int64_t i, double factor, double *lo, double *hi);
void cc_model_eval_free(cc_model_eval *e);

#endif
