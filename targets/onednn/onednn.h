/* onednn.h — internal contract of the onednn backend: how a node becomes a short list of
 * oneDNN primitives (a node plan), the build context every op family's builder receives,
 * and the helpers (build.c) that create memory descriptors, primitive descriptors,
 * memories and reorders in one place.
 *
 * A builder runs twice per node: in check mode (b->plan == NULL, from supports()) it only
 * creates and destroys the primitive descriptors, so that a combination oneDNN does not
 * implement is reported as unsupported with oneDNN's own status; in build mode (from
 * prepare()) it creates the primitives, the memories and the prepare-time reorders of
 * constant weights, and appends the run-time steps to the node plan. Both modes take the
 * same code path, so a case that passes the check builds the same primitives.
 *
 * Graph plans (plan.c) add two things a builder may see in build mode:
 *  - b->vals, the plan's table of values: an intermediate value may be stored in the
 *    layout its producer prefers (oneDNN's blocked or channels-last formats), recorded in
 *    its descriptor; cc_onednn_input gives a reader the layout it asks for, reordering only
 *    where the two differ, and cc_onednn_output lets a producer choose;
 *  - b->fuse, a fusion group (fuse.c): a convolution with the nodes after it (a folded
 *    BatchNormalization, activations, a residual Add, INT8 requantisation) that one
 *    primitive computes through post-ops.
 *
 * The backend is written against the oneDNN 2.x C API (operation descriptors passed to
 * dnnl_primitive_desc_create, output scales, memory descriptors as plain structs).
 * oneDNN 3.x replaced those: a port goes through the #if below, build.c and the attribute
 * wrappers (cc_onednn_append_eltwise/_sum, cc_onednn_set_output_scales) first. */
#ifndef CC_ONEDNN_H
#define CC_ONEDNN_H

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_version.h>

#include "../target.h"

#if DNNL_VERSION_MAJOR != 2
#error "targets/onednn uses the oneDNN 2.x C API (op descriptors, output scales); 3.x needs a port"
#endif

#define CC_ONEDNN_MAX_STEPS 12 /* primitives of one node plan */
#define CC_ONEDNN_MAX_ARGS  (CC_MAX_IO + 8)  /* arguments of one primitive execution (Concat: one per input) */
#define CC_ONEDNN_MAX_MEMS  (CC_MAX_IO + 16) /* memories one node plan creates */
#define CC_ONEDNN_MAX_BINDS (CC_MAX_IO + 16) /* memories bound to graph values */
#define CC_ONEDNN_NOTE_MAX  96 /* implementation note of one node */
#define CC_ONEDNN_MAX_POST  20 /* post-ops of one fused primitive */
#define CC_ONEDNN_MAX_FUSED 12 /* nodes fused into one primitive besides its main node */
#define CC_ONEDNN_MAX_PEND  4  /* outputs of one builder written through cc_onednn_output */

/* The backend's context: one CPU engine and one in-order stream. */
typedef struct cc_onednn_ctx {
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    dnnl_cpu_isa_t isa; /* the ISA oneDNN dispatches to */
} cc_onednn_ctx;

/* One primitive execution with its arguments. */
typedef struct cc_onednn_step {
    dnnl_primitive_t prim;
    int n_args;
    dnnl_exec_arg_t args[CC_ONEDNN_MAX_ARGS];
} cc_onednn_step;

/* A memory object whose data handle is a graph value's data, set before every run. */
typedef struct cc_onednn_bind {
    dnnl_memory_t mem;
    int value;
} cc_onednn_bind;

/* One post-op of a fused primitive. */
typedef enum cc_onednn_post_kind {
    CC_ONEDNN_POST_ELTWISE = 0, /* alg(alpha, beta) of the running value */
    CC_ONEDNN_POST_SUM          /* + scale * (value - zero_point), in place over value's data */
} cc_onednn_post_kind;

typedef struct cc_onednn_post {
    cc_onednn_post_kind kind;
    dnnl_alg_kind_t alg; /* ELTWISE: scale * alg(alpha, beta) */
    float alpha, beta;
    float scale;         /* ELTWISE: of its result; SUM: of the value added */
    int value;           /* SUM: the graph value added */
    int32_t zero_point;  /* SUM */
} cc_onednn_post;

/* A fusion group (fuse.c): the main node (Conv, QLinearConv, Concat or MatMulInteger) and the nodes it
 * absorbs, computed by its primitives in the place of the group's last node. */
typedef struct cc_onednn_fusion {
    int main;        /* node index of the convolution (or the concat) */
    int anchor;      /* node index of the last node: the group runs in its place */
    int out_value;   /* the value the group writes (the last node's output) */
    int bn;          /* node index of a folded BatchNormalization, -1 for none */
    int int8;        /* 1: QLinearConv computing in real values through its post-ops,
                        requantized into QuantizeLinear's output */
    float oscale;    /* factor of the convolution's output scales (int8), else 1 */
    int32_t dst_zero_point; /* int8: added after the post-ops, 0 for none */
    int n_fused;
    int fused[CC_ONEDNN_MAX_FUSED]; /* the absorbed nodes, in the order the chain meets them */
    int n_post;
    cc_onednn_post post[CC_ONEDNN_MAX_POST];
    /* a requantizing concat: Concat of DequantizeLinear(q_i) into QuantizeLinear, each
     * q_i reordered into its place of the output with scale s_i / s and zero points */
    int n_cat;                  /* 0 for a convolution group */
    int cat_value[CC_MAX_IO];   /* q_i */
    float cat_scale[CC_MAX_IO]; /* s_i / s */
    int32_t cat_zero_point[CC_MAX_IO];
    int32_t out_zero_point;
    /* an integer matmul with a bias: MatMulInteger -> Add of an i32 constant, the
     * constant's value (matmul.c adds it in integers; only in a group whose main node is
     * a MatMulInteger) */
    int mm_bias;
} cc_onednn_fusion;

/* What a graph plan knows of one value while it builds (plan.c). */
typedef struct cc_onednn_value {
    cc_tensor desc;        /* shape, dtype; data only for constants */
    int free_layout;       /* 1: an intermediate the plan may store in any layout */
    int has_md;            /* 1: stored in layout md; 0: dense row-major */
    dnnl_memory_desc_t md;
    int alias;             /* -1, or the value whose buffer it takes over (in-place sum) */
    int view;              /* 1: md is a strided view of alias's buffer (a Reshape or a
                              Transpose without a copy); its readers write dense outputs */
} cc_onednn_value;

/* Everything one node owns: its steps in execution order, the memories it created and
 * the bindings to graph values; the implementation chosen for describe_plan. A fusion
 * group's plan sits in the slot of its last node, with node = the main node; the slots of
 * the other nodes it absorbed stay empty. */
typedef struct cc_onednn_node_plan {
    const cc_node *node;
    const cc_onednn_fusion *fuse; /* the group this plan computes, NULL for one node */
    int n_steps;
    cc_onednn_step steps[CC_ONEDNN_MAX_STEPS];
    int n_mems;
    dnnl_memory_t mems[CC_ONEDNN_MAX_MEMS];
    int n_binds;
    cc_onednn_bind binds[CC_ONEDNN_MAX_BINDS];
    int n_reorders;                /* run-time layout reorders around the main primitive */
    char impl[CC_ONEDNN_NOTE_MAX]; /* impl info string of the main primitive */
} cc_onednn_node_plan;

/* What a builder sees. in[i] are the node's input descriptions (NULL for an absent
 * optional input; data non-NULL for constants, valid until the plan is released);
 * out[j] the inferred output descriptions. plan is NULL in check mode; vals and fuse are
 * set by graph plans only (see the top of this file). */
typedef struct cc_onednn_build {
    const cc_onednn_ctx *ctx;
    const cc_node *node;
    const cc_tensor *in[CC_MAX_IO];
    const cc_tensor *out;
    int n_out;
    cc_onednn_node_plan *plan;
    const cc_graph *graph;        /* the graph a plan builds, NULL outside graph plans */
    cc_onednn_value *vals;        /* the plan's values, NULL outside graph plans */
    const cc_onednn_fusion *fuse; /* NULL: the node alone */
    void *graph_plan;             /* the plan building this node (plan.c), or NULL */
    /* outputs written through a scratch memory in another layout (cc_onednn_output) */
    int pend[CC_ONEDNN_MAX_PEND];
    dnnl_memory_t pend_mem[CC_ONEDNN_MAX_PEND];
    dnnl_memory_desc_t pend_md[CC_ONEDNN_MAX_PEND];
    int not_here; /* 1: the builder's refusal is this CPU's (cc_onednn_not_here) */
} cc_onednn_build;

/* A builder: checks (check mode) or builds (build mode) one node. CC_ERR_UNSUPPORTED with
 * a one-line reason for anything the backend or oneDNN cannot do (b->not_here set where
 * another CPU could: supports() then answers NOT_HERE); other errors as usual. */
typedef cc_status (*cc_onednn_build_fn)(cc_onednn_build *b, cc_err *err);

typedef struct cc_onednn_op {
    const char *op; /* ONNX op name */
    cc_onednn_build_fn build;
} cc_onednn_op;

typedef struct cc_onednn_family {
    int n;
    const cc_onednn_op *ops;
} cc_onednn_family;

/* The family tables, one per file: */
extern const cc_onednn_family cc_onednn_family_conv;    /* Conv, ConvInteger, QLinearConv */
extern const cc_onednn_family cc_onednn_family_matmul;  /* Gemm, MatMul, MatMulInteger, QLinearMatMul */
extern const cc_onednn_family cc_onednn_family_pool;    /* MaxPool, AveragePool, GlobalAveragePool */
extern const cc_onednn_family cc_onednn_family_eltwise; /* unary activations, Add, Sub, Mul, Div, Min, Max, Sum,
                                                           Mean, PRelu, comparisons, And, Or, Xor, Not */
extern const cc_onednn_family cc_onednn_family_reduce;  /* Softmax, ReduceMean/Max, BatchNormalization */
extern const cc_onednn_family cc_onednn_family_shape;   /* Flatten, Reshape, Identity, Dropout, Squeeze, Unsqueeze, Transpose, Concat, Slice */
extern const cc_onednn_family cc_onednn_family_resize;  /* Resize */
extern const cc_onednn_family cc_onednn_family_quant;   /* QuantizeLinear, DequantizeLinear */
extern const cc_onednn_family cc_onednn_family_copy;    /* Split, DepthToSpace, SpaceToDepth, Expand, Tile, Pad,
                                                           EyeLike, ConstantOfShape, Shape, Size */

/* ---- build.c: data types and memory descriptors --------------------------------------- */

/* The oneDNN data type of d. CC_ERR_UNSUPPORTED naming op for types oneDNN 2.x lacks
 * (i64, bool). */
cc_status cc_onednn_dt(const char *op, cc_dtype d, dnnl_data_type_t *out, cc_err *err);
/* Short name of a oneDNN data type ("f32", "s8", ...). */
const char *cc_onednn_dt_name(dnnl_data_type_t dt);

/* A dense row-major descriptor of ndims dims (a rank-0 shape is passed as ndims 1, dims
 * {1}), or with any != 0 the "any" format for the primitive to choose. */
cc_status cc_onednn_md(dnnl_memory_desc_t *md, int ndims, const int64_t *dims, dnnl_data_type_t dt, int any,
                       cc_err *err);
/* A dense row-major descriptor of shape s (rank 0 becomes {1}). */
cc_status cc_onednn_md_shape(dnnl_memory_desc_t *md, const cc_shape *s, dnnl_data_type_t dt, cc_err *err);
/* A descriptor with explicit element strides. */
cc_status cc_onednn_md_strides(dnnl_memory_desc_t *md, int ndims, const int64_t *dims, const int64_t *strides,
                               dnnl_data_type_t dt, cc_err *err);

/* ---- build.c: primitive descriptors and steps ----------------------------------------- */

/* Creates the primitive descriptor of op_desc (a dnnl_*_desc_t) with attr (may be NULL).
 * When oneDNN refuses, CC_ERR_UNSUPPORTED with "oneDNN: <what> is unimplemented
 * (dnnl_unimplemented)" (or the status oneDNN gave). *pd is the caller's. */
cc_status cc_onednn_pd(cc_onednn_build *b, const void *op_desc, const_dnnl_primitive_attr_t attr,
                       const char *what, dnnl_primitive_desc_t *pd, cc_err *err);
/* The same for a reorder from src to dst. */
cc_status cc_onednn_reorder_pd(cc_onednn_build *b, const dnnl_memory_desc_t *src,
                               const dnnl_memory_desc_t *dst, const_dnnl_primitive_attr_t attr,
                               const char *what, dnnl_primitive_desc_t *pd, cc_err *err);
/* Maps the status of a oneDNN call made while describing `what` (an op descriptor
 * init): CC_OK for success, else CC_ERR_UNSUPPORTED "oneDNN: <what> rejected
 * (dnnl_<status>)". */
cc_status cc_onednn_status(dnnl_status_t s, const char *what, cc_err *err);
/* A copy of the memory descriptor pd reports for `what` (dnnl_query_src_md, ...). */
dnnl_memory_desc_t cc_onednn_pd_md(const_dnnl_primitive_desc_t pd, dnnl_query_t what, int index);

/* Appends a step running pd with the given arguments; takes ownership of pd in every
 * case. main != 0 records the primitive's implementation as the node's. In check mode
 * the arguments are ignored and pd is destroyed. */
cc_status cc_onednn_step_add(cc_onednn_build *b, dnnl_primitive_desc_t pd, const dnnl_exec_arg_t *args,
                             int n_args, int main, cc_err *err);

/* Appends printf-formatted text to the node's implementation note (build mode only). */
void cc_onednn_note(cc_onednn_build *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- build.c: memories ----------------------------------------------------------------- */

/* A memory with descriptor md bound to graph value `value` (its data handle is set
 * before every run). *mem is NULL in check mode. */
cc_status cc_onednn_mem_value(cc_onednn_build *b, int value, const dnnl_memory_desc_t *md, dnnl_memory_t *mem,
                              cc_err *err);
/* A memory over input i's data seen through `view`, an md the builder derived from the
 * layout the input is stored in (cc_onednn_in_md): a strided or offset view of it. NULL
 * in check mode. */
cc_status cc_onednn_input_view(cc_onednn_build *b, int i, const dnnl_memory_desc_t *view, dnnl_memory_t *mem,
                               cc_err *err);
/* A memory over the data of constant input i (not copied: graph constants stay valid
 * until the plan is released). NULL in check mode. */
cc_status cc_onednn_mem_const(cc_onednn_build *b, int i, const dnnl_memory_desc_t *md, dnnl_memory_t *mem,
                              cc_err *err);
/* Input i in layout `want`, from its dense layout `plain`: a constant is reordered once,
 * now; a run-time value is bound and reordered at run when the layouts differ. */
cc_status cc_onednn_input(cc_onednn_build *b, int i, const dnnl_memory_desc_t *plain,
                          const dnnl_memory_desc_t *want, dnnl_memory_t *mem, cc_err *err);
/* Input i in `want`, a layout of the input's dims grown by padding (a primitive then
 * runs unpadded): a buffer of the node's own, every byte set to `fill` once at prepare,
 * into whose interior (a sub-memory at `offsets`, one per dim) the input is reordered as
 * it is stored, at run (a constant: now). Meant for 8-bit data whose padding value is
 * its zero point (fill is then the zero point's byte). *mem is NULL in check mode. */
cc_status cc_onednn_input_padded(cc_onednn_build *b, int i, const dnnl_memory_desc_t *plain,
                                 const dnnl_memory_desc_t *want, const int64_t *offsets, unsigned char fill,
                                 dnnl_memory_t *mem, cc_err *err);
/* A memory with its own buffer (allocated by oneDNN), filled with a copy of data when
 * data is non-NULL (md must then be dense: bytes = dnnl_memory_desc_get_size). NULL in
 * check mode. */
cc_status cc_onednn_mem_new(cc_onednn_build *b, const dnnl_memory_desc_t *md, const void *data,
                            dnnl_memory_t *mem, cc_err *err);
/* A memory over the data of memory `of`, which must own its buffer (cc_onednn_mem_new, a
 * reorder's destination from cc_onednn_input or cc_onednn_to_layout; not one bound to a
 * graph value, whose data is set only at run), seen through md: a sub-memory or a strided
 * view of it. NULL in check mode. */
cc_status cc_onednn_mem_view(cc_onednn_build *b, dnnl_memory_t of, const dnnl_memory_desc_t *md, dnnl_memory_t *mem,
                             cc_err *err);
/* A plain f32 memory of n values computed by the caller (scales, folded constants). */
cc_status cc_onednn_mem_f32(cc_onednn_build *b, int64_t n, const float *values, dnnl_memory_t *mem,
                            cc_err *err);

/* Brings memory src (descriptor src_md) into the layout `want`: when the two are equal
 * *out = src; otherwise a new memory with `want` and a reorder from src, executed now
 * (now != 0: constants, once at prepare) or appended as a run-time step. In check mode
 * the reorder's descriptor is only created. */
cc_status cc_onednn_to_layout(cc_onednn_build *b, dnnl_memory_t src, const dnnl_memory_desc_t *src_md,
                              const dnnl_memory_desc_t *want, int now, dnnl_memory_t *out, cc_err *err);
/* The memory a primitive should write for graph output memory dst (descriptor dst_md)
 * when the primitive produces layout `have`: dst itself when equal, else a new memory;
 * call cc_onednn_from_layout_finish after appending the primitive. */
cc_status cc_onednn_from_layout(cc_onednn_build *b, dnnl_memory_t dst, const dnnl_memory_desc_t *dst_md,
                                const dnnl_memory_desc_t *have, dnnl_memory_t *prim_dst, cc_err *err);
/* Appends the reorder prim_dst -> dst when cc_onednn_from_layout made a separate memory. */
cc_status cc_onednn_from_layout_finish(cc_onednn_build *b, dnnl_memory_t dst,
                                       const dnnl_memory_desc_t *dst_md, dnnl_memory_t prim_dst,
                                       const dnnl_memory_desc_t *have, cc_err *err);

/* Appends a reorder from the s32 memory src (descriptor smd) to dst (descriptor dmd, u8
 * or s8) that adds zero point zp and saturates: integer arithmetic after the producing
 * primitive's rounding, the order ONNX specifies. oneDNN adds a destination zero point
 * before rounding, which differs at .5 ties when zp is odd; callers use this step then. */
cc_status cc_onednn_zero_point_step(cc_onednn_build *b, dnnl_memory_t src, const dnnl_memory_desc_t *smd,
                                    dnnl_memory_t dst, const dnnl_memory_desc_t *dmd, int32_t zp,
                                    cc_err *err);

/* ---- build.c: layouts between primitives ------------------------------------------------ */

/* 1 when md addresses its elements as a dense row-major tensor of its dims would (dims of
 * 1 may carry any stride): the two then describe the same bytes. */
int cc_onednn_md_is_dense(const dnnl_memory_desc_t *md);
/* 1 when a and b describe the same bytes for the same elements (equal, or both dense of
 * the same element count and type size). */
int cc_onednn_md_same_bytes(const dnnl_memory_desc_t *a, const dnnl_memory_desc_t *b);
/* 1 when a reorder from a to b (same dims, any data types and offsets) keeps every element
 * at the same place in its layout: the same blocks and padding, and equal strides on every
 * dimension larger than 1. oneDNN 2.6's jit:uni reorder applies zero points right only
 * then: between other layouts (a transposing view, a slice of a channels-last concat
 * output) it was measured to drop them; a reorder without attributes moves values
 * exactly. Callers put zero points on like layouts and move the values by plain copies. */
int cc_onednn_md_zero_point_safe(const dnnl_memory_desc_t *a, const dnnl_memory_desc_t *b);
/* The layout input i is stored in: the plan's layout of a run-time value where it has one,
 * else *plain. A builder that can read any layout passes the result to its primitive
 * descriptor and then to cc_onednn_input as `want`, which then binds without a reorder. */
void cc_onednn_in_md(const cc_onednn_build *b, int i, const dnnl_memory_desc_t *plain,
                     dnnl_memory_desc_t *md);
/* The memory a primitive writes for output j when it produces layout `have`. An
 * intermediate that the plan lets its producer lay out is stored in `have` (readers see
 * that layout); anything else is dense: when `have` is not, the primitive writes a scratch
 * memory and cc_onednn_output_finish (called after the primitive's step) appends its
 * reorder into the output (outputs j < CC_ONEDNN_MAX_PEND only; a later one passes a
 * dense `have` when it is not a free intermediate). *mem is NULL in check mode. */
cc_status cc_onednn_output(cc_onednn_build *b, int j, const dnnl_memory_desc_t *have, dnnl_memory_t *mem,
                           cc_err *err);
cc_status cc_onednn_output_finish(cc_onednn_build *b, int j, cc_err *err);
/* A memory over the destination cc_onednn_output gave output j, seen through `view` (a
 * sub-memory of its layout: a primitive writing one slice of it). */
cc_status cc_onednn_output_view(cc_onednn_build *b, int j, const dnnl_memory_desc_t *view, dnnl_memory_t *mem,
                                cc_err *err);
/* Output j written over the buffer of value `over` (in layout md, which must be how over
 * is stored): for a sum post-op in place. The plan gives output j over's buffer. */
cc_status cc_onednn_output_over(cc_onednn_build *b, int j, int over, const dnnl_memory_desc_t *md,
                                dnnl_memory_t *mem, cc_err *err);
/* Appends a reorder copying graph value `value` (as stored) into mem (layout md, same
 * dims and data type): a sum post-op's operand when it cannot be overwritten in place. */
cc_status cc_onednn_copy_in(cc_onednn_build *b, int value, const dnnl_memory_desc_t *md, dnnl_memory_t mem,
                            cc_err *err);
/* The layout value v is stored in (its plan layout, else dense of its shape and dt). */
cc_status cc_onednn_value_md(const cc_onednn_build *b, int v, dnnl_data_type_t dt, dnnl_memory_desc_t *md,
                             cc_err *err);

/* ---- copy.c: moving elements of any type ------------------------------------------------- */

/* The oneDNN type moving dtype d, and the bytes per element an extra innermost u8
 * dimension carries (0: d is a oneDNN type). Types oneDNN 2.x lacks (i64, bool) are moved
 * as bytes: a reorder copies them exactly. */
void cc_onednn_move_type(cc_dtype d, dnnl_data_type_t *dt, int *bytes);
/* dims (and element strides when st is non-NULL, scaled to bytes) of an r-D tensor with
 * the byte dimension appended when bytes != 0; returns the new rank. */
int cc_onednn_with_bytes(int r, const int64_t *dims, const int64_t *st, int bytes, int64_t *od, int64_t *ost);
/* An nd-dims descriptor of type dt in the dimension order of ref's strides when ref has no
 * blocks (channels-last stays channels-last), else dense. */
cc_status cc_onednn_like_layout(const dnnl_memory_desc_t *ref, int nd, const int64_t *dims, dnnl_data_type_t dt,
                                dnnl_memory_desc_t *md, cc_err *err);
/* The element strides input 0 is stored with when that layout has no blocks (dense,
 * channels-last or a strided view; its offset in *offset): 1; 0 for a blocked layout.
 * plain is the input's dense descriptor (dense strides in check mode). */
int cc_onednn_stored_strides(const cc_onednn_build *b, const dnnl_memory_desc_t *plain, int64_t *st, int64_t *offset);
/* A memory over input i seen through `view`, an md of the input's dense layout (a
 * sub-memory, strides, stride 0 for a broadcast): bound to the input where it is stored
 * dense or is a constant; where the plan stores it otherwise (*copied = 1), over a dense
 * copy the node makes at run. NULL in check mode. */
cc_status cc_onednn_input_through(cc_onednn_build *b, int i, const dnnl_memory_desc_t *view, dnnl_memory_t *mem,
                                  int *copied, cc_err *err);

/* ---- copy.c: fills ------------------------------------------------------------------------- */

/* Appends a reorder writing the one element in cell (bytes of output j's dtype) into every
 * element of output j, from a memory of the node's own viewed with stride 0; none for an
 * empty output. main != 0 names it the node's implementation. Run at every run: an output's
 * buffer is not the node's to keep. */
cc_status cc_onednn_fill(cc_onednn_build *b, int j, const unsigned char *cell, int main, cc_err *err);

/* ---- fuse.c: fusion groups --------------------------------------------------------------- */

/* Finds the fusion groups of g, whose values are described by vals[].desc (fuse.c says
 * which patterns). *groups (n entries, possibly 0; the caller frees it with free()) lists
 * them in order of their anchors; group_of[k] (g->n_nodes entries, written here) is the
 * group node k belongs to, or -1. */
cc_status cc_onednn_fuse(const cc_graph *g, const cc_onednn_value *vals, cc_onednn_fusion **groups, int *n,
                         int *group_of, cc_err *err);
/* 1 when node `add` is an Add of an i32 constant vector ([N], [1, .., N] or one value,
 * *bias) to the output of MatMulInteger node *mm, read by that Add alone: a graph plan
 * computes the two as one matmul (matmul.c, mm_bias). */
int cc_onednn_bias_add(const cc_graph *g, const cc_node *add, int *mm, int *bias);
/* Sets f's post-ops on attr. */
cc_status cc_onednn_post_ops(const cc_onednn_fusion *f, const cc_onednn_value *vals, dnnl_primitive_attr_t attr,
                             cc_err *err);
/* The weights and bias of b's convolution with f's BatchNormalization folded in: w[m] *
 * a[m] and (bias[m] - mean[m]) * a[m] + B[m], a = scale / sqrt(var + epsilon), in double,
 * the weights rounded once to their type. *w (bytes of the weights' size) and *bias (m
 * floats) are malloc'd for the caller. */
cc_status cc_onednn_fold_bn(const cc_onednn_build *b, const cc_onednn_fusion *f, int wi, int bi, void **w,
                            float **bias, cc_err *err);
/* Writes "Conv+BatchNormalization+Relu" for node plan p into buf. */
void cc_onednn_fusion_label(const cc_onednn_node_plan *p, const cc_graph *g, char *buf, size_t n);

/* ---- eltwise.c: unary ops as eltwise algorithms --------------------------------------------- */

typedef struct cc_onednn_eltwise {
    dnnl_alg_kind_t alg;
    float alpha, beta;
} cc_onednn_eltwise;

/* The eltwise algorithms (1 or 2, applied in order) computing unary node b->node; its
 * constant inputs (Clip's bounds) from b->in. CC_ERR_UNSUPPORTED for parameters oneDNN
 * cannot take, CC_ERR_INTERNAL for an op that is not a unary eltwise op. */
cc_status cc_onednn_unary_algs(const cc_onednn_build *b, cc_onednn_eltwise *s, int *n, cc_err *err);

/* ---- onednn.c: dispatch ------------------------------------------------------------------ */

/* The builder of ONNX op `op`, or NULL when the backend has none. */
cc_onednn_build_fn cc_onednn_find_builder(const char *op);
/* "avx512_core_amx" for oneDNN's "cpu_isa_avx512_core_amx" (a static string). */
const char *cc_onednn_isa_name(dnnl_cpu_isa_t isa);
/* Fills b (check mode, no plan) for node, whose inputs are described by vals (shape,
 * dtype; data only for constants), and infers its outputs into out (CC_MAX_IO entries,
 * n_out written). Errors of the op's shape inference pass through. */
cc_status cc_onednn_build_begin(const cc_onednn_ctx *ctx, const cc_tensor *vals, const cc_node *node,
                                cc_tensor *out, cc_onednn_build *b, cc_err *err);

/* ---- plan.c: graph plans ----------------------------------------------------------------- */

/* The target's prepare, run, release and describe_plan (see target.h). */
cc_status cc_onednn_prepare(void *ctx, const cc_graph *g, void **plan, cc_err *err);
cc_status cc_onednn_run(void *ctx, void *plan, void *const *inputs, void *const *outputs, cc_err *err);
void cc_onednn_release(void *ctx, void *plan);
void cc_onednn_describe_plan(void *ctx, void *plan, char *buf, size_t n);

/* 1 when b's fusion group may overwrite value v in place: v and the group's output are
 * intermediates of the plan, v is not read by the group's main node, and its every other
 * reader runs before the group. */
int cc_onednn_plan_overwritable(const cc_onednn_build *b, int v);

/* ---- attribute wrappers (the 2.x and 3.x APIs differ) -------------------------------------- */

/* Output scales (count values along mask). 3.x has none: it takes scales per argument
 * (source, weights, destination) as memories at execution, which a port maps here. */
static inline dnnl_status_t cc_onednn_set_output_scales(dnnl_primitive_attr_t attr, int64_t count, int mask,
                                                        const float *scales)
{
#if DNNL_VERSION_MAJOR >= 3
    (void)attr, (void)count, (void)mask, (void)scales;
    return dnnl_unimplemented;
#else
    return dnnl_primitive_attr_set_output_scales(attr, count, mask, scales);
#endif
}


/* scale * alg(alpha, beta); 3.x has no such scale (a group then runs unfused) */
static inline dnnl_status_t cc_onednn_append_eltwise(dnnl_post_ops_t po, float scale, dnnl_alg_kind_t alg,
                                                     float alpha, float beta)
{
#if DNNL_VERSION_MAJOR >= 3
    if (scale != 1.0f) return dnnl_unimplemented;
    return dnnl_post_ops_append_eltwise(po, alg, alpha, beta);
#else
    return dnnl_post_ops_append_eltwise(po, scale, alg, alpha, beta);
#endif
}

static inline dnnl_status_t cc_onednn_append_sum(dnnl_post_ops_t po, float scale, int32_t zero_point,
                                                 dnnl_data_type_t dt)
{
#if DNNL_VERSION_MAJOR >= 3
    return dnnl_post_ops_append_sum(po, scale, zero_point, dt);
#else
    return dnnl_post_ops_append_sum_v3(po, scale, zero_point, dt);
#endif
}

/* ---- build.c: what this CPU computes exactly -------------------------------------------- */

/* CC_ERR_UNSUPPORTED with the printf-formatted reason, marked as this CPU's (b->not_here):
 * supports() answers NOT_HERE, the verdict "not on this hardware". */
cc_status cc_onednn_not_here(cc_onednn_build *b, cc_err *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 1 when oneDNN's 8-bit kernels here have VNNI: avx512_core_vnni and up, where vpdpbusd
 * adds four u8 x s8 products to an s32 exactly. avx2_vnni counts as without (oneDNN 2.6's
 * kernels there were not measured). */
int cc_onednn_has_vnni(const cc_onednn_ctx *ctx);

/* What an 8-bit primitive does with an s8 source without VNNI (cc_onednn_int8_exact). */
typedef enum cc_onednn_int8_kind {
    CC_ONEDNN_INT8_MATMUL = 0, /* shifts it to u8 (+128, compensated): the u8 rule */
    CC_ONEDNN_INT8_CONV,       /* halves the weights in their reorder (scale 0.5, undone after) */
    CC_ONEDNN_INT8_CONV_DW     /* a depthwise convolution: one channel per group in and out */
} cc_onednn_int8_kind;

/* CC_OK when primitive pd (b's, source type sdt u8 or s8, s8 weights from input wi,
 * `depth` products summed into each output) computes its 8-bit products exactly on this
 * CPU: always with VNNI and on oneDNN's reference kernels (s32 arithmetic). Without VNNI
 * (avx2, avx512_core) oneDNN's kernels add each pair of u8 x s8 products into a
 * saturating 16-bit sum (vpmaddubsw; oneDNN's "Nuances of int8 computations"), so only
 * these are exact:
 *  - a u8 source (an s8 one of a matmul) with constant weights in [-64, 64], or a depth
 *    of 1: a pair then stays within 255 * 64 * 2 = 32640, a lone product within 32640;
 *  - an s8-source convolution with constant even weights: halving them is then exact;
 *  - a u8-source depthwise convolution on jit_uni_int8 (it widens every product to s32).
 * Otherwise CC_ERR_UNSUPPORTED through cc_onednn_not_here, naming the missing VNNI. */
cc_status cc_onednn_int8_exact(cc_onednn_build *b, const_dnnl_primitive_desc_t pd, dnnl_data_type_t sdt, int wi,
                               cc_onednn_int8_kind kind, int64_t depth, cc_err *err);

/* ---- build.c: small helpers ---------------------------------------------------------- */

/* Value index of node input i / output j (a fusion group's output 0 is the value its
 * last node writes). */
int cc_onednn_in_value(const cc_onednn_build *b, int i);
int cc_onednn_out_value(const cc_onednn_build *b, int j);
/* Scalar j of constant tensor t as a double (cc_load). */
double cc_onednn_const_at(const cc_tensor *t, int64_t j);
/* 1 when every value of constant t equals its first. */
int cc_onednn_const_uniform(const cc_tensor *t);
/* CC_ERR_UNSUPPORTED when input i is present but not a constant: "<op>: <name> must be
 * a constant for oneDNN (...)" */
cc_status cc_onednn_need_const(const cc_onednn_build *b, int i, const char *why, cc_err *err);

#endif
