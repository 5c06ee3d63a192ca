/* test_onnx_bad.c — the ONNX importer on models built by hand with the generated
 * protobuf-c structs (onnx__model_proto__pack into temporary files): a small valid graph
 * whose values are worked out by hand (written out of topological order, with a
 * Constant node, raw_data and float_data initializers), the rewrites of older opsets,
 * TensorProto files, and bad input: truncated, random and empty files, unknown ops,
 * domains and attributes, unsupported opsets, inconsistent shapes, symbolic dims,
 * external data; control flow (an If whose branches read the outer graph, missing or
 * mistyped graph attributes, a body that takes fewer inputs than its node passes, nesting
 * past CC_CONTROL_MAX_DEPTH). Every failure must be one line with the right status, naming the
 * problem; none may crash. */
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/cctest.h"
#include "models/onnx_import.h"
#include "models/onnx_internal.h"
#include "onnx.pb-c.h"

#define NODE_DIR "/usr/include/onnx/backend/test/data/node"

/* ---- a hand-made model ------------------------------------------------------------------ */

#define HM_MAX 12

typedef struct hm {
    Onnx__ModelProto model;
    Onnx__GraphProto graph;
    Onnx__OperatorSetIdProto opset, *opsets[1];
    int n_nodes;
    Onnx__NodeProto nodes[HM_MAX], *node_ptrs[HM_MAX];
    char *node_in[HM_MAX][HM_MAX], *node_out[HM_MAX][HM_MAX];
    Onnx__AttributeProto attrs[HM_MAX][HM_MAX], *attr_ptrs[HM_MAX][HM_MAX];
    int n_vi;
    Onnx__ValueInfoProto vis[HM_MAX], *in_ptrs[HM_MAX], *out_ptrs[HM_MAX];
    Onnx__TypeProto types[HM_MAX];
    Onnx__TypeProto__Tensor tts[HM_MAX];
    Onnx__TensorShapeProto shapes[HM_MAX];
    Onnx__TensorShapeProto__Dimension dims[HM_MAX][HM_MAX], *dim_ptrs[HM_MAX][HM_MAX];
    int n_inits;
    Onnx__TensorProto inits[HM_MAX], *init_ptrs[HM_MAX];
    int64_t init_dims[HM_MAX][HM_MAX];
    Onnx__StringStringEntryProto ext, *ext_ptrs[1];
} hm;

static void hm_init(hm *h, int opset)
{
    memset(h, 0, sizeof *h);
    onnx__model_proto__init(&h->model);
    onnx__graph_proto__init(&h->graph);
    onnx__operator_set_id_proto__init(&h->opset);
    h->model.has_ir_version = 1;
    h->model.ir_version = 8;
    h->opset.domain = "";
    h->opset.has_version = 1;
    h->opset.version = opset;
    h->opsets[0] = &h->opset;
    h->model.n_opset_import = 1;
    h->model.opset_import = h->opsets;
    h->model.graph = &h->graph;
    h->graph.name = "handmade";
    h->graph.node = h->node_ptrs;
    h->graph.input = h->in_ptrs;
    h->graph.output = h->out_ptrs;
    h->graph.initializer = h->init_ptrs;
}

/* A tensor ValueInfo; a dim of -1 is symbolic ("N"), -2 unknown. */
static Onnx__ValueInfoProto *hm_vi(hm *h, const char *name, int elem, int rank, const int64_t *d)
{
    int i = h->n_vi++;
    Onnx__ValueInfoProto *v = &h->vis[i];
    onnx__value_info_proto__init(v);
    onnx__type_proto__init(&h->types[i]);
    onnx__type_proto__tensor__init(&h->tts[i]);
    onnx__tensor_shape_proto__init(&h->shapes[i]);
    v->name = (char *)name;
    v->type = &h->types[i];
    h->types[i].value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    h->types[i].tensor_type = &h->tts[i];
    h->tts[i].has_elem_type = 1;
    h->tts[i].elem_type = elem;
    h->tts[i].shape = &h->shapes[i];
    h->shapes[i].n_dim = (size_t)rank;
    h->shapes[i].dim = h->dim_ptrs[i];
    for (int k = 0; k < rank; k++) {
        Onnx__TensorShapeProto__Dimension *dm = &h->dims[i][k];
        onnx__tensor_shape_proto__dimension__init(dm);
        if (d[k] >= 0) {
            dm->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
            dm->dim_value = d[k];
        } else if (d[k] == -1) {
            dm->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
            dm->dim_param = "N";
        }
        h->dim_ptrs[i][k] = dm;
    }
    return v;
}

static void hm_input(hm *h, const char *name, int elem, int rank, const int64_t *d)
{
    h->in_ptrs[h->graph.n_input++] = hm_vi(h, name, elem, rank, d);
}

static void hm_output(hm *h, const char *name, int elem, int rank, const int64_t *d)
{
    h->out_ptrs[h->graph.n_output++] = hm_vi(h, name, elem, rank, d);
}

/* An initializer; vals (n elements of the data type's C type) go to raw_data when raw,
 * else to the typed field. The data must outlive hm_write. */
static Onnx__TensorProto *hm_init_tensor(hm *h, const char *name, int type, int rank, const int64_t *d, void *vals,
                                         size_t n, int raw)
{
    int i = h->n_inits++;
    Onnx__TensorProto *t = &h->inits[i];
    onnx__tensor_proto__init(t);
    t->name = (char *)name;
    t->has_data_type = 1;
    t->data_type = type;
    t->n_dims = (size_t)rank;
    if (rank > 0) memcpy(h->init_dims[i], d, sizeof(int64_t) * (size_t)rank);
    t->dims = h->init_dims[i];
    size_t w = type == ONNX__TENSOR_PROTO__DATA_TYPE__INT64 ? 8 : 4;
    if (raw) {
        t->has_raw_data = 1;
        t->raw_data.len = n * w;
        t->raw_data.data = vals;
    } else if (type == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT) {
        t->n_float_data = n;
        t->float_data = vals;
    } else if (type == ONNX__TENSOR_PROTO__DATA_TYPE__INT64) {
        t->n_int64_data = n;
        t->int64_data = vals;
    } else {
        t->n_int32_data = n;
        t->int32_data = vals;
    }
    h->init_ptrs[h->graph.n_initializer++] = t;
    return t;
}

static Onnx__NodeProto *hm_node(hm *h, const char *op, const char *domain, int n_in, const char *const *in, int n_out,
                                const char *const *out)
{
    if (h->n_nodes >= HM_MAX || n_in > HM_MAX || n_out > HM_MAX) {
        fprintf(stderr, "hand-made model: more than %d nodes, inputs or outputs\n", HM_MAX);
        exit(1);
    }
    int k = h->n_nodes++;
    Onnx__NodeProto *nd = &h->nodes[k];
    onnx__node_proto__init(nd);
    nd->op_type = (char *)op;
    nd->domain = (char *)domain;
    for (int i = 0; i < n_in; i++) h->node_in[k][i] = (char *)in[i];
    for (int i = 0; i < n_out; i++) h->node_out[k][i] = (char *)out[i];
    nd->n_input = (size_t)n_in;
    nd->input = h->node_in[k];
    nd->n_output = (size_t)n_out;
    nd->output = h->node_out[k];
    nd->attribute = h->attr_ptrs[k];
    h->node_ptrs[h->graph.n_node++] = nd;
    return nd;
}

static Onnx__AttributeProto *hm_attr(hm *h, Onnx__NodeProto *nd, const char *name, int type)
{
    int k = (int)(nd - h->nodes);
    Onnx__AttributeProto *a = &h->attrs[k][nd->n_attribute];
    onnx__attribute_proto__init(a);
    a->name = (char *)name;
    a->has_type = 1;
    a->type = type;
    h->attr_ptrs[k][nd->n_attribute++] = a;
    return a;
}

static void hm_attr_i(hm *h, Onnx__NodeProto *nd, const char *name, int64_t v)
{
    Onnx__AttributeProto *a = hm_attr(h, nd, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
    a->has_i = 1;
    a->i = v;
}

static void hm_attr_f(hm *h, Onnx__NodeProto *nd, const char *name, float v)
{
    Onnx__AttributeProto *a = hm_attr(h, nd, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    a->has_f = 1;
    a->f = v;
}

static void hm_attr_s(hm *h, Onnx__NodeProto *nd, const char *name, const char *v)
{
    Onnx__AttributeProto *a = hm_attr(h, nd, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
    a->has_s = 1;
    a->s.len = strlen(v);
    a->s.data = (uint8_t *)v;
}

static void hm_attr_ints(hm *h, Onnx__NodeProto *nd, const char *name, int64_t *v, size_t n)
{
    Onnx__AttributeProto *a = hm_attr(h, nd, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
    a->n_ints = n;
    a->ints = v;
}

static char tmpdir[64];

static const char *tmp_path(const char *name)
{
    static char buf[8][128];
    static int turn;
    char *p = buf[turn++ % 8];
    snprintf(p, 128, "%s/%s", tmpdir, name);
    return p;
}

static void write_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(p, 1, n, f) == n);
    fclose(f);
}

/* Packs the model into a temporary file; returns its path. */
static const char *hm_write(hm *h, const char *name)
{
    size_t n = onnx__model_proto__get_packed_size(&h->model);
    uint8_t *buf = malloc(n + 1);
    CHECK(buf != NULL);
    onnx__model_proto__pack(&h->model, buf);
    const char *path = tmp_path(name);
    write_bytes(path, buf, n);
    free(buf);
    return path;
}

/* ---- checks ------------------------------------------------------------------------------- */

/* Loading path must fail with status st and a one-line message starting with the path and
 * containing needle. */
static void expect_fail(const char *path, const cc_onnx_options *opt, cc_status st, const char *needle)
{
    cc_model *m = NULL;
    cc_err err = { 0 };
    cc_status got = cc_onnx_load(path, opt, &m, &err);
    int ok = got == st && m == NULL && strstr(err.msg, needle) && !strchr(err.msg, '\n') &&
             strncmp(err.msg, path, strlen(path)) == 0;
    if (!ok)
        fprintf(stderr, "load(%s): status %d '%s', expected status %d mentioning '%s'\n", path, (int)got, err.msg,
                (int)st, needle);
    CHECK(ok);
    if (getenv("CC_ONNX_VERBOSE")) printf("%s\n", err.msg);
    cc_model_free(m);
}

static cc_model *expect_load(const char *path, const cc_onnx_options *opt)
{
    cc_model *m = NULL;
    cc_err err = { 0 };
    if (cc_onnx_load(path, opt, &m, &err)) {
        fprintf(stderr, "load(%s): %s\n", path, err.msg);
        CHECK(0);
        return NULL;
    }
    return m;
}

/* Evaluates a one-input model on x and checks output 0 against want[0..n-1] exactly. */
static void expect_values(cc_model *m, const cc_tensor *x, const double *want, int64_t n)
{
    if (!m) return;
    cc_model_eval ev;
    cc_err err = { 0 };
    if (cc_model_evaluate(&m->graph, x, 0, NULL, &ev, &err)) {
        fprintf(stderr, "evaluate: %s\n", err.msg);
        CHECK(0);
        return;
    }
    const cc_tensor *y = &ev.vals[m->graph.outputs[0]];
    CHECK(cc_tensor_numel(y) == n);
    if (cc_tensor_numel(y) != n) fprintf(stderr, "  output has %lld elements, want %lld\n", (long long)cc_tensor_numel(y), (long long)n);
    for (int64_t i = 0; i < n && i < cc_tensor_numel(y); i++) CHECK_NEAR(cc_load(y->data, y->dtype, (size_t)i), want[i], 0);
    cc_model_eval_free(&ev);
}

static cc_tensor make_x(int rank, const int64_t *dims, double first)
{
    cc_tensor x = { 0 };
    cc_shape s = cc_shape_make(rank, dims);
    CHECK_OK(cc_tensor_alloc(&x, CC_F32, &s, NULL));
    for (int64_t i = 0; i < cc_tensor_numel(&x); i++) cc_store(x.data, CC_F32, (size_t)i, first + (double)i);
    return x;
}

enum { F32 = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, I64 = ONNX__TENSOR_PROTO__DATA_TYPE__INT64 };

/* ---- the valid model: Conv -> Relu -> Reshape, written out of order -------------------------- */

static float w_vals[4] = { 1, 0, 0, 1 };
static uint8_t b_raw[4];
static int64_t shape_vals[2] = { 1, 4 };

/* x (1x1x3x3) -> Conv(w = [[1,0],[0,1]], b = 0.5) -> Relu -> Reshape to 1x4 = y. */
static void build_valid(hm *h, int opset)
{
    static const int64_t xd[4] = { 1, 1, 3, 3 }, wd[4] = { 1, 1, 2, 2 }, bd[1] = { 1 }, yd[2] = { 1, 4 };
    float b = 0.5f;
    uint32_t bits;
    memcpy(&bits, &b, 4);
    for (int i = 0; i < 4; i++) b_raw[i] = (uint8_t)(bits >> (8 * i)); /* little-endian raw_data */
    hm_init(h, opset);
    hm_input(h, "x", F32, 4, xd);
    hm_output(h, "y", F32, 2, yd);
    hm_init_tensor(h, "w", F32, 4, wd, w_vals, 4, 0);
    hm_init_tensor(h, "b", F32, 1, bd, b_raw, 1, 1);
    /* file order: Reshape, Relu, Constant, Conv (a valid topological order is
     * Conv, Relu, Constant, Reshape) */
    hm_node(h, "Reshape", "", 2, (const char *[]){ "r", "shape" }, 1, (const char *[]){ "y" });
    hm_node(h, "Relu", "", 1, (const char *[]){ "c" }, 1, (const char *[]){ "r" });
    Onnx__NodeProto *k = hm_node(h, "Constant", "", 0, NULL, 1, (const char *[]){ "shape" });
    static Onnx__TensorProto shape_t;
    static int64_t shape_dims[1] = { 2 };
    onnx__tensor_proto__init(&shape_t);
    shape_t.has_data_type = 1;
    shape_t.data_type = I64;
    shape_t.n_dims = 1;
    shape_t.dims = shape_dims;
    shape_t.n_int64_data = 2;
    shape_t.int64_data = shape_vals;
    hm_attr(h, k, "value", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR)->t = &shape_t;
    Onnx__NodeProto *conv = hm_node(h, "Conv", "", 3, (const char *[]){ "x", "w", "b" }, 1, (const char *[]){ "c" });
    static int64_t ks[2] = { 2, 2 };
    hm_attr_ints(h, conv, "kernel_shape", ks, 2);
}

static void test_valid(void)
{
    hm h;
    build_valid(&h, 13);
    const char *path = hm_write(&h, "valid.onnx");
    cc_model *m = expect_load(path, NULL);
    if (!m) return;
    CHECK(m->graph.n_inputs == 1 && m->graph.n_outputs == 1 && m->graph.n_nodes == 3);
    CHECK(strcmp(m->value_names[m->graph.outputs[0]], "y") == 0);
    int w = cc_model_find_value(m, "w"), b = cc_model_find_value(m, "b");
    CHECK(w >= 0 && m->graph.values[w].data && m->graph.values[w].shape.rank == 4);
    CHECK(b >= 0 && m->graph.values[b].data && ((float *)m->graph.values[b].data)[0] == 0.5f);
    const cc_tensor *y = &m->graph.values[m->graph.outputs[0]];
    CHECK(y->shape.rank == 2 && y->shape.dims[0] == 1 && y->shape.dims[1] == 4);
    CHECK(strcmp(m->graph.nodes[0].op->name, "Conv") == 0); /* sorted */
    /* x = -4..4 as [[-4,-3,-2],[-1,0,1],[2,3,4]]: x[i][j] + x[i+1][j+1] + 0.5 = -3.5, -1.5, 2.5, 4.5 */
    static const int64_t xd[4] = { 1, 1, 3, 3 };
    cc_tensor x = make_x(4, xd, -4);
    static const double want[4] = { 0, 0, 2.5, 4.5 };
    expect_values(m, &x, want, 4);
    cc_model_free(m);

    char names[8][64];
    int n = 0;
    CHECK_OK(cc_onnx_op_types(path, names, 8, &n, NULL));
    CHECK(n == 4 && strcmp(names[0], "Reshape") == 0 && strcmp(names[3], "Conv") == 0);

    /* opset 9: Conv-1, Relu-6, Reshape-5 mean the same */
    build_valid(&h, 9);
    m = expect_load(hm_write(&h, "valid9.onnx"), NULL);
    expect_values(m, &x, want, 4);
    cc_model_free(m);

    /* bad input derived from it */
    size_t len = onnx__model_proto__get_packed_size(&h.model);
    uint8_t *buf = malloc(len);
    onnx__model_proto__pack(&h.model, buf);
    const char *half = tmp_path("half.onnx");
    write_bytes(half, buf, len / 2);
    expect_fail(half, NULL, CC_ERR_ARG, "not a valid ONNX model (protobuf parse failed at byte");
    free(buf);
    cc_tensor_free(&x);
}

static void test_files(void)
{
    /* random bytes */
    uint8_t rnd[4096];
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < sizeof rnd; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        rnd[i] = (uint8_t)s;
    }
    const char *p = tmp_path("random.onnx");
    write_bytes(p, rnd, sizeof rnd);
    expect_fail(p, NULL, CC_ERR_ARG, "not a valid ONNX model");
    p = tmp_path("empty.onnx");
    write_bytes(p, "", 0);
    expect_fail(p, NULL, CC_ERR_ARG, "empty file");
    expect_fail(tmp_path("missing.onnx"), NULL, CC_ERR_IO, "No such file");
    expect_fail(tmpdir, NULL, CC_ERR_IO, "not a regular file");
    /* a truncated copy of an official model, when the test data is there */
    FILE *f = fopen(NODE_DIR "/test_conv_with_strides_padding/model.onnx", "rb");
    if (f) {
        uint8_t buf[65536];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        p = tmp_path("real_half.onnx");
        write_bytes(p, buf, n / 2);
        expect_fail(p, NULL, CC_ERR_ARG, "not a valid ONNX model (protobuf parse failed at byte");
    }
}

/* A one-node model: op over inputs a (2x3) and, where two_inputs, b (2x3). */
static Onnx__NodeProto *one_node(hm *h, int opset, const char *op, const char *domain, int two_inputs)
{
    static const int64_t d[2] = { 2, 3 };
    hm_init(h, opset);
    hm_input(h, "a", F32, 2, d);
    if (two_inputs) hm_input(h, "b", F32, 2, d);
    hm_output(h, "y", F32, 2, d);
    return hm_node(h, op, domain, two_inputs ? 2 : 1, (const char *[]){ "a", "b" }, 1, (const char *[]){ "y" });
}

static void test_ops_and_attrs(void)
{
    hm h;
    one_node(&h, 13, "QLinearAdd", "com.microsoft", 1);
    expect_fail(hm_write(&h, "ms.onnx"), NULL, CC_ERR_UNSUPPORTED, "node 0 (com.microsoft.QLinearAdd): unknown op com.microsoft.QLinearAdd");
    one_node(&h, 13, "NoSuchOp", "", 1);
    expect_fail(hm_write(&h, "nosuch.onnx"), NULL, CC_ERR_UNSUPPORTED, "node 0 (NoSuchOp): unknown op NoSuchOp");
    Onnx__NodeProto *nd = one_node(&h, 13, "Relu", "", 0);
    hm_attr_f(&h, nd, "alpha", 0.5f);
    expect_fail(hm_write(&h, "attr.onnx"), NULL, CC_ERR_UNSUPPORTED, "node 0 (Relu): attribute 'alpha' is not in");
    nd = one_node(&h, 13, "LeakyRelu", "", 0);
    hm_attr_i(&h, nd, "alpha", 1);
    expect_fail(hm_write(&h, "attrtype.onnx"), NULL, CC_ERR_UNSUPPORTED, "attribute 'alpha' is INT");
    /* a case-only knob of the catalog is not an ONNX attribute */
    nd = one_node(&h, 13, "QuantizeLinear", "", 0);
    hm_attr_i(&h, nd, "per_axis", 1);
    expect_fail(hm_write(&h, "knob.onnx"), NULL, CC_ERR_UNSUPPORTED, "attribute 'per_axis' is not in");
    /* a valid attribute is used: LeakyRelu alpha 0.5 on a = 0..5 - 3 */
    nd = one_node(&h, 13, "LeakyRelu", "", 0);
    hm_attr_f(&h, nd, "alpha", 0.5f);
    cc_model *m = expect_load(hm_write(&h, "leaky.onnx"), NULL);
    static const int64_t d[2] = { 2, 3 };
    cc_tensor a = make_x(2, d, -3);
    static const double lr[6] = { -1.5, -1, -0.5, 0, 1, 2 };
    expect_values(m, &a, lr, 6);
    cc_model_free(m);
    cc_tensor_free(&a);
}

static void test_opsets(void)
{
    /* the importer's table names only versions ops/ops.def lists, and every catalog op at
     * its own opset has its catalog semantics */
    cc_err check_err = { 0 };
    cc_status cs = cc_onnx_opset_check(&check_err);
    if (cs) fprintf(stderr, "%s\n", check_err.msg);
    CHECK(cs == CC_OK);
    for (int i = 0; i < cc_catalog_count(); i++) {
        const cc_op_def *op = cc_catalog_at(i);
        int version = 0;
        unsigned legacy = 0;
        cc_err err = { 0 };
        cc_status st = cc_onnx_op_version(op, op->since_version, &version, &legacy, &err);
        if (st) fprintf(stderr, "%s-%d: %s\n", op->name, op->since_version, err.msg);
        CHECK(st == CC_OK && version == op->since_version && legacy == 0);
    }

    hm h;
    one_node(&h, 21, "Add", "", 1);
    expect_fail(hm_write(&h, "opset21.onnx"), NULL, CC_ERR_UNSUPPORTED, "opset 21 is newer than opset 20");
    /* Split changed in opset 18: the node is named */
    static const int64_t d[2] = { 2, 3 }, o[2] = { 1, 3 };
    hm_init(&h, 18);
    hm_input(&h, "a", F32, 2, d);
    hm_output(&h, "y0", F32, 2, o);
    hm_output(&h, "y1", F32, 2, o);
    hm_node(&h, "Split", "", 1, (const char *[]){ "a" }, 2, (const char *[]){ "y0", "y1" });
    expect_fail(hm_write(&h, "split18.onnx"), NULL, CC_ERR_UNSUPPORTED, "node 0 (Split): opset 18 semantics are not in the catalog");
    /* Resize-10 (Upsample's semantics) */
    one_node(&h, 10, "Resize", "", 1);
    expect_fail(hm_write(&h, "resize10.onnx"), NULL, CC_ERR_UNSUPPORTED, "node 0 (Resize): opset 10 semantics are not in the catalog");
    /* GridSample-20 (N-D, modes renamed), and GridSample before it existed */
    one_node(&h, 20, "GridSample", "", 1);
    expect_fail(hm_write(&h, "gridsample20.onnx"), NULL, CC_ERR_UNSUPPORTED,
                "node 0 (GridSample): opset 20 semantics are not in the catalog (it has GridSample-16; GridSample-20 adds "
                "N-D inputs");
    one_node(&h, 15, "GridSample", "", 1);
    expect_fail(hm_write(&h, "gridsample15.onnx"), NULL, CC_ERR_ARG, "GridSample does not exist in opset 15");
    /* Add before opset 7 had legacy broadcasting */
    one_node(&h, 6, "Add", "", 1);
    expect_fail(hm_write(&h, "add6.onnx"), NULL, CC_ERR_UNSUPPORTED, "node 0 (Add): opset 6 semantics are not in the catalog");
    /* an op used before it existed */
    one_node(&h, 13, "HardSwish", "", 0);
    expect_fail(hm_write(&h, "hswish13.onnx"), NULL, CC_ERR_ARG, "HardSwish does not exist in opset 13");
    /* Softmax-11 on rank 3 with axis 1 flattens axes 1..2: refused; on rank 2 it is Softmax-13 */
    static const int64_t d3[3] = { 2, 3, 4 };
    hm_init(&h, 11);
    hm_input(&h, "a", F32, 3, d3);
    hm_output(&h, "y", F32, 3, d3);
    hm_node(&h, "Softmax", "", 1, (const char *[]){ "a" }, 1, (const char *[]){ "y" });
    expect_fail(hm_write(&h, "softmax11.onnx"), NULL, CC_ERR_UNSUPPORTED, "Softmax-11 with axis 1 of a rank-3 input");
    one_node(&h, 11, "Softmax", "", 0);
    cc_model *m = expect_load(hm_write(&h, "softmax11_2d.onnx"), NULL);
    if (m) CHECK(cc_attr_i(&m->graph.nodes[0], "axis") == 1);
    cc_model_free(m);
}

static void test_legacy_rewrites(void)
{
    hm h;
    static const int64_t d[2] = { 2, 3 };
    cc_tensor a = make_x(2, d, -3); /* -3 .. 2 */
    /* Clip-6: min and max attributes become constant inputs */
    Onnx__NodeProto *nd = one_node(&h, 6, "Clip", "", 0);
    hm_attr_f(&h, nd, "min", -1.5f);
    hm_attr_f(&h, nd, "max", 1.0f);
    cc_model *m = expect_load(hm_write(&h, "clip6.onnx"), NULL);
    static const double clip[6] = { -1.5, -1.5, -1, 0, 1, 1 };
    expect_values(m, &a, clip, 6);
    cc_model_free(m);
    /* Slice-1 (opset 9): starts/ends/axes attributes */
    static const int64_t o[2] = { 2, 2 };
    hm_init(&h, 9);
    hm_input(&h, "a", F32, 2, d);
    hm_output(&h, "y", F32, 2, o);
    nd = hm_node(&h, "Slice", "", 1, (const char *[]){ "a" }, 1, (const char *[]){ "y" });
    static int64_t st[1] = { 1 }, en[1] = { 3 }, ax[1] = { 1 };
    hm_attr_ints(&h, nd, "starts", st, 1);
    hm_attr_ints(&h, nd, "ends", en, 1);
    hm_attr_ints(&h, nd, "axes", ax, 1);
    m = expect_load(hm_write(&h, "slice9.onnx"), NULL);
    static const double sl[4] = { -2, -1, 1, 2 };
    expect_values(m, &a, sl, 4);
    cc_model_free(m);
    /* Split-11: split attribute [1, 2] along axis 1 */
    static const int64_t o1[2] = { 2, 1 }, o2[2] = { 2, 2 };
    hm_init(&h, 11);
    hm_input(&h, "a", F32, 2, d);
    hm_output(&h, "y0", F32, 2, o1);
    hm_output(&h, "y1", F32, 2, o2);
    nd = hm_node(&h, "Split", "", 1, (const char *[]){ "a" }, 2, (const char *[]){ "y0", "y1" });
    static int64_t sp[2] = { 1, 2 };
    hm_attr_i(&h, nd, "axis", 1);
    hm_attr_ints(&h, nd, "split", sp, 2);
    m = expect_load(hm_write(&h, "split11.onnx"), NULL);
    static const double s0[2] = { -3, 0 };
    expect_values(m, &a, s0, 2);
    if (m) CHECK(cc_tensor_numel(&m->graph.values[m->graph.outputs[1]]) == 4);
    cc_model_free(m);
    /* Split-11 with a split attribute and no outputs: refused, not a NULL read of output[0] */
    hm_init(&h, 11);
    hm_input(&h, "a", F32, 2, d);
    hm_output(&h, "y0", F32, 2, o1);
    nd = hm_node(&h, "Split", "", 1, (const char *[]){ "a" }, 0, (const char *[]){ NULL });
    hm_attr_ints(&h, nd, "split", sp, 2);
    expect_fail(hm_write(&h, "split_no_out.onnx"), NULL, CC_ERR_ARG, "no output");
    /* Split-13 takes split as an input: the attribute is unknown there */
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, d);
    hm_output(&h, "y0", F32, 2, o1);
    hm_output(&h, "y1", F32, 2, o2);
    nd = hm_node(&h, "Split", "", 1, (const char *[]){ "a" }, 2, (const char *[]){ "y0", "y1" });
    hm_attr_ints(&h, nd, "split", sp, 2);
    expect_fail(hm_write(&h, "split13.onnx"), NULL, CC_ERR_UNSUPPORTED, "attribute 'split' is not in");
    /* ReduceSum-11: the axes attribute becomes the constant input: columns of a */
    static const int64_t o3[1] = { 3 }, o22[1] = { 2 }, one[1] = { 1 };
    hm_init(&h, 11);
    hm_input(&h, "a", F32, 2, d);
    hm_output(&h, "y", F32, 1, o3);
    nd = hm_node(&h, "ReduceSum", "", 1, (const char *[]){ "a" }, 1, (const char *[]){ "y" });
    static int64_t ax0[1] = { 0 };
    hm_attr_ints(&h, nd, "axes", ax0, 1);
    hm_attr_i(&h, nd, "keepdims", 0);
    m = expect_load(hm_write(&h, "reducesum11.onnx"), NULL);
    static const double rs[3] = { -3, -1, 1 };
    expect_values(m, &a, rs, 3);
    cc_model_free(m);
    /* ReduceMean-18 (opset 18): a constant axes input becomes the opset-13 attribute: row means */
    static int64_t ax1[1] = { -1 };
    hm_init(&h, 18);
    hm_input(&h, "a", F32, 2, d);
    hm_output(&h, "y", F32, 1, o22);
    hm_init_tensor(&h, "axes", I64, 1, one, ax1, 1, 0);
    nd = hm_node(&h, "ReduceMean", "", 2, (const char *[]){ "a", "axes" }, 1, (const char *[]){ "y" });
    hm_attr_i(&h, nd, "keepdims", 0);
    hm_attr_i(&h, nd, "noop_with_empty_axes", 1); /* axes are given: no effect */
    m = expect_load(hm_write(&h, "reducemean18.onnx"), NULL);
    static const double rm[2] = { -2, 1 };
    expect_values(m, &a, rm, 2);
    if (m) CHECK(m->graph.nodes[0].n_in == 1 && cc_attr_get(&m->graph.nodes[0], "axes")->ints[0] == -1);
    cc_model_free(m);
    /* ... without axes and with noop_with_empty_axes = 1 (the identity): refused */
    hm_init(&h, 18);
    hm_input(&h, "a", F32, 2, d);
    hm_output(&h, "y", F32, 2, d);
    nd = hm_node(&h, "ReduceMax", "", 1, (const char *[]){ "a" }, 1, (const char *[]){ "y" });
    hm_attr_i(&h, nd, "noop_with_empty_axes", 1);
    expect_fail(hm_write(&h, "reducemax18_noop.onnx"), NULL, CC_ERR_UNSUPPORTED,
                "ReduceMax-18 with noop_with_empty_axes=1 and no axes");
    /* ... with axes computed at run time (a graph input): refused, naming the input */
    hm_init(&h, 18);
    hm_input(&h, "a", F32, 2, d);
    hm_input(&h, "k", I64, 1, one);
    hm_output(&h, "y", F32, 1, o22);
    hm_node(&h, "ReduceL2", "", 2, (const char *[]){ "a", "k" }, 1, (const char *[]){ "y" });
    expect_fail(hm_write(&h, "reducel2_18_runtime.onnx"), NULL, CC_ERR_UNSUPPORTED,
                "ReduceL2-18's axes input 'k' is computed at run time");
    /* ReduceMax-20 (adds boolean inputs) with its axes input: the column maxima */
    static int64_t ax00[1] = { 0 };
    hm_init(&h, 20);
    hm_input(&h, "a", F32, 2, d);
    hm_output(&h, "y", F32, 2, (const int64_t[]){ 1, 3 });
    hm_init_tensor(&h, "axes", I64, 1, one, ax00, 1, 1);
    hm_node(&h, "ReduceMax", "", 2, (const char *[]){ "a", "axes" }, 1, (const char *[]){ "y" });
    m = expect_load(hm_write(&h, "reducemax20.onnx"), NULL);
    static const double rx[3] = { 0, 1, 2 };
    expect_values(m, &a, rx, 3);
    cc_model_free(m);
    /* ConstantOfShape-20 only adds value types: a 2x2 of 7 (int64), its shape an initializer */
    static int64_t cshape[2] = { 2, 2 }, seven = 7;
    static const int64_t two[1] = { 2 }, d22[2] = { 2, 2 };
    hm_init(&h, 20);
    hm_input(&h, "a", F32, 2, d);
    hm_output(&h, "y", I64, 2, d22);
    hm_init_tensor(&h, "shape", I64, 1, two, cshape, 2, 0);
    nd = hm_node(&h, "ConstantOfShape", "", 1, (const char *[]){ "shape" }, 1, (const char *[]){ "y" });
    Onnx__AttributeProto *va = hm_attr(&h, nd, "value", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
    static Onnx__TensorProto vt;
    static int64_t vdims[1] = { 1 };
    onnx__tensor_proto__init(&vt);
    vt.has_data_type = 1;
    vt.data_type = I64;
    vt.n_dims = 1;
    vt.dims = vdims;
    vt.n_int64_data = 1;
    vt.int64_data = &seven;
    va->t = &vt;
    m = expect_load(hm_write(&h, "constantofshape20.onnx"), NULL);
    static const double sevens[4] = { 7, 7, 7, 7 };
    expect_values(m, &a, sevens, 4);
    cc_model_free(m);
    /* Dropout-10 (opset 11): the ratio attribute becomes the input; inference: the identity */
    nd = one_node(&h, 11, "Dropout", "", 0);
    hm_attr_f(&h, nd, "ratio", 0.25f);
    m = expect_load(hm_write(&h, "dropout10.onnx"), NULL);
    static const double same[6] = { -3, -2, -1, 0, 1, 2 };
    expect_values(m, &a, same, 6);
    if (m) CHECK(m->graph.nodes[0].n_in == 2 && m->graph.values[m->graph.nodes[0].in[1]].data &&
                 ((const float *)m->graph.values[m->graph.nodes[0].in[1]].data)[0] == 0.25f);
    cc_model_free(m);
    /* deprecated ops as their successors: Scatter-9 (opset 10) is ScatterElements along axis 1 */
    static const int64_t d21[2] = { 2, 1 };
    static int64_t idx[2] = { 2, 0 };
    static float upd[2] = { 10, 20 };
    hm_init(&h, 10);
    hm_input(&h, "a", F32, 2, d);
    hm_output(&h, "y", F32, 2, d);
    hm_init_tensor(&h, "i", I64, 2, d21, idx, 2, 0);
    hm_init_tensor(&h, "u", F32, 2, d21, upd, 2, 0);
    nd = hm_node(&h, "Scatter", "", 3, (const char *[]){ "a", "i", "u" }, 1, (const char *[]){ "y" });
    hm_attr_i(&h, nd, "axis", 1);
    m = expect_load(hm_write(&h, "scatter9.onnx"), NULL);
    static const double scattered[6] = { -3, -2, 10, 20, 1, 2 };
    expect_values(m, &a, scattered, 6);
    if (m) CHECK(strcmp(m->graph.nodes[0].op->name, "ScatterElements") == 0);
    cc_model_free(m);
    /* ... at opset 11 (Scatter-11, deprecated): refused, saying where it is taken */
    h.opset.version = 11;
    expect_fail(hm_write(&h, "scatter11.onnx"), NULL, CC_ERR_UNSUPPORTED,
                "Scatter is deprecated at opset 11; the catalog runs it as ScatterElements at opsets 9 to 10");
    /* Upsample-9: Resize with the asymmetric transform and the nearest pixel below: x2 along
     * the columns repeats each column (round_prefer_floor would take 0.5 -> 0, 1.5 -> 2) */
    static const int64_t d26[2] = { 2, 6 };
    static float sc[2] = { 1, 2 };
    hm_init(&h, 9);
    hm_input(&h, "a", F32, 2, d);
    hm_output(&h, "y", F32, 2, d26);
    hm_init_tensor(&h, "s", F32, 1, (const int64_t[]){ 2 }, sc, 2, 0);
    nd = hm_node(&h, "Upsample", "", 2, (const char *[]){ "a", "s" }, 1, (const char *[]){ "y" });
    m = expect_load(hm_write(&h, "upsample9.onnx"), NULL);
    static const double up[12] = { -3, -3, -2, -2, -1, -1, 0, 0, 1, 1, 2, 2 };
    expect_values(m, &a, up, 12);
    if (m) {
        const cc_node *r = &m->graph.nodes[0];
        CHECK(strcmp(r->op->name, "Resize") == 0 && r->n_in == 3 && r->in[1] < 0);
        CHECK(strcmp(cc_attr_s(r, "coordinate_transformation_mode"), "asymmetric") == 0);
        CHECK(strcmp(cc_attr_s(r, "nearest_mode"), "floor") == 0);
    }
    cc_model_free(m);
    cc_tensor_free(&a);

    /* RoiAlign-10 is RoiAlign-16 with coordinate_transformation_mode output_half_pixel: on
     * the image p(y, x) = 3 y + x (2 x 3), the roi (0, 0, 2, 0.5) with one sample has its
     * height raised to 1 and samples (y, x) = (0.5, 1): 2.5. At opset 16 (half_pixel) the
     * sample is (-0.25, 0.5), y taken as 0: 0.5 */
    static const int64_t d23[4] = { 1, 1, 2, 3 }, d14[2] = { 1, 4 }, d1[1] = { 1 }, d1111[4] = { 1, 1, 1, 1 };
    static float box[4] = { 0, 0, 2, 0.5f };
    static int64_t batch0[1] = { 0 };
    cc_tensor img = make_x(4, d23, 0);
    for (int opset = 10; opset <= 16; opset += 6) {
        hm_init(&h, opset);
        hm_input(&h, "a", F32, 4, d23);
        hm_output(&h, "y", F32, 4, d1111);
        hm_init_tensor(&h, "rois", F32, 2, d14, box, 4, 0);
        hm_init_tensor(&h, "bi", I64, 1, d1, batch0, 1, 0);
        nd = hm_node(&h, "RoiAlign", "", 3, (const char *[]){ "a", "rois", "bi" }, 1, (const char *[]){ "y" });
        hm_attr_i(&h, nd, "sampling_ratio", 1);
        m = expect_load(hm_write(&h, opset == 10 ? "roialign10.onnx" : "roialign16.onnx"), NULL);
        expect_values(m, &img, (const double[]){ opset == 10 ? 2.5 : 0.5 }, 1);
        if (m) CHECK(strcmp(cc_attr_s(&m->graph.nodes[0], "coordinate_transformation_mode"),
                            opset == 10 ? "output_half_pixel" : "half_pixel") == 0);
        cc_model_free(m);
    }
    /* RoiAlign-10 has no coordinate_transformation_mode to give */
    h.opset.version = 10;
    hm_attr_s(&h, nd, "coordinate_transformation_mode", "half_pixel");
    expect_fail(hm_write(&h, "roialign10_ct.onnx"), NULL, CC_ERR_ARG,
                "node 0 (RoiAlign): RoiAlign-10 has no attribute 'coordinate_transformation_mode'");
    cc_tensor_free(&img);
}

/* Shape computations over static shapes are folded into constants at import: Shape ->
 * Gather -> Unsqueeze -> Concat gives Reshape its target shape, and ConstantOfShape of a
 * computed shape makes a bias; only Reshape and Add remain as nodes. */
static void test_folding(void)
{
    hm h;
    static const int64_t d[2] = { 2, 3 }, o6[1] = { 6 }, one[1] = { 1 };
    static int64_t idx0 = 0, idx1 = 1, ax0[1] = { 0 }, minus1[1] = { -1 };
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, d);
    hm_output(&h, "y", F32, 1, o6);
    hm_init_tensor(&h, "i0", I64, 0, NULL, &idx0, 1, 0);
    hm_init_tensor(&h, "i1", I64, 0, NULL, &idx1, 1, 0);
    hm_init_tensor(&h, "axes", I64, 1, one, ax0, 1, 0);
    hm_init_tensor(&h, "m1", I64, 1, one, minus1, 1, 0);
    hm_node(&h, "Shape", "", 1, (const char *[]){ "a" }, 1, (const char *[]){ "s" });
    hm_node(&h, "Gather", "", 2, (const char *[]){ "s", "i0" }, 1, (const char *[]){ "g0" });
    hm_node(&h, "Gather", "", 2, (const char *[]){ "s", "i1" }, 1, (const char *[]){ "g1" });
    hm_node(&h, "Mul", "", 2, (const char *[]){ "g0", "g1" }, 1, (const char *[]){ "n" });
    hm_node(&h, "Unsqueeze", "", 2, (const char *[]){ "n", "axes" }, 1, (const char *[]){ "n1" });
    Onnx__NodeProto *cat = hm_node(&h, "Concat", "", 1, (const char *[]){ "n1" }, 1, (const char *[]){ "shape" });
    hm_attr_i(&h, cat, "axis", 0);
    hm_node(&h, "Reshape", "", 2, (const char *[]){ "a", "shape" }, 1, (const char *[]){ "r" });
    Onnx__NodeProto *cs = hm_node(&h, "ConstantOfShape", "", 1, (const char *[]){ "n1" }, 1, (const char *[]){ "bias" });
    (void)cs; /* value absent: float32 zeros */
    hm_node(&h, "Add", "", 2, (const char *[]){ "r", "bias" }, 1, (const char *[]){ "y" });
    (void)minus1;
    cc_model *m = expect_load(hm_write(&h, "folding.onnx"), NULL);
    cc_tensor a = make_x(2, d, -3);
    static const double want[6] = { -3, -2, -1, 0, 1, 2 };
    expect_values(m, &a, want, 6);
    if (m) {
        CHECK(m->n_folded == 7);
        CHECK(m->graph.n_nodes == 2);
        CHECK(m->graph.nodes[0].op->id == CC_OP_ID_Reshape && m->graph.nodes[1].op->id == CC_OP_ID_Add);
    }
    cc_model_free(m);
    cc_tensor_free(&a);
}

/* The Shape of a value whose shape follows the data is computed at run time, not folded
 * into the dims of its bound: NonZero -> Shape -> Cast gives [1, count] (it once gave the
 * constant [1, 6] whatever the input); and a shape computed from it sets ConstantOfShape's
 * output, bounded at import by the count's range (NonZero of 6 elements: at most 6). */
static void test_shape_of_dynamic(void)
{
    hm h;
    static const int64_t d6[1] = { 6 }, two[1] = { 2 }, sym[1] = { -1 };
    hm_init(&h, 13);
    hm_input(&h, "x", F32, 1, d6);
    hm_output(&h, "y", F32, 1, two);
    hm_output(&h, "z", F32, 1, sym);
    hm_node(&h, "NonZero", "", 1, (const char *[]){ "x" }, 1, (const char *[]){ "nz" });
    hm_node(&h, "Shape", "", 1, (const char *[]){ "nz" }, 1, (const char *[]){ "s" });
    Onnx__NodeProto *c = hm_node(&h, "Cast", "", 1, (const char *[]){ "s" }, 1, (const char *[]){ "y" });
    hm_attr_i(&h, c, "to", F32);
    hm_node(&h, "Slice", "", 3, (const char *[]){ "s", "i1s", "i2s" }, 1, (const char *[]){ "cnt" });
    static int64_t one_v[1] = { 1 }, two_v[1] = { 2 };
    static const int64_t d1[1] = { 1 };
    hm_init_tensor(&h, "i1s", I64, 1, d1, one_v, 1, 0);
    hm_init_tensor(&h, "i2s", I64, 1, d1, two_v, 1, 0);
    hm_node(&h, "ConstantOfShape", "", 1, (const char *[]){ "cnt" }, 1, (const char *[]){ "z" });
    cc_model *m = expect_load(hm_write(&h, "shape_of_dynamic.onnx"), NULL);
    if (m) {
        CHECK(m->n_folded == 0);
        int z = m->graph.outputs[1];
        CHECK(m->graph.values[z].shape.rank == 1 && m->graph.values[z].shape.dims[0] == 6); /* the bound */
        cc_tensor x = make_x(1, d6, -2); /* -2 -1 0 1 2 3: five non-zeros */
        static const double want[2] = { 1, 5 };
        expect_values(m, &x, want, 2);
        cc_model_eval ev;
        cc_err err = { 0 };
        CHECK(cc_model_evaluate(&m->graph, &x, 0, NULL, &ev, &err) == CC_OK);
        if (!err.msg[0]) {
            CHECK(ev.vals[z].shape.dims[0] == 5); /* the actual count */
            cc_model_eval_free(&ev);
        }
        cc_tensor_free(&x);
    }
    cc_model_free(m);
}

/* Size arithmetic in float, as a detector's resize exports it: Shape -> Gather -> Cast to
 * float -> Div by 2 -> Ceil -> Cast to int64 folds at import where every float is exact
 * (6 / 2 = 3), and ConstantOfShape of the result makes a [3]; by 4 (1.5, exact too) it
 * folds as well; by 0.3, whose quotient float32 cannot hold exactly, it stays a run-time
 * computation, and ConstantOfShape, whose shape nothing then bounds, is refused. */
static void test_float_folding(void)
{
    static const int64_t d6[1] = { 6 }, d3[1] = { 3 }, d2[1] = { 2 };
    static int64_t idx0 = 0, ax0[1] = { 0 };
    static float divs[3] = { 2.0f, 4.0f, 0.3f };
    const int64_t want_n[2] = { 3, 2 };
    for (int k = 0; k < 3; k++) {
        hm h;
        hm_init(&h, 13);
        hm_input(&h, "x", F32, 1, d6);
        hm_output(&h, "y", F32, 1, k == 0 ? d3 : d2);
        hm_init_tensor(&h, "i0", I64, 0, NULL, &idx0, 1, 0);
        hm_init_tensor(&h, "ax", I64, 1, (const int64_t[]){ 1 }, ax0, 1, 0);
        hm_init_tensor(&h, "div", F32, 0, NULL, &divs[k], 1, 0);
        hm_node(&h, "Shape", "", 1, (const char *[]){ "x" }, 1, (const char *[]){ "s" });
        hm_node(&h, "Gather", "", 2, (const char *[]){ "s", "i0" }, 1, (const char *[]){ "n" });
        Onnx__NodeProto *c1 = hm_node(&h, "Cast", "", 1, (const char *[]){ "n" }, 1, (const char *[]){ "nf" });
        hm_attr_i(&h, c1, "to", F32);
        hm_node(&h, "Div", "", 2, (const char *[]){ "nf", "div" }, 1, (const char *[]){ "q" });
        hm_node(&h, "Ceil", "", 1, (const char *[]){ "q" }, 1, (const char *[]){ "qc" });
        Onnx__NodeProto *c2 = hm_node(&h, "Cast", "", 1, (const char *[]){ "qc" }, 1, (const char *[]){ "qi" });
        hm_attr_i(&h, c2, "to", I64);
        hm_node(&h, "Unsqueeze", "", 2, (const char *[]){ "qi", "ax" }, 1, (const char *[]){ "shape" });
        hm_node(&h, "ConstantOfShape", "", 1, (const char *[]){ "shape" }, 1, (const char *[]){ "y" });
        const char *p = hm_write(&h, k == 0 ? "ffold2.onnx" : k == 1 ? "ffold4.onnx" : "ffold03.onnx");
        if (k < 2) {
            cc_model *m = expect_load(p, NULL);
            if (m) {
                CHECK(m->n_folded == 7 && m->graph.n_nodes == 1); /* all but ConstantOfShape, the output */
                const cc_tensor *y = &m->graph.values[m->graph.outputs[0]];
                CHECK(y->shape.rank == 1 && y->shape.dims[0] == want_n[k]);
            }
            cc_model_free(m);
        } else {
            expect_fail(p, NULL, CC_ERR_UNSUPPORTED, "ConstantOfShape: input must be a constant input");
        }
    }
}

static void test_graph_errors(void)
{
    hm h;
    static const int64_t d23[2] = { 2, 3 }, d45[2] = { 4, 5 };
    /* inconsistent shapes */
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, d23);
    hm_input(&h, "b", F32, 2, d45);
    hm_output(&h, "y", F32, 2, d23);
    hm_node(&h, "Add", "", 2, (const char *[]){ "a", "b" }, 1, (const char *[]){ "y" });
    expect_fail(hm_write(&h, "shapes.onnx"), NULL, CC_ERR_ARG, "node 0 (Add): ");
    /* an output declared with another shape than the graph computes */
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, d23);
    hm_output(&h, "y", F32, 2, d45);
    hm_node(&h, "Relu", "", 1, (const char *[]){ "a" }, 1, (const char *[]){ "y" });
    expect_fail(hm_write(&h, "declared.onnx"), NULL, CC_ERR_ARG, "graph output 'y' is declared 4x5, the graph computes 2x3");
    /* an input nothing defines */
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, d23);
    hm_output(&h, "y", F32, 2, d23);
    hm_node(&h, "Add", "", 2, (const char *[]){ "a", "ghost" }, 1, (const char *[]){ "y" });
    expect_fail(hm_write(&h, "ghost.onnx"), NULL, CC_ERR_ARG, "input 'ghost' is not an initializer");
    /* a cycle */
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, d23);
    hm_output(&h, "y", F32, 2, d23);
    hm_node(&h, "Add", "", 2, (const char *[]){ "a", "z" }, 1, (const char *[]){ "y" });
    hm_node(&h, "Relu", "", 1, (const char *[]){ "y" }, 1, (const char *[]){ "z" });
    expect_fail(hm_write(&h, "cycle.onnx"), NULL, CC_ERR_ARG, "is on a cycle");
    /* symbolic dims: the batch may be given, other dims not */
    static const int64_t sym0[2] = { -1, 3 }, sym1[2] = { 2, -1 }, unk[2] = { -2, 3 };
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, sym0);
    hm_output(&h, "y", F32, 2, sym0);
    hm_node(&h, "Relu", "", 1, (const char *[]){ "a" }, 1, (const char *[]){ "y" });
    const char *p = hm_write(&h, "sym0.onnx");
    expect_fail(p, NULL, CC_ERR_ARG,
                "input 'a': dim 0 is symbolic ('N'); give a batch size or bind its shape with --input-shape a=DIMS");
    cc_onnx_options opt = { .batch = 5 };
    cc_model *m = expect_load(p, &opt);
    if (m) CHECK(m->graph.values[m->graph.inputs[0]].shape.dims[0] == 5 && m->graph.values[m->graph.outputs[0]].shape.dims[0] == 5);
    cc_model_free(m);
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, unk);
    hm_output(&h, "y", F32, 2, unk);
    hm_node(&h, "Relu", "", 1, (const char *[]){ "a" }, 1, (const char *[]){ "y" });
    expect_fail(hm_write(&h, "unk0.onnx"), NULL, CC_ERR_ARG, "input 'a': dim 0 is unknown");
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, sym1);
    hm_output(&h, "y", F32, 2, sym1);
    hm_node(&h, "Relu", "", 1, (const char *[]){ "a" }, 1, (const char *[]){ "y" });
    p = hm_write(&h, "sym1.onnx");
    expect_fail(p, &opt, CC_ERR_ARG, "input 'a': dim 1 is symbolic ('N'); bind its shape with --input-shape a=DIMS");
    /* a bound shape sets every symbolic dim; a symbolic dim 0 still follows the batch */
    const char *bn[1] = { "a" };
    cc_shape bs = cc_shape_make(2, (const int64_t[]){ 2, 7 });
    cc_onnx_options bopt = { .n_shapes = 1, .shape_names = bn, .shapes = &bs };
    m = expect_load(p, &bopt);
    if (m) CHECK(m->graph.values[m->graph.inputs[0]].shape.dims[1] == 7 && m->graph.values[m->graph.outputs[0]].shape.dims[1] == 7);
    cc_model_free(m);
    /* ... a bound shape that contradicts a fixed dim, or has another rank, or names no input */
    cc_shape bs0 = cc_shape_make(2, (const int64_t[]){ 3, 3 });
    cc_onnx_options b0 = { .n_shapes = 1, .shape_names = bn, .shapes = &bs0 };
    expect_fail(p, &b0, CC_ERR_ARG, "input 'a': dim 0 is 2, the shape bound to it says 3");
    cc_shape b3 = cc_shape_make(3, (const int64_t[]){ 2, 3, 4 });
    cc_onnx_options r3 = { .n_shapes = 1, .shape_names = bn, .shapes = &b3 };
    expect_fail(p, &r3, CC_ERR_ARG, "input 'a' has rank 2 (2x?), the shape bound to it 2x3x4");
    const char *bx[1] = { "nosuch" };
    cc_onnx_options rx = { .n_shapes = 1, .shape_names = bx, .shapes = &bs };
    expect_fail(p, &rx, CC_ERR_ARG, "a shape is bound to 'nosuch', which is not an input of the graph");
    /* symbolic dim 0 bound, with a batch: the batch wins there */
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, sym0);
    hm_output(&h, "y", F32, 2, sym0);
    hm_node(&h, "Relu", "", 1, (const char *[]){ "a" }, 1, (const char *[]){ "y" });
    cc_shape b13 = cc_shape_make(2, (const int64_t[]){ 1, 3 });
    cc_onnx_options bb = { .batch = 6, .n_shapes = 1, .shape_names = bn, .shapes = &b13 };
    m = expect_load(hm_write(&h, "sym0bound.onnx"), &bb);
    if (m) CHECK(m->graph.values[m->graph.inputs[0]].shape.dims[0] == 6);
    cc_model_free(m);
    /* unsupported data type */
    hm_init(&h, 13);
    hm_input(&h, "a", ONNX__TENSOR_PROTO__DATA_TYPE__COMPLEX64, 2, d23);
    hm_output(&h, "y", ONNX__TENSOR_PROTO__DATA_TYPE__COMPLEX64, 2, d23);
    hm_node(&h, "Relu", "", 1, (const char *[]){ "a" }, 1, (const char *[]){ "y" });
    expect_fail(hm_write(&h, "complex.onnx"), NULL, CC_ERR_UNSUPPORTED, "input 'a' has data type COMPLEX64");
    /* float64 imports (target ABI 8); an op that does not take it says so */
    hm_init(&h, 13);
    hm_input(&h, "a", ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE, 2, d23);
    hm_output(&h, "y", ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE, 2, d23);
    hm_node(&h, "Relu", "", 1, (const char *[]){ "a" }, 1, (const char *[]){ "y" });
    expect_fail(hm_write(&h, "double.onnx"), NULL, CC_ERR_ARG, "Relu: input dtype f64 is not allowed");
}

static void test_initializers(void)
{
    hm h;
    static const int64_t d23[2] = { 2, 3 };
    static float six[6] = { 1, 2, 3, 4, 5, 6 };
    /* external data */
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, d23);
    hm_output(&h, "y", F32, 2, d23);
    Onnx__TensorProto *t = hm_init_tensor(&h, "w", F32, 2, d23, six, 6, 0);
    t->n_float_data = 0;
    t->has_data_location = 1;
    t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    onnx__string_string_entry_proto__init(&h.ext);
    h.ext.key = "location";
    h.ext.value = "weights.bin";
    h.ext_ptrs[0] = &h.ext;
    t->n_external_data = 1;
    t->external_data = h.ext_ptrs;
    hm_node(&h, "Add", "", 2, (const char *[]){ "a", "w" }, 1, (const char *[]){ "y" });
    expect_fail(hm_write(&h, "external.onnx"), NULL, CC_ERR_UNSUPPORTED, "initializer 'w' keeps its data in an external file");
    /* raw_data of the wrong size */
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, d23);
    hm_output(&h, "y", F32, 2, d23);
    hm_init_tensor(&h, "w", F32, 2, d23, six, 5, 1);
    hm_node(&h, "Add", "", 2, (const char *[]){ "a", "w" }, 1, (const char *[]){ "y" });
    expect_fail(hm_write(&h, "rawsize.onnx"), NULL, CC_ERR_ARG, "initializer 'w' has 20 bytes of raw_data");
    /* a valid float_data initializer is added */
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, d23);
    hm_output(&h, "y", F32, 2, d23);
    hm_init_tensor(&h, "w", F32, 2, d23, six, 6, 0);
    hm_node(&h, "Add", "", 2, (const char *[]){ "a", "w" }, 1, (const char *[]){ "y" });
    cc_model *m = expect_load(hm_write(&h, "addw.onnx"), NULL);
    cc_tensor a = make_x(2, d23, -3);
    static const double sum[6] = { -2, 0, 2, 4, 6, 8 };
    expect_values(m, &a, sum, 6);
    cc_model_free(m);
    /* Reshape's shape as a graph input: needs a value at import */
    static const int64_t d1[1] = { 2 }, d32[2] = { 3, 2 };
    hm_init(&h, 13);
    hm_input(&h, "a", F32, 2, d23);
    hm_input(&h, "shape", I64, 1, d1);
    hm_output(&h, "y", F32, 2, d32);
    hm_node(&h, "Reshape", "", 2, (const char *[]){ "a", "shape" }, 1, (const char *[]){ "y" });
    const char *p = hm_write(&h, "reshape_in.onnx");
    expect_fail(p, NULL, CC_ERR_UNSUPPORTED, "node 0 (Reshape): Reshape: shape must be a constant input");
    cc_tensor shp = { 0 };
    cc_shape ss = cc_shape_make(1, d1);
    CHECK_OK(cc_tensor_alloc(&shp, CC_I64, &ss, NULL));
    ((int64_t *)shp.data)[0] = 3;
    ((int64_t *)shp.data)[1] = 2;
    const char *names[1] = { "shape" };
    cc_onnx_options opt = { .n_fixed = 1, .fixed_names = names, .fixed = &shp };
    m = expect_load(p, &opt);
    if (m) CHECK(m->graph.n_inputs == 1 && m->graph.values[m->graph.outputs[0]].shape.dims[0] == 3);
    cc_model_free(m);
    cc_tensor_free(&shp);
    cc_tensor_free(&a);
}

static void test_tensor_files(void)
{
    /* f16 values in int32_data: 1.0 = 0x3c00, -2.0 = 0xc000, 65504 = 0x7bff */
    Onnx__TensorProto t;
    onnx__tensor_proto__init(&t);
    int64_t d[1] = { 3 };
    int32_t bits[3] = { 0x3c00, 0xc000, 0x7bff };
    t.name = "input_0";
    t.has_data_type = 1;
    t.data_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16;
    t.n_dims = 1;
    t.dims = d;
    t.n_int32_data = 3;
    t.int32_data = bits;
    uint8_t buf[256];
    size_t n = onnx__tensor_proto__pack(&t, buf);
    const char *p = tmp_path("f16.pb");
    write_bytes(p, buf, n);
    cc_tensor x = { 0 };
    char name[32] = "";
    cc_err err = { 0 };
    CHECK(cc_onnx_read_tensor(p, &x, name, sizeof name, &err) == CC_OK);
    CHECK(strcmp(name, "input_0") == 0);
    CHECK(x.dtype == CC_F16 && x.shape.rank == 1 && x.shape.dims[0] == 3);
    if (x.data) {
        CHECK(cc_load(x.data, CC_F16, 0) == 1.0 && cc_load(x.data, CC_F16, 1) == -2.0 && cc_load(x.data, CC_F16, 2) == 65504.0);
    }
    cc_tensor_free(&x);
    /* int64 raw_data, little-endian, a scalar */
    uint8_t raw[8] = { 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }; /* -2 */
    onnx__tensor_proto__init(&t);
    t.has_data_type = 1;
    t.data_type = ONNX__TENSOR_PROTO__DATA_TYPE__INT64;
    t.has_raw_data = 1;
    t.raw_data.len = 8;
    t.raw_data.data = raw;
    n = onnx__tensor_proto__pack(&t, buf);
    p = tmp_path("i64.pb");
    write_bytes(p, buf, n);
    CHECK(cc_onnx_read_tensor(p, &x, NULL, 0, &err) == CC_OK);
    CHECK(x.dtype == CC_I64 && x.shape.rank == 0 && x.data && ((int64_t *)x.data)[0] == -2);
    cc_tensor_free(&x);
    /* truncated: the raw data runs past the end */
    p = tmp_path("cut.pb");
    write_bytes(p, buf, n - 3);
    CHECK(cc_onnx_read_tensor(p, &x, NULL, 0, &err) == CC_ERR_ARG && strstr(err.msg, "not a valid ONNX tensor") &&
          strstr(err.msg, "field raw_data runs past the end"));
    /* an unsupported type */
    onnx__tensor_proto__init(&t);
    t.has_data_type = 1;
    t.data_type = ONNX__TENSOR_PROTO__DATA_TYPE__STRING;
    n = onnx__tensor_proto__pack(&t, buf);
    p = tmp_path("str.pb");
    write_bytes(p, buf, n);
    CHECK(cc_onnx_read_tensor(p, &x, NULL, 0, &err) == CC_ERR_UNSUPPORTED && strstr(err.msg, "data type STRING"));
}

/* Every prefix and every single-bit flip of the valid model: whatever the importer says,
 * it must not crash, and a failure must be one non-empty line. */
static void test_mutations(void)
{
    hm h;
    build_valid(&h, 13);
    size_t len = onnx__model_proto__get_packed_size(&h.model);
    uint8_t *good = malloc(len), *bad = malloc(len);
    if (!good || !bad) {
        CHECK(0);
        free(good);
        free(bad);
        return;
    }
    onnx__model_proto__pack(&h.model, good);
    const char *p = tmp_path("mutant.onnx");
    int n_ok = 0, n_runs = 0;
    for (size_t cut = 0; cut <= len + 8 * len; cut++) {
        size_t n = len;
        memcpy(bad, good, len);
        if (cut < len) n = cut;
        else if (cut > len) bad[(cut - len - 1) / 8] ^= (uint8_t)(1u << ((cut - len - 1) % 8));
        write_bytes(p, bad, n);
        cc_model *m = NULL;
        cc_err err = { 0 };
        cc_status st = cc_onnx_load(p, NULL, &m, &err);
        n_runs++;
        if (st == CC_OK) {
            n_ok++;
            cc_model_free(m);
        } else {
            if (!(m == NULL && err.msg[0] && !strchr(err.msg, '\n'))) fprintf(stderr, "mutant %zu: status %d, \"%s\"\n", cut, (int)st, err.msg);
            CHECK(m == NULL && err.msg[0] && !strchr(err.msg, '\n'));
        }
    }
    CHECK(n_ok >= 1 && n_ok < n_runs); /* the intact model loads, most mutants do not */
    free(good);
    free(bad);
}

/* Wraps buf[0..*n) as length-delimited field `field` of an enclosing message (tag and
 * length varints in front); buf has room for it. */
static void wrap(uint8_t *buf, size_t *n, unsigned field)
{
    uint8_t head[16];
    size_t h = 0;
    head[h++] = (uint8_t)(field << 3 | 2);
    for (size_t v = *n; ; v >>= 7) {
        head[h++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
        if (v < 0x80) break;
    }
    memmove(buf + h, buf, *n);
    memcpy(buf, head, h);
    *n += h;
}

typedef struct deep_load {
    const char *path;
} deep_load;

static void *deep_load_main(void *arg)
{
    expect_fail(((deep_load *)arg)->path, NULL, CC_ERR_ARG, "nested too deeply");
    return NULL;
}

/* Loads path in a thread with a 512 KiB stack: the importer's stack use must not grow with
 * the file's nesting (with protobuf-c's recursive unpack, 3,000 levels took most of the
 * main thread's 8 MiB, and the command line crashed on that file). */
static void expect_deep_refused(const char *path)
{
    pthread_attr_t attr;
    pthread_t tid;
    deep_load d = { path };
    CHECK(pthread_attr_init(&attr) == 0);
    CHECK(pthread_attr_setstacksize(&attr, 512 * 1024) == 0);
    CHECK(pthread_create(&tid, &attr, deep_load_main, &d) == 0);
    pthread_join(tid, NULL);
    pthread_attr_destroy(&attr);
}

/* Messages nested thousands of levels deep (a few kilobytes) are refused in one line
 * before protobuf-c's recursive unpack sees them. */
static void test_deep_nesting(void)
{
    enum { LEVELS = 3000 };
    uint8_t *buf = calloc(LEVELS * 3 * 8 + 64, 1);
    CHECK(buf != NULL);
    if (!buf) return;
    /* Graph -> Node (GraphProto.node = 1) -> Attribute (NodeProto.attribute = 5) ->
     * Graph (AttributeProto.g = 6) -> ... inside ModelProto.graph (7) */
    size_t n = 0;
    for (int i = 0; i < LEVELS; i++) {
        wrap(buf, &n, 6);
        wrap(buf, &n, 5);
        wrap(buf, &n, 1);
    }
    wrap(buf, &n, 7);
    const char *path = tmp_path("deep_graph.onnx");
    write_bytes(path, buf, n);
    expect_deep_refused(path);
    /* TypeProto: ValueInfoProto.type (2) -> TypeProto.sequence_type (4) ->
     * Sequence.elem_type (1) -> TypeProto ... as a graph input (GraphProto.input = 11) */
    n = 0;
    for (int i = 0; i < LEVELS; i++) {
        wrap(buf, &n, 1);
        wrap(buf, &n, 4);
    }
    wrap(buf, &n, 2);
    wrap(buf, &n, 11);
    wrap(buf, &n, 7);
    path = tmp_path("deep_type.onnx");
    write_bytes(path, buf, n);
    expect_deep_refused(path);
    free(buf);
}

/* ---- control flow: sub-graphs ------------------------------------------------------------------ */

static Onnx__AttributeProto *hm_attr_g(hm *h, Onnx__NodeProto *nd, const char *name, Onnx__GraphProto *g)
{
    Onnx__AttributeProto *a = hm_attr(h, nd, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH);
    a->g = g;
    return a;
}

static int32_t cond_true[1] = { 1 };

/* A branch: one node op(x) of the outer graph's x, its output named out. */
static void branch(hm *b, const char *op, const char *out)
{
    hm_init(b, 16);
    b->graph.name = (char *)out;
    hm_node(b, op, "", 1, (const char *[]){ "x" }, 1, (const char *[]){ out });
    hm_output(b, out, F32, 1, (int64_t[]){ 3 });
}

static void test_control_flow(void)
{
    static hm h, sub[2];
    /* If(true) then Neg(x) else Relu(x): the branches read x from the outer graph */
    hm_init(&h, 16);
    hm_input(&h, "x", F32, 1, (int64_t[]){ 3 });
    hm_init_tensor(&h, "c", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, 0, NULL, cond_true, 1, 0);
    branch(&sub[0], "Neg", "t");
    branch(&sub[1], "Relu", "r");
    Onnx__NodeProto *nd = hm_node(&h, "If", "", 1, (const char *[]){ "c" }, 1, (const char *[]){ "y" });
    hm_attr_g(&h, nd, "then_branch", &sub[0].graph);
    hm_attr_g(&h, nd, "else_branch", &sub[1].graph);
    hm_output(&h, "y", F32, 1, (int64_t[]){ 3 });
    cc_model *m = expect_load(hm_write(&h, "if.onnx"), NULL);
    CHECK(m && m->graph.n_subgraphs == 2 && m->graph.nodes[0].n_in == 2); /* cond and the captured x */
    cc_tensor x = make_x(1, (int64_t[]){ 3 }, -1); /* -1, 0, 1 */
    expect_values(m, &x, (double[]){ 1, 0, -1 }, 3);
    cc_model_free(m);
    /* a branch missing, or an attribute that is no graph */
    h.nodes[0].n_attribute = 1;
    expect_fail(hm_write(&h, "if_half.onnx"), NULL, CC_ERR_ARG, "attribute 'else_branch' is required");
    h.attrs[0][0].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
    h.attrs[0][0].g = NULL;
    h.nodes[0].n_attribute = 2;
    expect_fail(hm_write(&h, "if_int.onnx"), NULL, CC_ERR_ARG, "attribute 'then_branch' is INT, not a graph");
    /* a branch that reads a name no graph defines */
    hm_init(&h, 16);
    hm_input(&h, "x", F32, 1, (int64_t[]){ 3 });
    hm_init_tensor(&h, "c", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, 0, NULL, cond_true, 1, 0);
    branch(&sub[0], "Neg", "t");
    sub[0].node_in[0][0] = "nowhere";
    branch(&sub[1], "Relu", "r");
    nd = hm_node(&h, "If", "", 1, (const char *[]){ "c" }, 1, (const char *[]){ "y" });
    hm_attr_g(&h, nd, "then_branch", &sub[0].graph);
    hm_attr_g(&h, nd, "else_branch", &sub[1].graph);
    hm_output(&h, "y", F32, 1, (int64_t[]){ 3 });
    expect_fail(hm_write(&h, "if_nowhere.onnx"), NULL, CC_ERR_ARG, "input 'nowhere' is not an initializer");
    /* Loop passing three values to a body that takes one */
    hm_init(&h, 16);
    hm_input(&h, "x", F32, 1, (int64_t[]){ 3 });
    static int64_t trips[1] = { 2 };
    hm_init_tensor(&h, "M", I64, 0, NULL, trips, 1, 0);
    hm_init_tensor(&h, "c", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, 0, NULL, cond_true, 1, 0);
    hm_init(&sub[0], 16);
    hm_input(&sub[0], "i", I64, 0, NULL);
    hm_node(&sub[0], "Neg", "", 1, (const char *[]){ "x" }, 1, (const char *[]){ "n" });
    hm_output(&sub[0], "n", F32, 1, (int64_t[]){ 3 });
    nd = hm_node(&h, "Loop", "", 3, (const char *[]){ "M", "c", "x" }, 1, (const char *[]){ "y" });
    hm_attr_g(&h, nd, "body", &sub[0].graph);
    hm_output(&h, "y", F32, 1, (int64_t[]){ 3 });
    expect_fail(hm_write(&h, "loop_inputs.onnx"), NULL, CC_ERR_ARG, "body takes 1 inputs, the node passes 3");
    /* sub-graphs nested past CC_CONTROL_MAX_DEPTH: an If in the then-branch of an If ... */
    hm *deep = calloc(12, sizeof *deep);
    CHECK(deep != NULL);
    if (!deep) return;
    hm_init(&h, 16);
    hm_input(&h, "x", F32, 1, (int64_t[]){ 3 });
    hm_init_tensor(&h, "c", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, 0, NULL, cond_true, 1, 0);
    nd = hm_node(&h, "If", "", 1, (const char *[]){ "c" }, 1, (const char *[]){ "y" });
    hm_output(&h, "y", F32, 1, (int64_t[]){ 3 });
    hm *outer = &h;
    Onnx__NodeProto *at = nd;
    for (int d = 0; d < 10; d++) {
        hm *b = &deep[d];
        hm_init(b, 16);
        Onnx__NodeProto *inner = hm_node(b, d < 9 ? "If" : "Neg", "", 1, (const char *[]){ d < 9 ? "c" : "x" }, 1,
                                         (const char *[]){ "y" });
        hm_output(b, "y", F32, 1, (int64_t[]){ 3 });
        hm_attr_g(outer, at, "then_branch", &b->graph);
        hm_attr_g(outer, at, "else_branch", &b->graph);
        outer = b;
        at = inner;
    }
    expect_fail(hm_write(&h, "if_deep.onnx"), NULL, CC_ERR_UNSUPPORTED, "sub-graphs nest deeper than 8");
    /* nested only twice, the same chain imports and takes the then-branches down to Neg */
    deep[1].nodes[0].op_type = "Neg";
    deep[1].node_in[0][0] = "x";
    deep[1].nodes[0].n_attribute = 0;
    m = expect_load(hm_write(&h, "if_two.onnx"), NULL);
    expect_values(m, &x, (double[]){ 1, 0, -1 }, 3);
    cc_model_free(m);
    cc_tensor_free(&x);
    free(deep);
    /* Scan-8 (a batch axis on everything) runs for a batch of 1 only */
    hm_init(&h, 8);
    hm_input(&h, "s", F32, 2, (int64_t[]){ 2, 2 });
    hm_input(&h, "xs", F32, 3, (int64_t[]){ 2, 3, 2 });
    hm_init(&sub[0], 8);
    hm_input(&sub[0], "si", F32, 1, (int64_t[]){ 2 });
    hm_input(&sub[0], "xi", F32, 1, (int64_t[]){ 2 });
    hm_node(&sub[0], "Add", "", 2, (const char *[]){ "si", "xi" }, 1, (const char *[]){ "so" });
    hm_output(&sub[0], "so", F32, 1, (int64_t[]){ 2 });
    nd = hm_node(&h, "Scan", "", 3, (const char *[]){ "", "s", "xs" }, 1, (const char *[]){ "y" });
    hm_attr_g(&h, nd, "body", &sub[0].graph);
    hm_attr_i(&h, nd, "num_scan_inputs", 1);
    hm_output(&h, "y", F32, 2, (int64_t[]){ 2, 2 });
    expect_fail(hm_write(&h, "scan8.onnx"), NULL, CC_ERR_UNSUPPORTED, "Scan-8 runs here with a batch of 1");
}

int main(void)
{
    /* the mutation test rewrites a file a thousand times: memory-backed /dev/shm keeps
     * that well under a second where /tmp is a disk mounted with discard */
    const char *base = getenv("TMPDIR");
    if (!base || strlen(base) >= 40) base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(tmpdir, sizeof tmpdir, "%s/cc_onnx_XXXXXX", base);
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_valid();
    test_files();
    test_ops_and_attrs();
    test_opsets();
    test_legacy_rewrites();
    test_folding();
    test_shape_of_dynamic();
    test_float_folding();
    test_graph_errors();
    test_initializers();
    test_tensor_files();
    test_mutations();
    test_deep_nesting();
    test_control_flow();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    return CC_TEST_RESULT();
}
