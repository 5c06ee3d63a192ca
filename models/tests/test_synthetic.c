/* test_synthetic.c — synthetic inputs of imported models (cc_model_synthetic_input) take
 * values the ops reading them accept: token ids through Cast and Unsqueeze into a Gather
 * stay within the embedding's rows (and within the smaller of two tables), an attention
 * mask read by Equal is 1s then 0s per row with at least one 1, an integer input named
 * *mask* without such a reader too, a BatchNormalization variance is positive, a divisor
 * non-zero; other inputs keep the previous behaviour (floats standard normal); the same
 * seed gives the same values. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../harness/cctest.h"
#include "../quantize.h"

static cc_tensor constant(cc_dtype dt, int rank, const int64_t *dims)
{
    cc_tensor t = { 0 };
    cc_shape s = cc_shape_make(rank, dims);
    if (cc_tensor_alloc(&t, dt, &s, NULL)) exit(1);
    return t;
}

/* ids [2, 6] (i64) -> Cast(i32) -> Unsqueeze -> Gather from a 50-row table and, directly, from
 * a 3-row one; mask [2, 6] (i64) -> Equal(mask, 0); pad_mask [2, 4] (i32), read by nothing but
 * Identity; var [3] (f32) as a BatchNormalization variance; den [4] (f32) as a divisor;
 * x [4] (f32) plain. */
static cc_model *model(void)
{
    cc_model_builder *b = NULL;
    cc_err e = { 0 };
    if (cc_mb_create("synthetic", &b, &e)) return NULL;
    int ids, mask, pad, var, den, x, v[16], o[16];
    cc_shape s26 = cc_shape_make(2, (int64_t[]){ 2, 6 }), s24 = cc_shape_make(2, (int64_t[]){ 2, 4 });
    cc_shape s3 = cc_shape_make(1, (int64_t[]){ 3 }), s4 = cc_shape_make(1, (int64_t[]){ 4 });
    cc_status st = cc_mb_input(b, "input_ids", CC_I64, &s26, &ids, &e);
    if (!st) st = cc_mb_input(b, "attention_mask", CC_I64, &s26, &mask, &e);
    if (!st) st = cc_mb_input(b, "pad_mask", CC_I32, &s24, &pad, &e);
    if (!st) st = cc_mb_input(b, "var", CC_F32, &s3, &var, &e);
    if (!st) st = cc_mb_input(b, "den", CC_F32, &s4, &den, &e);
    if (!st) st = cc_mb_input(b, "x", CC_F32, &s4, &x, &e);
    cc_tensor big = constant(CC_F32, 2, (int64_t[]){ 50, 4 }), small = constant(CC_F32, 2, (int64_t[]){ 3, 4 });
    cc_tensor zero = constant(CC_I64, 0, NULL), axes = constant(CC_I64, 1, (int64_t[]){ 1 });
    cc_tensor bx = constant(CC_F32, 3, (int64_t[]){ 1, 3, 2 }), bs = constant(CC_F32, 1, (int64_t[]){ 3 });
    cc_tensor bb = constant(CC_F32, 1, (int64_t[]){ 3 }), bm = constant(CC_F32, 1, (int64_t[]){ 3 });
    ((int64_t *)axes.data)[0] = 0;
    if (!st) st = cc_mb_const(b, "big", &big, &v[0], &e);
    if (!st) st = cc_mb_const(b, "small", &small, &v[1], &e);
    if (!st) st = cc_mb_const(b, "zero", &zero, &v[2], &e);
    if (!st) st = cc_mb_const(b, "axes", &axes, &v[3], &e);
    if (!st) st = cc_mb_const(b, "bx", &bx, &v[4], &e);
    if (!st) st = cc_mb_const(b, "bs", &bs, &v[5], &e);
    if (!st) st = cc_mb_const(b, "bb", &bb, &v[6], &e);
    if (!st) st = cc_mb_const(b, "bm", &bm, &v[7], &e);
    if (!st) st = cc_mb_node(b, "Cast", "cast", "to=6", 1, &ids, 1, &o[0], NULL, &e);
    if (!st) st = cc_mb_node(b, "Unsqueeze", "unsq", NULL, 2, (int[]){ o[0], v[3] }, 1, &o[1], NULL, &e);
    if (!st) st = cc_mb_node(b, "Gather", "emb", NULL, 2, (int[]){ v[0], o[1] }, 1, &o[2], NULL, &e);
    if (!st) st = cc_mb_node(b, "Gather", "emb2", NULL, 2, (int[]){ v[1], ids }, 1, &o[3], NULL, &e);
    if (!st) st = cc_mb_node(b, "Equal", "eq", NULL, 2, (int[]){ mask, v[2] }, 1, &o[4], NULL, &e);
    if (!st) st = cc_mb_node(b, "Identity", "id", NULL, 1, &pad, 1, &o[5], NULL, &e);
    if (!st) st = cc_mb_node(b, "BatchNormalization", "bn", NULL, 5, (int[]){ v[4], v[5], v[6], v[7], var }, 1, &o[6],
                             NULL, &e);
    if (!st) st = cc_mb_node(b, "Div", "div", NULL, 2, (int[]){ x, den }, 1, &o[7], NULL, &e);
    for (int k = 2; k < 8 && !st; k++) st = cc_mb_output(b, o[k], &e);
    cc_model *m = NULL;
    if (!st) st = cc_mb_finish(b, CC_TASK_GENERIC, 0, &m, &e);
    else cc_mb_destroy(b);
    if (st) fprintf(stderr, "model: %s\n", e.msg);
    return m;
}

static void test_roles(void)
{
    cc_model *m = model();
    CHECK(m != NULL);
    if (!m) return;
    cc_tensor in[CC_MAX_IO], again[CC_MAX_IO];
    CHECK(m->graph.n_inputs == 6);
    CHECK(cc_model_synthetic_input(m, 7, in, NULL) == CC_OK);
    CHECK(cc_model_synthetic_input(m, 7, again, NULL) == CC_OK);
    /* token ids: within the smaller table's 3 rows (plain integers would be 1..4), not all equal */
    int distinct = 0;
    for (int i = 0; i < 12; i++) {
        int64_t id = ((int64_t *)in[0].data)[i];
        CHECK(id >= 0 && id < 3);
        distinct |= id != ((int64_t *)in[0].data)[0];
    }
    CHECK(distinct);
    /* masks: per row 1s then 0s, the first element 1 */
    const int64_t *am = in[1].data;
    const int32_t *pm = in[2].data;
    for (int r = 0; r < 2; r++) {
        CHECK(am[r * 6] == 1 && pm[r * 4] == 1);
        for (int j = 1; j < 6; j++) CHECK(am[r * 6 + j] == 0 || (am[r * 6 + j] == 1 && am[r * 6 + j - 1] == 1));
        for (int j = 1; j < 4; j++) CHECK(pm[r * 4 + j] == 0 || (pm[r * 4 + j] == 1 && pm[r * 4 + j - 1] == 1));
    }
    /* a variance and a divisor away from zero; a plain float input with both signs over a few seeds */
    for (int i = 0; i < 3; i++) CHECK(((float *)in[3].data)[i] >= 0.5f);
    for (int i = 0; i < 4; i++) CHECK(((float *)in[4].data)[i] >= 0.5f);
    /* deterministic in the seed */
    for (int i = 0; i < 6; i++) CHECK(memcmp(in[i].data, again[i].data, cc_tensor_bytes(&in[i])) == 0);
    int neg = 0;
    for (uint64_t seed = 1; seed < 5; seed++) {
        cc_tensor t[CC_MAX_IO];
        CHECK(cc_model_synthetic_input(m, seed, t, NULL) == CC_OK);
        for (int i = 0; i < 4; i++) neg |= ((float *)t[5].data)[i] < 0;
        for (int i = 0; i < 6; i++) cc_tensor_free(&t[i]);
    }
    CHECK(neg);
    for (int i = 0; i < 6; i++) {
        cc_tensor_free(&in[i]);
        cc_tensor_free(&again[i]);
    }
    cc_model_free(m);
}

int main(void)
{
    test_roles();
    return CC_TEST_RESULT();
}
