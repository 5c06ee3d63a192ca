/* control_eval.c — the golden evaluation of If, Loop and Scan (control_eval.h): each
 * sub-graph run by cc_model_evaluate_err on the values the node passes in, the loop-carried
 * values and their error bounds handed from one iteration to the next, and the stacked
 * outputs assembled element by element. */
#include "control_eval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/control.h"

/* One evaluated sub-graph output: its value and bound (NULL: exact or not propagated). */
typedef struct sub_value {
    const cc_tensor *t;
    const double *err;
} sub_value;

static sub_value sub_output(const cc_graph *sub, const cc_model_eval *ev, int j)
{
    int v = sub->outputs[j];
    sub_value r = { ev->vals[v].data ? &ev->vals[v] : &sub->values[v], ev->err ? ev->err[v] : NULL };
    return r;
}

/* A copy of a bound of n elements (NULL stays NULL). */
static cc_status err_copy(const double *src, int64_t n, double **dst, cc_err *err)
{
    *dst = NULL;
    if (!src) return CC_OK;
    *dst = malloc(sizeof(double) * (size_t)(n ? n : 1));
    if (!*dst) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    memcpy(*dst, src, sizeof(double) * (size_t)n);
    return CC_OK;
}

/* go = the values of t (rank, dims and elements), |t| its magnitude. */
static void golden_from(cc_golden *go, const cc_tensor *t)
{
    int64_t n = cc_tensor_numel(t);
    go->shape = t->shape;
    go->k = 1;
    for (int64_t q = 0; q < n; q++) {
        go->value[q] = cc_load(t->data, t->dtype, (size_t)q);
        go->mag[q] = fabs(go->value[q]);
    }
}

/* out_err[j] for a float output: a copy of src, or zeros (an exact value). */
static cc_status out_err_set(double **out_err, int j, const cc_golden *go, const double *src, cc_err *err)
{
    if (!out_err || !cc_dtype_is_float(go->dtype)) return CC_OK;
    int64_t n = cc_shape_numel(&go->shape);
    free(out_err[j]);
    out_err[j] = calloc((size_t)(n ? n : 1), sizeof(double));
    if (!out_err[j]) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    if (src) memcpy(out_err[j], src, sizeof(double) * (size_t)n);
    return CC_OK;
}

static cc_status eval_if(const cc_graph *g, const cc_node *nd, const cc_tensor *const *inp, double *const *in_err,
                         cc_golden *go, double **out_err, cc_err *err)
{
    int then = cc_load(inp[0]->data, CC_BOOL, 0) != 0;
    const cc_graph *br = &g->subgraphs[cc_control_subgraph(nd, then ? "then_branch" : "else_branch")];
    cc_tensor ins[CC_MAX_IO];
    for (int i = 1; i < nd->n_in; i++) ins[i - 1] = *inp[i];
    cc_model_eval ev;
    cc_status st = cc_model_evaluate_err(br, ins, in_err + 1, out_err ? CC_EVAL_PROPAGATE : 0, NULL, &ev, err);
    if (st) return st;
    for (int j = 0; j < nd->n_out && !st; j++) {
        sub_value o = sub_output(br, &ev, j);
        golden_from(&go[j], o.t);
        st = out_err_set(out_err, j, &go[j], o.err, err);
    }
    cc_model_eval_free(&ev);
    return st;
}

/* The loop-carried values between iterations: their tensors and bounds. */
typedef struct carried {
    int n;
    cc_tensor t[CC_MAX_IO];
    double *err[CC_MAX_IO];
} carried;

static void carried_free(carried *c)
{
    for (int i = 0; i < c->n; i++) {
        cc_tensor_free(&c->t[i]);
        free(c->err[i]);
    }
}

/* c = n copies of src[i] (bounds in src_err[i], NULL where none). */
static cc_status carried_set(carried *c, int n, const cc_tensor *const *src, const double *const *src_err, cc_err *err)
{
    carried next;
    memset(&next, 0, sizeof next);
    next.n = n;
    cc_status st = CC_OK;
    for (int i = 0; i < n && !st; i++) {
        st = cc_tensor_alloc(&next.t[i], src[i]->dtype, &src[i]->shape, err);
        if (!st) memcpy(next.t[i].data, src[i]->data, cc_tensor_bytes(src[i]));
        if (!st) st = err_copy(src_err ? src_err[i] : NULL, cc_tensor_numel(src[i]), &next.err[i], err);
    }
    if (st) {
        carried_free(&next);
        return st;
    }
    carried_free(c);
    *c = next;
    return CC_OK;
}

/* Writes the n-element block src (bound src_err) into go (bound dst_err, may be NULL) at
 * position p of an axis of length len, `outer` blocks of `inner` elements each: element
 * (o, i) of src goes to (o * len + p) * inner + i. */
static void place(cc_golden *go, double *dst_err, const cc_tensor *src, const double *src_err, int64_t outer,
                  int64_t inner, int64_t len, int64_t p)
{
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            int64_t q = o * inner + i, d = (o * len + p) * inner + i;
            go->value[d] = cc_load(src->data, src->dtype, (size_t)q);
            go->mag[d] = fabs(go->value[d]);
            if (dst_err) dst_err[d] = src_err ? src_err[q] : 0;
        }
}

static cc_status eval_loop(const cc_graph *g, const cc_node *nd, const cc_tensor *const *inp, double *const *in_err,
                           cc_golden *go, double **out_err, cc_err *err)
{
    const cc_graph *body = &g->subgraphs[cc_control_subgraph(nd, "body")];
    int n = (int)nd->attrs[cc_attr_index(nd->op, "carried")].i, k = nd->n_out - n;
    int64_t m = inp[0] ? *(const int64_t *)inp[0]->data : INT64_MAX;
    int cond = nd->n_in > 1 && inp[1] ? cc_load(inp[1]->data, CC_BOOL, 0) != 0 : 1;
    int64_t bound = k > 0 ? go[n].shape.dims[0] : INT64_MAX;
    carried c;
    memset(&c, 0, sizeof c);
    cc_tensor it = { 0 }, cd = { 0 };
    cc_status st = carried_set(&c, n, inp + 2, (const double *const *)(in_err + 2), err);
    if (!st) st = cc_tensor_alloc(&it, CC_I64, &body->values[body->inputs[0]].shape, err);
    if (!st) st = cc_tensor_alloc(&cd, CC_BOOL, &body->values[body->inputs[1]].shape, err);
    for (int j = 0; j < k && !st && out_err; j++) st = out_err_set(out_err, n + j, &go[n + j], NULL, err);
    int64_t t = 0;
    for (; !st && t < m && cond; t++) {
        if (t >= bound) {
            st = cc_err_set(err, CC_ERR_ARG, "Loop: iteration %lld of a loop whose stacked outputs were sized for %lld",
                            (long long)t + 1, (long long)bound);
            break;
        }
        if (t >= CC_LOOP_MAX_ITERATIONS) {
            st = cc_err_set(err, CC_ERR_UNSUPPORTED, "Loop: more than %d iterations", CC_LOOP_MAX_ITERATIONS);
            break;
        }
        *(int64_t *)it.data = t;
        cc_store(cd.data, CC_BOOL, 0, 1);
        cc_tensor ins[CC_MAX_IO];
        double *ierr[CC_MAX_IO] = { 0 };
        ins[0] = it;
        ins[1] = cd;
        for (int i = 0; i < n; i++) {
            ins[2 + i] = c.t[i];
            ierr[2 + i] = c.err[i];
        }
        for (int i = 2 + n; i < nd->n_in; i++) {
            ins[i] = *inp[i];
            ierr[i] = in_err[i];
        }
        cc_model_eval ev;
        if ((st = cc_model_evaluate_err(body, ins, ierr, out_err ? CC_EVAL_PROPAGATE : 0, NULL, &ev, err))) break;
        cond = cc_load(sub_output(body, &ev, 0).t->data, CC_BOOL, 0) != 0;
        const cc_tensor *next[CC_MAX_IO];
        const double *next_err[CC_MAX_IO];
        for (int i = 0; i < n; i++) {
            sub_value o = sub_output(body, &ev, 1 + i);
            next[i] = o.t;
            next_err[i] = o.err;
        }
        st = carried_set(&c, n, next, next_err, err);
        for (int j = 0; j < k && !st; j++) {
            sub_value o = sub_output(body, &ev, 1 + n + j);
            place(&go[n + j], out_err ? out_err[n + j] : NULL, o.t, o.err, 1, cc_tensor_numel(o.t), bound, t);
        }
        cc_model_eval_free(&ev);
    }
    for (int j = 0; j < n && !st; j++) {
        golden_from(&go[j], &c.t[j]);
        st = out_err_set(out_err, j, &go[j], c.err[j], err);
    }
    for (int j = 0; j < k && !st; j++) go[n + j].shape.dims[0] = t; /* the stacked outputs' actual length */
    carried_free(&c);
    cc_tensor_free(&it);
    cc_tensor_free(&cd);
    return st;
}

/* Elements before and after axis a of shape s. */
static void split_at(const cc_shape *s, int a, int64_t *outer, int64_t *inner)
{
    *outer = 1;
    *inner = 1;
    for (int d = 0; d < s->rank; d++) {
        if (d < a) *outer *= s->dims[d];
        if (d > a) *inner *= s->dims[d];
    }
}

/* Scan's list attribute `name` (count values, default 0), negative axes taken from rank[i] + extra. */
static void scan_ints(const cc_node *nd, const char *name, int count, const int *rank, int extra, int *out)
{
    const cc_attr_value *v = &nd->attrs[cc_attr_index(nd->op, name)];
    for (int i = 0; i < count; i++) {
        int64_t x = v->set && i < v->n ? v->ints[i] : 0;
        if (rank && x < 0) x += rank[i] + extra;
        out[i] = (int)x;
    }
}

static cc_status eval_scan(const cc_graph *g, const cc_node *nd, const cc_tensor *const *inp, double *const *in_err,
                           cc_golden *go, double **out_err, cc_err *err)
{
    const cc_graph *body = &g->subgraphs[cc_control_subgraph(nd, "body")];
    int n = (int)nd->attrs[cc_attr_index(nd->op, "carried")].i;
    int m = (int)nd->attrs[cc_attr_index(nd->op, "num_scan_inputs")].i, k = nd->n_out - n;
    int rank[CC_MAX_IO], iax[CC_MAX_IO], idir[CC_MAX_IO], oax[CC_MAX_IO], odir[CC_MAX_IO];
    for (int j = 0; j < m; j++) rank[j] = inp[n + j]->shape.rank;
    scan_ints(nd, "scan_input_axes", m, rank, 0, iax);
    scan_ints(nd, "scan_input_directions", m, NULL, 0, idir);
    for (int j = 0; j < k; j++) rank[j] = body->values[body->outputs[n + j]].shape.rank;
    scan_ints(nd, "scan_output_axes", k, rank, 1, oax);
    scan_ints(nd, "scan_output_directions", k, NULL, 0, odir);
    int64_t len = inp[n]->shape.dims[iax[0]];
    carried c;
    memset(&c, 0, sizeof c);
    cc_tensor slice[CC_MAX_IO];
    double *slice_err[CC_MAX_IO] = { 0 };
    memset(slice, 0, sizeof slice);
    cc_status st = carried_set(&c, n, inp, (const double *const *)in_err, err);
    for (int j = 0; j < m && !st; j++) {
        const cc_tensor *d = &body->values[body->inputs[n + j]];
        st = cc_tensor_alloc(&slice[j], d->dtype, &d->shape, err);
        if (!st && in_err[n + j]) {
            slice_err[j] = calloc((size_t)cc_tensor_numel(d) + 1, sizeof(double));
            if (!slice_err[j]) st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        }
    }
    for (int j = 0; j < k && !st && out_err; j++) st = out_err_set(out_err, n + j, &go[n + j], NULL, err);
    for (int64_t t = 0; t < len && !st; t++) {
        cc_tensor ins[CC_MAX_IO];
        double *ierr[CC_MAX_IO] = { 0 };
        for (int i = 0; i < n; i++) {
            ins[i] = c.t[i];
            ierr[i] = c.err[i];
        }
        for (int j = 0; j < m; j++) {
            const cc_tensor *x = inp[n + j];
            int64_t outer, inner, s = idir[j] ? len - 1 - t : t;
            split_at(&x->shape, iax[j], &outer, &inner);
            size_t es = cc_dtype_size(x->dtype);
            for (int64_t o = 0; o < outer; o++) {
                memcpy((char *)slice[j].data + (size_t)(o * inner) * es,
                       (const char *)x->data + (size_t)((o * len + s) * inner) * es, (size_t)inner * es);
                if (slice_err[j])
                    memcpy(slice_err[j] + o * inner, in_err[n + j] + (o * len + s) * inner, sizeof(double) * (size_t)inner);
            }
            ins[n + j] = slice[j];
            ierr[n + j] = slice_err[j];
        }
        for (int i = n + m; i < nd->n_in; i++) {
            ins[i] = *inp[i];
            ierr[i] = in_err[i];
        }
        cc_model_eval ev;
        if ((st = cc_model_evaluate_err(body, ins, ierr, out_err ? CC_EVAL_PROPAGATE : 0, NULL, &ev, err))) break;
        const cc_tensor *next[CC_MAX_IO];
        const double *next_err[CC_MAX_IO];
        for (int i = 0; i < n; i++) {
            sub_value o = sub_output(body, &ev, i);
            next[i] = o.t;
            next_err[i] = o.err;
        }
        st = carried_set(&c, n, next, next_err, err);
        for (int j = 0; j < k && !st; j++) {
            sub_value o = sub_output(body, &ev, n + j);
            int64_t outer, inner;
            cc_shape whole = go[n + j].shape;
            split_at(&whole, oax[j], &outer, &inner);
            place(&go[n + j], out_err ? out_err[n + j] : NULL, o.t, o.err, outer, inner, len,
                  odir[j] ? len - 1 - t : t);
        }
        cc_model_eval_free(&ev);
    }
    for (int j = 0; j < n && !st; j++) {
        golden_from(&go[j], &c.t[j]);
        st = out_err_set(out_err, j, &go[j], c.err[j], err);
    }
    carried_free(&c);
    for (int j = 0; j < m; j++) {
        cc_tensor_free(&slice[j]);
        free(slice_err[j]);
    }
    return st;
}

cc_status cc_control_evaluate(const cc_graph *g, int k, const cc_tensor *const *inp, double *const *in_err,
                              cc_golden *go, double **out_err, cc_err *err)
{
    const cc_node *nd = &g->nodes[k];
    double *none[CC_MAX_IO] = { 0 };
    if (!in_err) in_err = none;
    cc_status st;
    switch (nd->op->id) {
    case CC_OP_ID_If: st = eval_if(g, nd, inp, in_err, go, out_err, err); break;
    case CC_OP_ID_Loop: st = eval_loop(g, nd, inp, in_err, go, out_err, err); break;
    case CC_OP_ID_Scan: st = eval_scan(g, nd, inp, in_err, go, out_err, err); break;
    default: st = cc_err_set(err, CC_ERR_INTERNAL, "%s is not a control-flow op", nd->op->name);
    }
    if (st && out_err)
        for (int j = 0; j < CC_MAX_IO; j++) {
            free(out_err[j]);
            out_err[j] = NULL;
        }
    return st;
}
