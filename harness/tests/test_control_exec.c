/* test_control_exec.c — If, Loop and Scan (ops/control.c) built with the model builder:
 * shapes from their sub-graphs, the golden evaluation (values worked out by hand below,
 * and a first-order bound that grows over a loop's iterations) and the executor running
 * their sub-graphs on ref, cpu and opencl (the branch each run's cond picks, a loop that
 * ends by its trip count or by its cond, a backward scan along axis 1), run after run;
 * and what the builder refuses: branches that disagree, a carried value that changes
 * shape, a loop whose stacked outputs nothing bounds, and a loop past its bound. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/cctest.h"
#include "harness/lib/graph_exec.h"
#include "models/model.h"

#define OK(expr)                                                                                                  \
    do {                                                                                                          \
        cc_status st_ = (expr);                                                                                   \
        if (st_) fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, e.msg);                                       \
        CHECK(st_ == CC_OK);                                                                                      \
    } while (0)

static cc_err e;

/* A sub-graph: inputs of the given dtypes and shapes (names "in0"...), then its nodes via
 * the callback, finished and handed to the outer builder; its index is returned. */
typedef cc_status (*body_fn)(cc_model_builder *b, const int *in, cc_err *err);

static int subgraph(cc_model_builder *outer, int n_in, const cc_dtype *dt, const cc_shape *sh, body_fn fn)
{
    cc_model_builder *b = NULL;
    int in[CC_MAX_IO], idx = -1;
    cc_model *m = NULL;
    cc_status st = cc_mb_create("body", &b, &e);
    for (int i = 0; i < n_in && !st; i++) {
        char name[16];
        snprintf(name, sizeof name, "in%d", i);
        st = cc_mb_input(b, name, dt[i], &sh[i], &in[i], &e);
    }
    if (!st) st = fn(b, in, &e);
    if (!st) st = cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e);
    else cc_mb_destroy(b);
    if (!st) st = cc_mb_subgraph(outer, m, &idx, &e);
    if (st) fprintf(stderr, "sub-graph: %s\n", e.msg);
    return idx;
}

/* A node of control-flow op `op` with graph attributes (name, index) and integer ones. */
static cc_status control(cc_model_builder *b, const char *op_name, const char *const *gnames, const int *gidx, int ng,
                         const char *const *inames, const int64_t *ivals, int ni, int n_in, const int *in, int n_out,
                         int *out)
{
    const cc_op_def *op = cc_catalog_find(op_name);
    cc_node tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.op = op;
    cc_status st = cc_node_set_defaults(&tmp, &e);
    for (int i = 0; i < ng; i++) tmp.attrs[cc_attr_index(op, gnames[i])] = (cc_attr_value){ .set = 1, .i = gidx[i] };
    for (int i = 0; i < ni; i++) tmp.attrs[cc_attr_index(op, inames[i])] = (cc_attr_value){ .set = 1, .i = ivals[i] };
    if (!st) st = cc_mb_node_values(b, op, op_name, tmp.attrs, n_in, in, n_out, out, NULL, &e);
    return st;
}

static cc_shape shape1(int64_t n)
{
    return cc_shape_make(1, &n);
}

/* ---- the models ------------------------------------------------------------------------- */

static cc_status then_neg(cc_model_builder *b, const int *in, cc_err *err)
{
    int y;
    cc_status st = cc_mb_node(b, "Neg", "neg", NULL, 1, &in[0], 1, &y, NULL, err);
    return st ? st : cc_mb_output(b, y, err);
}

static cc_status else_relu(cc_model_builder *b, const int *in, cc_err *err)
{
    int y;
    cc_status st = cc_mb_node(b, "Relu", "relu", NULL, 1, &in[0], 1, &y, NULL, err);
    return st ? st : cc_mb_output(b, y, err);
}

/* If(cond) then -x else relu(x), x [3] read from the outer graph */
static cc_model *if_model(void)
{
    cc_model_builder *b = NULL;
    cc_model *m = NULL;
    int cond, x, y;
    cc_shape s0 = { 0 }, s3 = shape1(3);
    OK(cc_mb_create("if", &b, &e));
    OK(cc_mb_input(b, "cond", CC_BOOL, &s0, &cond, &e));
    OK(cc_mb_input(b, "x", CC_F32, &s3, &x, &e));
    cc_dtype dt = CC_F32;
    int g[2] = { subgraph(b, 1, &dt, &s3, then_neg), subgraph(b, 1, &dt, &s3, else_relu) };
    const char *gn[2] = { "then_branch", "else_branch" };
    int in[2] = { cond, x };
    OK(control(b, "If", gn, g, 2, NULL, NULL, 0, 2, in, 1, &y));
    OK(cc_mb_output(b, y, &e));
    OK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e));
    return m;
}

static int stop_after_first; /* the body's cond: iteration < 1 (else its cond passed on) */

/* s_out = s_in * 2 + c (c [2] from the outer graph); cond_out; scan output s_out */
static cc_status loop_body(cc_model_builder *b, const int *in, cc_err *err)
{
    cc_tensor two = { 0 }, one = { 0 };
    cc_shape s0 = { 0 };
    int vtwo, vone, m2, s_out, cond_out, scan;
    cc_status st = cc_tensor_alloc(&two, CC_F32, &s0, err);
    if (!st) {
        ((float *)two.data)[0] = 2;
        st = cc_mb_const(b, "two", &two, &vtwo, err);
    }
    if (!st) st = cc_mb_node(b, "Mul", "mul", NULL, 2, (int[]){ in[2], vtwo }, 1, &m2, NULL, err);
    if (!st) st = cc_mb_node(b, "Add", "add", NULL, 2, (int[]){ m2, in[3] }, 1, &s_out, NULL, err);
    if (!st && stop_after_first) {
        if (!(st = cc_tensor_alloc(&one, CC_I64, &s0, err))) {
            ((int64_t *)one.data)[0] = 1;
            st = cc_mb_const(b, "one", &one, &vone, err);
        }
        if (!st) st = cc_mb_node(b, "Less", "less", NULL, 2, (int[]){ in[0], vone }, 1, &cond_out, NULL, err);
    } else if (!st) {
        st = cc_mb_node(b, "Identity", "cond", NULL, 1, &in[1], 1, &cond_out, NULL, err);
    }
    if (!st) st = cc_mb_node(b, "Identity", "scan", NULL, 1, &s_out, 1, &scan, NULL, err);
    if (!st) st = cc_mb_output(b, cond_out, err);
    if (!st) st = cc_mb_output(b, s_out, err);
    if (!st) st = cc_mb_output(b, scan, err);
    return st;
}

/* Loop(M, cond, s0) with c captured; max_trips bounds the stacked output */
static cc_model *loop_model(int64_t max_trips, cc_status *why)
{
    cc_model_builder *b = NULL;
    cc_model *m = NULL;
    int vm, vc, vs, vcap, out[2];
    cc_shape s0 = { 0 }, s2 = shape1(2);
    OK(cc_mb_create("loop", &b, &e));
    OK(cc_mb_input(b, "M", CC_I64, &s0, &vm, &e));
    OK(cc_mb_input(b, "cond", CC_BOOL, &s0, &vc, &e));
    OK(cc_mb_input(b, "s", CC_F32, &s2, &vs, &e));
    OK(cc_mb_input(b, "c", CC_F32, &s2, &vcap, &e));
    cc_dtype dt[4] = { CC_I64, CC_BOOL, CC_F32, CC_F32 };
    cc_shape sh[4] = { s0, s0, s2, s2 };
    int g = subgraph(b, 4, dt, sh, loop_body);
    const char *gn = "body", *kn[2] = { "carried", "max_trips" };
    int64_t kv[2] = { 1, max_trips };
    *why = control(b, "Loop", &gn, &g, 1, kn, kv, 2, 4, (int[]){ vm, vc, vs, vcap }, 2, out);
    if (*why) {
        cc_mb_destroy(b);
        return NULL;
    }
    OK(cc_mb_output(b, out[0], &e));
    OK(cc_mb_output(b, out[1], &e));
    OK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e));
    return m;
}

static cc_status scan_body(cc_model_builder *b, const int *in, cc_err *err)
{
    int sum, scan;
    cc_status st = cc_mb_node(b, "Add", "add", NULL, 2, (int[]){ in[0], in[1] }, 1, &sum, NULL, err);
    if (!st) st = cc_mb_node(b, "Identity", "scan", NULL, 1, &sum, 1, &scan, NULL, err);
    if (!st) st = cc_mb_output(b, sum, err);
    if (!st) st = cc_mb_output(b, scan, err);
    return st;
}

/* Scan of x [2, 3] along axis 1, backwards; the running sum [2] stacked along axis 1 */
static cc_model *scan_model(void)
{
    cc_model_builder *b = NULL;
    cc_model *m = NULL;
    int vs, vx, out[2];
    cc_shape s2 = shape1(2), s23 = cc_shape_make(2, (int64_t[]){ 2, 3 });
    OK(cc_mb_create("scan", &b, &e));
    OK(cc_mb_input(b, "s", CC_F32, &s2, &vs, &e));
    OK(cc_mb_input(b, "x", CC_F32, &s23, &vx, &e));
    cc_dtype dt[2] = { CC_F32, CC_F32 };
    cc_shape sh[2] = { s2, s2 };
    int g = subgraph(b, 2, dt, sh, scan_body);
    const cc_op_def *op = cc_catalog_find("Scan");
    cc_node tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.op = op;
    OK(cc_node_set_defaults(&tmp, &e));
    tmp.attrs[cc_attr_index(op, "body")] = (cc_attr_value){ .set = 1, .i = g };
    tmp.attrs[cc_attr_index(op, "carried")] = (cc_attr_value){ .set = 1, .i = 1 };
    tmp.attrs[cc_attr_index(op, "num_scan_inputs")] = (cc_attr_value){ .set = 1, .i = 1 };
    tmp.attrs[cc_attr_index(op, "scan_input_axes")] = (cc_attr_value){ .set = 1, .n = 1, .ints = { -1 } };
    tmp.attrs[cc_attr_index(op, "scan_input_directions")] = (cc_attr_value){ .set = 1, .n = 1, .ints = { 1 } };
    tmp.attrs[cc_attr_index(op, "scan_output_axes")] = (cc_attr_value){ .set = 1, .n = 1, .ints = { 1 } };
    OK(cc_mb_node_values(b, op, "scan", tmp.attrs, 2, (int[]){ vs, vx }, 2, out, NULL, &e));
    OK(cc_mb_output(b, out[0], &e));
    OK(cc_mb_output(b, out[1], &e));
    OK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e));
    return m;
}

/* ---- running them ------------------------------------------------------------------------- */

typedef struct expect {
    int n_out;
    cc_shape shape[2];
    float v[2][8];
} expect;

static cc_tensor make(cc_dtype dt, cc_shape s, const double *v)
{
    cc_tensor t = { 0 };
    OK(cc_tensor_alloc(&t, dt, &s, &e));
    for (int64_t i = 0; t.data && i < cc_tensor_numel(&t); i++) {
        if (dt == CC_I64) ((int64_t *)t.data)[i] = (int64_t)v[i];
        else cc_store(t.data, dt, (size_t)i, v[i]);
    }
    return t;
}

static void check_outputs(const char *what, const cc_tensor *got, const expect *x)
{
    for (int j = 0; j < x->n_out; j++) {
        int same = cc_shape_equal(&got[j].shape, &x->shape[j]);
        for (int64_t i = 0; same && i < cc_shape_numel(&x->shape[j]); i++)
            same = fabs(cc_load(got[j].data, CC_F32, (size_t)i) - x->v[j][i]) <= 1e-6 * (1 + fabs(x->v[j][i]));
        if (!same) fprintf(stderr, "%s: output %d differs\n", what, j);
        CHECK(same);
    }
}

/* The golden evaluation on in, then each target (run twice with the same executor). */
static void run_all(const cc_model *m, const cc_tensor *in, const expect *x)
{
    cc_model_eval ev;
    OK(cc_model_evaluate(&m->graph, in, CC_EVAL_PROPAGATE, NULL, &ev, &e));
    cc_tensor got[2];
    for (int j = 0; j < x->n_out; j++) got[j] = ev.vals[m->graph.outputs[j]];
    check_outputs("golden", got, x);
    cc_model_eval_free(&ev);
    const char *names[3] = { "ref", "cpu", "opencl" };
    for (int k = 0; k < 3; k++) {
        const cc_target_iface *t = cc_target_find(names[k]);
        void *ctx = NULL;
        cc_device_desc d;
        if (!t || t->open("", &ctx, &d, &e)) {
            printf("%s: not available here\n", names[k]);
            continue;
        }
        cc_graph_exec *gx = NULL;
        cc_graph_exec_info info;
        OK(cc_graph_exec_create(&m->graph, t, ctx, NULL, NULL, &gx, &info, &e));
        for (int r = 0; gx && r < 2; r++) {
            cc_tensor out[2] = { { 0 } };
            for (int j = 0; j < x->n_out; j++) {
                const cc_tensor *o = &m->graph.values[m->graph.outputs[j]];
                OK(cc_tensor_alloc(&out[j], o->dtype, &o->shape, &e));
            }
            OK(cc_graph_exec_run(gx, in, out, &e));
            check_outputs(names[k], out, x);
            for (int j = 0; j < x->n_out; j++) cc_tensor_free(&out[j]);
        }
        cc_graph_exec_destroy(gx);
        t->close(ctx);
    }
}

static void test_if(void)
{
    cc_model *m = if_model();
    CHECK(m && m->graph.n_subgraphs == 2);
    if (!m) return;
    for (int c = 0; c < 2; c++) {
        cc_tensor in[2] = { make(CC_BOOL, (cc_shape){ 0 }, (double[]){ c }), make(CC_F32, shape1(3), (double[]){ -1, 2, -3 }) };
        expect x = { .n_out = 1, .shape = { shape1(3) } };
        float want[2][3] = { { 0, 2, 0 }, { 1, -2, 3 } };
        memcpy(x.v[0], want[c], sizeof want[c]);
        run_all(m, in, &x);
        cc_tensor_free(&in[0]);
        cc_tensor_free(&in[1]);
    }
    cc_model_free(m);
}

static void test_loop(void)
{
    cc_status why;
    /* s = [1, 2], c = [0.5, -1]: s1 = [2.5, 3], s2 = [5.5, 5], s3 = [11.5, 9] */
    cc_model *m = loop_model(4, &why);
    CHECK(m != NULL);
    if (!m) return;
    const cc_tensor *scan = &m->graph.values[m->graph.outputs[1]];
    CHECK(scan->shape.rank == 2 && scan->shape.dims[0] == 4 && scan->shape.dims[1] == 2); /* the bound */
    cc_tensor in[4] = { make(CC_I64, (cc_shape){ 0 }, (double[]){ 3 }), make(CC_BOOL, (cc_shape){ 0 }, (double[]){ 1 }),
                        make(CC_F32, shape1(2), (double[]){ 1, 2 }), make(CC_F32, shape1(2), (double[]){ 0.5, -1 }) };
    expect x = { .n_out = 2, .shape = { shape1(2), cc_shape_make(2, (int64_t[]){ 3, 2 }) },
                 .v = { { 11.5f, 9 }, { 2.5f, 3, 5.5f, 5, 11.5f, 9 } } };
    run_all(m, in, &x);
    /* the bound after three roundings of Mul and Add grows with each iteration */
    cc_model_eval ev;
    OK(cc_model_evaluate(&m->graph, in, CC_EVAL_PROPAGATE, NULL, &ev, &e));
    const double *err = ev.err[m->graph.outputs[1]];
    CHECK(err && err[0] > 0 && err[2] > err[0] && err[4] > err[2]);
    CHECK(ev.err[m->graph.outputs[0]] && fabs(ev.err[m->graph.outputs[0]][0] - err[4]) <= 1e-3 * err[4]);
    cc_model_eval_free(&ev);
    /* M = 0: no iteration, the carried value passes through, nothing stacked */
    ((int64_t *)in[0].data)[0] = 0;
    expect none = { .n_out = 2, .shape = { shape1(2), cc_shape_make(2, (int64_t[]){ 0, 2 }) }, .v = { { 1, 2 } } };
    run_all(m, in, &none);
    /* M = 5 runs past the bound of 4: refused */
    ((int64_t *)in[0].data)[0] = 5;
    OK(cc_model_evaluate(&m->graph, in, 0, NULL, &ev, &e) == CC_ERR_ARG ? CC_OK : CC_ERR_INTERNAL);
    CHECK(strstr(e.msg, "sized for 4") != NULL);
    cc_model_free(m);
    /* a body whose cond stops it after its first iteration (at iteration 1) */
    stop_after_first = 1;
    m = loop_model(4, &why);
    stop_after_first = 0;
    CHECK(m != NULL);
    if (m) {
        ((int64_t *)in[0].data)[0] = 3;
        expect two = { .n_out = 2, .shape = { shape1(2), cc_shape_make(2, (int64_t[]){ 2, 2 }) },
                       .v = { { 5.5f, 5 }, { 2.5f, 3, 5.5f, 5 } } };
        run_all(m, in, &two);
        cc_model_free(m);
    }
    for (int i = 0; i < 4; i++) cc_tensor_free(&in[i]);
    /* nothing bounds the stacked output where M is an input and max_trips is 0 */
    m = loop_model(0, &why);
    CHECK(!m && why == CC_ERR_UNSUPPORTED && strstr(e.msg, "nothing bounds") != NULL);
}

static void test_scan(void)
{
    cc_model *m = scan_model();
    CHECK(m != NULL);
    if (!m) return;
    /* columns backwards: [3, 6], [2, 5], [1, 4]; sums [3, 6], [5, 11], [6, 15] */
    cc_tensor in[2] = { make(CC_F32, shape1(2), (double[]){ 0, 0 }),
                        make(CC_F32, cc_shape_make(2, (int64_t[]){ 2, 3 }), (double[]){ 1, 2, 3, 4, 5, 6 }) };
    expect x = { .n_out = 2, .shape = { shape1(2), cc_shape_make(2, (int64_t[]){ 2, 3 }) },
                 .v = { { 6, 15 }, { 3, 5, 6, 6, 11, 15 } } };
    run_all(m, in, &x);
    cc_tensor_free(&in[0]);
    cc_tensor_free(&in[1]);
    cc_model_free(m);
}

static cc_status then_neg_f32(cc_model_builder *b, const int *in, cc_err *err)
{
    int f, y;
    cc_status st = cc_mb_node(b, "Cast", "cast", "to=1", 1, &in[0], 1, &f, NULL, err);
    if (!st) st = cc_mb_node(b, "Neg", "neg", NULL, 1, &f, 1, &y, NULL, err);
    return st ? st : cc_mb_output(b, y, err);
}

static cc_status else_empty(cc_model_builder *b, const int *in, cc_err *err)
{
    (void)in;
    cc_tensor t = { 0 };
    cc_shape s2 = shape1(2);
    int shp, y;
    cc_status st = cc_tensor_alloc(&t, CC_I64, &s2, err);
    if (!st) {
        ((int64_t *)t.data)[0] = 1;
        ((int64_t *)t.data)[1] = 0;
        st = cc_mb_const(b, "shape", &t, &shp, err);
    }
    if (!st) st = cc_mb_node(b, "ConstantOfShape", "empty", NULL, 1, &shp, 1, &y, NULL, err);
    return st ? st : cc_mb_output(b, y, err);
}

/* The same empty [1, 0] as a constant of the branch, no node making it (what an exporter's
 * folding leaves): the branch's output is that constant, at its own shape. */
static cc_status else_const_empty(cc_model_builder *b, const int *in, cc_err *err)
{
    (void)in;
    cc_tensor t = { 0 };
    cc_shape s = cc_shape_make(2, (int64_t[]){ 1, 0 });
    int y;
    cc_status st = cc_tensor_alloc(&t, CC_F32, &s, err);
    if (!st) st = cc_mb_const(b, "empty", &t, &y, err);
    return st ? st : cc_mb_output(b, y, err);
}

/* If whose branches give an output different extents and read a value of data-dependent
 * shape (what torchvision's batched NMS exports: nothing when there are no boxes, else
 * the kept ones): then -(float)NonZero(x), a [1, n] within its bound [1, 6], else an empty
 * [1, 0]. The node's output is bounded by the larger of each dim and takes the taken
 * branch's actual shape; the branch typed by the bound runs on the actual [1, n]: on the
 * golden model, ref, cpu and opencl with cpu's fallback (NonZero), run after run. */
static void test_if_extents(cc_status (*else_branch)(cc_model_builder *, const int *, cc_err *))
{
    cc_model_builder *b = NULL;
    cc_model *m = NULL;
    int cond, x, nz, y;
    cc_shape s0 = { 0 }, s6 = shape1(6), s16 = cc_shape_make(2, (int64_t[]){ 1, 6 });
    OK(cc_mb_create("if_extents", &b, &e));
    OK(cc_mb_input(b, "cond", CC_BOOL, &s0, &cond, &e));
    OK(cc_mb_input(b, "x", CC_F32, &s6, &x, &e));
    OK(cc_mb_node(b, "NonZero", "nz", NULL, 1, &x, 1, &nz, NULL, &e));
    cc_dtype dt = CC_I64;
    int g[2] = { subgraph(b, 1, &dt, &s16, then_neg_f32), subgraph(b, 1, &dt, &s16, else_branch) };
    const char *gn[2] = { "then_branch", "else_branch" };
    OK(control(b, "If", gn, g, 2, NULL, NULL, 0, 2, (int[]){ cond, nz }, 1, &y));
    OK(cc_mb_output(b, y, &e));
    OK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e));
    if (!m) return;
    const cc_tensor *yb = &m->graph.values[m->graph.outputs[0]];
    CHECK(yb->shape.rank == 2 && yb->shape.dims[0] == 1 && yb->shape.dims[1] == 6);
    CHECK(cc_node_dynamic_shape(&m->graph, &m->graph.nodes[1]));
    const double xs[6] = { 0, 1.5, 0, -2, 0, 3 };
    const char *names[4] = { "golden", "ref", "cpu", "opencl" };
    for (int k = 0; k < 4; k++) {
        const cc_target_iface *t = k ? cc_target_find(names[k]) : NULL, *fb = k == 3 ? cc_target_find("cpu") : NULL;
        void *ctx = NULL, *fb_ctx = NULL;
        cc_device_desc d;
        if (k && (!t || t->open("", &ctx, &d, &e))) continue;
        if (fb) OK(fb->open("", &fb_ctx, &d, &e));
        cc_graph_exec *gx = NULL;
        cc_graph_exec_info info;
        if (k) OK(cc_graph_exec_create(&m->graph, t, ctx, fb, fb_ctx, &gx, &info, &e));
        for (int r = 0; r < 4 && (gx || !k); r++) {
            int c = r % 2; /* then, else, then, else */
            cc_tensor in[2] = { make(CC_BOOL, s0, (double[]){ c ? 0 : 1 }), make(CC_F32, s6, xs) };
            expect want = { .n_out = 1, .shape = { cc_shape_make(2, (int64_t[]){ 1, c ? 0 : 3 }) } };
            float v[3] = { -1, -3, -5 };
            memcpy(want.v[0], v, sizeof v);
            cc_tensor got = { 0 };
            cc_model_eval ev;
            memset(&ev, 0, sizeof ev);
            if (k) {
                OK(cc_tensor_alloc(&got, yb->dtype, &yb->shape, &e));
                OK(cc_graph_exec_run(gx, in, &got, &e));
                check_outputs(names[k], &got, &want);
                cc_tensor_free(&got);
            } else {
                OK(cc_model_evaluate(&m->graph, in, 0, NULL, &ev, &e));
                check_outputs("golden", &ev.vals[m->graph.outputs[0]], &want);
                cc_model_eval_free(&ev);
            }
            cc_tensor_free(&in[0]);
            cc_tensor_free(&in[1]);
        }
        cc_graph_exec_destroy(gx);
        if (fb) fb->close(fb_ctx);
        if (t) t->close(ctx);
    }
    cc_model_free(m);
}

static cc_status then_squeeze1(cc_model_builder *b, const int *in, cc_err *err)
{
    cc_tensor ax = { 0 };
    cc_shape s1 = shape1(1);
    int a, y;
    cc_status st = cc_tensor_alloc(&ax, CC_I64, &s1, err);
    if (!st) {
        ((int64_t *)ax.data)[0] = 1;
        st = cc_mb_const(b, "axes", &ax, &a, err);
    }
    if (!st) st = cc_mb_node(b, "Squeeze", "sq", NULL, 2, (int[]){ in[0], a }, 1, &y, NULL, err);
    return st ? st : cc_mb_output(b, y, err);
}

static cc_status else_identity(cc_model_builder *b, const int *in, cc_err *err)
{
    int y;
    cc_status st = cc_mb_node(b, "Identity", "id", NULL, 1, in, 1, &y, NULL, err);
    return st ? st : cc_mb_output(b, y, err);
}

/* torchvision's squeeze(1) of a NonZero's column, as exported: If (Shape(t)[1] == 1) then
 * Squeeze(t, 1) else t, t = Transpose(NonZero(x)) of [k, 1], k following the data. The
 * branches give [k] and [k, 1]; dim 1 of t is fixed (only its dim 0 varies: the builder's
 * per-dim variation), so Shape(t)[1] has the exact range [1, 1] and the Equal folds to a
 * constant at import (cc_mb_fold_node with an input of known values), and the If takes its
 * then branch alone. It was refused: "the catalog needs one dtype and rank". Hand values
 * on the golden model, ref, cpu and opencl with cpu's fallback, as the count changes. */
static void test_if_known_condition(void)
{
    cc_model_builder *b = NULL;
    cc_model *m = NULL;
    int x, nz, t, sh, g1, eq, y, yf, one;
    cc_shape s6 = shape1(6), s1 = shape1(1);
    OK(cc_mb_create("if_known", &b, &e));
    OK(cc_mb_input(b, "x", CC_F32, &s6, &x, &e));
    cc_tensor c1 = make(CC_I64, s1, (double[]){ 1 });
    OK(cc_mb_const(b, "one", &c1, &one, &e));
    OK(cc_mb_node(b, "NonZero", "nz", NULL, 1, &x, 1, &nz, NULL, &e));
    OK(cc_mb_node(b, "Transpose", "t", NULL, 1, &nz, 1, &t, NULL, &e));
    OK(cc_mb_node(b, "Shape", "shape", NULL, 1, &t, 1, &sh, NULL, &e));
    OK(cc_mb_node(b, "Gather", "dim1", "axis=0", 2, (int[]){ sh, one }, 1, &g1, NULL, &e));
    const cc_op_def *equal = cc_catalog_find("Equal");
    cc_node tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.op = equal;
    OK(cc_node_set_defaults(&tmp, &e));
    int folded = 0;
    OK(cc_mb_fold_node(b, equal, "is1", tmp.attrs, 2, (int[]){ g1, one }, 1, &eq, NULL, &folded, &e));
    CHECK(folded == 1); /* Shape(t)[1] is known to be 1 */
    if (!folded) {
        cc_mb_destroy(b);
        return;
    }
    CHECK(cc_mb_value(b, eq)->data && ((const unsigned char *)cc_mb_value(b, eq)->data)[0] == 1);
    cc_dtype dt = CC_I64;
    cc_shape s61 = cc_shape_make(2, (int64_t[]){ 6, 1 });
    int gs[2] = { subgraph(b, 1, &dt, &s61, then_squeeze1), subgraph(b, 1, &dt, &s61, else_identity) };
    const char *gn[2] = { "then_branch", "else_branch" };
    cc_status st = control(b, "If", gn, gs, 2, NULL, NULL, 0, 2, (int[]){ eq, t }, 1, &y);
    if (st) fprintf(stderr, "if_known: %s\n", e.msg);
    CHECK(st == CC_OK);
    if (st) {
        cc_mb_destroy(b);
        return;
    }
    OK(cc_mb_node(b, "Cast", "yf", "to=1", 1, &y, 1, &yf, NULL, &e));
    OK(cc_mb_output(b, yf, &e));
    OK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e));
    if (!m) return;
    CHECK(m->graph.values[m->graph.outputs[0]].shape.rank == 1);
    const double xs[2][6] = { { 0, 5, 0, 7, 9, 0 }, { 4, 0, 0, 0, 0, 0 } };
    const char *names[4] = { "golden", "ref", "cpu", "opencl" };
    for (int k = 0; k < 4; k++) {
        const cc_target_iface *tg = k ? cc_target_find(names[k]) : NULL, *fb = k == 3 ? cc_target_find("cpu") : NULL;
        void *ctx = NULL, *fb_ctx = NULL;
        cc_device_desc d;
        if (k && (!tg || tg->open("", &ctx, &d, &e))) continue;
        if (fb) OK(fb->open("", &fb_ctx, &d, &e));
        cc_graph_exec *gx = NULL;
        cc_graph_exec_info info;
        if (k) OK(cc_graph_exec_create(&m->graph, tg, ctx, fb, fb_ctx, &gx, &info, &e));
        for (int r = 0; r < 2 && (gx || !k); r++) {
            cc_tensor in = make(CC_F32, s6, xs[r]);
            expect want = { .n_out = 1, .shape = { shape1(r ? 1 : 3) } };
            float v[2][3] = { { 1, 3, 4 }, { 0 } };
            memcpy(want.v[0], v[r], sizeof v[r]);
            if (k) {
                cc_tensor got = { 0 };
                OK(cc_tensor_alloc(&got, CC_F32, &m->graph.values[m->graph.outputs[0]].shape, &e));
                OK(cc_graph_exec_run(gx, &in, &got, &e));
                check_outputs(names[k], &got, &want);
                cc_tensor_free(&got);
            } else {
                cc_model_eval ev;
                OK(cc_model_evaluate(&m->graph, &in, 0, NULL, &ev, &e));
                check_outputs("golden", &ev.vals[m->graph.outputs[0]], &want);
                cc_model_eval_free(&ev);
            }
            cc_tensor_free(&in);
        }
        cc_graph_exec_destroy(gx);
        if (fb) fb->close(fb_ctx);
        if (tg) tg->close(ctx);
    }
    cc_model_free(m);
}

/* If's branches must agree on their outputs' dtypes and ranks, and take what the node
 * passes in. */
static void test_refusals(void)
{
    cc_model_builder *b = NULL;
    int cond, x, y;
    cc_shape s0 = { 0 }, s3 = shape1(3), s2 = shape1(2);
    OK(cc_mb_create("bad", &b, &e));
    OK(cc_mb_input(b, "cond", CC_BOOL, &s0, &cond, &e));
    OK(cc_mb_input(b, "x", CC_F32, &s3, &x, &e));
    cc_dtype dt = CC_F32;
    int g[2] = { subgraph(b, 1, &dt, &s3, then_neg), subgraph(b, 1, &dt, &s2, else_relu) };
    const char *gn[2] = { "then_branch", "else_branch" };
    CHECK(control(b, "If", gn, g, 2, NULL, NULL, 0, 2, (int[]){ cond, x }, 1, &y) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "else_branch's input 0 is f32 2") != NULL);
    cc_mb_destroy(b);
}

int main(void)
{
    test_if();
    test_loop();
    test_scan();
    test_if_extents(else_empty);
    test_if_extents(else_const_empty);
    test_if_known_condition();
    test_refusals();
    return CC_TEST_RESULT();
}
