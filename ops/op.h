/* op.h — the operator catalog's contract: op definitions, attributes, nodes, graphs,
 * golden outputs and case lists.
 *
 * The op list. ops/ops.def names every op of the catalog once: its id (CC_OP_ID_<symbol>,
 * op_ids.h), ONNX name and domain, opset versions, family and traits (cc_op_info_of). A
 * per-op table (the tolerance policy, a golden model's rows) is indexed by that id; code
 * that needs a property of ops (INT8 movers, fusable activations) asks for a trait
 * (cc_op_has_trait) instead of keeping a list of names. ops/tests/test_catalog.c fails for
 * a catalog op missing from ops.def, an entry no family defines, a mismatched name,
 * domain, family or version, and an op without a tolerance row.
 *
 * Every operator is one const cc_op_def with ONNX (opset 17) name and semantics: its id,
 * its inputs and outputs, its attribute schema with defaults, and five functions: shape
 * inference, cost, the golden reference and (optionally) a generator for inputs the
 * harness cannot make generically (quantization scales, indices, ...); and its cases as
 * sweep rows (ops/sweep.h). The
 * family file (ops/<family>.c) defines it as cc_op_<symbol>; the catalog is ops.def's list.
 *
 * An op case is a one-node graph; a model is a bigger graph. Both are cc_graph, so every
 * target and the runner see one representation. */
#ifndef CC_OP_H
#define CC_OP_H

#include "core/cc.h"
#include "core/dtype.h"
#include "core/rng.h"
#include "core/tensor.h"
#include "op_ids.h"
#include "onnx_attrs.h"

#define CC_MAX_IO 32        /* inputs or outputs of one node (DenseNet concatenates 25) */
#define CC_MAX_ATTRS 16     /* attribute schema entries of one op */
#define CC_MAX_INTS 16      /* elements of an ints/floats attribute (pads of rank 8 = 16) */
#define CC_ATTR_STR 32      /* bytes of a string attribute, NUL included */
#define CC_MAX_STRS 8       /* elements of a strings attribute (LSTM's activations: 6) */
#define CC_CASE_ID_MAX 512  /* bytes of a canonical case id, NUL included */

typedef enum cc_attr_kind {
    CC_ATTR_INT,
    CC_ATTR_FLOAT,
    CC_ATTR_INTS,
    CC_ATTR_FLOATS,
    CC_ATTR_STRING,
    CC_ATTR_STRINGS,  /* a list of words: LSTM's activations */
    CC_ATTR_TENSOR,   /* a small constant tensor: ConstantOfShape's value */
    CC_ATTR_GRAPH     /* a sub-graph (If's branches, Loop's and Scan's body): .i is its index in
                         the subgraphs of the graph that holds the node; no case-id syntax */
} cc_attr_kind;

/* One attribute of an op's schema. Besides ONNX attributes it describes two other
 * parameters a case id can carry:
 *  - input >= 0: an ONNX *input* whose value is a small constant (Reshape's shape,
 *    Slice's starts/ends, Resize's scales, Clip's min/max, QuantizeLinear's scale).
 *    It is written in the case id like an attribute and becomes a constant input tensor
 *    of dtype input_dtype at that input index (rank 1 for INTS/FLOATS, rank 0 for
 *    INT/FLOAT). Where input_dtype is CC_DTYPE_COUNT the input takes the dtype of the
 *    op's first input (Clip's min/max).
 *  - knob: a case-only parameter that is not part of ONNX (e.g. per_channel for
 *    QLinearConv's generated weight scales, num_outputs for Split in opset 17). */
typedef struct cc_attr_def {
    const char *name;
    cc_attr_kind kind;
    const char *def;        /* default in case-id syntax ("1", "[1,1]", "NOTSET", "0.0001");
                               NULL: optional and absent unless given. */
    int required;           /* 1: a case id must give it */
    int input;              /* -1 for an attribute or knob; else the input index it fills */
    cc_dtype input_dtype;   /* dtype of that constant input (see above) */
    int knob;               /* 1: case-only parameter */
} cc_attr_def;

/* How a node input's values come to be in an op case. */
typedef enum cc_input_role {
    CC_IN_DATA = 0,   /* named in the case id with shape and dtype; values generated generically */
    CC_IN_ATTR,       /* a constant filled from the attribute schema entry whose .input names it */
    CC_IN_GEN         /* made by the op's gen() (scales, zero points, ...) */
} cc_input_role;

typedef struct cc_io_def {
    const char *name;       /* lower-case ONNX input name: "x", "w", "b", "x_scale" */
    cc_input_role role;
    int optional;           /* may be absent */
    int constant;           /* 1: a weight (constant at prepare time) in op cases */
    /* Value domain of generated data (CC_IN_DATA). Random regime: uniform in [lo, hi];
     * exact regime: integers uniform in [ilo, ihi]. All four zero means the defaults:
     * floats [-1, 1] and [-4, 4]; integer dtypes their full range in both regimes. */
    double lo, hi;
    int64_t ilo, ihi;
} cc_io_def;

/* An attribute's value. Case-id syntax by kind: 3; 0.5; [1,2]; [0.5,1]; word; [Sigmoid,Tanh]
 * (strings); f32:[0.5] (a tensor: dtype, then its elements, rank 1) or f32:0.5 (rank 0).
 * A string that is not a word (letters, digits, '_', '-', '.') is written quoted:
 * "ij,jk->ik" (Einsum's equation), with \" for a quote, \\ for a backslash and \xHH for a
 * byte outside printable ASCII; a word is never quoted in a canonical id, and an apostrophe
 * is written \x27 there (an id stays whole within a shell's single quotes).
 * Its layout is part of the target ABI (target.h). */
typedef struct cc_attr_value {
    int set;                          /* 0: absent (optional, no default, not given) */
    int64_t i;                        /* CC_ATTR_INT */
    double f;                         /* CC_ATTR_FLOAT */
    int n;                            /* elements of ints/floats/strings/tensor */
    int64_t ints[CC_MAX_INTS];        /* CC_ATTR_INTS; a tensor's elements of integer dtype */
    double floats[CC_MAX_INTS];       /* CC_ATTR_FLOATS; a tensor's elements (every dtype) */
    char s[CC_ATTR_STR];              /* CC_ATTR_STRING */
    char strs[CC_MAX_STRS][CC_ATTR_STR]; /* CC_ATTR_STRINGS */
    cc_dtype tdtype;                  /* CC_ATTR_TENSOR: dtype and shape of the tensor, */
    cc_shape tshape;                  /* n = its element count (at most CC_MAX_INTS) */
} cc_attr_value;

struct cc_op_def;

/* One node of a graph. Inputs and outputs are indices into the graph's values; an absent
 * optional input is -1. attrs is indexed like op->attrs and always holds resolved values
 * (defaults applied). */
typedef struct cc_node {
    const struct cc_op_def *op;
    cc_attr_value attrs[CC_MAX_ATTRS];
    int n_in, in[CC_MAX_IO];
    int n_out, out[CC_MAX_IO];
    char name[64];
} cc_node;

/* A graph in topological order. values[i].data is non-NULL exactly for constants
 * (initializers, weights), which belong to the graph's owner. The sub-graphs its
 * control-flow nodes run (CC_TRAIT_SUBGRAPH; a CC_ATTR_GRAPH attribute indexes them) are
 * graphs of their own: their inputs are what the node passes in (the values it captures
 * from this graph among them, as the node's trailing inputs), and they hold their own
 * sub-graphs. The two fields come after every field older backends read, and a backend
 * never sees a control-flow node: the host runs it, its sub-graphs' nodes going to the
 * backend as graphs of their own (harness/lib/graph_exec.c). */
typedef struct cc_graph {
    int n_values;
    cc_tensor *values;
    int n_nodes;
    cc_node *nodes;
    int n_inputs, inputs[CC_MAX_IO];    /* runtime inputs, in order */
    int n_outputs, outputs[CC_MAX_IO];  /* graph outputs, in order */
    int n_subgraphs;
    struct cc_graph *subgraphs;
} cc_graph;

/* The golden reference's output for one node output: the exact value in double and,
 * beside it, the magnitude term S of its error bound (for a dot product sum |a_i*b_i|;
 * for an exact operation such as a copy or max, |value|), plus the reduction length K
 * that enters gamma(K). value and mag are allocated by the caller with numel(shape)
 * doubles, zeroed with the rest of the struct.
 *
 * An integer output that a target computes in floating point and then rounds (Resize's
 * linear and cubic modes) may also carry `real`: the exact value before rounding, with S
 * in mag. value stays the rounded integer (half to even, saturated); the checker then
 * accepts every integer that a value within the op's float error bound of `real` rounds
 * to, so a target's float32 arithmetic may land on either side of a rounding boundary it
 * is that close to (and either side of an exact tie, which ONNX leaves open), but no
 * further. golden() allocates real (numel doubles); cc_golden_free frees it.
 *
 * A 64-bit integer output (i64, u64) also has `exact`, allocated and zeroed with value
 * (cc_golden_alloc): an integer past 2^53 has no double, so an op that computes integers
 * writes each one exactly there as well (cc_golden_put_int; u64 as its bits), and
 * readers take exact[i] wherever it agrees with value[i] (cc_golden_int): an op that
 * writes value[] alone leaves exact[i] 0, which agrees only with a 0. */
typedef struct cc_golden {
    cc_dtype dtype;
    cc_shape shape;
    double *value;
    double *mag;
    double k;      /* reduction length; 1 for elementwise ops; set by golden() */
    double *real;  /* optional, integer outputs only: the value before rounding (above) */
    int64_t *exact; /* i64 and u64 outputs: the values exactly (above); else NULL */
} cc_golden;

/* Allocates g's value and mag (and exact for i64/u64), zeroed, for a value of d's dtype and
 * shape; k = 1. On failure what was allocated stays for cc_golden_free. */
cc_status cc_golden_alloc(cc_golden *g, const cc_tensor *d, cc_err *err);
/* Element i of an integer output: value[i] := v (as a double) and, where g has exact,
 * exact[i] := v exactly; mag[i] := 0. For u64 outputs v holds the bits. */
static inline void cc_golden_put_int(cc_golden *g, int64_t i, int64_t v)
{
    g->value[i] = g->dtype == CC_U64 ? (double)(uint64_t)v : (double)v;
    g->mag[i] = 0;
    if (g->exact) g->exact[i] = v;
}
/* 1 and *v := element i of a 64-bit integer output exactly (u64: its bits) where exact
 * agrees with value; else 0. */
int cc_golden_int(const cc_golden *g, int64_t i, int64_t *v);
/* Stores element i of g into data (of g's dtype): exactly where cc_golden_int has it, else
 * cc_store of value[i]. */
void cc_golden_store(const cc_golden *g, void *data, int64_t i);
/* |a - b| of two 64-bit integers (is_unsigned: u64 bits) as a double, at least 1 where
 * they differ (a double cannot tell 2^53 + 1 from 2^53). */
double cc_int_gap(int64_t a, int64_t b, int is_unsigned);

typedef struct cc_case_list cc_case_list;

typedef struct cc_op_def {
    const char *name;          /* ONNX op type, e.g. "Conv" */
    const char *domain;        /* "" for ai.onnx */
    int since_version;         /* opset version whose semantics this implements */
    const char *family;        /* "conv", "pool", ... (the ops/ file) */
    int n_inputs;
    cc_io_def inputs[CC_MAX_IO];
    int min_outputs, max_outputs;  /* Split varies; others 1..1 */
    int n_attrs;
    cc_attr_def attrs[CC_MAX_ATTRS];
    unsigned dtypes;           /* mask of case dtypes (dtype of input 0) the generator covers */

    /* Validates attributes and input descriptions and writes each output's dtype and
     * shape (data left NULL). in[i] is NULL for an absent optional input; in[i]->data is
     * non-NULL for constants and may be read (Reshape's shape). One-line CC_ERR_ARG on
     * invalid attributes or shapes ("Conv: strides must be > 0, got 0"). */
    cc_status (*infer)(const cc_node *node, const cc_tensor *const *in, int n_out,
                       cc_tensor *out, cc_err *err);
    /* Floating-point operations (a multiply-add is 2) and bytes moved (every input read
     * once, every output written once) of one execution. */
    void (*cost)(const cc_node *node, const cc_tensor *const *in, int n_out,
                 const cc_tensor *out, double *flops, double *bytes);
    /* The golden reference: straight loops, accumulation in double. Reads inputs with
     * cc_load; fills out[j].value, out[j].mag and out[j].k. */
    cc_status (*golden)(const cc_node *node, const cc_tensor *const *in, int n_out,
                        cc_golden *out, cc_err *err);
    /* optional: fills CC_IN_GEN inputs (allocating them with cc_gen_tensor) and may
     * adjust generated data inputs (keep a divisor away from zero). Called with every
     * CC_IN_DATA and CC_IN_ATTR input already made. exact != 0 in the exact regime.
     * When a case id is only validated (cc_case_parse), rng is NULL: the CC_IN_DATA
     * inputs have dtype and shape but no data (the id may describe more than memory
     * holds), and gen only describes the CC_IN_GEN inputs it would make (cc_gen_tensor
     * gives them dtype and shape, no data), draws nothing and reads or writes no data.
     * Validation thus costs no memory or time proportional to any dimension.
     * Default (NULL): the op has no CC_IN_GEN inputs. */
    cc_status (*gen)(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err);
    /* optional: number of outputs a node with these attributes has (Split); default
     * (NULL): min_outputs. */
    int (*count_outputs)(const cc_node *node);
    /* The op's entry in ops/ops.def. */
    cc_op_id id;
    /* The op's cases as data (ops/sweep.h): rows of inputs and attributes with shape
     * classes, alternatives and quick/edge/model tags, written with CC_SWEEP(rows). */
    const struct cc_sweep_row *sweep;
    int n_sweep;
} cc_op_def;

/* The definitions of the ops of ops/ops.def: cc_op_<symbol> (cc_op_Conv), each defined in
 * its family's file (ops/<family>.c). */
#define CC_OP(symbol, name, domain, since, versions, family, traits, tol) extern const cc_op_def cc_op_##symbol;
#include "ops.def"
#undef CC_OP

/* An op family: the ops of one ops/ file (ops.def's family column). */
typedef struct cc_op_family {
    const char *name;
    int n_ops;
    const cc_op_def *const *ops;
} cc_op_family;

/* Validates g's structure for a backend's prepare(): every index names a value, nodes are
 * well formed and in topological order (a node reads only constants, graph inputs or
 * values an earlier node produced), every value is assigned once. produced (n_values
 * bytes, zeroed by the caller) gets 1 for each value a node produces. One-line
 * CC_ERR_ARG starting with `who` (the backend's name) otherwise. */
cc_status cc_graph_check(const cc_graph *g, const char *who, unsigned char *produced, cc_err *err);

/* For gen(): gives t dtype dt and shape s, with zeroed data when rng is non-NULL (the
 * case is being instantiated) and without data when it is NULL (only validated). */
cc_status cc_gen_tensor(cc_tensor *t, cc_dtype dt, const cc_shape *s, const cc_rng *rng,
                        cc_err *err);

/* ---- catalog ---------------------------------------------------------------------- */

/* The catalog's ops (every ops.def entry) in report order: families together, each in
 * ops.def order, families in the order of their first op. The first call of cc_catalog_at
 * or cc_catalog_family arranges that order (a program calls it before starting threads). */
int cc_catalog_count(void);
const cc_op_def *cc_catalog_at(int i);
/* Finds an op by ONNX name (exact, case-sensitive); NULL if unknown. */
const cc_op_def *cc_catalog_find(const char *name);
/* The catalog's op with id `id`; NULL for an id out of range. */
const cc_op_def *cc_catalog_by_id(cc_op_id id);
/* The ops of family `name` ("conv", "eltwise": ops.def's family column); NULL if none. */
const cc_op_family *cc_catalog_family(const char *name);
/* 1 when op has every trait of the CC_TRAIT_* mask `trait` (ops.def), else 0 (also for
 * an op whose id is out of range). */
int cc_op_has_trait(const cc_op_def *op, unsigned trait);
/* 1 when a node of op with inputs in[0..n_in) (descriptions: data non-NULL for a constant)
 * has outputs of data-dependent shape: an op of CC_TRAIT_DYNAMIC_SHAPE, TopK whose K is
 * computed at run time (its outputs then have the axis's length as their bound), Slice
 * whose starts, ends, axes or steps are (bound: the input's shape), or an op whose shape
 * input is (cc_op_runtime_shape_input; bound: cc_op_infer_bound). */
int cc_op_dynamic_shape(const cc_op_def *op, int n_in, const cc_tensor *const *in);
/* The first input of a node of op that sets its outputs' shape by its values and is
 * computed at run time (in[k]->data NULL): Reshape's and Expand's shape, ConstantOfShape's
 * input, Tile's repeats, OneHot's depth, Pad's pads, Resize's sizes, Range's start, limit
 * and delta, Split's split; -1 when none is. The golden model and the cpu backend infer
 * such a node's shape again from the actual values. */
int cc_op_runtime_shape_input(const cc_op_def *op, int n_in, const cc_tensor *const *in);
/* 1 when input k of op is one of those (constant or not). */
int cc_op_shape_input(const cc_op_def *op, int k);
/* The bound of the outputs of such a node, the values of each input i computed at run time
 * within [lo[i][j], hi[i][j]] (lo[i] NULL for a constant; lo == hi where known): Reshape
 * and Expand from x's shape and the largest values (a known -1 or 0 keeping its meaning),
 * Range from the ends of start and limit (delta known), Split each part the whole input,
 * the others by their infer() at the largest values. CC_ERR_UNSUPPORTED where an entry may
 * be negative or nothing bounds the count. */
cc_status cc_op_infer_bound(const cc_node *node, const cc_tensor *const *in, const int64_t *const *lo,
                            const int64_t *const *hi, int n_out, cc_tensor *out, cc_err *err);
/* The same for node nd of graph g. */
int cc_node_dynamic_shape(const cc_graph *g, const cc_node *nd);
/* dyn[v] = 1 for each value of g whose shape follows the data: an output of such a node,
 * or of any node that reads one (dyn: g->n_values bytes). */
void cc_graph_dynamic_values(const cc_graph *g, unsigned char *dyn);

/* ---- attributes -------------------------------------------------------------------- */

/* A TENSOR attribute value as a tensor (allocated; free it with cc_tensor_free). */
cc_status cc_attr_value_tensor(const cc_attr_value *v, cc_tensor *t, cc_err *err);

/* Index of attribute `name` in op's schema, or -1. */
int cc_attr_index(const cc_op_def *op, const char *name);
/* Accessors by name; the attribute must exist in the schema with that kind (a
 * programmer error otherwise, caught by assert). */
int64_t cc_attr_i(const cc_node *n, const char *name);
double cc_attr_f(const cc_node *n, const char *name);
const char *cc_attr_s(const cc_node *n, const char *name);
const cc_attr_value *cc_attr_get(const cc_node *n, const char *name);
/* Element k of a strings attribute; NULL when it is absent or has no element k. */
const char *cc_attr_str_at(const cc_node *n, const char *name, int k);
/* A tensor attribute as a host tensor of its dtype and shape (t->data malloc'd, freed with
 * cc_tensor_free). CC_ERR_ARG naming the op and attribute when it is absent. */
cc_status cc_attr_tensor(const cc_node *n, const char *name, cc_tensor *t, cc_err *err);
/* Sets every attribute of node->attrs to its schema default (absent where none). */
cc_status cc_node_set_defaults(cc_node *node, cc_err *err);
/* Where case-id text from p stops (p <= result <= end): the first character of `stops`
 * outside brackets and quoted strings, or end. A quoted string runs from a '"' to the next
 * '"' that no backslash escapes; one that does not close runs to end (the value is then
 * malformed: its cc_attr_parse says so). What splits a case id into its items, and a
 * sweep row's values into alternatives. */
const char *cc_attr_text_end(const char *p, const char *end, const char *stops);
/* Parses `text` in case-id syntax as attribute kind `kind` into v. */
cc_status cc_attr_parse(cc_attr_kind kind, const char *text, cc_attr_value *v, cc_err *err);
/* Formats v in canonical case-id syntax into buf. */
void cc_attr_format(cc_attr_kind kind, const cc_attr_value *v, char *buf, size_t n);
int cc_attr_equal(cc_attr_kind kind, const cc_attr_value *a, const cc_attr_value *b);
/* d's default into *v (absent, set = 0, where d has none). */
void cc_attr_default(const cc_attr_def *d, cc_attr_value *v);
/* 1 when v is d's default (absent where d has none). */
int cc_attr_is_default(const cc_attr_def *d, const cc_attr_value *v);

#endif
