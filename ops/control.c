/* control.c — control flow: ops that run sub-graphs (CC_TRAIT_SUBGRAPH, ops/control.h).
 *
 * If (opset 16): cond, a one-element bool, picks then_branch or else_branch; the node's
 *   outputs are the branch's. The catalog needs both branches to give each output the
 *   same dtype and shape (ONNX allows shapes that differ by branch).
 * Loop (opset 16): runs body while the iteration count is below M (absent: no limit) and
 *   cond holds (absent: true), the body giving the next cond and loop-carried values;
 *   the outputs are the carried values' last values, then each scan output of the body
 *   stacked over the iterations along a new first axis. A carried value keeps its dtype
 *   and shape through the body (the catalog runs graphs of static shapes); the stacked
 *   outputs are of data-dependent length (at most M, or the importer's bound).
 * Scan (opset 16; Scan-8 with its batch axis is not in the catalog): runs body once per
 *   slice of the scan inputs along their scan_input_axes (forward, or backward where
 *   scan_input_directions says 1), with state variables carried from one iteration to the
 *   next; the outputs are the states' last values, then each scan output of the body
 *   stacked along scan_output_axes (in reverse order where scan_output_directions says 1).
 *
 * The values are the sub-graphs' own: the golden evaluation runs the sub-graphs with the
 * catalog's golden models (models/model.c), and a target runs their nodes (the host
 * executor, harness/lib/graph_exec.c, carries values between iterations). So the op's own
 * tolerance is that of a copy, its outputs' bounds being what the sub-graphs' nodes pass on.
 * A case id cannot write a graph: these ops have no op cases, only models and node tests. */
#include "control.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

int cc_control_subgraph(const cc_node *nd, const char *name)
{
    int a = cc_attr_index(nd->op, name);
    if (a < 0 || nd->op->attrs[a].kind != CC_ATTR_GRAPH || !nd->attrs[a].set) return -1;
    return (int)nd->attrs[a].i;
}

static int64_t knob(const cc_node *nd, const char *name)
{
    int a = cc_attr_index(nd->op, name);
    return a >= 0 && nd->attrs[a].set ? nd->attrs[a].i : 0;
}

static const cc_graph *sub_of(const cc_node *nd, const char *name, const cc_graph *subs, int n_subs, cc_err *err)
{
    int s = cc_control_subgraph(nd, name);
    if (s < 0 || s >= n_subs) {
        cc_err_set(err, CC_ERR_ARG, "%s: attribute %s names no sub-graph", nd->op->name, name);
        return NULL;
    }
    return &subs[s];
}

static const cc_tensor *sub_in(const cc_graph *g, int i)
{
    return &g->values[g->inputs[i]];
}

static const cc_tensor *sub_out(const cc_graph *g, int j)
{
    return &g->values[g->outputs[j]];
}

/* That sub-graph input i of `what` is t's dtype and shape. */
/* A value the node passes in (want) against what the sub-graph declares (have): the same
 * dtype and shape, or, for a value of data-dependent shape, the same rank and no dim past
 * the declared one (the sub-graph was typed by its bound). */
static cc_status same_type(const cc_node *nd, const char *what, const cc_tensor *have, const cc_tensor *want,
                           const char *role, int i, cc_err *err)
{
    if (have->dtype == want->dtype && cc_shape_within(&want->shape, &have->shape)) return CC_OK;
    char a[96], b[96];
    return cc_err_set(err, CC_ERR_ARG, "%s: %s's %s %d is %s %s, the node passes %s %s", nd->op->name, what, role, i,
                      cc_dtype_name(have->dtype), cc_shape_format(&have->shape, a, sizeof a), cc_dtype_name(want->dtype),
                      cc_shape_format(&want->shape, b, sizeof b));
}

/* A one-element tensor of dtype dt (a scalar or [1]). */
static int one_of(const cc_tensor *t, cc_dtype dt)
{
    return t && t->dtype == dt && cc_shape_numel(&t->shape) == 1 && t->shape.rank <= 1;
}

/* *t = body output o stacked len times along a new axis `axis` (Loop's scan outputs,
 * Scan's), output j of the node. */
static cc_status stacked(const cc_node *nd, const cc_tensor *o, int axis, int64_t len, int j, cc_tensor *t,
                         cc_err *err)
{
    if (o->shape.rank + 1 > CC_MAX_RANK)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: stacked output %d would have rank %d", nd->op->name, j,
                          o->shape.rank + 1);
    *t = (cc_tensor){ .dtype = o->dtype };
    for (int d = 0, s = 0; d <= o->shape.rank; d++) t->shape.dims[d] = d == axis ? len : o->shape.dims[s++];
    t->shape.rank = o->shape.rank + 1;
    int64_t numel;
    cc_err e = { 0 };
    if (cc_shape_numel_checked(&t->shape, &numel, &e))
        return cc_err_set(err, e.code, "%s: stacked output %d: %s", nd->op->name, j, e.msg);
    return CC_OK;
}

static cc_status if_infer(const cc_node *nd, const cc_graph *subs, int n_subs, const cc_tensor *const *in, int n_out,
                          cc_tensor *out, cc_err *err)
{
    if (!one_of(in[0], CC_BOOL)) return cc_err_set(err, CC_ERR_ARG, "If: cond must be one bool");
    const cc_graph *br[2] = { sub_of(nd, "then_branch", subs, n_subs, err), sub_of(nd, "else_branch", subs, n_subs, err) };
    if (!br[0] || !br[1]) return CC_ERR_ARG;
    const char *names[2] = { "then_branch", "else_branch" };
    for (int b = 0; b < 2; b++) {
        if (br[b]->n_inputs != nd->n_in - 1)
            return cc_err_set(err, CC_ERR_ARG, "If: %s takes %d inputs, the node passes %d", names[b], br[b]->n_inputs,
                              nd->n_in - 1);
        for (int i = 0; i < br[b]->n_inputs; i++) {
            if (!in[1 + i]) return cc_err_set(err, CC_ERR_ARG, "If: captured input %d is absent", i);
            cc_status st = same_type(nd, names[b], sub_in(br[b], i), in[1 + i], "input", i, err);
            if (st) return st;
        }
        if (br[b]->n_outputs != n_out)
            return cc_err_set(err, CC_ERR_ARG, "If: %s has %d outputs, the node %d", names[b], br[b]->n_outputs, n_out);
    }
    if (in[0]->data) { /* a condition known at import: the branch it takes, alone (the other
                          may give another rank: torchvision's squeeze of a dim known to be 1) */
        const cc_graph *taken = br[cc_load(in[0]->data, CC_BOOL, 0) != 0 ? 0 : 1];
        for (int j = 0; j < n_out; j++) out[j] = (cc_tensor){ .dtype = sub_out(taken, j)->dtype, .shape = sub_out(taken, j)->shape };
        return CC_OK;
    }
    for (int j = 0; j < n_out; j++) {
        const cc_tensor *t = sub_out(br[0], j), *e = sub_out(br[1], j);
        if (t->dtype != e->dtype || t->shape.rank != e->shape.rank) {
            char a[96], b[96];
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "If: output %d is %s %s in then_branch and %s %s in else_branch; the catalog needs one "
                              "dtype and rank",
                              j, cc_dtype_name(t->dtype), cc_shape_format(&t->shape, a, sizeof a),
                              cc_dtype_name(e->dtype), cc_shape_format(&e->shape, b, sizeof b));
        }
        /* branches of different extents (an empty result against a data-dependent one): the
           larger of each dim bounds the output, which takes the branch's actual shape */
        out[j].dtype = t->dtype;
        out[j].shape = t->shape;
        for (int d = 0; d < t->shape.rank; d++)
            if (e->shape.dims[d] > out[j].shape.dims[d]) out[j].shape.dims[d] = e->shape.dims[d];
        out[j].data = NULL;
    }
    return CC_OK;
}

int cc_control_if_varies(const cc_node *nd, const cc_graph *subs, int n_subs)
{
    cc_err e = { 0 };
    const cc_graph *br[2] = { sub_of(nd, "then_branch", subs, n_subs, &e), sub_of(nd, "else_branch", subs, n_subs, &e) };
    if (!br[0] || !br[1]) return 0;
    for (int b = 0; b < 2; b++) {
        unsigned char *dyn = malloc((size_t)br[b]->n_values + 1);
        if (!dyn) return 1;
        cc_graph_dynamic_values(br[b], dyn);
        int any = 0;
        for (int j = 0; j < br[b]->n_outputs && !any; j++) any = dyn[br[b]->outputs[j]];
        free(dyn);
        if (any) return 1;
    }
    for (int j = 0; j < br[0]->n_outputs && j < br[1]->n_outputs; j++)
        if (!cc_shape_equal(&sub_out(br[0], j)->shape, &sub_out(br[1], j)->shape)) return 1;
    return 0;
}

static cc_status loop_infer(const cc_node *nd, const cc_graph *subs, int n_subs, const cc_tensor *const *in,
                            int n_out, cc_tensor *out, cc_err *err)
{
    const cc_graph *body = sub_of(nd, "body", subs, n_subs, err);
    if (!body) return CC_ERR_ARG;
    int64_t n = knob(nd, "carried");
    if (n < 0 || n > n_out || 2 + n > nd->n_in)
        return cc_err_set(err, CC_ERR_ARG, "Loop: %lld loop-carried values for %d inputs and %d outputs", (long long)n,
                          nd->n_in, n_out);
    int k = n_out - (int)n;
    if (in[0] && !one_of(in[0], CC_I64)) return cc_err_set(err, CC_ERR_ARG, "Loop: M must be one int64");
    if (nd->n_in > 1 && in[1] && !one_of(in[1], CC_BOOL)) return cc_err_set(err, CC_ERR_ARG, "Loop: cond must be one bool");
    if (body->n_inputs != nd->n_in)
        return cc_err_set(err, CC_ERR_ARG, "Loop: body takes %d inputs, the node passes %d", body->n_inputs, nd->n_in);
    if (body->n_outputs != 1 + n_out)
        return cc_err_set(err, CC_ERR_ARG, "Loop: body has %d outputs, the node %d (and cond)", body->n_outputs, n_out);
    if (!one_of(sub_in(body, 0), CC_I64) || !one_of(sub_in(body, 1), CC_BOOL) || !one_of(sub_out(body, 0), CC_BOOL))
        return cc_err_set(err, CC_ERR_ARG, "Loop: body must take the iteration (one int64) and cond (one bool) and give cond");
    for (int i = 2; i < nd->n_in; i++) {
        if (!in[i]) return cc_err_set(err, CC_ERR_ARG, "Loop: input %d is absent", i);
        cc_status st = same_type(nd, "body", sub_in(body, i), in[i], "input", i, err);
        if (st) return st;
    }
    for (int j = 0; j < n; j++) {
        const cc_tensor *o = sub_out(body, 1 + j), *i = sub_in(body, 2 + j);
        if (o->dtype != i->dtype || !cc_shape_equal(&o->shape, &i->shape)) {
            char a[96], b[96];
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "Loop: loop-carried value %d goes in as %s %s and comes out as %s %s; the catalog runs "
                              "graphs of static shapes",
                              j, cc_dtype_name(i->dtype), cc_shape_format(&i->shape, a, sizeof a),
                              cc_dtype_name(o->dtype), cc_shape_format(&o->shape, b, sizeof b));
        }
        out[j] = (cc_tensor){ .dtype = o->dtype, .shape = o->shape };
    }
    int64_t trips = -1, cap = knob(nd, "max_trips");
    if (in[0] && in[0]->data) {
        trips = *(const int64_t *)in[0]->data;
        if (trips < 0) trips = 0;
    }
    if (cap > 0) trips = trips < 0 || cap < trips ? cap : trips;
    if (k > 0 && trips < 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "Loop: M is computed at run time and nothing bounds its %d stacked outputs (a constant M "
                          "does, or the length the model declares for them)",
                          k);
    for (int j = 0; j < k; j++) {
        cc_status st = stacked(nd, sub_out(body, 1 + (int)n + j), 0, trips, (int)n + j, &out[n + j], err);
        if (st) return st;
    }
    return CC_OK;
}

/* Attribute `name` of Scan as count values (default def each); rank_of[i] + extra is the
 * rank that a value's axis may address ([-r, r-1]); NULL rank_of: a direction (0 or 1). */
static cc_status scan_list(const cc_node *nd, const char *name, int count, const int *rank_of, int extra, int *vals,
                           cc_err *err)
{
    int a = cc_attr_index(nd->op, name);
    const cc_attr_value *v = &nd->attrs[a];
    if (v->set && v->n != count)
        return cc_err_set(err, CC_ERR_ARG, "Scan: %s has %d values for %d scan %s", name, v->n, count,
                          strstr(name, "input") ? "inputs" : "outputs");
    for (int i = 0; i < count; i++) {
        int64_t x = v->set ? v->ints[i] : 0;
        if (!rank_of) {
            if (x != 0 && x != 1) return cc_err_set(err, CC_ERR_ARG, "Scan: %s[%d] is %lld, not 0 or 1", name, i, (long long)x);
        } else {
            int r = rank_of[i] + extra;
            if (x < -r || x >= r)
                return cc_err_set(err, CC_ERR_ARG, "Scan: %s[%d] is %lld, outside [%d, %d]", name, i, (long long)x, -r,
                                  r - 1);
            if (x < 0) x += r;
        }
        vals[i] = (int)x;
    }
    return CC_OK;
}

static cc_status scan_infer(const cc_node *nd, const cc_graph *subs, int n_subs, const cc_tensor *const *in,
                            int n_out, cc_tensor *out, cc_err *err)
{
    const cc_graph *body = sub_of(nd, "body", subs, n_subs, err);
    if (!body) return CC_ERR_ARG;
    int64_t n = knob(nd, "carried"), m = nd->attrs[cc_attr_index(nd->op, "num_scan_inputs")].i;
    if (m < 1 || n < 0 || n + m > nd->n_in || n > n_out)
        return cc_err_set(err, CC_ERR_ARG, "Scan: %lld states and %lld scan inputs for %d inputs and %d outputs",
                          (long long)n, (long long)m, nd->n_in, n_out);
    int k = n_out - (int)n;
    if (body->n_inputs != nd->n_in || body->n_outputs != n_out)
        return cc_err_set(err, CC_ERR_ARG, "Scan: body takes %d inputs and gives %d outputs, the node %d and %d",
                          body->n_inputs, body->n_outputs, nd->n_in, n_out);
    for (int i = 0; i < nd->n_in; i++)
        if (!in[i]) return cc_err_set(err, CC_ERR_ARG, "Scan: input %d is absent", i);
    int rank[CC_MAX_IO], ax[CC_MAX_IO], dir[CC_MAX_IO];
    for (int j = 0; j < m; j++) rank[j] = in[n + j]->shape.rank;
    cc_status st = scan_list(nd, "scan_input_axes", (int)m, rank, 0, ax, err);
    if (!st) st = scan_list(nd, "scan_input_directions", (int)m, NULL, 0, dir, err);
    if (st) return st;
    int64_t len = -1;
    for (int j = 0; j < m; j++) {
        const cc_tensor *x = in[n + j];
        int64_t l = x->shape.dims[ax[j]];
        if (len >= 0 && l != len)
            return cc_err_set(err, CC_ERR_ARG, "Scan: scan input %d has %lld slices, scan input 0 has %lld", j,
                              (long long)l, (long long)len);
        len = l;
        cc_tensor slice = { .dtype = x->dtype };
        for (int d = 0; d < x->shape.rank; d++)
            if (d != ax[j]) slice.shape.dims[slice.shape.rank++] = x->shape.dims[d];
        if ((st = same_type(nd, "body", sub_in(body, (int)n + j), &slice, "input", (int)n + j, err))) return st;
    }
    for (int i = 0; i < n; i++)
        if ((st = same_type(nd, "body", sub_in(body, i), in[i], "input", i, err)) ||
            (st = same_type(nd, "body", sub_out(body, i), in[i], "output", i, err)))
            return st;
    for (int i = (int)(n + m); i < nd->n_in; i++)
        if ((st = same_type(nd, "body", sub_in(body, i), in[i], "input", i, err))) return st;
    for (int j = 0; j < k; j++) rank[j] = sub_out(body, (int)n + j)->shape.rank;
    st = scan_list(nd, "scan_output_axes", k, rank, 1, ax, err);
    if (!st) st = scan_list(nd, "scan_output_directions", k, NULL, 0, dir, err);
    if (st) return st;
    for (int j = 0; j < n; j++) out[j] = (cc_tensor){ .dtype = in[j]->dtype, .shape = in[j]->shape };
    for (int j = 0; j < k; j++)
        if ((st = stacked(nd, sub_out(body, (int)n + j), ax[j], len, (int)n + j, &out[n + j], err))) return st;
    return CC_OK;
}

cc_status cc_control_infer(const cc_node *nd, const cc_graph *subs, int n_subs, const cc_tensor *const *in,
                           int n_out, cc_tensor *out, cc_err *err)
{
    switch (nd->op->id) {
    case CC_OP_ID_If: return if_infer(nd, subs, n_subs, in, n_out, out, err);
    case CC_OP_ID_Loop: return loop_infer(nd, subs, n_subs, in, n_out, out, err);
    case CC_OP_ID_Scan: return scan_infer(nd, subs, n_subs, in, n_out, out, err);
    default: return cc_err_set(err, CC_ERR_INTERNAL, "%s is not a control-flow op", nd->op->name);
    }
}

/* Outside a graph there are no sub-graphs to run: infer() and golden() of a lone node. */
static cc_status alone_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    (void)in, (void)n_out, (void)out;
    return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s runs only inside a model (its sub-graphs are graphs, which a case "
                      "id cannot write)", node->op->name);
}

static cc_status alone_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)in, (void)n_out, (void)out;
    return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s runs only inside a model (its golden values are its sub-graphs')",
                      node->op->name);
}

static void no_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out, double *flops,
                    double *bytes)
{
    (void)node, (void)in, (void)n_out, (void)out;
    *flops = 0;
    *bytes = 0;
}

#define IN(name_) { .name = name_, .role = CC_IN_DATA, .optional = 1 }
#define CAPTURED                                                                                               \
    IN("c0"), IN("c1"), IN("c2"), IN("c3"), IN("c4"), IN("c5"), IN("c6"), IN("c7"), IN("c8"), IN("c9"),     \
    IN("c10"), IN("c11"), IN("c12"), IN("c13"), IN("c14"), IN("c15"), IN("c16"), IN("c17"), IN("c18"),       \
    IN("c19"), IN("c20"), IN("c21"), IN("c22"), IN("c23"), IN("c24"), IN("c25"), IN("c26"), IN("c27"),       \
    IN("c28"), IN("c29")
#define ALL_DTYPES ((1u << CC_DTYPE_COUNT) - 1u)
/* the count of loop-carried values (Loop, Scan), which the importer reads off the node */
#define CARRIED { .name = "carried", .kind = CC_ATTR_INT, .def = "0", .input = -1, .knob = 1 }

const cc_op_def cc_op_If = {
    .id = CC_OP_ID_If, .name = "If", .domain = "", .since_version = 16, .family = "control",
    .n_inputs = CC_MAX_IO,
    .inputs = { { .name = "cond", .role = CC_IN_DATA }, CAPTURED, IN("c30") },
    .min_outputs = 1, .max_outputs = CC_MAX_IO,
    .n_attrs = CC_ONNX_NATTRS(If, 16),
    .attrs = { CC_ONNX_ATTRS(If, 16) },
    .dtypes = ALL_DTYPES,
    .infer = alone_infer, .cost = no_cost, .golden = alone_golden,
};

const cc_op_def cc_op_Loop = {
    .id = CC_OP_ID_Loop, .name = "Loop", .domain = "", .since_version = 16, .family = "control",
    .n_inputs = CC_MAX_IO,
    .inputs = { IN("M"), IN("cond"), CAPTURED },
    .min_outputs = 1, .max_outputs = CC_MAX_IO,
    .n_attrs = CC_ONNX_NATTRS(Loop, 16) + 2,
    .attrs = {
        CC_ONNX_ATTRS(Loop, 16)
        CARRIED,
        /* the longest the stacked outputs may be where M is not a constant (0: M bounds them) */
        { .name = "max_trips", .kind = CC_ATTR_INT, .def = "0", .input = -1, .knob = 1 },
    },
    .dtypes = ALL_DTYPES,
    .infer = alone_infer, .cost = no_cost, .golden = alone_golden,
};

const cc_op_def cc_op_Scan = {
    .id = CC_OP_ID_Scan, .name = "Scan", .domain = "", .since_version = 16, .family = "control",
    .n_inputs = CC_MAX_IO,
    .inputs = { IN("x0"), CAPTURED, IN("c30") },
    .min_outputs = 1, .max_outputs = CC_MAX_IO,
    .n_attrs = CC_ONNX_NATTRS(Scan, 16) + 1,
    .attrs = { CC_ONNX_ATTRS(Scan, 16) CARRIED },
    .dtypes = ALL_DTYPES,
    .infer = alone_infer, .cost = no_cost, .golden = alone_golden,
};
