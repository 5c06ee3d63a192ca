/* test_random.c — the random mode's draws and the shrinker (ops/random.h). */
#include <string.h>

#include "../../harness/cctest.h"
#include "../random.h"

/* Every op of the catalog can be drawn; draws are valid, within budget and reproducible. */
static void test_draws(void)
{
    for (int i = 0; i < cc_catalog_count(); i++) {
        const cc_op_def *op = cc_catalog_at(i);
        cc_draw_source *s = NULL;
        CHECK_OK(cc_draw_source_make(op, 0, &s, NULL));
        if (!s) continue;
        if (cc_op_has_trait(op, CC_TRAIT_SUBGRAPH)) { /* no cases to draw from: control flow */
            CHECK(cc_draw_source_templates(s) == 0);
            cc_draw_source_free(s);
            continue;
        }
        CHECK(cc_draw_source_templates(s) > 0);
        char first[CC_CASE_ID_MAX] = "";
        int distinct = 0;
        for (uint64_t k = 0; k < 40; k++) {
            cc_case a, b, again;
            cc_err e;
            CHECK(cc_case_draw(s, 11, k, &a, &e) == CC_OK);
            CHECK(a.op == op);
            CHECK(a.mem_need <= CC_DRAW_MEM_BUDGET);
            CHECK(cc_case_parse(a.id, &again, &e) == CC_OK); /* canonical and valid */
            CHECK(strcmp(again.id, a.id) == 0);
            CHECK(cc_case_draw(s, 11, k, &b, &e) == CC_OK);  /* the same draw again */
            CHECK(strcmp(a.id, b.id) == 0);
            if (k == 0) snprintf(first, sizeof first, "%s", a.id);
            else distinct += strcmp(first, a.id) != 0;
        }
        if (distinct < 20) fprintf(stderr, "%s: only %d of 39 draws differ from the first\n", op->name, distinct);
        CHECK(distinct >= 20);
        cc_draw_source_free(s);
    }
}

/* Draw i of a batch is op i % n_ops; a dtype filter holds. */
static void test_draw_many(void)
{
    const cc_op_def *ops[2] = { cc_catalog_find("Conv"), cc_catalog_find("Relu") };
    cc_case *cs = NULL;
    int n = 0;
    CHECK_OK(cc_case_draw_many(ops, 2, CC_DTYPE_BIT(CC_F32), 5, 30, &cs, &n, NULL));
    CHECK(n == 30);
    for (int i = 0; i < n; i++) {
        CHECK(cs[i].op == ops[i % 2]);
        CHECK(cc_case_dtype(&cs[i]) == CC_F32);
    }
    free(cs);
}

/* Candidates are valid and smaller; a shared dimension shrinks in every input at once. */
static void test_candidates(void)
{
    cc_case c, out[96];
    cc_err e;
    CHECK(cc_case_parse("Conv(x=1x4x8x8:f32,w=6x4x3x3,pads=[1,1,1,1],strides=[2,2])", &c, &e) == CC_OK);
    int n = cc_case_shrink_candidates(&c, out, 96);
    CHECK(n > 5);
    int channels = 0, strides = 0;
    for (int i = 0; i < n; i++) {
        cc_case again;
        CHECK(cc_case_parse(out[i].id, &again, &e) == CC_OK);
        CHECK(cc_case_size(&out[i]) < cc_case_size(&c));
        channels += strcmp(out[i].id, "Conv(x=1x1x8x8:f32,w=6x1x3x3,pads=[1,1,1,1],strides=[2,2])") == 0;
        strides += strcmp(out[i].id, "Conv(x=1x4x8x8:f32,w=6x4x3x3,pads=[1,1,1,1])") == 0;
    }
    CHECK(channels == 1);
    CHECK(strides == 1);
    /* the attribute candidates come first */
    CHECK(strstr(out[0].id, "pads") == NULL || strstr(out[0].id, "strides") == NULL);
}

/* A synthetic failure: Resize under align_corners fails whenever the last axis of x has at
 * least 3 elements. Shrinking to a fixpoint must reach the smallest such case: every
 * other dimension 1, the last exactly 3, and no attribute the failure does not need. */
static int fails(const cc_case *c)
{
    const cc_attr_value *ct = &c->attrs[cc_attr_index(c->op, "coordinate_transformation_mode")];
    const cc_shape *x = &c->in_shape[0];
    return strcmp(ct->s, "align_corners") == 0 && x->rank >= 1 && x->dims[x->rank - 1] >= 3;
}

static void test_shrink_fixpoint(void)
{
    cc_case c, out[96];
    cc_err e;
    CHECK(cc_case_parse("Resize(x=2x3x7x9:f32,scales=[1,1,1.5,1.5],coordinate_transformation_mode=align_corners,"
                        "mode=linear,cubic_coeff_a=-0.5)",
                        &c, &e) == CC_OK);
    CHECK(fails(&c));
    for (int step = 0; step < 200; step++) {
        int n = cc_case_shrink_candidates(&c, out, 96), hit = -1;
        for (int i = 0; i < n && hit < 0; i++)
            if (fails(&out[i])) hit = i;
        if (hit < 0) break;
        c = out[hit];
    }
    CHECK(fails(&c));
    const cc_shape *x = &c.in_shape[0];
    CHECK(x->dims[x->rank - 1] == 3);
    for (int k = 0; k < x->rank - 1; k++) CHECK(x->dims[k] == 1);
    CHECK(strstr(c.id, "cubic_coeff_a") == NULL);
    CHECK(strstr(c.id, "mode=linear") == NULL);
    fprintf(stderr, "shrunk to %s\n", c.id);
}

int main(void)
{
    test_draws();
    test_draw_many();
    test_candidates();
    test_shrink_fixpoint();
    return CC_TEST_RESULT();
}
