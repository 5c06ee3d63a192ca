/* case.h — op cases: parsing and canonical printing of case ids, and materialising a
 * case as a one-node graph with generated inputs and its golden outputs.
 *
 * Case id syntax (the filter key, the database key and the repro line):
 *   Op(name=value,name=value,...)
 * where a name is an input of the op (value "DIMS[:dtype]", DIMS like 1x64x56x56 or
 * "scalar"; an input without a dtype takes the first input's) or an attribute (value an
 * integer, a float, a bare word, or a bracketed list "[1,1,2,2]"). The canonical form
 * lists the given inputs in schema order, the first with its dtype and later ones only
 * where their dtype differs, then every attribute whose value differs from its default,
 * in schema order. Example: Conv(x=1x64x56x56:f32,w=64x64x3x3,pads=[1,1,1,1]) */
#ifndef CC_CASE_H
#define CC_CASE_H

#include "op.h"

typedef struct cc_case {
    const cc_op_def *op;
    int present[CC_MAX_IO];           /* CC_IN_DATA inputs given in the id */
    cc_dtype in_dtype[CC_MAX_IO];
    cc_shape in_shape[CC_MAX_IO];
    cc_attr_value attrs[CC_MAX_ATTRS]; /* resolved (defaults applied) */
    int n_out;
    double mem_need;                   /* bytes a run of it needs (cc_case_parse) */
    unsigned tags;                     /* CC_SWEEP_* of the sweep rows that make it
                                          (cc_case_enumerate); 0 for a parsed id */
    char id[CC_CASE_ID_MAX];           /* canonical */
} cc_case;

/* Parses and validates a case id (including the op's shape inference, so invalid
 * attributes and inconsistent shapes are rejected here) and writes its canonical form to
 * out->id and its memory need to out->mem_need. Nothing proportional to the case's
 * tensors is allocated or computed: only descriptions. One-line CC_ERR_ARG on any
 * problem.
 *
 * The memory need is computed from shapes alone, so a case is judged the same on every
 * host: every input counted twice (the generated host copy and the target's buffer or
 * packed weights), every output twice (the target's buffer and the host copy it is read
 * back into) and the golden outputs at two doubles (value and magnitude) per element.
 * A target's own workspace comes on top. */
cc_status cc_case_parse(const char *text, cc_case *out, cc_err *err);
/* Re-validates a case whose fields (present inputs, dtypes, shapes, attributes) were
 * changed in place (the random mode and the shrinker do): formats its id and parses it,
 * so *c ends canonical and valid, or the call fails as cc_case_parse does. */
cc_status cc_case_reparse(cc_case *c, cc_err *err);
/* The case's dtype: the dtype of its first input. */
cc_dtype cc_case_dtype(const cc_case *c);

/* A case made concrete: inputs generated from a seed, and a one-node graph whose constant
 * inputs point into `inputs`. The graph's values are: 0..n_in-1 the node's inputs (absent
 * optional inputs keep no data), then n_in..n_in+n_out-1 its outputs (descriptions). */
typedef struct cc_case_inst {
    cc_case c;
    uint64_t seed;
    int exact;                          /* 1: exact regime (small integers) */
    int n_in, n_out;
    cc_tensor inputs[CC_MAX_IO];        /* every present input, with data (owned) */
    int present[CC_MAX_IO];
    cc_tensor values[2 * CC_MAX_IO];    /* the graph's values (data borrowed for constants) */
    cc_node node;
    cc_graph graph;
} cc_case_inst;

/* Generates inputs for c from seed in the given regime and builds the graph. On error
 * inst holds nothing to free. Free with cc_case_inst_free. */
cc_status cc_case_instantiate(const cc_case *c, uint64_t seed, int exact, cc_case_inst *inst,
                              cc_err *err);
void cc_case_inst_free(cc_case_inst *inst);
/* Pointers to the node's input tensors (NULL for absent ones), for infer/golden. */
void cc_case_inst_inputs(const cc_case_inst *inst, const cc_tensor **in);

/* Runs the golden reference on inst; allocates out[0..n_out-1] value/mag arrays. */
cc_status cc_case_golden(const cc_case_inst *inst, cc_golden *out, cc_err *err);
void cc_golden_free(cc_golden *g, int n);

/* Case ids as a sweep's expansion makes them (ops/sweep.h), each with its tags. */
struct cc_case_list {
    char **ids;
    unsigned *tags;
    int n, cap;
    cc_status status;    /* first error seen while adding */
};
void cc_case_list_init(cc_case_list *l);
void cc_case_list_free(cc_case_list *l);

/* Expands an op's sweep (ops/sweep.h) for every dtype in its mask (or only `dt` if
 * dt < CC_DTYPE_COUNT) and parses every id; a case made by several rows keeps the union of
 * their tags. Returns the cases in *out (caller frees with free()). A row that makes a
 * malformed id is CC_ERR_INTERNAL naming the op, the row and the id. */
cc_status cc_case_enumerate(const cc_op_def *op, cc_dtype dt, int quick, cc_case **out, int *n,
                            cc_err *err);

#endif
