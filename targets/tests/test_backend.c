/* test_backend.c — the helpers the built-in backends share (targets/backend.c), against
 * values worked out by hand: window geometry (explicit pads, SAME_UPPER/SAME_LOWER from
 * the output size, VALID, 1-D windows on the last axis, rejections), broadcast strides,
 * attribute defaults, the node-input check, kernel notes, and the describe_plan text with
 * repeated entries counted and a short buffer cut. */
#include <string.h>

#include "ops/tests/op_test.h"
#include "targets/backend.h"

/* A node of catalog op `op` with its default attributes. */
static cc_node node_of(const char *op)
{
    const cc_op_def *def = cc_catalog_find(op);
    if (!def) {
        fprintf(stderr, "no op %s in the catalog\n", op);
        exit(1);
    }
    return node_make(def, -1);
}

static void test_window(void)
{
    /* Conv 3x3 on 1x1x7x7, strides 2, pads [1,0,2,1]: out 4x4 given by the caller */
    cc_node c = node_of("Conv");
    attr_set_text(&c, "strides", "[2,2]");
    attr_set_text(&c, "pads", "[1,0,2,1]");
    cc_shape x = cc_shape_make(4, (const int64_t[]){ 1, 1, 7, 7 });
    cc_shape y = cc_shape_make(4, (const int64_t[]){ 1, 1, 4, 4 });
    cc_backend_window w;
    cc_err e = { 0 };
    CHECK_OK(cc_backend_window_make(&c, &x, (const int64_t[]){ 3, 3 }, &y, "cpu", &w, &e));
    CHECK(w.nsp == 2);
    CHECK(w.in[0] == 1 && w.out[0] == 1 && w.k[0] == 1 && w.stride[0] == 1 && w.dil[0] == 1);
    CHECK(w.pad0[0] == 0 && w.pad1[0] == 0);
    CHECK(w.in[1] == 7 && w.in[2] == 7 && w.out[1] == 4 && w.out[2] == 4);
    CHECK(w.k[1] == 3 && w.stride[1] == 2 && w.stride[2] == 2 && w.dil[2] == 1);
    CHECK(w.pad0[1] == 1 && w.pad0[2] == 0 && w.pad1[1] == 2 && w.pad1[2] == 1);

    /* SAME_UPPER, 2x2 kernel, stride 1 on 6x6 (out 6): total pad 1, at the end;
     * SAME_LOWER: at the beginning. 4x4 kernel, stride 2 on 7x7 (out 4): total 3 = 1 + 2 */
    cc_node su = node_of("Conv");
    attr_set_text(&su, "auto_pad", "SAME_UPPER");
    cc_shape x6 = cc_shape_make(4, (const int64_t[]){ 1, 1, 6, 6 });
    CHECK_OK(cc_backend_window_make(&su, &x6, (const int64_t[]){ 2, 2 }, &x6, "cpu", &w, &e));
    CHECK(w.pad0[1] == 0 && w.pad1[1] == 1 && w.pad0[2] == 0 && w.pad1[2] == 1);
    attr_set_text(&su, "auto_pad", "SAME_LOWER");
    CHECK_OK(cc_backend_window_make(&su, &x6, (const int64_t[]){ 2, 2 }, &x6, "cpu", &w, &e));
    CHECK(w.pad0[1] == 1 && w.pad1[1] == 0);
    attr_set_text(&su, "strides", "[2,2]");
    cc_shape x7 = cc_shape_make(4, (const int64_t[]){ 1, 1, 7, 7 });
    cc_shape y4 = cc_shape_make(4, (const int64_t[]){ 1, 1, 4, 4 });
    CHECK_OK(cc_backend_window_make(&su, &x7, (const int64_t[]){ 4, 4 }, &y4, "cpu", &w, &e));
    CHECK(w.pad0[2] == 2 && w.pad1[2] == 1);
    attr_set_text(&su, "auto_pad", "VALID");
    CHECK_OK(cc_backend_window_make(&su, &x7, (const int64_t[]){ 4, 4 }, &y4, "cpu", &w, &e));
    CHECK(w.pad0[1] == 0 && w.pad1[1] == 0 && w.pad0[2] == 0 && w.pad1[2] == 0);

    /* a 1-D MaxPool uses the last axis; dilations 2 */
    cc_node mp = node_of("MaxPool");
    attr_set_text(&mp, "kernel_shape", "[3]");
    attr_set_text(&mp, "dilations", "[2]");
    cc_shape x1 = cc_shape_make(3, (const int64_t[]){ 2, 3, 10 });
    cc_shape y1 = cc_shape_make(3, (const int64_t[]){ 2, 3, 6 });
    CHECK_OK(cc_backend_window_make(&mp, &x1, (const int64_t[]){ 3 }, &y1, "cpu", &w, &e));
    CHECK(w.nsp == 1 && w.in[1] == 1 && w.k[1] == 1 && w.in[2] == 10 && w.out[2] == 6);
    CHECK(w.k[2] == 3 && w.dil[2] == 2 && w.pad0[2] == 0);

    /* rejections: four spatial dims (naming the backend), a pads list of the wrong
     * length, stride 0 */
    cc_shape x4 = cc_shape_make(6, (const int64_t[]){ 1, 1, 2, 2, 2, 2 });
    CHECK(cc_backend_window_make(&c, &x4, (const int64_t[]){ 1, 1, 1, 1 }, &x4, "opencl", &w, &e) ==
          CC_ERR_UNSUPPORTED);
    CHECK(strcmp(e.msg, "Conv: opencl handles 1 to 3 spatial dims, got 4") == 0);
    cc_node bad = node_of("Conv");
    attr_set_text(&bad, "pads", "[1,1]");
    CHECK(cc_backend_window_make(&bad, &x, (const int64_t[]){ 3, 3 }, &y, "cpu", &w, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "do not match 2 spatial dims") != NULL);
    attr_set_text(&bad, "pads", "[0,0,0,0]");
    attr_set_text(&bad, "strides", "[0,1]");
    CHECK(cc_backend_window_make(&bad, &x, (const int64_t[]){ 3, 3 }, &y, "cpu", &w, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "must be >= 1") != NULL);
}

static void test_broadcast_and_attrs(void)
{
    /* 3x1 through 2x3x4: strides 0 (missing dim), 1, 0 (size 1) */
    cc_shape o = cc_shape_make(3, (const int64_t[]){ 2, 3, 4 });
    cc_shape s = cc_shape_make(2, (const int64_t[]){ 3, 1 });
    int64_t st[3] = { -1, -1, -1 };
    CHECK(cc_backend_broadcast_strides(&s, &o, st) == 0);
    CHECK(st[0] == 0 && st[1] == 1 && st[2] == 0);
    cc_shape full = o;
    CHECK(cc_backend_broadcast_strides(&full, &o, st) == 0);
    CHECK(st[0] == 12 && st[1] == 4 && st[2] == 1);
    cc_shape bad = cc_shape_make(1, (const int64_t[]){ 3 });
    CHECK(cc_backend_broadcast_strides(&bad, &o, st) == -1);
    cc_shape deeper = cc_shape_make(4, (const int64_t[]){ 1, 2, 3, 4 });
    CHECK(cc_backend_broadcast_strides(&deeper, &o, st) == -1);

    /* a node whose attributes are all unset (no defaults applied) */
    cc_node c;
    memset(&c, 0, sizeof c);
    c.op = cc_catalog_find("Conv");
    int64_t v[2] = { 0, 0 };
    CHECK(cc_backend_attr_ints(&c, "strides", 2, 7, v) == 0 && v[0] == 7 && v[1] == 7);
    attr_set_text(&c, "strides", "[2,3]");
    CHECK(cc_backend_attr_ints(&c, "strides", 2, 7, v) == 0 && v[0] == 2 && v[1] == 3);
    CHECK(cc_backend_attr_ints(&c, "strides", 3, 7, v) == -1);
    CHECK(cc_backend_attr_int(&c, "group", 5) == 5);
    attr_set_text(&c, "group", "4");
    CHECK(cc_backend_attr_int(&c, "group", 5) == 4);
    CHECK(cc_backend_attr_int(&c, "no_such_attribute", 9) == 9);
}

/* A plan of five nodes for cc_backend_describe_plan. */
typedef struct fake_plan {
    cc_node nodes[5];
    const char *notes[5];
} fake_plan;

static const char *fake_note(const void *plan, int i, const cc_op_def **op)
{
    const fake_plan *p = plan;
    *op = p->nodes[i].op;
    return p->notes[i];
}

static void test_describe_and_notes(void)
{
    fake_plan p;
    const char *ops[5] = { "Conv", "Relu", "Conv", "Conv", "Add" };
    const char *notes[5] = { "1x1 sgemm", "", "im2col+sgemm", "1x1 sgemm", "" };
    for (int i = 0; i < 5; i++) {
        p.nodes[i] = node_of(ops[i]);
        p.notes[i] = notes[i];
    }
    char buf[128];
    cc_backend_describe_plan(&p, 5, fake_note, buf, sizeof buf);
    CHECK(strcmp(buf, "Conv: 1x1 sgemm x2; Relu; Conv: im2col+sgemm; Add") == 0);
    char small[12];
    cc_backend_describe_plan(&p, 5, fake_note, small, sizeof small);
    CHECK(strcmp(small, "Conv: 1x1 s") == 0);
    cc_backend_describe_plan(NULL, 0, fake_note, buf, sizeof buf);
    CHECK(buf[0] == '\0');

    cc_backend_note_clear();
    CHECK(strcmp(cc_backend_note_get(), "") == 0);
    cc_backend_note("%s wg %d", "gemm_t64", 16);
    CHECK(strcmp(cc_backend_note_get(), "gemm_t64 wg 16") == 0);
    char longer[2 * CC_BACKEND_NOTE_MAX];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    cc_backend_note("%s", longer);
    CHECK(strlen(cc_backend_note_get()) == CC_BACKEND_NOTE_MAX - 1);
    cc_backend_note_clear();
    CHECK(strcmp(cc_backend_note_get(), "") == 0);

    /* node inputs must name values of the graph (absent ones are < 0) */
    cc_graph g;
    memset(&g, 0, sizeof g);
    g.n_values = 5;
    cc_node n = node_of("Add");
    n.n_in = 2;
    n.in[0] = 4;
    n.in[1] = -1;
    char why[64] = "";
    CHECK(cc_backend_inputs_valid(&g, &n, why, sizeof why) == 1);
    n.in[1] = 9;
    CHECK(cc_backend_inputs_valid(&g, &n, why, sizeof why) == 0);
    CHECK(strcmp(why, "node input 1 names value 9 of 5") == 0);
}

int main(void)
{
    test_window();
    test_broadcast_and_attrs();
    test_describe_and_notes();
    return CC_TEST_RESULT();
}
