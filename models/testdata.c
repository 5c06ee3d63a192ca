/* testdata.c — ONNX test-data folders (see testdata.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "onnx.pb-c.h"
#include "ops/policy.h"
#include "onnx_internal.h"
#include "testdata.h"

/* Graph inputs (not initializers) of the model that some catalog op reads in a role
 * other than CC_IN_DATA: they must be constants for the catalog. Returns how many names
 * were written to names (borrowed from m). */
static int constant_inputs(const Onnx__ModelProto *m, const char **names, int max)
{
    const Onnx__GraphProto *g = m->graph;
    int n = 0;
    for (size_t k = 0; k < g->n_node; k++) {
        const Onnx__NodeProto *nd = g->node[k];
        const cc_op_def *op = cc_catalog_find(nd->op_type);
        const cc_onnx_alias *alias = op ? NULL : cc_onnx_alias_of(nd->op_type, 0);
        if (alias) op = cc_catalog_find(alias->op);
        if (!op) continue;
        for (size_t i = 0; i < nd->n_input && i < (size_t)(alias ? alias->n_in : op->n_inputs); i++) {
            int ci = alias ? alias->in_map[i] : (int)i; /* the catalog op's input */
            if (op->inputs[ci].role == CC_IN_DATA || !nd->input[i][0]) continue;
            int is_init = 0;
            for (size_t q = 0; q < g->n_initializer; q++) is_init |= strcmp(g->initializer[q]->name, nd->input[i]) == 0;
            for (size_t j = 0; j < g->n_input && !is_init; j++) {
                if (strcmp(g->input[j]->name, nd->input[i]) != 0) continue;
                int dup = 0;
                for (int q = 0; q < n; q++) dup |= strcmp(names[q], nd->input[i]) == 0;
                if (!dup && n < max) names[n++] = nd->input[i];
            }
        }
    }
    return n;
}

static Onnx__ModelProto *read_model(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    Onnx__ModelProto *m = NULL;
    uint8_t *buf = NULL;
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0) len = ftell(f);
    if (len >= 0 && fseek(f, 0, SEEK_SET) == 0) buf = malloc((size_t)len + 1);
    if (buf && fread(buf, 1, (size_t)len, f) == (size_t)len) m = onnx__model_proto__unpack(NULL, (size_t)len, buf);
    free(buf);
    fclose(f);
    return m;
}

void cc_onnx_testdata_free(cc_onnx_testdata *t)
{
    if (!t) return;
    cc_model_free(t->model);
    for (int i = 0; i < t->n_inputs; i++) cc_tensor_free(&t->inputs[i]);
    for (int i = 0; i < t->n_expected; i++) cc_tensor_free(&t->expected[i]);
    memset(t, 0, sizeof *t);
}

cc_status cc_onnx_testdata_load(const char *folder, int set, const cc_onnx_options *opt, cc_onnx_testdata *out,
                                cc_err *err)
{
    memset(out, 0, sizeof *out);
    char path[4096], model_path[4096];
    struct stat sb;
    snprintf(model_path, sizeof model_path, "%s/model.onnx", folder);
    if (stat(model_path, &sb) != 0) return cc_err_set(err, CC_ERR_IO, "%s: no model.onnx", folder);
    snprintf(path, sizeof path, "%s/test_data_set_%d", folder, set);
    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return cc_err_set(err, CC_ERR_IO, "%s: no test_data_set_%d", folder, set);
    cc_tensor ins[CC_MAX_IO];
    char in_names[CC_MAX_IO][128];
    int n_in = 0;
    memset(ins, 0, sizeof ins);
    Onnx__ModelProto *mp = NULL;
    cc_status st = CC_OK;
    mp = read_model(model_path);
    if (!mp || !mp->graph) {
        st = cc_err_set(err, CC_ERR_ARG, "%s: not a readable ONNX model", model_path);
        goto done;
    }
    /* sequence, map and optional inputs have no tensor files to read */
    for (size_t j = 0; j < mp->graph->n_input; j++) {
        const Onnx__TypeProto *ty = mp->graph->input[j]->type;
        if (ty && ty->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE) {
            st = cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: graph input '%s' is not a tensor (sequence, map and optional "
                            "types are not supported)", model_path, mp->graph->input[j]->name);
            goto done;
        }
    }
    for (; n_in < CC_MAX_IO; n_in++) {
        snprintf(path, sizeof path, "%s/test_data_set_%d/input_%d.pb", folder, set, n_in);
        if (stat(path, &sb) != 0) break;
        if ((st = cc_onnx_read_tensor(path, &ins[n_in], in_names[n_in], sizeof in_names[n_in], err))) goto done;
    }
    for (; out->n_expected < CC_MAX_IO; out->n_expected++) {
        snprintf(path, sizeof path, "%s/test_data_set_%d/output_%d.pb", folder, set, out->n_expected);
        if (stat(path, &sb) != 0) break;
        if ((st = cc_onnx_read_tensor(path, &out->expected[out->n_expected], NULL, 0, err))) goto done;
    }

    /* which inputs must be fixed: matched to graph inputs by name, else by position */
    const char *fix_names[CC_MAX_IO];
    cc_tensor fix[CC_MAX_IO];
    memset(fix, 0, sizeof fix);
    int n_fix = constant_inputs(mp, fix_names, CC_MAX_IO);
    const Onnx__GraphProto *gp = mp->graph;
    int runtime_of[CC_MAX_IO], n_rt = 0;
    const char *rt_names[CC_MAX_IO];
    for (size_t j = 0, pos = 0; j < gp->n_input; j++) {
        int is_init = 0;
        for (size_t q = 0; q < gp->n_initializer; q++) is_init |= strcmp(gp->initializer[q]->name, gp->input[j]->name) == 0;
        if (is_init) continue;
        int t = -1;
        for (int q = 0; q < n_in; q++)
            if (strcmp(in_names[q], gp->input[j]->name) == 0) t = q;
        if (t < 0 && (int)pos < n_in && !in_names[pos][0]) t = (int)pos;
        pos++;
        if (t < 0) {
            st = cc_err_set(err, CC_ERR_ARG, "%s: test_data_set_%d has no tensor for graph input '%s'", folder, set,
                            gp->input[j]->name);
            goto done;
        }
        int fixed = 0;
        for (int q = 0; q < n_fix; q++)
            if (strcmp(fix_names[q], gp->input[j]->name) == 0) {
                fix[q] = ins[t];
                fixed = 1;
            }
        if (!fixed && n_rt < CC_MAX_IO) {
            rt_names[n_rt] = gp->input[j]->name;
            runtime_of[n_rt++] = t;
        }
    }
    cc_onnx_options o;
    if (opt) o = *opt;
    else memset(&o, 0, sizeof o);
    o.n_fixed = n_fix;
    o.fixed_names = fix_names;
    o.fixed = fix;
    /* the set's inputs bind the shapes of the runtime inputs the caller did not bind
     * (symbolic dims, a -1 batch): the set decides the batch too */
    enum { MAX_BIND = 2 * CC_MAX_IO };
    const char *bind_names[MAX_BIND];
    cc_shape binds[MAX_BIND];
    int nb = 0;
    for (int k = 0; k < o.n_shapes && nb < MAX_BIND; k++, nb++) {
        bind_names[nb] = o.shape_names[k];
        binds[nb] = o.shapes[k];
    }
    for (int i = 0; i < n_rt && nb < MAX_BIND; i++) {
        int bound = 0;
        for (int k = 0; k < o.n_shapes; k++) bound |= o.shape_names[k] && strcmp(o.shape_names[k], rt_names[i]) == 0;
        if (bound) continue;
        bind_names[nb] = rt_names[i];
        binds[nb++] = ins[runtime_of[i]].shape;
    }
    o.n_shapes = nb;
    o.shape_names = bind_names;
    o.shapes = binds;
    o.batch = 0;
    if ((st = cc_onnx_load(model_path, &o, &out->model, err))) {
        if (st == CC_ERR_ARG && err) {
            char m[sizeof err->msg];
            snprintf(m, sizeof m, "%s", err->msg);
            cc_err_set(err, st, "test_data_set_%d: %s", set, m);
        }
        goto done;
    }
    if (out->model->graph.n_inputs != n_rt) {
        st = cc_err_set(err, CC_ERR_ARG, "%s: the model has %d runtime inputs, test_data_set_%d gives %d", folder,
                        out->model->graph.n_inputs, set, n_rt);
        goto done;
    }
    /* the runtime inputs move into out; the fixed ones were copied by the importer */
    for (int i = 0; i < n_rt; i++) {
        out->inputs[i] = ins[runtime_of[i]];
        memset(&ins[runtime_of[i]], 0, sizeof ins[0]);
    }
    out->n_inputs = n_rt;
    /* numpy has no bfloat16: the node tests store a bfloat16 tensor as UINT16 holding its
     * bits (ONNX 1.12's cast tests); where the graph says bfloat16, that is what they are */
    const cc_graph *g = &out->model->graph;
    for (int i = 0; i < n_rt; i++)
        if (out->inputs[i].dtype == CC_U16 && g->values[g->inputs[i]].dtype == CC_BF16) out->inputs[i].dtype = CC_BF16;
    for (int o = 0; o < out->n_expected && o < g->n_outputs; o++)
        if (out->expected[o].dtype == CC_U16 && g->values[g->outputs[o]].dtype == CC_BF16) out->expected[o].dtype = CC_BF16;
done:
    for (int i = 0; i < n_in; i++) cc_tensor_free(&ins[i]);
    if (mp) onnx__model_proto__free_unpacked(mp, NULL);
    if (st) cc_onnx_testdata_free(out);
    return st;
}

/* The node and output slot that compute value v, or -1. */
static int producer(const cc_graph *g, int v, int *slot)
{
    for (int k = 0; k < g->n_nodes; k++)
        for (int j = 0; j < g->nodes[k].n_out; j++)
            if (g->nodes[k].out[j] == v) {
                *slot = j;
                return k;
            }
    return -1;
}

int cc_onnx_testdata_compare(const cc_onnx_testdata *t, const cc_model_eval *ev, int o, const cc_tensor *got,
                             double factor, double *ratio_max, char *why, size_t n)
{
    const cc_graph *g = &t->model->graph;
    const cc_tensor *want = &t->expected[o];
    int v = g->outputs[o];
    const cc_tensor *desc = &g->values[v];
    const cc_tensor *val = &ev->vals[v];
    if (!val->data) val = desc; /* a constant or an input */
    char a[128], b[128];
    int slot = 0, k = producer(g, v, &slot);
    const cc_golden *gold = k >= 0 && ev->gold ? &ev->gold[k * CC_MAX_IO + slot] : NULL;
    /* the shape computed (after an op of data-dependent shape: the actual one, not the bound) */
    cc_shape have = got ? got->shape : gold ? gold->shape : val->shape;
    if (want->dtype != desc->dtype || !cc_shape_equal(&want->shape, &have)) {
        snprintf(why, n, "output %d is %s %s, expected %s %s", o, cc_dtype_name(desc->dtype),
                 cc_shape_format(&have, a, sizeof a), cc_dtype_name(want->dtype),
                 cc_shape_format(&want->shape, b, sizeof b));
        return -1;
    }
    /* what the graph's earlier nodes pass on (CC_EVAL_PROPAGATE), beside the last node's own bound */
    const double *prop = ev->prop && gold && cc_dtype_is_float(desc->dtype) ? ev->prop[v] : NULL;
    int64_t cnt = cc_shape_numel(&have);
    double worst = 0;
    int64_t worst_i = -1, n_bad = 0;
    double worst_want = 0, worst_got = 0, worst_bound = 0;
    for (int64_t i = 0; i < cnt; i++) {
        double w = cc_load(want->data, want->dtype, (size_t)i);
        double y = got ? cc_load(got->data, got->dtype, (size_t)i)
                       : gold ? gold->value[i] : cc_load(val->data, val->dtype, (size_t)i);
        double bound = 0, e;
        if (!isfinite(w) || !isfinite(y)) {
            e = (isnan(w) && isnan(y)) || w == y ? 0 : INFINITY;
        } else {
            e = fabs(w - y);
            int64_t wi, yi;
            if ((want->dtype == CC_I64 || want->dtype == CC_U64) && desc->dtype == want->dtype) {
                /* 64-bit integers compared in 64 bits (a double holds 53) */
                wi = ((const int64_t *)want->data)[i];
                int have_y = 1;
                if (got) yi = ((const int64_t *)got->data)[i];
                else if (gold) have_y = cc_golden_int(gold, i, &yi);
                else yi = ((const int64_t *)val->data)[i];
                if (have_y) e = cc_int_gap(yi, wi, want->dtype == CC_U64);
            }
            double lo, hi;
            if (gold && cc_golden_int_range(g, k, gold, i, factor, &lo, &hi) == 0) {
                /* rounded from a float quotient: both within the integers its bound reaches */
                bound = w >= lo && w <= hi && y >= lo && y <= hi ? e : 0;
            } else if (gold) {
                bound = cc_golden_bound(g, k, gold, i);
                if (cc_dtype_is_float(desc->dtype)) bound = factor * (bound + (prop ? prop[i] : 0));
            }
        }
        /* an exact op's bound is half the smallest subnormal: no ratio to speak of */
        double ratio_e = bound >= FLT_MIN ? e / bound : INFINITY;
        if (e > 0 && ratio_e > *ratio_max) *ratio_max = ratio_e;
        if (e > bound) {
            n_bad++;
            double ratio = bound > 0 ? e / bound : INFINITY;
            if (worst_i < 0 || ratio > worst) {
                worst = ratio;
                worst_i = i;
                worst_want = w;
                worst_got = y;
                worst_bound = bound;
            }
        }
    }
    if (n_bad == 0) return 0;
    snprintf(why, n, "output %d: %lld of %lld elements out of bound; worst at %lld: %s %.9g, expected %.9g (bound %.3g)",
             o, (long long)n_bad, (long long)cnt, (long long)worst_i, got ? "got" : "golden", worst_got, worst_want,
             worst_bound);
    return -1;
}
