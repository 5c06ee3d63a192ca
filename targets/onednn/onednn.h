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
 * The backend is written against the oneDNN 2.x C API (operation descriptors passed to
 * dnnl_primitive_desc_create, output scales, memory descriptors as plain structs).
 * oneDNN 3.x replaced those: a port goes through the #if below and build.c first. */
#ifndef CC_ONEDNN_H
#define CC_ONEDNN_H

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_version.h>

#include "../target.h"

#if DNNL_VERSION_MAJOR != 2
#error "targets/onednn uses the oneDNN 2.x C API (op descriptors, output scales); 3.x needs a port"
#endif

#define CC_ONEDNN_MAX_STEPS 8  /* primitives of one node plan */
#define CC_ONEDNN_MAX_ARGS  12 /* arguments of one primitive execution */
#define CC_ONEDNN_MAX_MEMS  24 /* memories one node plan creates */
#define CC_ONEDNN_MAX_BINDS 16 /* memories bound to graph values */
#define CC_ONEDNN_NOTE_MAX  96 /* implementation note of one node */

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

/* Everything one node owns: its steps in execution order, the memories it created and
 * the bindings to graph values; the implementation chosen for describe_plan. */
typedef struct cc_onednn_node_plan {
    const cc_node *node;
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
 * out[j] the inferred output descriptions. plan is NULL in check mode. */
typedef struct cc_onednn_build {
    const cc_onednn_ctx *ctx;
    const cc_node *node;
    const cc_tensor *in[CC_MAX_IO];
    const cc_tensor *out;
    int n_out;
    cc_onednn_node_plan *plan;
} cc_onednn_build;

/* A builder: checks (check mode) or builds (build mode) one node. CC_ERR_UNSUPPORTED with
 * a one-line reason for anything the backend or oneDNN cannot do; other errors as usual. */
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
extern const cc_onednn_family cc_onednn_family_eltwise; /* unary activations, Add, Sub, Mul, Div */
extern const cc_onednn_family cc_onednn_family_reduce;  /* Softmax, ReduceMean/Max, BatchNormalization */
extern const cc_onednn_family cc_onednn_family_shape;   /* Flatten, Reshape, Transpose, Concat */
extern const cc_onednn_family cc_onednn_family_resize;  /* Resize */
extern const cc_onednn_family cc_onednn_family_quant;   /* QuantizeLinear, DequantizeLinear */

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
/* A memory over the data of constant input i (not copied: graph constants stay valid
 * until the plan is released). NULL in check mode. */
cc_status cc_onednn_mem_const(cc_onednn_build *b, int i, const dnnl_memory_desc_t *md, dnnl_memory_t *mem,
                              cc_err *err);
/* Input i in layout `want`, from its dense layout `plain`: a constant is reordered once,
 * now; a run-time value is bound and reordered at run when the layouts differ. */
cc_status cc_onednn_input(cc_onednn_build *b, int i, const dnnl_memory_desc_t *plain,
                          const dnnl_memory_desc_t *want, dnnl_memory_t *mem, cc_err *err);
/* A memory with its own buffer (allocated by oneDNN), filled with a copy of data when
 * data is non-NULL (md must then be dense: bytes = dnnl_memory_desc_get_size). NULL in
 * check mode. */
cc_status cc_onednn_mem_new(cc_onednn_build *b, const dnnl_memory_desc_t *md, const void *data,
                            dnnl_memory_t *mem, cc_err *err);
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

/* ---- build.c: small helpers ---------------------------------------------------------- */

/* Value index of node input i / output j. */
int cc_onednn_in_value(const cc_onednn_build *b, int i);
int cc_onednn_out_value(const cc_onednn_build *b, int j);
/* Scalar j of constant tensor t as a double (cc_load). */
double cc_onednn_const_at(const cc_tensor *t, int64_t j);
/* 1 when every value of constant t equals its first. */
int cc_onednn_const_uniform(const cc_tensor *t);
/* CC_ERR_UNSUPPORTED when input i is present but not a constant: "<op>: <name> must be
 * a constant for oneDNN (...)" */
cc_status cc_onednn_need_const(cc_onednn_build *b, int i, const char *why, cc_err *err);

#endif
