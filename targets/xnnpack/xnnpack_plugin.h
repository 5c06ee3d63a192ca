/* xnnpack_plugin.h — internal contract of the xnnpack plugin: how a node becomes one
 * XNNPACK operator (a node plan), the build context each op family's builder receives,
 * and the layout helpers.
 *
 * A builder creates the node's XNNPACK operator (packing constant weights) and fills the
 * node plan: which node inputs it reads at run time, whether each of those and the output
 * must be converted between the graph's NCHW layout and the operator's NHWC, and the
 * setup function that binds buffers. supports() runs the same builder and deletes the
 * operator at once, so what XNNPACK refuses (xnn_status_unsupported_parameter, ...) is
 * reported as unsupported with XNNPACK's own status, and a case that passes the check
 * runs the very operator that was checked.
 *
 * The plugin is built against the installed crosscheck headers only; the crosscheck
 * functions it calls (cc_err_set, cc_load, cc_attr_*) come from the executable. */
#ifndef CC_XNNPACK_PLUGIN_H
#define CC_XNNPACK_PLUGIN_H

#include <crosscheck/targets/target.h>

#include <pthreadpool.h>
#include <xnnpack.h>

#define XP_NOTE_MAX 80

typedef struct xp_node xp_node;

/* Binds the operator of np to its buffers (src[k]: run-time operand k, already NHWC
 * where the plan says so; dst: the output, likewise). Called in prepare when the buffers
 * are the plan's own and again at run only when a bound pointer changed. */
typedef enum xnn_status (*xp_setup_fn)(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp);

/* One node's plan. */
struct xp_node {
    const cc_node *node;
    xnn_operator_t op;
    xp_setup_fn setup;
    int n_src;                /* run-time operands: node inputs src_in[0..n_src) */
    int src_in[2];
    int nhwc_src[2];          /* 1: operand k is transposed NCHW -> NHWC before the op */
    int nhwc_dst;             /* 1: the op writes NHWC, transposed into the NCHW output */
    int64_t src_ncs[2][3];    /* N, C, spatial size of operand k (for its transpose) */
    int64_t dst_ncs[3];
    size_t esize_src[2], esize_dst;
    /* setup arguments */
    size_t batch, in_h, in_w, out_h, out_w;
    size_t nd[2], shape[2][XNN_MAX_TENSOR_DIMS];
    /* run-time state */
    void *scratch_src[2], *scratch_dst;
    const void *bound_src[2];
    void *bound_dst;
    int bound;
    char impl[XP_NOTE_MAX];   /* "convolution2d_nhwc_qc8", for describe_plan */
};

/* The plugin's context: XNNPACK initialised, one thread pool (NULL with one thread: XNNPACK
 * then runs on the calling thread). */
typedef struct xp_ctx {
    pthreadpool_t pool;
    int threads;
    uint32_t xnn_flags;       /* or'ed into the flags of every operator: XNN_FLAG_YIELD_WORKERS */
} xp_ctx;

/* What a builder sees: the node, its input descriptions (NULL for an absent optional
 * input; data non-NULL for constants) and its inferred outputs. np receives the plan. */
typedef struct xp_build {
    const xp_ctx *ctx;
    const cc_node *node;
    const cc_tensor *in[CC_MAX_IO];
    cc_tensor out[CC_MAX_IO];
    int n_out;
    xp_node *np;
} xp_build;

/* Creates the operator of b->node into b->np. CC_ERR_UNSUPPORTED with a one-line reason
 * ("xnnpack: ...") for anything XNNPACK or this plugin cannot do. */
typedef cc_status (*xp_build_fn)(xp_build *b, cc_err *err);

typedef struct xp_op {
    const char *op;           /* ONNX op name */
    xp_build_fn build;
} xp_op;

typedef struct xp_family {
    int n;
    const xp_op *ops;
} xp_family;

extern const xp_family xp_family_conv;    /* Conv, QLinearConv */
extern const xp_family xp_family_pool;    /* MaxPool, AveragePool, GlobalAveragePool */
extern const xp_family xp_family_eltwise; /* Relu, Clip, LeakyRelu, Sigmoid, HardSwish, Sqrt, Add, Sub, Mul, Div, Softmax */
extern const xp_family xp_family_matmul;  /* Gemm, MatMul, QLinearMatMul */
extern const xp_family xp_family_misc;    /* Flatten, Reshape, QuantizeLinear, DequantizeLinear, Resize */

/* ---- helpers (xnnpack.c) ----------------------------------------------------------- */

/* Maps an XNNPACK status of call `what` to a cc_status: success CC_OK; out of memory
 * CC_ERR_NOMEM; anything else CC_ERR_UNSUPPORTED "xnnpack: <what> refused (<status>)". */
cc_status xp_check(enum xnn_status s, const char *what, cc_err *err);
const char *xp_status_name(enum xnn_status s);

/* CC_ERR_UNSUPPORTED naming the op when input i is present but not a constant. */
cc_status xp_need_const(const xp_build *b, int i, const char *why, cc_err *err);
/* Value j of constant t as a double. */
double xp_const_at(const cc_tensor *t, int64_t j);
/* 1 when t is a scalar: rank 0 or a single element. */
int xp_is_scalar(const cc_tensor *t);

/* CC_ERR_UNSUPPORTED for case dtypes XNNPACK has no operators for (bf16, i64, ...),
 * naming the op; `allowed` is a mask of CC_DTYPE_BIT. */
cc_status xp_dtype(const xp_build *b, cc_dtype d, unsigned allowed, cc_err *err);

/* Window geometry of a Conv/pool node over an input of rank 3 (N, C, W: treated as
 * H = 1) or 4 (N, C, H, W): kernel (from kernel_shape, or the weights' trailing dims
 * when kdims != NULL), strides, dilations (when has_dilations) and explicit begin/end
 * pads from pads or auto_pad. */
typedef struct xp_window {
    int64_t n, c, h, w;       /* input */
    int64_t kh, kw, sh, sw, dh, dw;
    int64_t pt, pl, pb, pr;   /* top, left, bottom, right */
} xp_window;
cc_status xp_window_get(const xp_build *b, const cc_shape *x, const int64_t *kdims, int has_dilations,
                        xp_window *win, cc_err *err);

/* Marks operand k (node input `input`) as read at run time, NCHW -> NHWC when nhwc, and
 * the output likewise. */
void xp_src(xp_build *b, int k, int input, int nhwc);
void xp_dst(xp_build *b, int nhwc);

#endif
