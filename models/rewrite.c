/* rewrite.c — the shared machinery of the model rewriters: value maps, use counts,
 * copying constants and nodes from a source model into a builder. */
#include "rewrite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cc_status cc_rewrite_convert_tensor(const cc_tensor *src, cc_dtype dt, cc_tensor *dst, cc_err *err)
{
    cc_tensor t = { 0 };
    cc_status st = cc_tensor_alloc(&t, dt, &src->shape, err);
    if (st) return st;
    int64_t n = cc_tensor_numel(src);
    if (src->dtype == dt) {
        memcpy(t.data, src->data, cc_tensor_bytes(src));
    } else {
        for (int64_t i = 0; i < n; i++) cc_store(t.data, dt, (size_t)i, cc_load(src->data, src->dtype, (size_t)i));
    }
    *dst = t;
    return CC_OK;
}

void cc_rewrite_abort(cc_rewrite *rw)
{
    if (!rw) return;
    cc_mb_destroy(rw->b);
    free(rw->map);
    free(rw->uses);
    free(rw->consumer);
    free(rw->is_output);
    memset(rw, 0, sizeof *rw);
}

cc_status cc_rewrite_begin(const cc_model *src, cc_dtype float_inputs, cc_rewrite *out, cc_err *err)
{
    const cc_graph *g = &src->graph;
    cc_rewrite rw;
    memset(&rw, 0, sizeof rw);
    rw.src = src;
    size_t n = (size_t)g->n_values + 1;
    rw.map = malloc(n * sizeof *rw.map);
    rw.uses = calloc(n, sizeof *rw.uses);
    rw.consumer = malloc(n * sizeof *rw.consumer);
    rw.is_output = calloc(n, 1);
    cc_status st;
    if (!rw.map || !rw.uses || !rw.consumer || !rw.is_output) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < n; i++) rw.map[i] = rw.consumer[i] = -1;
    for (int k = 0; k < g->n_nodes; k++) {
        const cc_node *nd = &g->nodes[k];
        for (int i = 0; i < nd->n_in; i++) {
            int v = nd->in[i];
            if (v < 0) continue;
            rw.uses[v]++;
            if (rw.consumer[v] < 0) rw.consumer[v] = k;
        }
    }
    for (int i = 0; i < g->n_outputs; i++) {
        rw.uses[g->outputs[i]]++;
        rw.is_output[g->outputs[i]] = 1;
    }
    if ((st = cc_mb_create(src->name, &rw.b, err))) goto fail;
    /* control-flow nodes are copied with their sub-graphs, which keep their indices */
    if ((st = cc_mb_copy_subgraphs(rw.b, g, err))) goto fail;
    for (int i = 0; i < g->n_inputs; i++) {
        int v = g->inputs[i], nv;
        const cc_tensor *t = &g->values[v];
        cc_dtype dt = t->dtype;
        if (float_inputs != CC_DTYPE_COUNT && cc_dtype_is_float(dt)) dt = float_inputs;
        if ((st = cc_mb_input(rw.b, src->value_names[v], dt, &t->shape, &nv, err))) goto fail;
        rw.map[v] = nv;
    }
    *out = rw;
    return CC_OK;
fail:
    cc_rewrite_abort(&rw);
    return st;
}

cc_status cc_rewrite_finish(cc_rewrite *rw, cc_model **out, cc_err *err)
{
    const cc_graph *g = &rw->src->graph;
    cc_status st = CC_OK;
    for (int i = 0; i < g->n_outputs && !st; i++) {
        int nv = rw->map[g->outputs[i]];
        if (nv < 0) st = cc_err_set(err, CC_ERR_INTERNAL, "rewrite of %s: output %s was not produced",
                                    rw->src->name, rw->src->value_names[g->outputs[i]]);
        else st = cc_mb_output(rw->b, nv, err);
    }
    if (st) {
        cc_rewrite_abort(rw);
        return st;
    }
    cc_model_builder *b = rw->b;
    rw->b = NULL;
    cc_model_task task = rw->src->task;
    int n_classes = rw->src->n_classes;
    cc_rewrite_abort(rw);
    return cc_mb_finish(b, task, n_classes, out, err);
}

void cc_rewrite_set(cc_rewrite *rw, int v, int nv)
{
    rw->map[v] = nv;
}

cc_status cc_rewrite_value(cc_rewrite *rw, int v, int *out, cc_err *err)
{
    const cc_graph *g = &rw->src->graph;
    if (rw->map[v] >= 0) {
        *out = rw->map[v];
        return CC_OK;
    }
    const cc_tensor *t = &g->values[v];
    if (!t->data)
        return cc_err_set(err, CC_ERR_INTERNAL, "rewrite of %s: value %s is read before it is produced",
                          rw->src->name, rw->src->value_names[v]);
    cc_tensor c;
    cc_status st = cc_rewrite_convert_tensor(t, t->dtype, &c, err);
    if (st) return st;
    int nv;
    if ((st = cc_mb_const(rw->b, rw->src->value_names[v], &c, &nv, err))) return st;
    rw->map[v] = nv;
    *out = nv;
    return CC_OK;
}

cc_status cc_rewrite_add_const(cc_rewrite *rw, const char *name, cc_dtype dt, const cc_shape *s,
                               const double *vals, int *out, cc_err *err)
{
    cc_tensor t = { 0 };
    cc_status st = cc_tensor_alloc(&t, dt, s, err);
    if (st) return st;
    int64_t n = cc_shape_numel(s);
    for (int64_t i = 0; i < n; i++) cc_store(t.data, dt, (size_t)i, vals[i]);
    return cc_mb_const(rw->b, name, &t, out, err);
}

cc_status cc_rewrite_add_scalar(cc_rewrite *rw, const char *name, cc_dtype dt, double v, int *out,
                                cc_err *err)
{
    cc_shape s = cc_shape_make(0, NULL);
    return cc_rewrite_add_const(rw, name, dt, &s, &v, out, err);
}

cc_status cc_rewrite_copy_node(cc_rewrite *rw, int k, const int *in, cc_err *err)
{
    return cc_rewrite_copy_node_attrs(rw, k, in, rw->src->graph.nodes[k].attrs, err);
}

cc_status cc_rewrite_copy_node_attrs(cc_rewrite *rw, int k, const int *in, const cc_attr_value *attrs, cc_err *err)
{
    const cc_graph *g = &rw->src->graph;
    const cc_node *nd = &g->nodes[k];
    int nin[CC_MAX_IO], nout[CC_MAX_IO];
    const char *names[CC_MAX_IO];
    cc_status st;
    for (int i = 0; i < nd->n_in; i++) {
        if (in && in[i] != -2) nin[i] = in[i];
        else if (nd->in[i] < 0) nin[i] = -1;
        else if ((st = cc_rewrite_value(rw, nd->in[i], &nin[i], err))) return st;
    }
    for (int j = 0; j < nd->n_out; j++) names[j] = rw->src->value_names[nd->out[j]];
    st = cc_mb_node_values(rw->b, nd->op, nd->name, attrs, nd->n_in, nin, nd->n_out, nout, names, err);
    if (st) return st;
    for (int j = 0; j < nd->n_out; j++) rw->map[nd->out[j]] = nout[j];
    return CC_OK;
}
