/* plan.h — the one graph planner of the built-in backends (cpu, cuda, opencl).
 *
 * A backend supplies kernels, one per op it runs (supports with a reason, prepare, run,
 * release), and memory hooks; the planner does the rest once for all of them:
 *   - the graph check (cc_graph_check) and the node checks of supports();
 *   - shape inference node by node, and the check of every graph output's declared shape
 *     and dtype against what its node gives;
 *   - dispatch by op id through the backend's kernel table;
 *   - value storage: constants uploaded once (or used in place by host backends), graph
 *     inputs and outputs bound at every run, intermediates in buffers reused between
 *     values whose lifetimes do not overlap;
 *   - running the nodes in order, copying the graph outputs no node writes, releasing
 *     everything, and the describe_plan text from the notes kernels leave in prepare.
 *
 * Tensors a kernel sees:
 *   supports(): input descriptions (data: a constant's host data, else NULL) and the
 *               inferred output descriptions (data NULL);
 *   prepare():  the same, with every value's description final;
 *   run():      inputs and outputs whose data are the backend's buffers (host pointers on
 *               host backends, device pointers or cl_mem handles on the others).
 * A kernel never keeps an input or output data pointer from one run to the next: the
 * graph's inputs and outputs are bound anew at every run.
 *
 * onednn keeps its own fusing planner on top of cc_graph_check; the xnnpack plugin calls
 * cc_graph_check too. */
#ifndef CC_PLAN_H
#define CC_PLAN_H

#include <stddef.h>

#include "backend.h"
#include "target.h"

/* One op's kernel on one backend. ctx is the backend's context (what open() made). */
typedef struct cc_kernel {
    cc_op_id op;
    /* optional: can the kernel run the node? NO / NOT_HERE with a one-line reason
     * otherwise. Default: yes. */
    cc_support (*supports)(void *ctx, const cc_node *node, const cc_tensor *const *in,
                           const cc_tensor *out, char *reason, size_t n);
    /* optional: everything slow, once per plan (pack constants, choose algorithms, size
     * scratch, record launches). Writes *state, which release() frees; may leave a note
     * with cc_backend_note. */
    cc_status (*prepare)(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                         const cc_tensor *out, void **state, cc_err *err);
    void (*release)(void *state); /* optional; accepts NULL */
    /* Runs (or, on an asynchronous device, enqueues) the node. */
    cc_status (*run)(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                     cc_tensor *out, void *state, cc_err *err);
} cc_kernel;

/* A list of kernels (one op family's file exports one). */
typedef struct cc_kernel_list {
    int n;
    const cc_kernel *kernels;
} cc_kernel_list;

/* A backend's kernels by op id; NULL where it has none. */
typedef struct cc_kernel_table {
    const cc_kernel *by_id[CC_OP_ID_COUNT];
} cc_kernel_table;

/* Fills t from the n lists. CC_ERR_INTERNAL naming `backend` when two kernels claim one
 * op or a kernel names no op of the catalog. */
cc_status cc_kernel_table_build(cc_kernel_table *t, const cc_kernel_list *const *lists, int n,
                                const char *backend, cc_err *err);

/* What a backend gives the planner. */
typedef struct cc_plan_backend {
    const char *name;                /* "cpu": starts the planner's messages */
    const cc_kernel_table *kernels;
    /* 1: buffers are host memory and constants are read where the graph keeps them;
     * 0: constants are uploaded into buffers of their own */
    int host_memory;
    /* 1: prepare ends with one run on stand-in inputs of 0x01 bytes (no integer division
     * by zero) and waits for it, so drivers that finish compiling kernels on first use do
     * it there and never in a timed run */
    int warm_up;
    /* Memory hooks (target.h's buffer contracts; the vtable's own functions serve). */
    cc_status (*alloc)(void *ctx, size_t bytes, void **buf, cc_err *err);
    void (*free)(void *ctx, void *buf);
    cc_status (*upload)(void *ctx, void *buf, const void *src, size_t bytes, cc_err *err);
    /* copies bytes between two buffers of the backend, in order with the nodes' work */
    cc_status (*copy)(void *ctx, void *dst, const void *src, size_t bytes, cc_err *err);
    cc_status (*sync)(void *ctx, cc_err *err);
    /* optional: before a plan is made or run (selects the device) */
    cc_status (*enter)(void *ctx, cc_err *err);
} cc_plan_backend;

typedef struct cc_plan cc_plan;

/* The vtable's supports(): the node's inputs name values of g, its outputs infer, the
 * backend has a kernel for its op, and the kernel accepts it. */
cc_support cc_plan_supports(const cc_plan_backend *b, void *ctx, const cc_graph *g,
                            const cc_node *node, char *reason, size_t n);
/* The vtable's prepare(): *plan is written only on success (CC_ERR_UNSUPPORTED with the
 * kernel's reason for a node the backend does not run). */
cc_status cc_plan_prepare(const cc_plan_backend *b, void *ctx, const cc_graph *g, cc_plan **plan,
                          cc_err *err);
/* The vtable's run(). */
cc_status cc_plan_run(cc_plan *p, void *const *inputs, void *const *outputs, cc_err *err);
/* The vtable's release(); accepts NULL. Waits for the device (sync) before freeing. */
void cc_plan_release(cc_plan *p);
/* The vtable's describe_plan: "Conv: im2col+sgemm x3; Relu". */
void cc_plan_describe(const cc_plan *p, char *buf, size_t n);
/* The vtable's output_shape: graph output j's shape after the last run (what a kernel of
 * data-dependent output shape wrote; the inferred shape otherwise). */
cc_status cc_plan_output_shape(const cc_plan *p, int j, cc_shape *shape, cc_err *err);

/* Defines a built-in backend's vtable functions on the planner: <prefix>_supports,
 * _prepare, _run, _release and _describe_plan (target.h's signatures), each the planner's
 * function for the cc_plan_backend `planner`; `linkage` is static or empty. */
#define CC_PLAN_VTABLE_FUNCTIONS(linkage, prefix, planner)                                                    \
    linkage cc_support prefix##_supports(void *ctx, const cc_graph *g, const cc_node *node,          \
                                        char *reason, size_t reason_size)                            \
    {                                                                                                \
        return cc_plan_supports(&(planner), ctx, g, node, reason, reason_size);                      \
    }                                                                                                \
    linkage cc_status prefix##_prepare(void *ctx, const cc_graph *g, void **plan, cc_err *err)        \
    {                                                                                                \
        cc_plan *p = NULL;                                                                           \
        cc_status st = cc_plan_prepare(&(planner), ctx, g, &p, err);                                 \
        if (!st) *plan = p;                                                                          \
        return st;                                                                                   \
    }                                                                                                \
    linkage cc_status prefix##_run(void *ctx, void *plan, void *const *inputs, void *const *outputs,  \
                                  cc_err *err)                                                       \
    {                                                                                                \
        (void)ctx;                                                                                   \
        return cc_plan_run(plan, inputs, outputs, err);                                              \
    }                                                                                                \
    linkage void prefix##_release(void *ctx, void *plan)                                              \
    {                                                                                                \
        (void)ctx;                                                                                   \
        cc_plan_release(plan);                                                                       \
    }                                                                                                \
    linkage void prefix##_describe_plan(void *ctx, void *plan, char *buf, size_t n)                   \
    {                                                                                                \
        (void)ctx;                                                                                   \
        cc_plan_describe(plan, buf, n);                                                              \
    }                                                                                                \
    linkage cc_status prefix##_output_shape(void *ctx, void *plan, int j, cc_shape *shape, cc_err *err) \
    {                                                                                                \
        (void)ctx;                                                                                   \
        return cc_plan_output_shape(plan, j, shape, err);                                            \
    }

/* Bytes of the plan's intermediate buffers (*pooled, after reuse) and what one buffer
 * per intermediate value would take (*separate). */
void cc_plan_memory(const cc_plan *p, size_t *pooled, size_t *separate);

#endif
