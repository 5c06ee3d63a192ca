/* test_dynamic_exec.c — outputs of data-dependent shape through the executor: a NonZero
 * model run on ref and on cpu (the target reports the actual shape, output_shape of
 * target ABI 7) gives the caller [rank, nnz] and the right indices, run after run as the
 * count changes; opencl (which leaves such ops to the host) declines it, and with cpu as
 * its fallback runs it there; a NonZero whose output feeds another node is refused by the
 * planners with the reason, while the golden evaluation infers what follows again from the
 * actual shape; TopK whose K is a graph input (its outputs' extent follows K) on the golden
 * model, ref and cpu, declined by opencl, and on opencl with cpu as its fallback; runs of
 * nodes with more inputs or outputs than one segment holds, split. */
#include <stdio.h>
#include <string.h>

#include "harness/cctest.h"
#include "harness/lib/graph_exec.h"
#include "models/model.h"

static cc_model *nonzero_model(int then_transpose)
{
    cc_model_builder *b = NULL;
    cc_err e = { 0 };
    if (cc_mb_create(then_transpose ? "nonzero_t" : "nonzero", &b, &e)) return NULL;
    int x, y, t;
    cc_shape s = cc_shape_make(2, (int64_t[]){ 3, 4 });
    cc_status st = cc_mb_input(b, "x", CC_F32, &s, &x, &e);
    if (!st) st = cc_mb_node(b, "NonZero", "nz", NULL, 1, &x, 1, &y, NULL, &e);
    if (!st && then_transpose) st = cc_mb_node(b, "Transpose", "t", NULL, 1, &y, 1, &t, NULL, &e);
    if (!st) st = cc_mb_output(b, then_transpose ? t : y, &e);
    cc_model *m = NULL;
    if (!st) st = cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e);
    else cc_mb_destroy(b);
    if (st) fprintf(stderr, "model: %s\n", e.msg);
    return m;
}

static void run_on(const cc_model *m, const char *name, const char *fallback)
{
    const cc_target_iface *t = cc_target_find(name), *fb = fallback ? cc_target_find(fallback) : NULL;
    CHECK(t != NULL);
    if (!t) return;
    void *ctx = NULL, *fb_ctx = NULL;
    cc_device_desc d;
    cc_err e = { 0 };
    if (t->open("", &ctx, &d, &e)) {
        printf("%s: not available here (%s)\n", name, e.msg);
        return;
    }
    if (fb) CHECK(fb->open("", &fb_ctx, &d, &e) == CC_OK);
    cc_graph_exec *x = NULL;
    cc_graph_exec_info info;
    cc_status st = cc_graph_exec_create(&m->graph, t, ctx, fb, fb_ctx, &x, &info, &e);
    if (!strcmp(name, "opencl") && !fallback) {
        /* the device backend leaves it to the host, with the reason */
        CHECK(st == CC_ERR_UNSUPPORTED && strstr(e.msg, "depends on the data") != NULL);
        if (st != CC_ERR_UNSUPPORTED) fprintf(stderr, "  %s: %s\n", name, e.msg);
        cc_graph_exec_destroy(x);
        t->close(ctx);
        return;
    }
    CHECK(st == CC_OK);
    if (st) {
        fprintf(stderr, "  %s: %s\n", name, e.msg);
        t->close(ctx);
        return;
    }
    if (fallback) CHECK(info.n_fallback == 1);
    /* two runs with different counts: 5 non-zeros, then 2 */
    const float xs[2][12] = { { 0, 1, 0, 2, 3, 0, 0, 0, 4, 0, 0, 5 }, { 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 8 } };
    const int64_t want[2][10] = { { 0, 0, 1, 2, 2, 1, 3, 0, 0, 3 }, { 1, 2, 2, 3 } };
    const int64_t nnz[2] = { 5, 2 };
    for (int r = 0; r < 2; r++) {
        cc_tensor in = { 0 }, out = { 0 };
        cc_shape s = cc_shape_make(2, (int64_t[]){ 3, 4 });
        CHECK(cc_tensor_alloc(&in, CC_F32, &s, &e) == CC_OK);
        memcpy(in.data, xs[r], sizeof xs[r]);
        const cc_tensor *o = &m->graph.values[m->graph.outputs[0]];
        CHECK(cc_tensor_alloc(&out, o->dtype, &o->shape, &e) == CC_OK); /* the bound: 2 x 12 */
        CHECK(cc_graph_exec_run(x, &in, &out, &e) == CC_OK);
        CHECK(out.shape.rank == 2 && out.shape.dims[0] == 2 && out.shape.dims[1] == nnz[r]);
        for (int i = 0; i < 2 * nnz[r]; i++) CHECK(((int64_t *)out.data)[i] == want[r][i]);
        cc_tensor_free(&in);
        cc_tensor_free(&out);
    }
    cc_graph_exec_destroy(x);
    if (fb) fb->close(fb_ctx);
    t->close(ctx);
}

/* A NonZero that feeds a Transpose: refused by a planner as one plan, run by the executor
 * in two segments, and evaluated by the golden model. */
static void feeding(void)
{
    cc_model *m = nonzero_model(1);
    CHECK(m != NULL);
    if (!m) return;
    for (int k = 0; k < 2; k++) {
        const cc_target_iface *t = cc_target_find(k ? "cpu" : "ref");
        void *ctx = NULL, *plan = NULL;
        cc_device_desc d;
        cc_err e = { 0 };
        CHECK(t->open("", &ctx, &d, &e) == CC_OK);
        CHECK(t->prepare(ctx, &m->graph, &plan, &e) == CC_ERR_UNSUPPORTED);
        CHECK(strstr(e.msg, "data-dependent shape and feeds another node") != NULL);
        t->close(ctx);
    }
    /* the executor: NonZero ends a segment and the Transpose after it is prepared for the
     * actual [2, nnz] at each run (on opencl, NonZero falls back to cpu) */
    const char *names[4] = { "ref", "cpu", "opencl", "opencl" };
    const float xs[2][12] = { { 0, 1, 0, 2, 3, 0, 0, 0, 4, 0, 0, 5 }, { 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 8 } };
    const int64_t want_t[2][10] = { { 0, 1, 0, 3, 1, 0, 2, 0, 2, 3 }, { 1, 2, 2, 3 } };
    const int64_t nnz[2] = { 5, 2 };
    for (int k = 0; k < 4; k++) {
        const cc_target_iface *t = cc_target_find(names[k]), *fb = k == 3 ? cc_target_find("cpu") : NULL;
        void *ctx = NULL, *fb_ctx = NULL;
        cc_device_desc d;
        cc_err e = { 0 };
        if (!t || t->open("", &ctx, &d, &e)) continue;
        if (fb) CHECK(fb->open("", &fb_ctx, &d, &e) == CC_OK);
        cc_graph_exec *x = NULL;
        cc_graph_exec_info info;
        cc_status st = cc_graph_exec_create(&m->graph, t, ctx, fb, fb_ctx, &x, &info, &e);
        if (k == 2) {
            CHECK(st == CC_ERR_UNSUPPORTED); /* NonZero: no fallback asked for */
        } else {
            if (st) fprintf(stderr, "%s: %s\n", names[k], e.msg);
            CHECK(st == CC_OK && info.n_segments == 2);
            for (int r = 0; x && r < 2; r++) {
                cc_tensor in = { 0 }, out = { 0 };
                cc_shape s = cc_shape_make(2, (int64_t[]){ 3, 4 });
                CHECK(cc_tensor_alloc(&in, CC_F32, &s, &e) == CC_OK);
                memcpy(in.data, xs[r], sizeof xs[r]);
                const cc_tensor *o = &m->graph.values[m->graph.outputs[0]];
                CHECK(cc_tensor_alloc(&out, o->dtype, &o->shape, &e) == CC_OK); /* the bound: 12 x 2 */
                st = cc_graph_exec_run(x, &in, &out, &e);
                if (st) fprintf(stderr, "%s run %d: %s\n", names[k], r, e.msg);
                CHECK(st == CC_OK && out.shape.dims[0] == nnz[r] && out.shape.dims[1] == 2);
                for (int i = 0; !st && i < 2 * nnz[r]; i++) CHECK(((int64_t *)out.data)[i] == want_t[r][i]);
                cc_tensor_free(&in);
                cc_tensor_free(&out);
            }
        }
        cc_graph_exec_destroy(x);
        if (fb) fb->close(fb_ctx);
        t->close(ctx);
    }
    /* the golden evaluation: Transpose of the actual [2, 3] is [3, 2] */
    cc_tensor in = { 0 };
    cc_shape s = cc_shape_make(2, (int64_t[]){ 3, 4 });
    cc_err e = { 0 };
    CHECK(cc_tensor_alloc(&in, CC_F32, &s, &e) == CC_OK);
    memset(in.data, 0, cc_tensor_bytes(&in));
    ((float *)in.data)[1] = 1;  /* (0, 1) */
    ((float *)in.data)[6] = 2;  /* (1, 2) */
    ((float *)in.data)[11] = 3; /* (2, 3) */
    cc_model_eval ev;
    CHECK(cc_model_evaluate(&m->graph, &in, 1, NULL, &ev, &e) == CC_OK);
    const cc_tensor *y = &ev.vals[m->graph.outputs[0]];
    CHECK(y->shape.rank == 2 && y->shape.dims[0] == 3 && y->shape.dims[1] == 2);
    const int64_t want[6] = { 0, 1, 1, 2, 2, 3 };
    for (int i = 0; i < 6; i++) CHECK(((int64_t *)y->data)[i] == want[i]);
    cc_model_eval_free(&ev);
    cc_tensor_free(&in);
    cc_model_free(m);
}

/* TopK with K a graph input: its outputs' extent follows K, run after run. */
static void topk_runtime_k(void)
{
    cc_model_builder *b = NULL;
    cc_err e = { 0 };
    int x, k, out[2];
    cc_shape sx = cc_shape_make(2, (int64_t[]){ 2, 5 }), sk = cc_shape_make(1, (int64_t[]){ 1 });
    CHECK(cc_mb_create("topk_k", &b, &e) == CC_OK);
    CHECK(cc_mb_input(b, "x", CC_F32, &sx, &x, &e) == CC_OK);
    CHECK(cc_mb_input(b, "k", CC_I64, &sk, &k, &e) == CC_OK);
    CHECK(cc_mb_node(b, "TopK", "topk", "axis=1", 2, (int[]){ x, k }, 2, out, NULL, &e) == CC_OK);
    CHECK(cc_mb_output(b, out[0], &e) == CC_OK && cc_mb_output(b, out[1], &e) == CC_OK);
    cc_model *m = NULL;
    CHECK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e) == CC_OK);
    if (!m) return;
    CHECK(cc_node_dynamic_shape(&m->graph, &m->graph.nodes[0]));
    CHECK(m->graph.values[m->graph.outputs[0]].shape.dims[1] == 5); /* the bound */
    const float xs[10] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3 };
    /* K = 2: [5, 4] at [4, 2] and [9, 6] at [0, 2]; K = 4: [5, 4, 3, 1] at [4, 2, 0, 1], [9, 6, 5, 3] at [0, 2, 3, 4] */
    const float want_v[2][8] = { { 5, 4, 9, 6 }, { 5, 4, 3, 1, 9, 6, 5, 3 } };
    const int64_t want_i[2][8] = { { 4, 2, 0, 2 }, { 4, 2, 0, 1, 0, 2, 3, 4 } };
    const char *names[4] = { "ref", "cpu", "opencl", "opencl" };
    for (int t = 0; t < 5; t++) {
        const cc_target_iface *tg = t < 4 ? cc_target_find(names[t]) : NULL, *fb = t == 3 ? cc_target_find("cpu") : NULL;
        void *ctx = NULL, *fb_ctx = NULL;
        cc_device_desc d;
        if (t < 4 && (!tg || tg->open("", &ctx, &d, &e))) continue;
        if (fb) CHECK(fb->open("", &fb_ctx, &d, &e) == CC_OK);
        cc_graph_exec *gx = NULL;
        cc_graph_exec_info info;
        if (t < 4) {
            cc_status st = cc_graph_exec_create(&m->graph, tg, ctx, fb, fb_ctx, &gx, &info, &e);
            if (t == 2) { /* opencl alone declines, naming why */
                CHECK(st == CC_ERR_UNSUPPORTED && strstr(e.msg, "K is computed at run time") != NULL);
                tg->close(ctx);
                continue;
            }
            CHECK(st == CC_OK);
            if (t == 3) CHECK(info.n_fallback == 1);
        }
        for (int r = 0; r < 2; r++) {
            int64_t kv = r ? 4 : 2;
            cc_tensor in[2] = { { 0 } }, o[2] = { { 0 } };
            CHECK(cc_tensor_alloc(&in[0], CC_F32, &sx, &e) == CC_OK && cc_tensor_alloc(&in[1], CC_I64, &sk, &e) == CC_OK);
            memcpy(in[0].data, xs, sizeof xs);
            ((int64_t *)in[1].data)[0] = kv;
            const cc_tensor *got[2];
            cc_model_eval ev;
            memset(&ev, 0, sizeof ev);
            if (t == 4) { /* the golden evaluation */
                CHECK(cc_model_evaluate(&m->graph, in, 1, NULL, &ev, &e) == CC_OK);
                got[0] = &ev.vals[m->graph.outputs[0]];
                got[1] = &ev.vals[m->graph.outputs[1]];
            } else {
                for (int j = 0; j < 2; j++) {
                    const cc_tensor *od = &m->graph.values[m->graph.outputs[j]];
                    CHECK(cc_tensor_alloc(&o[j], od->dtype, &od->shape, &e) == CC_OK);
                }
                CHECK(cc_graph_exec_run(gx, in, o, &e) == CC_OK);
                got[0] = &o[0];
                got[1] = &o[1];
            }
            CHECK(got[0]->shape.dims[1] == kv && got[1]->shape.dims[1] == kv);
            for (int i = 0; i < 2 * kv; i++) {
                CHECK(((const float *)got[0]->data)[i] == want_v[r][i]);
                CHECK(((const int64_t *)got[1]->data)[i] == want_i[r][i]);
            }
            cc_model_eval_free(&ev);
            for (int j = 0; j < 2; j++) {
                cc_tensor_free(&in[j]);
                cc_tensor_free(&o[j]);
            }
        }
        /* K beyond the axis: refused, not written past the bound */
        if (t == 1) {
            cc_tensor in[2] = { { 0 } }, o[2] = { { 0 } };
            CHECK(cc_tensor_alloc(&in[0], CC_F32, &sx, &e) == CC_OK && cc_tensor_alloc(&in[1], CC_I64, &sk, &e) == CC_OK);
            memcpy(in[0].data, xs, sizeof xs);
            ((int64_t *)in[1].data)[0] = 6;
            for (int j = 0; j < 2; j++)
                CHECK(cc_tensor_alloc(&o[j], m->graph.values[m->graph.outputs[j]].dtype,
                                      &m->graph.values[m->graph.outputs[j]].shape, &e) == CC_OK);
            CHECK(cc_graph_exec_run(gx, in, o, &e) == CC_ERR_ARG && strstr(e.msg, "outside [0, 5]") != NULL);
            for (int j = 0; j < 2; j++) {
                cc_tensor_free(&in[j]);
                cc_tensor_free(&o[j]);
            }
        }
        cc_graph_exec_destroy(gx);
        if (fb) fb->close(fb_ctx);
        if (t < 4) tg->close(ctx);
    }
    cc_model_free(m);
}

/* Slice whose starts and ends are graph inputs, feeding a Neg: the Slice's extent follows
 * them run after run, and the Neg after it is prepared for each extent (on opencl, which
 * declines such a Slice, the Slice falls back to cpu and the Neg stays). */
static void slice_runtime_bounds(void)
{
    cc_model_builder *b = NULL;
    cc_err e = { 0 };
    int x, st, en, y, z;
    cc_shape sx = cc_shape_make(1, (int64_t[]){ 6 }), s1 = cc_shape_make(1, (int64_t[]){ 1 });
    CHECK(cc_mb_create("slice_rt", &b, &e) == CC_OK);
    CHECK(cc_mb_input(b, "x", CC_F32, &sx, &x, &e) == CC_OK);
    CHECK(cc_mb_input(b, "starts", CC_I64, &s1, &st, &e) == CC_OK);
    CHECK(cc_mb_input(b, "ends", CC_I64, &s1, &en, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Slice", "slice", NULL, 3, (int[]){ x, st, en }, 1, &y, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Neg", "neg", NULL, 1, &y, 1, &z, NULL, &e) == CC_OK);
    CHECK(cc_mb_output(b, z, &e) == CC_OK);
    cc_model *m = NULL;
    CHECK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e) == CC_OK);
    if (!m) return;
    CHECK(m->graph.values[y].shape.dims[0] == 6); /* the bound */
    const int64_t bounds[3][2] = { { 1, 4 }, { -2, 100 }, { 3, 3 } }; /* [1, 2, 3], [4, 5], nothing */
    const int64_t len[3] = { 3, 2, 0 };
    const float want[3][3] = { { -1, -2, -3 }, { -4, -5 }, { 0 } };
    const char *names[4] = { "ref", "cpu", "opencl", "opencl" };
    for (int k = 0; k < 4; k++) {
        const cc_target_iface *t = cc_target_find(names[k]), *fb = k == 3 ? cc_target_find("cpu") : NULL;
        void *ctx = NULL, *fb_ctx = NULL;
        cc_device_desc d;
        if (!t || t->open("", &ctx, &d, &e)) continue;
        if (fb) CHECK(fb->open("", &fb_ctx, &d, &e) == CC_OK);
        cc_graph_exec *gx = NULL;
        cc_graph_exec_info info;
        cc_status rc = cc_graph_exec_create(&m->graph, t, ctx, fb, fb_ctx, &gx, &info, &e);
        if (k == 2) {
            CHECK(rc == CC_ERR_UNSUPPORTED && strstr(e.msg, "constant starts") != NULL);
        } else {
            CHECK(rc == CC_OK);
            if (k == 3) CHECK(info.n_fallback == 1);
            for (int r = 0; gx && r < 3; r++) {
                cc_tensor in[3] = { { 0 } }, out = { 0 };
                CHECK(cc_tensor_alloc(&in[0], CC_F32, &sx, &e) == CC_OK);
                for (int i = 0; i < 6; i++) ((float *)in[0].data)[i] = (float)i;
                for (int i = 1; i < 3; i++) {
                    CHECK(cc_tensor_alloc(&in[i], CC_I64, &s1, &e) == CC_OK);
                    ((int64_t *)in[i].data)[0] = bounds[r][i - 1];
                }
                CHECK(cc_tensor_alloc(&out, CC_F32, &m->graph.values[z].shape, &e) == CC_OK);
                rc = cc_graph_exec_run(gx, in, &out, &e);
                if (rc) fprintf(stderr, "%s: %s\n", names[k], e.msg);
                CHECK(rc == CC_OK && out.shape.dims[0] == len[r]);
                for (int i = 0; !rc && i < len[r]; i++) CHECK(((float *)out.data)[i] == want[r][i]);
                for (int i = 0; i < 3; i++) cc_tensor_free(&in[i]);
                cc_tensor_free(&out);
            }
        }
        cc_graph_exec_destroy(gx);
        if (fb) fb->close(fb_ctx);
        t->close(ctx);
    }
    cc_model_free(m);
}

/* An i64 constant of n values (rank 1; rank 0 for scalar) added to b. */
static int i64_const(cc_model_builder *b, const char *name, int n, const int64_t *v, int scalar, cc_err *e)
{
    cc_tensor t = { 0 };
    cc_shape s = scalar ? cc_shape_make(0, NULL) : cc_shape_make(1, (int64_t[]){ n });
    int id = -1;
    if (cc_tensor_alloc(&t, CC_I64, &s, e) == CC_OK) {
        memcpy(t.data, v, sizeof(int64_t) * (size_t)n);
        if (cc_mb_const(b, name, &t, &id, e) != CC_OK) id = -1;
    }
    return id;
}

/* Shapes computed from the data: a NonZero's count n (Shape -> Gather -> Unsqueeze ->
 * Concat, as exports write it) sets ConstantOfShape's shape [n, 3], Reshape's [n, 1],
 * OneHot's depth n + 2 and Pad's pads [0, n]. The builder bounds each from the ranges of
 * the values it computes (n in [0, 8]: [8, 3], [8, 1], depth 10, 16 elements), Shape of the
 * NonZero is not folded into its bound's dims (it once was: a wrong constant), and the
 * golden model, ref, cpu and opencl with cpu's fallback give the actual shapes and values
 * worked out by hand, run after run as n changes. */
static void shape_from_data(void)
{
    cc_model_builder *b = NULL;
    cc_err e = { 0 };
    int x, nz, s, n, n1, s2, z, nzf, s3, r, y, d, oh, pads, p;
    cc_shape sx = cc_shape_make(1, (int64_t[]){ 8 });
    CHECK(cc_mb_create("shape_from_data", &b, &e) == CC_OK);
    CHECK(cc_mb_input(b, "x", CC_F32, &sx, &x, &e) == CC_OK);
    int one = i64_const(b, "one", 1, (int64_t[]){ 1 }, 1, &e), ax0 = i64_const(b, "ax0", 1, (int64_t[]){ 0 }, 0, &e);
    int three = i64_const(b, "three", 1, (int64_t[]){ 3 }, 0, &e), one1 = i64_const(b, "one1", 1, (int64_t[]){ 1 }, 0, &e);
    int two = i64_const(b, "two", 1, (int64_t[]){ 2 }, 1, &e), zero1 = i64_const(b, "zero1", 1, (int64_t[]){ 0 }, 0, &e);
    int idx = i64_const(b, "idx", 2, (int64_t[]){ 0, 1 }, 0, &e);
    cc_tensor vt = { 0 };
    cc_shape s2d = cc_shape_make(1, (int64_t[]){ 2 });
    int vals = -1;
    CHECK(cc_tensor_alloc(&vt, CC_F32, &s2d, &e) == CC_OK);
    ((float *)vt.data)[0] = 0;
    ((float *)vt.data)[1] = 1;
    CHECK(cc_mb_const(b, "values", &vt, &vals, &e) == CC_OK);
    CHECK(cc_mb_node(b, "NonZero", "nz", NULL, 1, &x, 1, &nz, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Shape", "shape", NULL, 1, &nz, 1, &s, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Gather", "n", NULL, 2, (int[]){ s, one }, 1, &n, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Unsqueeze", "n1", NULL, 2, (int[]){ n, ax0 }, 1, &n1, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Concat", "s2", "axis=0", 2, (int[]){ n1, three }, 1, &s2, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "ConstantOfShape", "z", NULL, 1, &s2, 1, &z, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Cast", "nzf", "to=1", 1, &nz, 1, &nzf, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Concat", "s3", "axis=0", 2, (int[]){ n1, one1 }, 1, &s3, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Reshape", "r", NULL, 2, (int[]){ nzf, s3 }, 1, &r, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Add", "y", NULL, 2, (int[]){ z, r }, 1, &y, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Add", "depth", NULL, 2, (int[]){ n, two }, 1, &d, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "OneHot", "oh", NULL, 3, (int[]){ idx, d, vals }, 1, &oh, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Concat", "pads", "axis=0", 2, (int[]){ zero1, n1 }, 1, &pads, NULL, &e) == CC_OK);
    cc_status st = cc_mb_node(b, "Pad", "p", NULL, 2, (int[]){ x, pads }, 1, &p, NULL, &e);
    if (st) fprintf(stderr, "shape_from_data: %s\n", e.msg);
    CHECK(st == CC_OK);
    CHECK(cc_mb_output(b, y, &e) == CC_OK && cc_mb_output(b, oh, &e) == CC_OK && cc_mb_output(b, p, &e) == CC_OK);
    cc_model *m = NULL;
    CHECK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e) == CC_OK);
    if (!m) return;
    const cc_graph *g = &m->graph;
    CHECK(m->n_folded == 0); /* the Shape of the NonZero stays a node */
    const cc_shape *by = &g->values[y].shape, *boh = &g->values[oh].shape, *bp = &g->values[p].shape;
    CHECK(by->rank == 2 && by->dims[0] == 8 && by->dims[1] == 3);
    CHECK(boh->rank == 2 && boh->dims[0] == 2 && boh->dims[1] == 10);
    CHECK(bp->rank == 1 && bp->dims[0] == 16);
    const float xs[2][8] = { { 0, 1.5f, 0, -2, 0, 0, 3, 0 }, { 0, 0, 0, 0, 0, 0, 0, 4 } };
    const int64_t cnt[2] = { 3, 1 };
    /* y[i][j] = nz[i]; oh = rows 0 and 1 of the identity of size n + 2; p = x, n zeros */
    const float want_y[2][9] = { { 1, 1, 1, 3, 3, 3, 6, 6, 6 }, { 7, 7, 7 } };
    /* the golden model */
    for (int rr = 0; rr < 2; rr++) {
        cc_tensor in = { 0 };
        CHECK(cc_tensor_alloc(&in, CC_F32, &sx, &e) == CC_OK);
        memcpy(in.data, xs[rr], sizeof xs[rr]);
        cc_model_eval ev;
        st = cc_model_evaluate(g, &in, 0, NULL, &ev, &e);
        if (st) fprintf(stderr, "golden: %s\n", e.msg);
        CHECK(st == CC_OK);
        if (!st) {
            const cc_tensor *gy = &ev.vals[y], *goh = &ev.vals[oh], *gp = &ev.vals[p];
            CHECK(gy->shape.dims[0] == cnt[rr] && gy->shape.dims[1] == 3);
            for (int i = 0; i < 3 * cnt[rr]; i++) CHECK(((float *)gy->data)[i] == want_y[rr][i]);
            CHECK(goh->shape.dims[0] == 2 && goh->shape.dims[1] == cnt[rr] + 2);
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < cnt[rr] + 2; j++) CHECK(((float *)goh->data)[i * (cnt[rr] + 2) + j] == (i == j));
            CHECK(gp->shape.dims[0] == 8 + cnt[rr]);
            for (int i = 0; i < 8 + cnt[rr]; i++) CHECK(((float *)gp->data)[i] == (i < 8 ? xs[rr][i] : 0.0f));
            cc_model_eval_free(&ev);
        }
        cc_tensor_free(&in);
    }
    /* the targets: opencl declines the data-set shapes (and NonZero) and runs the rest */
    const char *names[4] = { "ref", "cpu", "opencl", "opencl" };
    for (int k = 0; k < 4; k++) {
        const cc_target_iface *t = cc_target_find(names[k]), *fb = k == 3 ? cc_target_find("cpu") : NULL;
        void *ctx = NULL, *fb_ctx = NULL;
        cc_device_desc dd;
        if (!t || t->open("", &ctx, &dd, &e)) continue;
        if (fb) CHECK(fb->open("", &fb_ctx, &dd, &e) == CC_OK);
        cc_graph_exec *gx = NULL;
        cc_graph_exec_info info;
        cc_status rc = cc_graph_exec_create(g, t, ctx, fb, fb_ctx, &gx, &info, &e);
        if (k == 2) {
            CHECK(rc == CC_ERR_UNSUPPORTED);
        } else {
            if (rc) fprintf(stderr, "%s: %s\n", names[k], e.msg);
            CHECK(rc == CC_OK);
            if (k == 3) CHECK(info.n_fallback == 5); /* NonZero, ConstantOfShape, Reshape, OneHot, Pad */
            for (int rr = 0; gx && rr < 2; rr++) {
                cc_tensor in = { 0 }, out[3] = { { 0 } };
                CHECK(cc_tensor_alloc(&in, CC_F32, &sx, &e) == CC_OK);
                memcpy(in.data, xs[rr], sizeof xs[rr]);
                for (int j = 0; j < 3; j++)
                    CHECK(cc_tensor_alloc(&out[j], CC_F32, &g->values[g->outputs[j]].shape, &e) == CC_OK);
                rc = cc_graph_exec_run(gx, &in, out, &e);
                if (rc) fprintf(stderr, "%s: %s\n", names[k], e.msg);
                CHECK(rc == CC_OK);
                CHECK(out[0].shape.dims[0] == cnt[rr] && out[0].shape.dims[1] == 3);
                for (int i = 0; !rc && i < 3 * cnt[rr]; i++) CHECK(((float *)out[0].data)[i] == want_y[rr][i]);
                CHECK(out[1].shape.dims[0] == 2 && out[1].shape.dims[1] == cnt[rr] + 2);
                for (int i = 0; !rc && i < 2; i++)
                    for (int j = 0; j < cnt[rr] + 2; j++)
                        CHECK(((float *)out[1].data)[i * (cnt[rr] + 2) + j] == (i == j));
                CHECK(out[2].shape.dims[0] == 8 + cnt[rr]);
                for (int i = 0; !rc && i < 8 + cnt[rr]; i++)
                    CHECK(((float *)out[2].data)[i] == (i < 8 ? xs[rr][i] : 0.0f));
                cc_tensor_free(&in);
                for (int j = 0; j < 3; j++) cc_tensor_free(&out[j]);
            }
        }
        cc_graph_exec_destroy(gx);
        if (fb) fb->close(fb_ctx);
        t->close(ctx);
    }
    cc_model_free(m);
}

/* Range whose limit is a NonZero's count n (bound: the count's largest value, 6) and a
 * Split of a value of 2n elements by sizes [n, n] (bound: the whole input each), on the
 * golden model, ref, cpu and opencl with cpu's fallback, as n changes. */
static void range_split(void)
{
    cc_model_builder *b = NULL;
    cc_err e = { 0 };
    int x, nz, s, n, n1, rg, nzf, nzr, y2, sp, parts[2];
    cc_shape sx = cc_shape_make(1, (int64_t[]){ 6 });
    CHECK(cc_mb_create("range_split", &b, &e) == CC_OK);
    CHECK(cc_mb_input(b, "x", CC_F32, &sx, &x, &e) == CC_OK);
    int one = i64_const(b, "one", 1, (int64_t[]){ 1 }, 1, &e), zero = i64_const(b, "zero", 1, (int64_t[]){ 0 }, 1, &e);
    int ax0 = i64_const(b, "ax0", 1, (int64_t[]){ 0 }, 0, &e);
    CHECK(cc_mb_node(b, "NonZero", "nz", NULL, 1, &x, 1, &nz, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Shape", "shape", NULL, 1, &nz, 1, &s, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Gather", "n", NULL, 2, (int[]){ s, one }, 1, &n, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Unsqueeze", "n1", NULL, 2, (int[]){ n, ax0 }, 1, &n1, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Range", "range", NULL, 3, (int[]){ zero, n, one }, 1, &rg, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Cast", "nzf", "to=1", 1, &nz, 1, &nzf, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Reshape", "nzr", NULL, 2, (int[]){ nzf, n1 }, 1, &nzr, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Concat", "y2", "axis=0", 2, (int[]){ nzr, nzr }, 1, &y2, NULL, &e) == CC_OK);
    CHECK(cc_mb_node(b, "Concat", "sp", "axis=0", 2, (int[]){ n1, n1 }, 1, &sp, NULL, &e) == CC_OK);
    cc_status st = cc_mb_node(b, "Split", "split", "axis=0", 2, (int[]){ y2, sp }, 2, parts, NULL, &e);
    if (st) fprintf(stderr, "range_split: %s\n", e.msg);
    CHECK(st == CC_OK);
    CHECK(cc_mb_output(b, rg, &e) == CC_OK && cc_mb_output(b, parts[0], &e) == CC_OK &&
          cc_mb_output(b, parts[1], &e) == CC_OK);
    cc_model *m = NULL;
    CHECK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e) == CC_OK);
    if (!m) return;
    const cc_graph *g = &m->graph;
    CHECK(g->values[rg].shape.dims[0] == 6 && g->values[parts[0]].shape.dims[0] == 12);
    const float xs[2][6] = { { 0, 5, 0, 7, 9, 0 }, { 4, 0, 0, 0, 0, 0 } };
    const int64_t cnt[2] = { 3, 1 }, idx[2][3] = { { 1, 3, 4 }, { 0 } };
    const char *names[5] = { "golden", "ref", "cpu", "opencl", "opencl" };
    for (int k = 0; k < 5; k++) {
        const cc_target_iface *t = k ? cc_target_find(names[k]) : NULL, *fb = k == 4 ? cc_target_find("cpu") : NULL;
        void *ctx = NULL, *fb_ctx = NULL;
        cc_device_desc dd;
        if (k && (!t || t->open("", &ctx, &dd, &e))) continue;
        if (fb) CHECK(fb->open("", &fb_ctx, &dd, &e) == CC_OK);
        cc_graph_exec *gx = NULL;
        cc_graph_exec_info info;
        cc_status rc = k ? cc_graph_exec_create(g, t, ctx, fb, fb_ctx, &gx, &info, &e) : CC_OK;
        if (k == 3) {
            CHECK(rc == CC_ERR_UNSUPPORTED);
        } else {
            if (rc) fprintf(stderr, "%s: %s\n", names[k], e.msg);
            CHECK(rc == CC_OK);
            for (int rr = 0; !rc && rr < 2; rr++) {
                cc_tensor in = { 0 }, out[3] = { { 0 } };
                const cc_tensor *o[3] = { &out[0], &out[1], &out[2] };
                cc_model_eval ev;
                memset(&ev, 0, sizeof ev);
                CHECK(cc_tensor_alloc(&in, CC_F32, &sx, &e) == CC_OK);
                memcpy(in.data, xs[rr], sizeof xs[rr]);
                if (k) {
                    for (int j = 0; j < 3; j++)
                        CHECK(cc_tensor_alloc(&out[j], g->values[g->outputs[j]].dtype, &g->values[g->outputs[j]].shape,
                                              &e) == CC_OK);
                    rc = cc_graph_exec_run(gx, &in, out, &e);
                } else {
                    rc = cc_model_evaluate(g, &in, 0, NULL, &ev, &e);
                    for (int j = 0; !rc && j < 3; j++) o[j] = &ev.vals[g->outputs[j]];
                }
                if (rc) fprintf(stderr, "%s: %s\n", names[k], e.msg);
                CHECK(rc == CC_OK);
                for (int j = 0; !rc && j < 3; j++) CHECK(o[j]->shape.rank == 1 && o[j]->shape.dims[0] == cnt[rr]);
                for (int i = 0; !rc && i < cnt[rr]; i++) {
                    CHECK(((const int64_t *)o[0]->data)[i] == i);
                    CHECK(((const float *)o[1]->data)[i] == (float)idx[rr][i]);
                    CHECK(((const float *)o[2]->data)[i] == (float)idx[rr][i]);
                }
                cc_model_eval_free(&ev);
                cc_tensor_free(&in);
                for (int j = 0; j < 3; j++) cc_tensor_free(&out[j]);
            }
        }
        cc_graph_exec_destroy(gx);
        if (fb) fb->close(fb_ctx);
        if (t) t->close(ctx);
    }
    cc_model_free(m);
}

/* Segments wider than CC_MAX_IO: forty Gathers pick x's elements one by one, a NonZero of x
 * ends the segment (what follows waits for its actual shape), and two Sums of twenty read
 * all forty picks: the run before the NonZero has 41 outputs and the run after it 40 inputs,
 * more than one segment holds, so the executor splits them (it refused the model). The sum
 * of x and its non-zero positions, on ref, cpu, and opencl with cpu for the NonZero. */
static void wide_segments(void)
{
    cc_model_builder *b = NULL;
    cc_err e = { 0 };
    CHECK_OK(cc_mb_create("wide", &b, &e));
    int x, pick[40], nz, s1, s2, total;
    cc_shape xs = cc_shape_make(1, (int64_t[]){ 40 }), scalar = { 0 };
    CHECK_OK(cc_mb_input(b, "x", CC_F32, &xs, &x, &e));
    for (int i = 0; i < 40; i++) {
        cc_tensor idx = { 0 };
        int iv;
        char name[32];
        CHECK_OK(cc_tensor_alloc(&idx, CC_I64, &scalar, &e));
        ((int64_t *)idx.data)[0] = i;
        snprintf(name, sizeof name, "i%d", i);
        CHECK_OK(cc_mb_const(b, name, &idx, &iv, &e));
        snprintf(name, sizeof name, "pick%d", i);
        CHECK_OK(cc_mb_node(b, "Gather", name, NULL, 2, (int[]){ x, iv }, 1, &pick[i], NULL, &e));
    }
    CHECK_OK(cc_mb_node(b, "NonZero", "nz", NULL, 1, &x, 1, &nz, NULL, &e));
    CHECK_OK(cc_mb_node(b, "Sum", "s1", NULL, 20, pick, 1, &s1, NULL, &e));
    CHECK_OK(cc_mb_node(b, "Sum", "s2", NULL, 20, pick + 20, 1, &s2, NULL, &e));
    CHECK_OK(cc_mb_node(b, "Add", "total", NULL, 2, (int[]){ s1, s2 }, 1, &total, NULL, &e));
    CHECK_OK(cc_mb_output(b, total, &e));
    CHECK_OK(cc_mb_output(b, nz, &e));
    cc_model *m = NULL;
    CHECK_OK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e));
    if (!m) return;
    /* x_i = i, every fifth zero: 32 non-zeros, sum 780 - (0+5+...+35) = 780 - 140 = 640 */
    cc_tensor in = { 0 };
    CHECK_OK(cc_tensor_alloc(&in, CC_F32, &xs, &e));
    for (int i = 0; i < 40; i++) ((float *)in.data)[i] = i % 5 == 0 ? 0.0f : (float)i;
    const char *names[3] = { "ref", "cpu", "opencl" };
    for (int k = 0; k < 3; k++) {
        const cc_target_iface *t = cc_target_find(names[k]), *fb = k == 2 ? cc_target_find("cpu") : NULL;
        void *ctx = NULL, *fb_ctx = NULL;
        cc_device_desc d;
        if (!t || t->open("", &ctx, &d, &e)) {
            printf("%s: not available here\n", names[k]);
            continue;
        }
        if (fb) CHECK_OK(fb->open("", &fb_ctx, &d, &e));
        cc_graph_exec *gx = NULL;
        cc_graph_exec_info info;
        cc_status st = cc_graph_exec_create(&m->graph, t, ctx, fb, fb_ctx, &gx, &info, &e);
        if (st) fprintf(stderr, "%s: %s\n", names[k], e.msg);
        CHECK(st == CC_OK);
        if (!st) {
            CHECK(info.n_segments >= 4);
            cc_tensor out[2];
            memset(out, 0, sizeof out);
            for (int j = 0; j < 2; j++)
                CHECK_OK(cc_tensor_alloc(&out[j], m->graph.values[m->graph.outputs[j]].dtype,
                                         &m->graph.values[m->graph.outputs[j]].shape, &e));
            st = cc_graph_exec_run(gx, &in, out, &e);
            if (st) fprintf(stderr, "%s: %s\n", names[k], e.msg);
            CHECK(st == CC_OK);
            if (!st) {
                CHECK(((float *)out[0].data)[0] == 640.0f);
                CHECK(out[1].shape.rank == 2 && out[1].shape.dims[0] == 1 && out[1].shape.dims[1] == 32);
                for (int i = 0, n = 0; i < 40 && out[1].shape.dims[1] == 32; i++)
                    if (i % 5) CHECK(((int64_t *)out[1].data)[n++] == i);
            }
            for (int j = 0; j < 2; j++) cc_tensor_free(&out[j]);
        }
        cc_graph_exec_destroy(gx);
        if (fb) fb->close(fb_ctx);
        t->close(ctx);
    }
    cc_tensor_free(&in);
    cc_model_free(m);
}

/* Runs model m (input x: 6 floats, one f32 output) on the golden model, ref, cpu and opencl
 * with cpu's fallback, for each of the inputs xs[0..1]; want(r, out) checks run r's output
 * (its actual shape and values). */
static void run_six(const cc_model *m, const float xs[2][6], void (*want)(int r, const cc_tensor *out))
{
    const cc_graph *g = &m->graph;
    cc_err e = { 0 };
    cc_shape sx = cc_shape_make(1, (int64_t[]){ 6 });
    const char *names[4] = { "golden", "ref", "cpu", "opencl" };
    for (int k = 0; k < 4; k++) {
        const cc_target_iface *t = k ? cc_target_find(names[k]) : NULL, *fb = k == 3 ? cc_target_find("cpu") : NULL;
        void *ctx = NULL, *fb_ctx = NULL;
        cc_device_desc dd;
        if (k && (!t || t->open("", &ctx, &dd, &e))) continue;
        if (fb) CHECK_OK(fb->open("", &fb_ctx, &dd, &e));
        cc_graph_exec *gx = NULL;
        cc_graph_exec_info info;
        cc_status rc = k ? cc_graph_exec_create(g, t, ctx, fb, fb_ctx, &gx, &info, &e) : CC_OK;
        if (rc) fprintf(stderr, "%s: %s\n", names[k], e.msg);
        CHECK(rc == CC_OK);
        for (int rr = 0; !rc && rr < 2; rr++) {
            cc_tensor in = { 0 }, out = { 0 };
            const cc_tensor *o = &out;
            cc_model_eval ev;
            memset(&ev, 0, sizeof ev);
            CHECK_OK(cc_tensor_alloc(&in, CC_F32, &sx, &e));
            memcpy(in.data, xs[rr], sizeof xs[rr]);
            if (k) {
                CHECK_OK(cc_tensor_alloc(&out, CC_F32, &g->values[g->outputs[0]].shape, &e));
                rc = cc_graph_exec_run(gx, &in, &out, &e);
            } else {
                rc = cc_model_evaluate(g, &in, 0, NULL, &ev, &e);
                if (!rc) o = &ev.vals[g->outputs[0]];
            }
            if (rc) fprintf(stderr, "%s: %s\n", names[k], e.msg);
            CHECK(rc == CC_OK);
            if (!rc) want(rr, o);
            cc_model_eval_free(&ev);
            cc_tensor_free(&in);
            cc_tensor_free(&out);
        }
        cc_graph_exec_destroy(gx);
        if (fb) fb->close(fb_ctx);
        if (t) t->close(ctx);
    }
}

/* float_range's outputs: 2n - 1 values 0.5, 1, ... for n = 3 and 1 */
static void want_halves(int r, const cc_tensor *o)
{
    const int64_t cnt[2] = { 5, 1 };
    CHECK(o->shape.rank == 1 && o->shape.dims[0] == cnt[r]);
    for (int64_t i = 0; i < cnt[r] && o->shape.dims[0] == cnt[r]; i++)
        CHECK(((const float *)o->data)[i] == 0.5f * (float)(i + 1));
}

/* where_shape's outputs: [1, n] of 2.5 for n = 3 and 1 */
static void want_fill(int r, const cc_tensor *o)
{
    const int64_t cnt[2] = { 3, 1 };
    CHECK(o->shape.rank == 2 && o->shape.dims[0] == 1 && o->shape.dims[1] == cnt[r]);
    for (int64_t i = 0; i < cnt[r] && o->shape.dims[1] == cnt[r]; i++) CHECK(((const float *)o->data)[i] == 2.5f);
}

/* Range in float to a NonZero's count n cast to float, from 0.5 by 0.5: 2n - 1 values
 * (0.5, 1, ..., n - 0.5), bound at import from n's range [0, 6] (ceil(5.5 / 0.5) + 1 = 12:
 * one more for the float division's rounding); on the golden model, ref, cpu and opencl
 * with cpu's fallback, as n changes (the builder refused it: a float computation). */
static void float_range(void)
{
    cc_model_builder *b = NULL;
    cc_err e = { 0 };
    int x, nz, s, n, nf, rg, half;
    cc_shape sx = cc_shape_make(1, (int64_t[]){ 6 }), scalar = cc_shape_make(0, NULL);
    CHECK_OK(cc_mb_create("float_range", &b, &e));
    CHECK_OK(cc_mb_input(b, "x", CC_F32, &sx, &x, &e));
    int one = i64_const(b, "one", 1, (int64_t[]){ 1 }, 1, &e);
    cc_tensor h = { 0 };
    CHECK_OK(cc_tensor_alloc(&h, CC_F32, &scalar, &e));
    ((float *)h.data)[0] = 0.5f;
    CHECK_OK(cc_mb_const(b, "half", &h, &half, &e));
    CHECK_OK(cc_mb_node(b, "NonZero", "nz", NULL, 1, &x, 1, &nz, NULL, &e));
    CHECK_OK(cc_mb_node(b, "Shape", "shape", NULL, 1, &nz, 1, &s, NULL, &e));
    CHECK_OK(cc_mb_node(b, "Gather", "n", NULL, 2, (int[]){ s, one }, 1, &n, NULL, &e));
    CHECK_OK(cc_mb_node(b, "Cast", "nf", "to=1", 1, &n, 1, &nf, NULL, &e));
    cc_status st = cc_mb_node(b, "Range", "range", NULL, 3, (int[]){ half, nf, half }, 1, &rg, NULL, &e);
    if (st) fprintf(stderr, "float_range: %s\n", e.msg);
    CHECK(st == CC_OK);
    CHECK_OK(cc_mb_output(b, rg, &e));
    cc_model *m = NULL;
    CHECK_OK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e));
    if (!m) return;
    const cc_graph *g = &m->graph;
    CHECK(g->values[rg].dtype == CC_F32 && g->values[rg].shape.dims[0] == 12);
    const float xs[2][6] = { { 0, 5, 0, 7, 9, 0 }, { 4, 0, 0, 0, 0, 0 } };
    run_six(m, xs, want_halves);
    cc_model_free(m);
}

/* Expand to a shape chosen by Where, as torchvision's expand_as exports it: Where(s == -1,
 * 1, s) with s the Shape of a NonZero's [1, k]. Where's values lie in the union of its two
 * choices' ranges ([1, 1] and [1, 0..6]), so the Expand is bounded by [1, 6] (it was
 * refused: "shape must be a constant input"); 2.5 repeated k times, on the golden model,
 * ref, cpu and opencl with cpu's fallback. */
static void where_shape(void)
{
    cc_model_builder *b = NULL;
    cc_err e = { 0 };
    int x, nz, s, eq, w, y, c;
    cc_shape sx = cc_shape_make(1, (int64_t[]){ 6 }), s11 = cc_shape_make(2, (int64_t[]){ 1, 1 });
    CHECK_OK(cc_mb_create("where_shape", &b, &e));
    CHECK_OK(cc_mb_input(b, "x", CC_F32, &sx, &x, &e));
    int ones = i64_const(b, "ones", 2, (int64_t[]){ 1, 1 }, 0, &e);
    int neg = i64_const(b, "neg", 2, (int64_t[]){ -1, -1 }, 0, &e);
    cc_tensor ct = { 0 };
    CHECK_OK(cc_tensor_alloc(&ct, CC_F32, &s11, &e));
    ((float *)ct.data)[0] = 2.5f;
    CHECK_OK(cc_mb_const(b, "c", &ct, &c, &e));
    CHECK_OK(cc_mb_node(b, "NonZero", "nz", NULL, 1, &x, 1, &nz, NULL, &e));
    CHECK_OK(cc_mb_node(b, "Shape", "shape", NULL, 1, &nz, 1, &s, NULL, &e));
    CHECK_OK(cc_mb_node(b, "Equal", "eq", NULL, 2, (int[]){ s, neg }, 1, &eq, NULL, &e));
    CHECK_OK(cc_mb_node(b, "Where", "where", NULL, 3, (int[]){ eq, ones, s }, 1, &w, NULL, &e));
    cc_status st = cc_mb_node(b, "Expand", "expand", NULL, 2, (int[]){ c, w }, 1, &y, NULL, &e);
    if (st) fprintf(stderr, "where_shape: %s\n", e.msg);
    CHECK(st == CC_OK);
    if (st) {
        cc_mb_destroy(b);
        return;
    }
    CHECK_OK(cc_mb_output(b, y, &e));
    cc_model *m = NULL;
    CHECK_OK(cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e));
    if (!m) return;
    const cc_graph *g = &m->graph;
    CHECK(g->values[y].shape.rank == 2 && g->values[y].shape.dims[1] == 6);
    const float xs[2][6] = { { 0, 5, 0, 7, 9, 0 }, { 4, 0, 0, 0, 0, 0 } };
    run_six(m, xs, want_fill);
    cc_model_free(m);
}

int main(void)
{
    cc_model *m = nonzero_model(0);
    CHECK(m != NULL);
    if (m) {
        run_on(m, "ref", NULL);
        run_on(m, "cpu", NULL);
        run_on(m, "opencl", NULL);
        run_on(m, "opencl", "cpu");
        cc_model_free(m);
    }
    feeding();
    topk_runtime_k();
    slice_runtime_bounds();
    shape_from_data();
    range_split();
    wide_segments();
    float_range();
    where_shape();
    return CC_TEST_RESULT();
}
