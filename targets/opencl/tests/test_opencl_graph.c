/* test_opencl_graph.c — the opencl backend on a graph of several nodes, the way models
 * run: x -> Conv -> Relu -> GlobalAveragePool -> Flatten, with outputs that exercise
 * every binding of a plan: the last value, an intermediate that a later node also reads,
 * the same value listed twice, and a graph input passed straight through. Inputs are
 * small integers, so every output is exact in f32 and must equal, bit for bit, the
 * test's own straight-loop evaluation of the same chain. The plan runs twice with
 * different inputs (buffers rebound) and once device-timed. Exits 77 when no OpenCL
 * device opens here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "ops/core/rng.h"
#include "targets/target.h"

extern const cc_target_iface cc_target_opencl;

enum { V_X, V_W, V_CONV, V_RELU, V_GAP, V_FLAT, N_VALUES };
#define N_NODES 4
#define N_OUTPUTS 4

static cc_node make_node(const char *op, int n_in, const int *in, int out)
{
    cc_node node;
    memset(&node, 0, sizeof node);
    node.op = cc_catalog_find(op);
    cc_err e;
    if (!node.op || cc_node_set_defaults(&node, &e) != CC_OK) {
        fprintf(stderr, "cannot make a %s node\n", op);
        exit(1);
    }
    node.n_in = n_in;
    for (int i = 0; i < n_in; i++) node.in[i] = in[i];
    node.n_out = 1;
    node.out[0] = out;
    snprintf(node.name, sizeof node.name, "%s", op);
    return node;
}

/* The expected outputs by straight loops: 3x3 conv with one pixel of zero padding, relu,
 * mean over the 8x8 plane. want[] gets flat, relu, flat, x. */
static void expected(const float *x, const float *w, cc_tensor *want)
{
    float *relu = want[1].data, *flat = want[0].data;
    for (int m = 0; m < 4; m++) {
        double sum = 0;
        for (int oh = 0; oh < 8; oh++)
            for (int ow = 0; ow < 8; ow++) {
                double acc = 0;
                for (int c = 0; c < 3; c++)
                    for (int kh = 0; kh < 3; kh++)
                        for (int kw = 0; kw < 3; kw++) {
                            int ih = oh + kh - 1, iw = ow + kw - 1;
                            if (ih < 0 || ih >= 8 || iw < 0 || iw >= 8) continue;
                            acc += (double)x[(c * 8 + ih) * 8 + iw] * w[((m * 3 + c) * 3 + kh) * 3 + kw];
                        }
                relu[(m * 8 + oh) * 8 + ow] = (float)(acc > 0 ? acc : 0);
                sum += acc > 0 ? acc : 0;
            }
        flat[m] = (float)(sum / 64);
    }
    memcpy(want[2].data, flat, 4 * sizeof(float));
    memcpy(want[3].data, x, 3 * 64 * sizeof(float));
}

static void fill(cc_tensor *t, cc_rng *rng, int lo, int hi)
{
    for (int64_t i = 0; i < cc_tensor_numel(t); i++) ((float *)t->data)[i] = (float)cc_rng_int(rng, lo, hi);
}

/* Runs g on target t with input x; writes the outputs into got (allocated here). With
 * device_time non-NULL also runs device-timed once. Returns the first failing status. */
static cc_status run_graph(const cc_target_iface *t, const cc_graph *g, const cc_tensor *x, cc_tensor *got,
                           double *device_time, cc_err *err)
{
    void *ctx = NULL, *plan = NULL, *in_buf = NULL, *out_buf[N_OUTPUTS] = { 0 };
    cc_device_desc desc;
    cc_status st = t->open("", &ctx, &desc, err);
    if (st) return st;
    if ((st = t->prepare(ctx, g, &plan, err))) goto done;
    if ((st = t->buffer_alloc(ctx, cc_tensor_bytes(x), &in_buf, err))) goto done;
    if ((st = t->upload(ctx, in_buf, x->data, cc_tensor_bytes(x), err))) goto done;
    for (int j = 0; j < N_OUTPUTS; j++) {
        const cc_tensor *d = &g->values[g->outputs[j]];
        got[j].dtype = d->dtype;
        got[j].shape = d->shape;
        got[j].data = calloc(1, cc_tensor_bytes(d));
        if ((st = t->buffer_alloc(ctx, cc_tensor_bytes(d), &out_buf[j], err))) goto done;
    }
    void *ins[1] = { in_buf };
    if ((st = t->run(ctx, plan, ins, out_buf, err)) || (st = t->sync(ctx, err))) goto done;
    if (device_time && t->run_timed && (st = t->run_timed(ctx, plan, ins, out_buf, device_time, err))) goto done;
    for (int j = 0; j < N_OUTPUTS; j++)
        if ((st = t->download(ctx, out_buf[j], got[j].data, cc_tensor_bytes(&got[j]), err))) goto done;
done:
    for (int j = 0; j < N_OUTPUTS; j++)
        if (out_buf[j]) t->buffer_free(ctx, out_buf[j]);
    if (in_buf) t->buffer_free(ctx, in_buf);
    if (plan) t->release(ctx, plan);
    t->close(ctx);
    return st;
}

int main(void)
{
    void *probe = NULL;
    cc_device_desc desc;
    cc_err err = { 0 };
    if (cc_target_opencl.open("", &probe, &desc, &err) != CC_OK) CC_TEST_SKIP(err.msg);
    cc_target_opencl.close(probe);

    const int64_t xd[4] = { 1, 3, 8, 8 }, wd[4] = { 4, 3, 3, 3 }, yd[4] = { 1, 4, 8, 8 }, gd[4] = { 1, 4, 1, 1 },
                  fd[2] = { 1, 4 };
    cc_tensor values[N_VALUES];
    memset(values, 0, sizeof values);
    cc_shape xs = cc_shape_make(4, xd), ws = cc_shape_make(4, wd);
    values[V_X].dtype = CC_F32;
    values[V_X].shape = xs;
    CHECK(cc_tensor_alloc(&values[V_W], CC_F32, &ws, &err) == CC_OK);
    values[V_CONV].shape = cc_shape_make(4, yd);
    values[V_RELU].shape = cc_shape_make(4, yd);
    values[V_GAP].shape = cc_shape_make(4, gd);
    values[V_FLAT].shape = cc_shape_make(2, fd);
    cc_rng rng;
    cc_rng_seed(&rng, 42);
    fill(&values[V_W], &rng, -3, 3);

    const int conv_in[2] = { V_X, V_W }, relu_in[1] = { V_CONV }, gap_in[1] = { V_RELU }, flat_in[1] = { V_GAP };
    cc_node nodes[N_NODES] = {
        make_node("Conv", 2, conv_in, V_CONV),
        make_node("Relu", 1, relu_in, V_RELU),
        make_node("GlobalAveragePool", 1, gap_in, V_GAP),
        make_node("Flatten", 1, flat_in, V_FLAT),
    };
    cc_attr_value *pads = &nodes[0].attrs[cc_attr_index(nodes[0].op, "pads")];
    pads->set = 1;
    pads->n = 4;
    for (int i = 0; i < 4; i++) pads->ints[i] = 1;

    cc_graph g;
    memset(&g, 0, sizeof g);
    g.n_values = N_VALUES;
    g.values = values;
    g.n_nodes = N_NODES;
    g.nodes = nodes;
    g.n_inputs = 1;
    g.inputs[0] = V_X;
    g.n_outputs = N_OUTPUTS;
    const int outs[N_OUTPUTS] = { V_FLAT, V_RELU, V_FLAT, V_X };
    for (int j = 0; j < N_OUTPUTS; j++) g.outputs[j] = outs[j];

    cc_tensor x = { .dtype = CC_F32, .shape = xs };
    CHECK(cc_tensor_alloc(&x, CC_F32, &xs, &err) == CC_OK);
    for (int round = 0; round < 2; round++) {
        fill(&x, &rng, -4, 4);
        cc_tensor want[N_OUTPUTS], got[N_OUTPUTS];
        memset(want, 0, sizeof want);
        memset(got, 0, sizeof got);
        double dev = -1;
        for (int j = 0; j < N_OUTPUTS; j++) {
            want[j].dtype = CC_F32;
            want[j].shape = values[outs[j]].shape;
            want[j].data = calloc(1, cc_tensor_bytes(&want[j]));
        }
        expected(x.data, values[V_W].data, want);
        cc_status st = run_graph(&cc_target_opencl, &g, &x, got, &dev, &err);
        if (st) fprintf(stderr, "opencl: %s\n", err.msg);
        CHECK(st == CC_OK);
        CHECK(dev > 0);
        int nonzero = 0;
        for (int j = 0; j < N_OUTPUTS; j++) {
            CHECK(cc_tensor_bytes(&got[j]) == cc_tensor_bytes(&want[j]));
            if (got[j].data && want[j].data)
                CHECK(memcmp(got[j].data, want[j].data, cc_tensor_bytes(&want[j])) == 0);
            for (int64_t i = 0; want[j].data && i < cc_tensor_numel(&want[j]); i++)
                nonzero += ((float *)want[j].data)[i] != 0;
        }
        CHECK(nonzero > 0); /* the comparison means something */
        printf("round %d: %d outputs as expected; device time %.1f us\n", round, N_OUTPUTS, dev * 1e6);
        for (int j = 0; j < N_OUTPUTS; j++) {
            free(want[j].data);
            free(got[j].data);
        }
    }
    cc_tensor_free(&x);
    cc_tensor_free(&values[V_W]);
    return CC_TEST_RESULT();
}
