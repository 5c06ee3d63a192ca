/* test_opencl.c — the opencl backend through the harness's own execution path: every
 * quick case of the catalog (plus a few larger shapes that reach the bigger GEMM tiles,
 * grouped and batched convolutions) in both input regimes, checked against the golden
 * model by cc_exec_target. Everything the backend claims must pass (or be mistrusted);
 * every unsupported result must carry a reason; f32, integer and 8-bit cases must all be
 * claimed. The GEMM-based ops (the contractions, CC_TRAIT_CONTRACTION: the backend computes
 * every convolution and matrix product with its GEMM) then run again with each other GEMM
 * variant forced (CROSSCHECK_OPENCL_GEMM), so the variants this device does not prefer are
 * checked too.
 * Prints a per-op summary. Exits 77 when no OpenCL device opens here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "harness/lib/exec.h"
#include "harness/lib/runner.h"

extern const cc_target_iface cc_target_opencl;

/* Shapes the quick sweep does not reach: 64x64 tiles with ragged edges, transposed
 * operands, dot products with a k tail, batched and grouped convolutions through im2col
 * and the 1x1 path. */
static const char *const extra_cases[] = {
    "MatMul(a=70x40:f32,b=40x80)",
    "MatMul(a=70x40:f16,b=40x80)",
    "MatMul(a=70x40:bf16,b=40x80)",
    "MatMul(a=3x20x24:f32,b=24x18)",
    "Gemm(a=40x70:f32,b=80x40,c=80,transA=1,transB=1)",
    "Gemm(a=96x64:f32,b=64x72,c=96x1,alpha=0.5,beta=2)",
    "Gemm(a=3x100:f32,b=37x100,c=37,transB=1)",
    "Gemm(a=3x100:bf16,b=37x100,c=37,transB=1)",
    "Conv(x=1x16x12x12:f32,w=64x16x3x3,b=64,pads=[1,1,1,1])",
    "Conv(x=2x16x9x9:f32,w=32x8x3x3,group=2,pads=[1,1,1,1],strides=[2,2])",
    "Conv(x=2x32x7x7:f32,w=64x32x1x1,b=64)",
    "Conv(x=1x16x10x10:f16,w=64x16x3x3,b=64,pads=[1,1,1,1])",
    "MatMulInteger(a=70x40:u8,b=40x80:i8,a_zero_point=scalar,b_zero_point=80:i8)",
    "QLinearMatMul(a=70x64:u8,b=64x80:i8,per_column=1)",
    "QLinearConv(x=1x16x12x12:u8,w=64x16x3x3:i8,b=64:i32,pads=[1,1,1,1],per_channel=1,w_zp=1)",
    "ConvInteger(x=2x16x6x6:i8,w=64x16x1x1,w_zp=1)",
};

typedef struct op_tally {
    const char *op;
    int claimed, passed, mistrusted, unsupported, bad;
} op_tally;

static op_tally *tally_for(op_tally *t, int *n, const char *op)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(t[i].op, op) == 0) return &t[i];
    memset(&t[*n], 0, sizeof t[*n]);
    t[*n].op = op;
    return &t[(*n)++];
}

/* the recurrent ops and those of data-dependent output shape: the device backends leave
 * them to the host by design (their refusal says so) */
static int host_only(const cc_op_def *op)
{
    return strcmp(op->family, "recurrent") == 0 || cc_op_has_trait(op, CC_TRAIT_DYNAMIC_SHAPE);
}

/* f32 and integer cases, except the host-only ops' */
static int must_be_claimed(const cc_case *c)
{
    cc_dtype d = cc_case_dtype(c);
    if (host_only(c->op)) return 0;
    return d == CC_F32 || d == CC_I8 || d == CC_U8 || d == CC_I32 || d == CC_I64;
}

static void run_case(const cc_case *c, void *ctx, op_tally *t)
{
    static double samples[8];
    cc_exec_params params = { .time_it = 0, .max_samples = 8 };
    for (int regime = CC_REGIME_EXACT; regime <= CC_REGIME_RANDOM; regime++) {
        cc_exec_golden g;
        cc_err err = { 0 };
        uint64_t seed = cc_exec_case_seed(c->id, 1, (cc_regime)regime);
        if (cc_exec_golden_make(c, seed, (cc_regime)regime, &g, &err) != CC_OK) {
            fprintf(stderr, "golden failed for %s: %s\n", c->id, err.msg);
            CHECK(0);
            continue;
        }
        cc_result res;
        int n = 0;
        cc_exec_result_init(&res, c, "opencl", (cc_regime)regime, seed);
        cc_exec_target(&g, &cc_target_opencl, ctx, &params, &res, samples, &n, NULL);
        cc_exec_golden_release(&g);
        if (res.verdict == CC_UNSUPPORTED) {
            t->unsupported++;
            CHECK(res.reason[0] != '\0');
            if (host_only(c->op)) CHECK(strstr(res.reason, "on the host (cpu)") != NULL);
            if (must_be_claimed(c)) {
                fprintf(stderr, "unsupported: %s (%s): %s\n", c->id, cc_regime_name(res.regime), res.reason);
                CHECK(!"f32 and integer cases are all claimed");
            }
            continue;
        }
        t->claimed++;
        if (res.verdict == CC_PASSED) {
            t->passed++;
        } else if (res.verdict == CC_MISTRUSTED) {
            t->mistrusted++;
        } else {
            t->bad++;
            fprintf(stderr, "%s: %s (%s): %s [plan: %s]\n", cc_verdict_name(res.verdict), c->id,
                    cc_regime_name(res.regime), res.reason, res.plan);
            CHECK(res.verdict == CC_PASSED || res.verdict == CC_MISTRUSTED);
        }
    }
}

int main(void)
{
    void *ctx = NULL;
    cc_device_desc desc;
    cc_err err = { 0 };
    if (cc_target_opencl.open("", &ctx, &desc, &err) != CC_OK) CC_TEST_SKIP(err.msg);
    printf("device: %s | %s | %s\n", desc.name, desc.driver, desc.library);

    cc_selection sel;
    memset(&sel, 0, sizeof sel);
    sel.quick = 1;
    cc_case *cases = NULL;
    int n_cases = 0;
    CHECK(cc_select_cases(&sel, &cases, &n_cases, &err) == CC_OK);
    CHECK(n_cases > 0);

    op_tally tally[CC_RUN_MAX_OPS + 1];
    int n_tally = 0;
    for (int i = 0; i < n_cases; i++) run_case(&cases[i], ctx, tally_for(tally, &n_tally, cases[i].op->name));
    for (size_t i = 0; i < sizeof extra_cases / sizeof extra_cases[0]; i++) {
        cc_case c;
        if (cc_case_parse(extra_cases[i], &c, &err) != CC_OK) {
            fprintf(stderr, "bad extra case %s: %s\n", extra_cases[i], err.msg);
            CHECK(0);
            continue;
        }
        run_case(&c, ctx, tally_for(tally, &n_tally, c.op->name));
    }

    printf("%-20s %8s %8s %10s %11s %5s\n", "op", "claimed", "passed", "mistrusted", "unsupported", "bad");
    int total_claimed = 0, total_passed = 0;
    for (int i = 0; i < n_tally; i++) {
        const op_tally *t = &tally[i];
        printf("%-20s %8d %8d %10d %11d %5d\n", t->op, t->claimed, t->passed, t->mistrusted, t->unsupported, t->bad);
        total_claimed += t->claimed;
        total_passed += t->passed;
    }
    printf("%d runs claimed, %d passed\n", total_claimed, total_passed);
    CHECK(total_claimed > 0);
    cc_target_opencl.close(ctx);

    /* every GEMM variant, whichever this device prefers */
    static const char *const variants[] = { "tiled", "vector", "naive" };
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        setenv("CROSSCHECK_OPENCL_GEMM", variants[v], 1);
        if (cc_target_opencl.open("", &ctx, &desc, &err) != CC_OK) {
            fprintf(stderr, "open: %s\n", err.msg);
            CHECK(0);
            continue;
        }
        op_tally vt = { .op = variants[v] };
        for (int i = 0; i < n_cases; i++)
            if (cc_op_has_trait(cases[i].op, CC_TRAIT_CONTRACTION)) run_case(&cases[i], ctx, &vt);
        for (size_t i = 0; i < sizeof extra_cases / sizeof extra_cases[0]; i++) {
            cc_case c;
            if (cc_case_parse(extra_cases[i], &c, &err) == CC_OK) run_case(&c, ctx, &vt);
        }
        printf("GEMM variant %-7s %d runs claimed, %d passed, %d bad\n", variants[v], vt.claimed, vt.passed, vt.bad);
        cc_target_opencl.close(ctx);
    }
    unsetenv("CROSSCHECK_OPENCL_GEMM");
    free(cases);
    return CC_TEST_RESULT();
}
