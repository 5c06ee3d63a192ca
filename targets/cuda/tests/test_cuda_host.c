/* test_cuda_host.c — what can be checked of the cuda backend without a GPU:
 *  - it is registered (cc_target_find("cuda")) with every required member set;
 *  - open() on a machine without a usable GPU fails with CC_ERR_DEVICE and CUDA's own
 *    reason (skipped when a GPU is present), and a malformed device string is CC_ERR_ARG
 *    before any device is touched; a "tf32" device declines f16, bf16 and 8-bit nodes;
 *  - what supports() claims: integer reductions and Pow with an integer exponent;
 *  - every catalog op has an entry in the backend's kernel tables;
 *  - the host-side geometry the kernels rely on, against values worked out by hand: walk
 *    simplification (broadcast, transpose, reversed slice), window pads from auto_pad,
 *    and constant integer inputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "ops/case.h"
#include "targets/cuda/cuda_internal.h"

static void registry(void)
{
    const cc_target_iface *t = cc_target_find("cuda");
    CHECK(t != NULL);
    if (!t) return;
    CHECK(t->abi_version == CC_TARGET_ABI_VERSION);
    CHECK(t->run_timed != NULL);
    CHECK(t->describe_plan != NULL);
    CHECK(!t->hidden);
}

static void open_without_gpu(void)
{
    const cc_target_iface *t = cc_target_find("cuda");
    if (!t) return;
    void *ctx = NULL;
    cc_device_desc desc;
    cc_err err = { 0 };
    /* the device string is checked first: no GPU needed */
    CHECK(t->open("tf32:nonsense", &ctx, &desc, &err) == CC_ERR_ARG);
    CHECK(strstr(err.msg, "nonsense") != NULL);
    cc_err_clear(&err);
    cc_status st = t->open("", &ctx, &desc, &err);
    if (st == CC_OK) {
        printf("a GPU is present (%s): the no-device check does not apply\n", desc.name);
        t->close(ctx);
        return;
    }
    printf("open: %s: %s\n", cc_status_name(st), err.msg);
    CHECK(st == CC_ERR_DEVICE);
    CHECK(err.msg[0] != '\0');
    CHECK(strncmp(err.msg, "CUDA: ", 6) == 0);
    /* an index past the devices present fails the same way, never crashes */
    cc_err_clear(&err);
    CHECK(t->open("7", &ctx, &desc, &err) == CC_ERR_DEVICE);
    CHECK(err.msg[0] != '\0');
}

/* A device opened with "tf32" declines f16, bf16 and 8-bit nodes (they run on plain cuda);
 * FP32 nodes and a plain device reach the planner's own checks. The supports() of the
 * table sees host descriptions only, so a context with no GPU behind it does here. */
static void tf32_mode(void)
{
    const cc_target_iface *t = cc_target_find("cuda");
    if (!t) return;
    const char *ids[] = { "MatMul(a=4x8:f16,b=8x5)", "Relu(x=2x3:bf16)",
                          "QLinearConv(x=2x4x9x9:i8,w=6x4x3x3,b=6:i32,pads=[1,1,1,1],strides=[2,2],w_zp=1)",
                          "MatMul(a=4x8:f32,b=8x5)" };
    for (int i = 0; i < 4; i++) {
        cc_case c;
        cc_case_inst inst;
        cc_err err = { 0 };
        CHECK(cc_case_parse(ids[i], &c, &err) == CC_OK);
        CHECK(cc_case_instantiate(&c, 1, 0, &inst, &err) == CC_OK);
        for (int tf32 = 0; tf32 <= 1; tf32++) {
            cc_cuda_ctx ctx;
            memset(&ctx, 0, sizeof ctx);
            ctx.tf32 = tf32;
            ctx.sm = 90;
            char why[256] = "";
            cc_support s = t->supports(&ctx, &inst.graph, &inst.node, why, sizeof why);
            int declined = s == CC_SUPPORT_NO && strstr(why, "cuda:tf32 runs FP32 only") != NULL;
            if (declined != (tf32 && i < 3)) fprintf(stderr, "%s tf32=%d: %d '%s'\n", ids[i], tf32, (int)s, why);
            CHECK(declined == (tf32 && i < 3));
        }
        cc_case_inst_free(&inst);
    }
}

/* Integer Reduce* (Max, Min, Sum, Prod, L1, SumSquare) and Pow of a float base to an integer
 * exponent have kernels (the H200 run declined them); an integer Pow base still declines. */
static void claims(void)
{
    const cc_target_iface *t = cc_target_find("cuda");
    if (!t) return;
    static const struct {
        const char *id;
        int yes;
    } want[] = {
        { "ReduceSum(data=2x3x4:i32,keepdims=0,axes=[1])", 1 },
        { "ReduceProd(data=2x3x4:i64)", 1 },
        { "ReduceMax(data=2x3x4:u8,axes=[-1])", 1 },
        { "ReduceSumSquare(data=2x3x4:i32)", 1 },
        { "Pow(x=3x5x7:f32,y=3x5x7:i32)", 1 },
        { "Pow(x=3x5x7:bf16,y=3x5x7:i64)", 1 },
        { "Pow(x=3x5x7:i32,y=3x5x7:i32)", 0 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        cc_case c;
        cc_case_inst inst;
        cc_err err = { 0 };
        if (cc_case_parse(want[i].id, &c, &err) != CC_OK || cc_case_instantiate(&c, 1, 0, &inst, &err) != CC_OK) {
            fprintf(stderr, "%s: %s\n", want[i].id, err.msg);
            CHECK(0);
            continue;
        }
        cc_cuda_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.sm = 90;
        char why[256] = "";
        cc_support s = t->supports(&ctx, &inst.graph, &inst.node, why, sizeof why);
        if ((s == CC_SUPPORT_YES) != want[i].yes) fprintf(stderr, "%s: %d '%s'\n", want[i].id, (int)s, why);
        CHECK((s == CC_SUPPORT_YES) == want[i].yes);
        cc_case_inst_free(&inst);
    }
}

static void coverage(void)
{
    const cc_kernel_list *fams[] = { &cc_cuda_family_conv,    &cc_cuda_family_pool,
                                     &cc_cuda_family_matmul,  &cc_cuda_family_eltwise,
                                     &cc_cuda_family_reduce,  &cc_cuda_family_normquant,
                                     &cc_cuda_family_shape,   &cc_cuda_family_resize };
    int n = cc_catalog_count(), missing = 0;
    CHECK(n > 30);
    for (int i = 0; i < n; i++) {
        const cc_op_def *op = cc_catalog_at(i);
        /* recurrences, data-dependent output shapes and control flow stay on the host */
        int found = 0, want = strcmp(op->family, "recurrent") != 0 &&
                              !cc_op_has_trait(op, CC_TRAIT_DYNAMIC_SHAPE) && !cc_op_has_trait(op, CC_TRAIT_SUBGRAPH);
        for (size_t f = 0; f < sizeof fams / sizeof fams[0]; f++)
            for (int k = 0; k < fams[f]->n; k++) found += fams[f]->kernels[k].op == op->id;
        if (found != want) {
            fprintf(stderr, "op %s has %d cuda kernel entries\n", op->name, found);
            missing++;
        }
    }
    CHECK(missing == 0);
}

static void walks(void)
{
    /* Add(a = 1x16x8x8, b = 16x1x1): output 1x16x8x8. a contiguous, b one value per channel.
     * Dropping the leading 1 and merging 8x8 (contiguous in a, b and y) leaves dims
     * [16, 64] with a: [64, 1], b: [1, 0], y: [64, 1]. */
    cc_cuda_walk w;
    memset(&w, 0, sizeof w);
    w.rank = 4;
    int64_t dims[4] = { 1, 16, 8, 8 }, sa[4] = { 1024, 64, 8, 1 }, sb[4] = { 0, 1, 0, 0 };
    for (int i = 0; i < 4; i++) {
        w.dims[i] = dims[i];
        w.st[0][i] = sa[i];
        w.st[1][i] = sb[i];
        w.st[2][i] = sa[i];
    }
    cc_cuda_walk_simplify(&w, 3);
    CHECK(w.rank == 2);
    CHECK(w.dims[0] == 16 && w.dims[1] == 64);
    CHECK(w.st[0][0] == 64 && w.st[0][1] == 1);
    CHECK(w.st[1][0] == 1 && w.st[1][1] == 0);
    CHECK(w.st[2][0] == 64 && w.st[2][1] == 1);

    /* same shapes merge into one contiguous run */
    memset(&w, 0, sizeof w);
    w.rank = 3;
    int64_t d3[3] = { 2, 3, 4 }, s3[3] = { 12, 4, 1 };
    for (int i = 0; i < 3; i++) {
        w.dims[i] = d3[i];
        w.st[0][i] = w.st[1][i] = w.st[2][i] = s3[i];
    }
    cc_cuda_walk_simplify(&w, 3);
    CHECK(w.rank == 1 && w.dims[0] == 24 && w.st[0][0] == 1 && w.st[2][0] == 1);

    /* Transpose 2x3x4 by perm [1,0,2]: output 3x2x4 reads x strides [4, 12, 1]; the last
     * two dims do not merge (12 != 1 * 4), the first two neither (4 != 12 * 2) */
    memset(&w, 0, sizeof w);
    w.rank = 3;
    int64_t dt[3] = { 3, 2, 4 }, st[3] = { 4, 12, 1 }, so[3] = { 8, 4, 1 };
    for (int i = 0; i < 3; i++) {
        w.dims[i] = dt[i];
        w.st[0][i] = st[i];
        w.st[1][i] = so[i];
    }
    cc_cuda_walk_simplify(&w, 2);
    CHECK(w.rank == 3);

    /* reversed columns of a 10x10 slice: strides [10, -1] never merge */
    memset(&w, 0, sizeof w);
    w.rank = 2;
    w.dims[0] = w.dims[1] = 10;
    w.st[0][0] = 10;
    w.st[0][1] = -1;
    w.st[1][0] = 10;
    w.st[1][1] = 1;
    cc_cuda_walk_simplify(&w, 2);
    CHECK(w.rank == 2 && w.st[0][1] == -1);

    /* everything of size 1: one element */
    memset(&w, 0, sizeof w);
    w.rank = 2;
    w.dims[0] = w.dims[1] = 1;
    cc_cuda_walk_simplify(&w, 3);
    CHECK(w.rank == 1 && w.dims[0] == 1);
}

static cc_node node_of(const char *op)
{
    cc_node n;
    memset(&n, 0, sizeof n);
    n.op = cc_catalog_find(op);
    cc_err err;
    if (!n.op || cc_node_set_defaults(&n, &err) != CC_OK) {
        fprintf(stderr, "no op %s\n", op);
        exit(1);
    }
    return n;
}

static void set_str(cc_node *n, const char *name, const char *v)
{
    int a = cc_attr_index(n->op, name);
    n->attrs[a].set = 1;
    snprintf(n->attrs[a].s, sizeof n->attrs[a].s, "%s", v);
}

static void set_ints(cc_node *n, const char *name, int cnt, const int64_t *v)
{
    int a = cc_attr_index(n->op, name);
    n->attrs[a].set = 1;
    n->attrs[a].n = cnt;
    for (int i = 0; i < cnt; i++) n->attrs[a].ints[i] = v[i];
}

static void windows(void)
{
    /* Conv x 1x3x9x8, kernel 3x3, stride 2, SAME_UPPER: out ceil(9/2) = 5, ceil(8/2) = 4.
     * Total pads: (5-1)*2 + 3 - 9 = 2 -> 1 + 1; (4-1)*2 + 3 - 8 = 1 -> 0 before, 1 after. */
    cc_node n = node_of("Conv");
    set_str(&n, "auto_pad", "SAME_UPPER");
    set_ints(&n, "strides", 2, (const int64_t[]){ 2, 2 });
    cc_shape x = cc_shape_make(4, (const int64_t[]){ 1, 3, 9, 8 });
    cc_shape y = cc_shape_make(4, (const int64_t[]){ 1, 5, 5, 4 });
    cc_cuda_window w;
    cc_err err = { 0 };
    CHECK_OK(cc_cuda_window_make(&n, &x, (const int64_t[]){ 3, 3 }, &y, &w, &err));
    CHECK(w.planes == 3);
    CHECK(w.in[0] == 1 && w.k[0] == 1 && w.out[0] == 1 && w.pad0[0] == 0);
    CHECK(w.in[1] == 9 && w.out[1] == 5 && w.pad0[1] == 1 && w.pad1[1] == 1);
    CHECK(w.in[2] == 8 && w.out[2] == 4 && w.pad0[2] == 0 && w.pad1[2] == 1);
    CHECK(w.stride[1] == 2 && w.stride[2] == 2 && w.dil[1] == 1);

    /* SAME_LOWER puts the odd pad first */
    set_str(&n, "auto_pad", "SAME_LOWER");
    CHECK_OK(cc_cuda_window_make(&n, &x, (const int64_t[]){ 3, 3 }, &y, &w, &err));
    CHECK(w.pad0[2] == 1 && w.pad1[2] == 0);

    /* 1-D explicit pads [1, 2] with dilation 2 */
    cc_node m = node_of("Conv");
    set_ints(&m, "pads", 2, (const int64_t[]){ 1, 2 });
    set_ints(&m, "dilations", 1, (const int64_t[]){ 2 });
    cc_shape x1 = cc_shape_make(3, (const int64_t[]){ 2, 4, 16 });
    cc_shape y1 = cc_shape_make(3, (const int64_t[]){ 2, 6, 15 });
    CHECK_OK(cc_cuda_window_make(&m, &x1, (const int64_t[]){ 3 }, &y1, &w, &err));
    CHECK(w.planes == 8 && w.in[2] == 16 && w.pad0[2] == 1 && w.pad1[2] == 2 && w.dil[2] == 2);
    CHECK(w.in[0] == 1 && w.in[1] == 1);

    /* four spatial dims are not handled */
    cc_shape x4 = cc_shape_make(6, (const int64_t[]){ 1, 1, 2, 2, 2, 2 });
    CHECK(cc_cuda_window_make(&m, &x4, (const int64_t[]){ 1, 1, 1, 1 }, &x4, &w, &err) ==
          CC_ERR_UNSUPPORTED);
}

static void const_inputs(void)
{
    /* Slice's starts from a constant int32 tensor win over the attribute */
    cc_node n = node_of("Slice");
    set_ints(&n, "starts", 1, (const int64_t[]){ 5 });
    n.n_in = 2;
    int32_t data[2] = { -3, 7 };
    cc_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = CC_I32;
    t.shape = cc_shape_make(1, (const int64_t[]){ 2 });
    t.data = data;
    const cc_tensor *in[CC_MAX_IO] = { NULL, &t };
    int64_t v[CC_MAX_INTS];
    int cnt = 0, present = 0;
    cc_err err = { 0 };
    CHECK_OK(cc_cuda_const_ints(&n, in, 1, "starts", v, &cnt, &present, &err));
    CHECK(present && cnt == 2 && v[0] == -3 && v[1] == 7);
    /* without data: the attribute */
    t.data = NULL;
    in[1] = NULL;
    CHECK_OK(cc_cuda_const_ints(&n, in, 1, "starts", v, &cnt, &present, &err));
    CHECK(present && cnt == 1 && v[0] == 5);
    /* a runtime (non-constant) input without attribute is unsupported */
    cc_node m = node_of("Slice");
    m.n_in = 2;
    in[1] = &t;
    CHECK(cc_cuda_const_ints(&m, in, 1, "starts", v, &cnt, &present, &err) == CC_ERR_UNSUPPORTED);
}

int main(void)
{
    registry();
    open_without_gpu();
    tf32_mode();
    claims();
    coverage();
    walks();
    windows();
    const_inputs();
    return CC_TEST_RESULT();
}
