/* ref.c — the golden model as a backend: every node runs the catalog's golden reference
 * (double accumulation) and its outputs are rounded to the output dtype. It supports
 * every catalog op by construction and is the baseline the performance report compares
 * other targets with. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ops/case.h"
#include "../backend.h"
#include "../target.h"

typedef struct ref_plan {
    const cc_graph *g;
    cc_tensor *vals;       /* one per graph value; data: constant, bound buffer or owned */
    unsigned char *owned;  /* 1 where vals[i].data was allocated here */
    cc_golden *gold;       /* per node, CC_MAX_IO outputs each */
    unsigned char *dynamic; /* per node: its output's shape follows the data (cc_node_dynamic_shape) */
    cc_shape out_shape[CC_MAX_IO]; /* each graph output's shape after the last run */
} ref_plan;

static cc_status ref_open(const char *device, void **ctx, cc_device_desc *desc, cc_err *err)
{
    if (device && device[0])
        return cc_err_set(err, CC_ERR_DEVICE, "ref has one device; got '%s'", device);
    memset(desc, 0, sizeof *desc);
    snprintf(desc->name, sizeof desc->name, "golden reference (double accumulation, 1 core)");
    snprintf(desc->library, sizeof desc->library, "crosscheck ops catalog");
    *ctx = NULL;
    return CC_OK;
}

static void ref_close(void *ctx) { (void)ctx; }

static cc_support ref_supports(void *ctx, const cc_graph *g, const cc_node *node, char *reason,
                               size_t n)
{
    (void)ctx;
    (void)g;
    if (!node->op->golden) {
        snprintf(reason, n, "%s has no golden reference", node->op->name);
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static void ref_release(void *ctx, void *p)
{
    (void)ctx;
    ref_plan *plan = p;
    if (!plan) return;
    if (plan->vals)
        for (int i = 0; i < plan->g->n_values; i++)
            if (plan->owned[i]) free(plan->vals[i].data);
    if (plan->gold)
        for (int k = 0; k < plan->g->n_nodes; k++) cc_golden_free(&plan->gold[k * CC_MAX_IO], CC_MAX_IO);
    free(plan->vals);
    free(plan->owned);
    free(plan->gold);
    free(plan->dynamic);
    free(plan);
}

static cc_status ref_prepare(void *ctx, const cc_graph *g, void **out, cc_err *err)
{
    cc_status st = CC_OK;
    ref_plan *plan = calloc(1, sizeof *plan);
    if (!plan) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    plan->g = g;
    plan->vals = calloc((size_t)g->n_values, sizeof *plan->vals);
    plan->owned = calloc((size_t)g->n_values, 1);
    plan->gold = calloc((size_t)g->n_nodes * CC_MAX_IO, sizeof *plan->gold);
    plan->dynamic = calloc((size_t)g->n_nodes + 1, 1);
    if (!plan->vals || !plan->owned || !plan->gold || !plan->dynamic) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (int i = 0; i < g->n_values; i++) plan->vals[i] = g->values[i];
    /* intermediates: values that are neither constants, graph inputs nor graph outputs */
    for (int i = 0; i < g->n_values; i++) {
        if (g->values[i].data) continue;
        int bound = 0;
        for (int k = 0; k < g->n_inputs; k++) bound |= g->inputs[k] == i;
        for (int k = 0; k < g->n_outputs; k++) bound |= g->outputs[k] == i;
        if (bound) continue;
        plan->vals[i].data = NULL;
        st = cc_tensor_alloc(&plan->vals[i], g->values[i].dtype, &g->values[i].shape, err);
        if (st) goto fail;
        plan->owned[i] = 1;
    }
    for (int k = 0; k < g->n_nodes; k++) {
        const cc_node *nd = &g->nodes[k];
        if ((st = cc_backend_dynamic_outputs_check(g, nd, "ref", err))) goto fail;
        plan->dynamic[k] = (unsigned char)cc_node_dynamic_shape(g, nd);
        for (int j = 0; j < nd->n_out; j++) {
            if ((st = cc_golden_alloc(&plan->gold[k * CC_MAX_IO + j], &g->values[nd->out[j]], err))) goto fail;
        }
    }
    (void)ctx;
    *out = plan;
    return CC_OK;
fail:
    ref_release(ctx, plan);
    return st;
}

static cc_status ref_run(void *ctx, void *p, void *const *inputs, void *const *outputs, cc_err *err)
{
    (void)ctx;
    ref_plan *plan = p;
    const cc_graph *g = plan->g;
    for (int k = 0; k < g->n_inputs; k++) plan->vals[g->inputs[k]].data = inputs[k];
    for (int k = 0; k < g->n_outputs; k++) plan->vals[g->outputs[k]].data = outputs[k];
    for (int k = 0; k < g->n_outputs && k < CC_MAX_IO; k++) plan->out_shape[k] = g->values[g->outputs[k]].shape;
    for (int k = 0; k < g->n_nodes; k++) {
        const cc_node *nd = &g->nodes[k];
        const cc_tensor *in[CC_MAX_IO] = {0};
        for (int i = 0; i < nd->n_in; i++) in[i] = nd->in[i] >= 0 ? &plan->vals[nd->in[i]] : NULL;
        cc_golden *go = &plan->gold[k * CC_MAX_IO];
        for (int j = 0; j < nd->n_out; j++) {
            go[j].k = 1;
            go[j].shape = g->values[nd->out[j]].shape; /* the bound, for an op that writes the actual one */
            if (go[j].exact) /* an op that writes value[] alone must not meet the last run's */
                memset(go[j].exact, 0, sizeof(int64_t) * (size_t)cc_shape_numel(&go[j].shape));
        }
        if (plan->dynamic[k]) { /* the actual values set the shape */
            cc_tensor od[CC_MAX_IO];
            cc_status st = nd->op->infer(nd, in, nd->n_out, od, err);
            if (st) return st;
            for (int j = 0; j < nd->n_out; j++) {
                if (!cc_shape_within(&od[j].shape, &go[j].shape))
                    return cc_err_set(err, CC_ERR_ARG, "ref: %s's output %d comes out larger than its bound", nd->name, j);
                go[j].shape = od[j].shape;
            }
        }
        cc_err e = { 0 };
        cc_status st = nd->op->golden(nd, in, nd->n_out, go, &e);
        if (st) {
            return cc_err_set(err, st, "node %s (%s): %s", nd->name, nd->op->name, e.msg);
        }
        for (int j = 0; j < nd->n_out; j++) {
            cc_tensor *o = &plan->vals[nd->out[j]];
            int64_t n = cc_shape_numel(&go[j].shape);
            for (int64_t i = 0; i < n; i++) cc_golden_store(&go[j], o->data, i);
            for (int q = 0; q < g->n_outputs && q < CC_MAX_IO; q++)
                if (g->outputs[q] == nd->out[j]) plan->out_shape[q] = go[j].shape;
        }
    }
    return CC_OK;
}

static cc_status ref_output_shape(void *ctx, void *p, int j, cc_shape *shape, cc_err *err)
{
    (void)ctx;
    ref_plan *plan = p;
    if (j < 0 || j >= plan->g->n_outputs || j >= CC_MAX_IO) return cc_err_set(err, CC_ERR_ARG, "ref: no graph output %d", j);
    *shape = plan->out_shape[j];
    return CC_OK;
}

static void ref_describe(void *ctx, void *plan, char *buf, size_t n)
{
    (void)ctx;
    (void)plan;
    snprintf(buf, n, "golden loops (double)");
}

const cc_target_iface cc_target_ref = {
    .abi_version = CC_TARGET_ABI_VERSION,
    .struct_size = sizeof(cc_target_iface),
    .name = "ref",
    .description = "the golden reference model run as a backend",
    .hidden = 0,
    .open = ref_open,
    .close = ref_close,
    .supports = ref_supports,
    .buffer_alloc = cc_host_buffer_alloc,
    .buffer_free = cc_host_buffer_free,
    .upload = cc_host_upload,
    .download = cc_host_download,
    .prepare = ref_prepare,
    .run = ref_run,
    .sync = cc_host_sync,
    .release = ref_release,
    .run_timed = NULL,       /* host timing */
    .describe_plan = ref_describe,
    .output_shape = ref_output_shape,
    .dtypes = (1u << CC_DTYPE_COUNT) - 1u, /* the golden model takes every dtype */
};
