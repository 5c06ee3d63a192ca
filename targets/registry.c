/* registry.c — the list of targets the runner can select: the built-ins, registered at
 * first use, and (through cc_target_register) backends loaded at run time. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "target.h"

extern const cc_target_iface cc_target_ref;
extern const cc_target_iface cc_target_cpu;
extern const cc_target_iface cc_target_faulty;
#ifdef CC_HAVE_ONEDNN
extern const cc_target_iface cc_target_onednn;
#endif
#ifdef CC_HAVE_OPENCL
extern const cc_target_iface cc_target_opencl;
#endif
#ifdef CC_HAVE_CUDA
extern const cc_target_iface cc_target_cuda;
#endif

#define MAX_TARGETS 64

static const cc_target_iface *registered[MAX_TARGETS];
static int n_registered;
static int builtins_done;

static void register_builtins(void)
{
    if (builtins_done) return;
    builtins_done = 1;
    const cc_target_iface *builtins[] = {
        &cc_target_ref,
        &cc_target_cpu,
#ifdef CC_HAVE_ONEDNN
        &cc_target_onednn,
#endif
#ifdef CC_HAVE_OPENCL
        &cc_target_opencl,
#endif
#ifdef CC_HAVE_CUDA
        &cc_target_cuda,
#endif
        &cc_target_faulty,
    };
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        cc_target_register(builtins[i], NULL);
}

cc_status cc_target_register(const cc_target_iface *t, cc_err *err)
{
    register_builtins();
    if (!t) return cc_err_set(err, CC_ERR_ARG, "no target given");
    if (t->abi_version < CC_TARGET_ABI_OLDEST || t->abi_version > CC_TARGET_ABI_VERSION)
        return cc_err_set(err, CC_ERR_ABI, "target '%s' was built for ABI %u, crosscheck has %u",
                          t->name ? t->name : "?", t->abi_version, CC_TARGET_ABI_VERSION);
    if (t->struct_size < offsetof(cc_target_iface, run_timed))
        return cc_err_set(err, CC_ERR_ABI, "target '%s': interface struct of %u bytes is too small",
                          t->name ? t->name : "?", t->struct_size);
    if (!t->name || !t->name[0] || !t->open || !t->close || !t->supports || !t->buffer_alloc ||
        !t->buffer_free || !t->upload || !t->download || !t->prepare || !t->run || !t->sync ||
        !t->release)
        return cc_err_set(err, CC_ERR_ABI, "target '%s' leaves a required member unset",
                          t->name ? t->name : "?");
    for (int i = 0; i < n_registered; i++)
        if (strcmp(registered[i]->name, t->name) == 0)
            return cc_err_set(err, CC_ERR_ARG, "a target named '%s' is already registered", t->name);
    if (n_registered == MAX_TARGETS)
        return cc_err_set(err, CC_ERR_ARG, "too many targets (%d)", MAX_TARGETS);
    registered[n_registered++] = t;
    return CC_OK;
}

int cc_target_count(void)
{
    register_builtins();
    return n_registered;
}

const cc_target_iface *cc_target_at(int i)
{
    register_builtins();
    return i >= 0 && i < n_registered ? registered[i] : NULL;
}

const cc_target_iface *cc_target_find(const char *name)
{
    register_builtins();
    for (int i = 0; i < n_registered; i++)
        if (strcmp(registered[i]->name, name) == 0) return registered[i];
    return NULL;
}

cc_support cc_target_supports(const cc_target_iface *t, void *ctx, const cc_graph *g, const cc_node *node,
                              char *reason, size_t reason_size)
{
    int has = t->struct_size >= offsetof(cc_target_iface, dtypes) + sizeof t->dtypes;
    uint32_t mask = has && t->dtypes ? t->dtypes : CC_DTYPES_ABI7;
    for (int side = 0; side < 2; side++) {
        int n = side ? node->n_out : node->n_in;
        for (int i = 0; i < n; i++) {
            int v = side ? node->out[i] : node->in[i];
            if (v < 0) continue;
            cc_dtype d = g->values[v].dtype;
            if ((unsigned)d < CC_DTYPE_COUNT && (mask & CC_DTYPE_BIT(d))) continue;
            if (reason_size) snprintf(reason, reason_size, "%s has no %s kernels", t->name, cc_dtype_name(d));
            return CC_SUPPORT_NO;
        }
    }
    /* a node whose output's shape follows the data needs a backend that reports the actual
       shape (output_shape, ABI 7) */
    int reports = t->struct_size >= offsetof(cc_target_iface, output_shape) + sizeof t->output_shape &&
                  t->output_shape != NULL;
    if (!reports && cc_node_dynamic_shape(g, node)) {
        if (reason_size)
            snprintf(reason, reason_size, "%s: %s's output shape follows the data, and %s reports no actual shape",
                     t->name, node->op->name, t->name);
        return CC_SUPPORT_NO;
    }
    return t->supports(ctx, g, node, reason, reason_size);
}
