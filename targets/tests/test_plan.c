/* test_plan.c — the shared planner (targets/plan.c) on a toy backend of the test's own:
 * host buffers, kernels for Relu and Add that record every call, and memory hooks that
 * count. Checks what the planner promises every backend: dispatch by op id, results of a
 * chain of nodes, intermediate buffers reused only between values whose lifetimes do not
 * overlap (never a node's output in its own input's buffer), outputs written in place or
 * copied (a graph input passed through, a value listed twice), constants uploaded once or
 * read in place, reasons for unsupported nodes, the kernel table's duplicate check, the
 * output-shape check, the warm-up run, and the release of every prepared kernel state,
 * after a failure too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "targets/plan.h"

#define N 1024 /* elements of every tensor: 4 KiB in f32 */

/* ---- the toy backend ------------------------------------------------------------------- */

typedef struct toy_ctx {
    int allocs, frees, uploads, copies, syncs;
    int runs, prepares, releases;
    int fail_prepare_at;        /* prepare of the k-th node (1-based) fails; 0: never */
    int saw_ones;               /* a run whose first input began with byte 0x01 */
    const void *out_of[16];     /* output buffer of the last run of each call index */
    const void *in_of[16][2];
} toy_ctx;

static cc_status toy_alloc(void *ctx, size_t bytes, void **buf, cc_err *err)
{
    ((toy_ctx *)ctx)->allocs++;
    return cc_host_buffer_alloc(ctx, bytes, buf, err);
}

static void toy_free(void *ctx, void *buf)
{
    if (buf) ((toy_ctx *)ctx)->frees++;
    cc_host_buffer_free(ctx, buf);
}

static cc_status toy_upload(void *ctx, void *buf, const void *src, size_t bytes, cc_err *err)
{
    ((toy_ctx *)ctx)->uploads++;
    return cc_host_upload(ctx, buf, src, bytes, err);
}

static cc_status toy_copy(void *ctx, void *dst, const void *src, size_t bytes, cc_err *err)
{
    (void)err;
    ((toy_ctx *)ctx)->copies++;
    memcpy(dst, src, bytes);
    return CC_OK;
}

static cc_status toy_sync(void *ctx, cc_err *err)
{
    (void)err;
    ((toy_ctx *)ctx)->syncs++;
    return CC_OK;
}

static cc_support toy_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                               const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)node;
    (void)out;
    if (in[0]->dtype != CC_F32) {
        snprintf(reason, n, "toy: f32 only, got %s", cc_dtype_name(in[0]->dtype));
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static cc_status toy_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                             const cc_tensor *out, void **state, cc_err *err)
{
    (void)in;
    (void)n_out;
    (void)out;
    toy_ctx *c = ctx;
    c->prepares++;
    if (c->fail_prepare_at == c->prepares) return cc_err_set(err, CC_ERR_DEVICE, "toy: prepare fails");
    int *s = malloc(sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "toy: out of memory");
    *s = c->prepares;
    *state = s;
    cc_backend_note("%s kernel", node->op->name);
    return CC_OK;
}

/* Releases count through a global: release() gets only the state. */
static int toy_released;

static void toy_release(void *state)
{
    if (state) toy_released++;
    free(state);
}

static cc_status toy_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                         cc_tensor *out, void *state, cc_err *err)
{
    (void)n_out;
    (void)err;
    toy_ctx *c = ctx;
    int k = c->runs++ % 16;
    c->out_of[k] = out[0].data;
    c->in_of[k][0] = in[0]->data;
    c->in_of[k][1] = node->n_in > 1 ? in[1]->data : NULL;
    if (((const unsigned char *)in[0]->data)[0] == 0x01) c->saw_ones = 1;
    CHECK(state != NULL);
    const float *a = in[0]->data, *b = node->n_in > 1 ? in[1]->data : NULL;
    float *y = out[0].data;
    int64_t n = cc_tensor_numel(&out[0]);
    for (int64_t i = 0; i < n; i++) y[i] = b ? a[i] + b[i] : a[i] > 0 ? a[i] : 0;
    return CC_OK;
}

static const cc_kernel toy_kernels[] = {
    { .op = CC_OP_ID_Relu, .supports = toy_supports, .prepare = toy_prepare, .release = toy_release,
      .run = toy_run },
    { .op = CC_OP_ID_Add, .supports = toy_supports, .prepare = toy_prepare, .release = toy_release,
      .run = toy_run },
};
static const cc_kernel_list toy_list = { .n = 2, .kernels = toy_kernels };
static cc_kernel_table toy_table;

static cc_plan_backend toy_backend(int host_memory, int warm_up)
{
    return (cc_plan_backend){ .name = "toy", .kernels = &toy_table, .host_memory = host_memory,
                              .warm_up = warm_up, .alloc = toy_alloc, .free = toy_free,
                              .upload = toy_upload, .copy = toy_copy, .sync = toy_sync };
}

/* ---- graphs ---------------------------------------------------------------------------- */

static cc_node node_of(const char *op, int a, int b, int out)
{
    cc_node node;
    memset(&node, 0, sizeof node);
    node.op = cc_catalog_find(op);
    cc_err e;
    if (!node.op || cc_node_set_defaults(&node, &e) != CC_OK) {
        fprintf(stderr, "cannot make a %s node\n", op);
        exit(1);
    }
    node.n_in = b < 0 ? 1 : 2;
    node.in[0] = a;
    node.in[1] = b;
    node.n_out = 1;
    node.out[0] = out;
    snprintf(node.name, sizeof node.name, "%s", op);
    return node;
}

static void describe(cc_tensor *t, cc_dtype dt)
{
    memset(t, 0, sizeof *t);
    int64_t d = N;
    t->dtype = dt;
    t->shape = cc_shape_make(1, &d);
}

/* x -> Relu v1 -> Relu v2 -> Add(v2, v1) v3 -> Relu v4 -> Add(v4, c) y, with c a constant
 * of ones. v1 lives until node 2, v2 until 2, v3 until 3, v4 until 4: v3 must not share
 * with v1 or v2 (node 2 reads them), v4 may take v1's or v2's buffer. */
enum { X, V1, V2, V3, V4, C, Y, N_VAL };

typedef struct chain {
    cc_tensor values[N_VAL];
    cc_node nodes[5];
    cc_graph g;
    float cdata[N];
} chain;

static void chain_make(chain *ch)
{
    memset(ch, 0, sizeof *ch);
    for (int v = 0; v < N_VAL; v++) describe(&ch->values[v], CC_F32);
    for (int i = 0; i < N; i++) ch->cdata[i] = 1.0f;
    ch->values[C].data = ch->cdata;
    ch->nodes[0] = node_of("Relu", X, -1, V1);
    ch->nodes[1] = node_of("Relu", V1, -1, V2);
    ch->nodes[2] = node_of("Add", V2, V1, V3);
    ch->nodes[3] = node_of("Relu", V3, -1, V4);
    ch->nodes[4] = node_of("Add", V4, C, Y);
    ch->g.n_values = N_VAL;
    ch->g.values = ch->values;
    ch->g.n_nodes = 5;
    ch->g.nodes = ch->nodes;
    ch->g.n_inputs = 1;
    ch->g.inputs[0] = X;
    ch->g.n_outputs = 1;
    ch->g.outputs[0] = Y;
}

static void test_chain(int host_memory)
{
    chain ch;
    chain_make(&ch);
    toy_ctx c = { 0 };
    cc_plan_backend b = toy_backend(host_memory, 0);
    cc_err e = { 0 };
    cc_plan *p = NULL;
    toy_released = 0;
    CHECK_OK(cc_plan_prepare(&b, &c, &ch.g, &p, &e));
    if (!p) return;
    CHECK(c.prepares == 5);
    /* v1, v2, v3 live at once (node 2 reads v1 and v2 and writes v3); v4 reuses one */
    size_t pooled = 0, separate = 0;
    cc_plan_memory(p, &pooled, &separate);
    CHECK(separate == 4 * N * sizeof(float));
    CHECK(pooled == 3 * N * sizeof(float));
    /* the constant: uploaded once into a buffer of its own, or read in place */
    CHECK(c.uploads == (host_memory ? 0 : 1));

    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    for (int i = 0; i < N; i++) x[i] = (float)(i % 7) - 3.0f;
    void *in[1] = { x }, *out[1] = { y };
    CHECK_OK(cc_plan_run(p, in, out, &e));
    for (int i = 0; i < N; i++) {
        float r = x[i] > 0 ? x[i] : 0;
        CHECK(y[i] == 2 * r + 1); /* relu(relu(r) + r) + 1 */
    }
    /* the last node wrote straight into the output; nobody wrote into an input's buffer */
    CHECK(c.out_of[4] == y);
    CHECK(c.copies == 0);
    for (int k = 0; k < 5; k++) {
        CHECK(c.out_of[k] != c.in_of[k][0]);
        CHECK(c.out_of[k] != c.in_of[k][1]);
    }
    /* node 3 (Relu of v3) wrote v4 into v1's or v2's buffer, freed after node 2 */
    CHECK(c.out_of[3] == c.out_of[0] || c.out_of[3] == c.out_of[1]);
    if (host_memory) CHECK(c.in_of[4][1] == ch.cdata);
    else CHECK(c.in_of[4][1] != ch.cdata);

    char desc[256];
    cc_plan_describe(p, desc, sizeof desc);
    CHECK(strcmp(desc, "Relu: Relu kernel x3; Add: Add kernel x2") == 0);
    printf("chain (host_memory %d): %zu bytes pooled for %zu; plan: %s\n", host_memory, pooled, separate, desc);
    int allocs = c.allocs;
    cc_plan_release(p);
    CHECK(toy_released == 5);
    CHECK(c.frees == allocs);
    free(x);
    free(y);
}

/* A graph input passed through as an output and a value listed twice: both copied. */
static void test_outputs(void)
{
    cc_tensor values[2];
    describe(&values[0], CC_F32);
    describe(&values[1], CC_F32);
    cc_node nodes[1] = { node_of("Relu", 0, -1, 1) };
    cc_graph g = { .n_values = 2, .values = values, .n_nodes = 1, .nodes = nodes, .n_inputs = 1,
                   .n_outputs = 3 };
    g.inputs[0] = 0;
    g.outputs[0] = 1;
    g.outputs[1] = 0;
    g.outputs[2] = 1;
    toy_ctx c = { 0 };
    cc_plan_backend b = toy_backend(1, 0);
    cc_err e = { 0 };
    cc_plan *p = NULL;
    CHECK_OK(cc_plan_prepare(&b, &c, &g, &p, &e));
    if (!p) return;
    float x[N], y0[N], y1[N], y2[N];
    for (int i = 0; i < N; i++) x[i] = (float)i - 512;
    void *in[1] = { x }, *out[3] = { y0, y1, y2 };
    CHECK_OK(cc_plan_run(p, in, out, &e));
    CHECK(c.copies == 2);
    for (int i = 0; i < N; i++) {
        CHECK(y0[i] == (x[i] > 0 ? x[i] : 0));
        CHECK(y1[i] == x[i]);
        CHECK(y2[i] == y0[i]);
    }
    cc_plan_release(p);
}

/* Unsupported nodes, the reasons, and a wrong declared output. */
static void test_refusals(void)
{
    cc_tensor values[2];
    describe(&values[0], CC_F32);
    describe(&values[1], CC_F32);
    cc_node nodes[1] = { node_of("Sigmoid", 0, -1, 1) };
    cc_graph g = { .n_values = 2, .values = values, .n_nodes = 1, .nodes = nodes, .n_inputs = 1,
                   .n_outputs = 1 };
    g.inputs[0] = 0;
    g.outputs[0] = 1;
    toy_ctx c = { 0 };
    cc_plan_backend b = toy_backend(1, 0);
    char reason[256];
    CHECK(cc_plan_supports(&b, &c, &g, &nodes[0], reason, sizeof reason) == CC_SUPPORT_NO);
    CHECK(strcmp(reason, "toy has no kernel for Sigmoid") == 0);
    cc_err e = { 0 };
    cc_plan *p = NULL;
    CHECK(cc_plan_prepare(&b, &c, &g, &p, &e) == CC_ERR_UNSUPPORTED);
    CHECK(p == NULL);
    CHECK(strcmp(e.msg, "toy has no kernel for Sigmoid") == 0);

    /* the kernel's own refusal, word for word */
    nodes[0] = node_of("Relu", 0, -1, 1);
    describe(&values[0], CC_F16);
    describe(&values[1], CC_F16);
    CHECK(cc_plan_supports(&b, &c, &g, &nodes[0], reason, sizeof reason) == CC_SUPPORT_NO);
    CHECK(strcmp(reason, "toy: f32 only, got f16") == 0);
    CHECK(cc_plan_prepare(&b, &c, &g, &p, &e) == CC_ERR_UNSUPPORTED);
    CHECK(strcmp(e.msg, "toy: f32 only, got f16") == 0);

    /* a graph output declared with another shape than its node gives */
    describe(&values[0], CC_F32);
    describe(&values[1], CC_F32);
    values[1].shape.dims[0] = N + 1;
    CHECK(cc_plan_prepare(&b, &c, &g, &p, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "toy: graph output value 1 is") == e.msg);

    /* a node input naming no value */
    values[1].shape.dims[0] = N;
    nodes[0].in[0] = 7;
    CHECK(cc_plan_supports(&b, &c, &g, &nodes[0], reason, sizeof reason) == CC_SUPPORT_NO);
    CHECK(strstr(reason, "names value 7") != NULL);
}

/* A prepare that fails half-way releases the states made so far and every buffer. */
static void test_failure_releases(void)
{
    chain ch;
    chain_make(&ch);
    toy_ctx c = { .fail_prepare_at = 4 };
    cc_plan_backend b = toy_backend(0, 0);
    cc_err e = { 0 };
    cc_plan *p = NULL;
    toy_released = 0;
    CHECK(cc_plan_prepare(&b, &c, &ch.g, &p, &e) == CC_ERR_DEVICE);
    CHECK(p == NULL);
    CHECK(strcmp(e.msg, "toy: prepare fails") == 0);
    CHECK(toy_released == 3);
    CHECK(c.allocs > 0);
    CHECK(c.frees == c.allocs);
}

/* The warm-up run: on stand-ins of 0x01 bytes, waited for, before prepare returns. */
static void test_warm_up(void)
{
    chain ch;
    chain_make(&ch);
    toy_ctx c = { 0 };
    cc_plan_backend b = toy_backend(0, 1);
    cc_err e = { 0 };
    cc_plan *p = NULL;
    CHECK_OK(cc_plan_prepare(&b, &c, &ch.g, &p, &e));
    CHECK(c.runs == 5);
    CHECK(c.saw_ones);
    CHECK(c.syncs >= 1);
    cc_plan_release(p);
    CHECK(c.frees == c.allocs);
}

static void test_table(void)
{
    cc_err e = { 0 };
    const cc_kernel_list *one[] = { &toy_list };
    CHECK_OK(cc_kernel_table_build(&toy_table, one, 1, "toy", &e));
    CHECK(toy_table.by_id[CC_OP_ID_Relu] == &toy_kernels[0]);
    CHECK(toy_table.by_id[CC_OP_ID_Add] == &toy_kernels[1]);
    CHECK(toy_table.by_id[CC_OP_ID_Conv] == NULL);
    cc_kernel_table twice;
    const cc_kernel_list *two[] = { &toy_list, &toy_list };
    CHECK(cc_kernel_table_build(&twice, two, 2, "toy", &e) == CC_ERR_INTERNAL);
    CHECK(strcmp(e.msg, "toy: two kernels for Relu") == 0);
}

int main(void)
{
    test_table();
    test_chain(1);
    test_chain(0);
    test_outputs();
    test_refusals();
    test_failure_releases();
    test_warm_up();
    return CC_TEST_RESULT();
}
