/* target.h — the backend ABI. Every backend, built in or loaded from a shared library,
 * is one cc_target_iface: a versioned struct of function pointers plus a context pointer
 * of the backend's own. New members are only ever added at the end; a loader checks
 * abi_version and struct_size before using one.
 *
 * Life of a target in a worker process:
 *   open -> { supports -> prepare -> (buffer_alloc, upload, run, sync, download)* -> release }* -> close
 * A target that is compiled in but finds no device at run time fails open() with
 * CC_ERR_DEVICE and a reason; the runner then records its cases `unsupported`. */
#ifndef CC_TARGET_H
#define CC_TARGET_H

#include "../ops/core/device.h"
#include "../ops/op.h"

/* The version covers this interface and everything a backend reads of a graph: the
 * layouts of cc_graph, cc_node, cc_attr_value, cc_op_def and cc_tensor (ops/op.h,
 * ops/core/tensor.h) and the op ids of ops/ops.def. Any change to those layouts raises it.
 *  3: cc_op_def.id and the op ids of ops/ops.def; CC_MAX_IO 32
 *  4: strings and tensor attribute kinds (cc_attr_value gains strs, tdtype, tshape)
 *  5: sweeps as rows (cc_op_def.sweep)
 *  6: cc_device_desc.f32_contraction_bits (TF32 contractions judged as TF32)
 *  7: the optional output_shape (ops of data-dependent output shape); a backend built for
 *     6 still loads (its struct_size stops before output_shape, which reads as NULL)
 *  8: the dtypes f64, i16, u16, u32 and u64 (ops/core/dtype.h) and the optional dtypes
 *     mask: a backend built for 6 or 7 still loads and is never given a node of the new
 *     dtypes */
#define CC_TARGET_ABI_VERSION 8
#define CC_TARGET_ABI_OLDEST 6

typedef enum cc_support {
    CC_SUPPORT_YES = 0,
    CC_SUPPORT_NO,          /* the backend does not implement this op/attribute/dtype */
    CC_SUPPORT_NOT_HERE     /* it does, but not on this hardware (no fp16 units, ...) */
} cc_support;


typedef struct cc_target_iface cc_target_iface;

struct cc_target_iface {
    uint32_t abi_version;   /* CC_TARGET_ABI_VERSION the backend was built against */
    uint32_t struct_size;   /* sizeof(cc_target_iface) it was built with */
    const char *name;       /* "ref", "cpu", ... : lower case, no spaces */
    const char *description;
    int hidden;             /* 1: test-only, never selected by "all" */

    /* Opens the backend on `device` ("" for the default device). Writes its context to
     * *ctx and fills *desc. CC_ERR_DEVICE with the reason when there is no device. */
    cc_status (*open)(const char *device, void **ctx, cc_device_desc *desc, cc_err *err);
    /* Releases everything open() made. Accepts NULL. */
    void (*close)(void *ctx);

    /* Can this backend run node (of graph g)? On NO / NOT_HERE writes a one-line reason. */
    cc_support (*supports)(void *ctx, const cc_graph *g, const cc_node *node,
                           char *reason, size_t reason_size);

    /* Device buffers. A buffer is the backend's own opaque handle. */
    cc_status (*buffer_alloc)(void *ctx, size_t bytes, void **buf, cc_err *err);
    void (*buffer_free)(void *ctx, void *buf);   /* accepts NULL */
    cc_status (*upload)(void *ctx, void *buf, const void *src, size_t bytes, cc_err *err);
    cc_status (*download)(void *ctx, const void *buf, void *dst, size_t bytes, cc_err *err);

    /* Compiles g for execution: packs constants, chooses algorithms, allocates what run()
     * needs. The graph (and its constants) stay valid until release(). Everything slow
     * belongs here, never in run(). */
    cc_status (*prepare)(void *ctx, const cc_graph *g, void **plan, cc_err *err);
    /* Executes a prepared graph. inputs[i] holds g->inputs[i], outputs[j] receives
     * g->outputs[j]; both are buffers of this backend. May return before the work is done
     * on asynchronous devices (see sync). */
    cc_status (*run)(void *ctx, void *plan, void *const *inputs, void *const *outputs,
                     cc_err *err);
    cc_status (*sync)(void *ctx, cc_err *err);
    void (*release)(void *ctx, void *plan);       /* accepts NULL */

    /* optional: runs like run() and reports the device-side time of that one execution
     * in seconds (OpenCL profiling events, CUDA events). Default (NULL): the runner
     * times run() + sync() on the host monotonic clock. */
    cc_status (*run_timed)(void *ctx, void *plan, void *const *inputs, void *const *outputs,
                           double *device_seconds, cc_err *err);
    /* optional: a short note on how the last prepared plan runs each node (kernel
     * variant, algorithm), written to buf. Default (NULL): nothing recorded. */
    void (*describe_plan)(void *ctx, void *plan, char *buf, size_t n);
    /* optional (ABI 7): the actual shape of graph output j after the last run of plan, for
     * a graph whose node of data-dependent output shape (ops/op_ids.h's
     * CC_TRAIT_DYNAMIC_SHAPE) makes it: its buffer was sized at the graph's shape (the
     * bound) and holds the actual shape's elements first. Default (NULL): every output has
     * the graph's shape, and the backend declines such nodes. */
    cc_status (*output_shape)(void *ctx, void *plan, int j, cc_shape *shape, cc_err *err);
    /* optional (ABI 8): the dtypes this backend's kernels take, a CC_DTYPE_BIT mask. 0 (and
     * every backend built for ABI 7 or before): CC_DTYPES_ABI7 (f32, f16, bf16, i8, u8, i32,
     * i64, bool). The host never asks supports() about a node that reads or writes another
     * dtype: cc_target_supports declines it with the reason. */
    uint32_t dtypes;
};

/* ---- registry (targets/registry.c) ------------------------------------------------ */

int cc_target_count(void);
const cc_target_iface *cc_target_at(int i);
/* Finds a registered target by name; NULL if none. */
const cc_target_iface *cc_target_find(const char *name);
/* Whether t can run node (of graph g): NO with "<target> has no <dtype> kernels" when the
 * node reads or writes a dtype outside t's dtypes (above), else t->supports(). What the
 * host calls; never t->supports directly. */
cc_support cc_target_supports(const cc_target_iface *t, void *ctx, const cc_graph *g, const cc_node *node,
                              char *reason, size_t reason_size);
/* Registers a target (built-ins at start-up, plugins when loaded): checks abi_version,
 * struct_size and that every required member is set. CC_ERR_ABI with a reason. */
cc_status cc_target_register(const cc_target_iface *t, cc_err *err);

/* Helpers shared by host-memory backends (ref, cpu): buffers are 64-byte aligned
 * malloc blocks and upload/download are memcpy. */
cc_status cc_host_buffer_alloc(void *ctx, size_t bytes, void **buf, cc_err *err);
void cc_host_buffer_free(void *ctx, void *buf);
cc_status cc_host_upload(void *ctx, void *buf, const void *src, size_t bytes, cc_err *err);
cc_status cc_host_download(void *ctx, const void *buf, void *dst, size_t bytes, cc_err *err);
cc_status cc_host_sync(void *ctx, cc_err *err);

/* The host CPU's FP32 peak in GFLOP/s on `threads` threads, measured (targets/peak.c: a
 * loop of independent FMAs on the widest vectors the CPU has, the fastest of several
 * short repetitions per thread, summed over threads), about 0.1 s the first time for a
 * thread count and cached in the process after that. source (may be NULL) receives how
 * it was found, e.g. "measured: AVX-512 FMA loop, 2 threads", for cc_device_desc's
 * peak_source. Backends that compute on the host CPU use it instead of assuming flops per
 * cycle. */
double cc_host_fp32_peak(int threads, char *source, size_t source_size);

/* ---- plugins: backends loaded from shared libraries (targets/loader.h) -------------- *
 * A plugin is a shared library that exports one function, named CC_PLUGIN_ENTRY_NAME
 * (the "v1" versions the entry point's own signature; the interface it returns carries
 * abi_version and struct_size as usual). crosscheck calls it twice before any target is
 * opened: once in a throw-away probe process (a crash there only rejects the plugin) and
 * once in its own process. It must therefore be cheap and free of side effects: no
 * device initialisation (that is open()'s job), no threads, no output.
 *
 * host_abi is the CC_TARGET_ABI_VERSION of the loading crosscheck. The entry point writes
 * its interface to *target (static storage: valid while the library stays loaded) and
 * returns a score: 0 means "cannot run on this machine" (a one-line reason in reason,
 * e.g. "needs AVX-512"); > 0 means it can, higher meaning better suited. When two plugins
 * offer the same target name the higher score wins (the earlier in the search order on a
 * tie); a plugin never replaces a built-in target.
 *
 * Everything a plugin calls from crosscheck (cc_err_set, cc_load, cc_attr_i, ...) is
 * resolved from the crosscheck executable when the plugin is loaded: a plugin links only
 * its own libraries, and builds against the installed headers (pkg-config
 * crosscheck-target, or find_package(crosscheck)). */
#define CC_PLUGIN_ENTRY_NAME "crosscheck_target_v1"

typedef int (*cc_plugin_entry_fn)(uint32_t host_abi, const cc_target_iface **target, char *reason,
                                  size_t reason_size);

#if defined(__GNUC__)
#define CC_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define CC_PLUGIN_EXPORT
#endif

/* The entry point a plugin defines (declared here so that its definition is checked
 * against cc_plugin_entry_fn). crosscheck itself never defines it. */
CC_PLUGIN_EXPORT int crosscheck_target_v1(uint32_t host_abi, const cc_target_iface **target, char *reason,
                                          size_t reason_size);

/* 1 when t's interface, of t->struct_size bytes, contains `member` and it is set: the way
 * to read a member added after a plugin was built without reading past its struct (the
 * loader also registers a zero-padded copy of a shorter struct, so NULL is the default). */
#define CC_TARGET_HAS(t, member)                                                                  \
    ((t)->struct_size >= offsetof(cc_target_iface, member) + sizeof((t)->member) && (t)->member != NULL)

#endif
