/* test_golden_int64.c — 64-bit integers past a double's 53 bits through the golden model:
 * the values each op computes (Add, Mul, Max and Mod on u64, Gather, Cast, Where (i64, u64),
 * ReduceSum, ReduceMax and ReduceMin, Range, Neg, Abs, CumSum, TopK (i64, u64); ArgMax and
 * ArgMin's choice), held
 * exactly beside their doubles (cc_golden.exact), stored into a tensor exactly
 * (cc_golden_store), and compared exactly by the checker: a target one off in the lowest
 * bit fails (as doubles the two are equal), the exact value passes.
 * Unsigned values past 2^63 compare as unsigned (Max, Min, Mod; ArgMax, ArgMin and TopK,
 * where Where and TopK keep them exactly too). */
#include "op_test.h"
#include "ops/check.h"

#define P53 (INT64_C(1) << 53)
#define P60 (INT64_C(1) << 60)
#define P62 (INT64_C(1) << 62)
#define U63 (UINT64_C(1) << 63)

/* The case id's op on inputs whose data are set to vals[k] (raw 8-byte words, or bytes for
 * a bool condition); the golden outputs into g (free with cc_golden_free). */
static int run_case(const char *id, const void *const *vals, cc_case_inst *inst, cc_golden *g)
{
    cc_case c;
    cc_err e = { 0 };
    if (cc_case_parse(id, &c, &e) || cc_case_instantiate(&c, 1, 0, inst, &e)) {
        fprintf(stderr, "%s: %s\n", id, e.msg);
        CHECK(0);
        return -1;
    }
    for (int k = 0; vals[k]; k++) memcpy(inst->inputs[k].data, vals[k], cc_tensor_bytes(&inst->inputs[k]));
    if (cc_case_golden(inst, g, &e)) {
        fprintf(stderr, "%s: golden: %s\n", id, e.msg);
        CHECK(0);
        cc_case_inst_free(inst);
        return -1;
    }
    return 0;
}

/* The golden output 0 holds want[0..n) exactly; stored, it is those bits; the checker
 * passes them and fails each one with its lowest bit flipped. */
static void expect_exact(const char *id, const void *const *vals, const int64_t *want, int n)
{
    cc_case_inst inst;
    cc_golden g[CC_MAX_IO];
    if (run_case(id, vals, &inst, g)) return;
    cc_tensor y = { 0 };
    CHECK_OK(cc_tensor_alloc(&y, g[0].dtype, &g[0].shape, NULL));
    CHECK(cc_shape_numel(&g[0].shape) == n);
    for (int i = 0; i < n && cc_shape_numel(&g[0].shape) == n; i++) {
        int64_t v = 0;
        int have = cc_golden_int(&g[0], i, &v);
        if (!have || v != want[i]) fprintf(stderr, "%s: element %d: %lld (exact %d), want %lld\n", id, i, (long long)v, have, (long long)want[i]);
        CHECK(have && v == want[i]);
        cc_golden_store(&g[0], y.data, i);
        CHECK(((int64_t *)y.data)[i] == want[i]);
    }
    cc_metrics m;
    char why[256];
    cc_verdict pass = cc_check_outputs(&inst.c, 0, 1, g, &y, &m, why, sizeof why);
    if (pass != CC_PASSED) fprintf(stderr, "%s: %s\n", id, why);
    CHECK(pass == CC_PASSED);
    for (int i = 0; i < n && cc_shape_numel(&g[0].shape) == n; i++) {
        ((int64_t *)y.data)[i] ^= 1;
        cc_verdict v = cc_check_outputs(&inst.c, 0, 1, g, &y, &m, why, sizeof why);
        if (v != CC_FAILED) fprintf(stderr, "%s: element %d one off passes\n", id, i);
        CHECK(v == CC_FAILED);
        ((int64_t *)y.data)[i] ^= 1;
    }
    cc_tensor_free(&y);
    cc_golden_free(g, inst.n_out);
    cc_case_inst_free(&inst);
}

int main(void)
{
    /* Add: 2^53 + 1 and -(2^62 + 3) have no double */
    const int64_t a[2] = { P53, -P62 }, b[2] = { 1, -3 };
    expect_exact("Add(a=2:i64,b=2:i64)", (const void *[]){ a, b, NULL }, (int64_t[]){ P53 + 1, -P62 - 3 }, 2);
    /* Sub and Mul: 3037000499^2 = 9223372030926249001 */
    const int64_t m[1] = { INT64_C(3037000499) };
    expect_exact("Mul(a=1:i64,b=1:i64)", (const void *[]){ m, m, NULL }, (int64_t[]){ INT64_C(9223372030926249001) }, 1);
    expect_exact("Sub(a=2:i64,b=2:i64)", (const void *[]){ a, b, NULL }, (int64_t[]){ P53 - 1, -P62 + 3 }, 2);
    /* Max on u64: 2^63 + 5 > 1 and 2^64 - 1 > 7 (as signed they would be negative) */
    const uint64_t ua[2] = { U63 + 5, 7 }, ub[2] = { 1, UINT64_MAX };
    expect_exact("Max(data_0=2:u64,data_1=2:u64)", (const void *[]){ ua, ub, NULL },
                 (int64_t[]){ (int64_t)(U63 + 5), (int64_t)UINT64_MAX }, 2);
    expect_exact("Min(data_0=2:u64,data_1=2:u64)", (const void *[]){ ua, ub, NULL }, (int64_t[]){ 1, 7 }, 2);
    /* Mod on u64: (2^64 - 1) mod 10 = 5; (2^63 + 5) mod 7: 2^63 = 8 * (2^60) and 8 = 1 mod 7,
       2^60 = (2^3)^20 = 1 mod 7, so 2^63 = 1 and 2^63 + 5 = 6 mod 7 */
    const uint64_t ma[2] = { UINT64_MAX, U63 + 5 }, mb[2] = { 10, 7 };
    expect_exact("Mod(a=2:u64,b=2:u64)", (const void *[]){ ma, mb, NULL }, (int64_t[]){ 5, 6 }, 2);
    /* Gather moves the words as they are */
    const int64_t gd[3] = { P60 + 1, P60 + 3, -P60 - 5 }, gi[2] = { 2, 0 };
    expect_exact("Gather(data=3:i64,indices=2:i64)", (const void *[]){ gd, gi, NULL }, (int64_t[]){ -P60 - 5, P60 + 1 }, 2);
    /* Cast: i64 -1 to u64 is 2^64 - 1; u64 2^63 + 1 to i64 is -2^63 + 1 */
    const int64_t neg1[1] = { -1 };
    expect_exact("Cast(input=1:i64,to=13)", (const void *[]){ neg1, NULL }, (int64_t[]){ -1 }, 1);
    const uint64_t big[1] = { U63 + 1 };
    expect_exact("Cast(input=1:u64,to=7)", (const void *[]){ big, NULL }, (int64_t[]){ INT64_MIN + 1 }, 1);
    /* Where picks words */
    const unsigned char cond[2] = { 1, 0 };
    const int64_t wx[2] = { P53 + 1, 0 }, wy[2] = { 0, -P53 - 1 };
    expect_exact("Where(condition=2:bool,x=2:i64,y=2:i64)", (const void *[]){ cond, wx, wy, NULL },
                 (int64_t[]){ P53 + 1, -P53 - 1 }, 2);
    /* ReduceSum: (2^61 + 1) * 2 = 2^62 + 2; ReduceMax, ReduceMin: 2^53 + 1 and -2^62 - 1 */
    const int64_t rs[2] = { (INT64_C(1) << 61) + 1, (INT64_C(1) << 61) + 1 };
    expect_exact("ReduceSum(data=2:i64,keepdims=0)", (const void *[]){ rs, NULL }, (int64_t[]){ P62 + 2 }, 1);
    const int64_t rm[3] = { P53 + 1, P53, -P62 - 1 };
    expect_exact("ReduceMax(data=3:i64,keepdims=0)", (const void *[]){ rm, NULL }, (int64_t[]){ P53 + 1 }, 1);
    expect_exact("ReduceMin(data=3:i64,keepdims=0)", (const void *[]){ rm, NULL }, (int64_t[]){ -P62 - 1 }, 1);
    /* Range from 2^60 + 1 to 2^60 + 5 by 2 */
    const int64_t r0[1] = { P60 + 1 }, r1[1] = { P60 + 5 }, r2[1] = { 2 };
    expect_exact("Range(start=i64:1,limit=i64:5,delta=i64:2)",
                 (const void *[]){ r0, r1, r2, NULL }, (int64_t[]){ P60 + 1, P60 + 3 }, 2);
    /* Neg, Abs, Sign of -(2^53 + 1); CumSum of 2^53 and 1, 1 */
    const int64_t ng[2] = { -P53 - 1, P62 + 1 };
    expect_exact("Neg(x=2:i64)", (const void *[]){ ng, NULL }, (int64_t[]){ P53 + 1, -P62 - 1 }, 2);
    expect_exact("Abs(x=2:i64)", (const void *[]){ ng, NULL }, (int64_t[]){ P53 + 1, P62 + 1 }, 2);
    const int64_t cs[3] = { P53, 1, 1 };
    expect_exact("CumSum(x=3:i64,axis=0)", (const void *[]){ cs, NULL }, (int64_t[]){ P53, P53 + 1, P53 + 2 }, 3);
    /* TopK's values in 64 bits; ArgMax and ArgMin tell 2^53 + 1 from 2^53 */
    const int64_t tk[3] = { P53, P53 + 1, -P53 - 1 };
    expect_exact("TopK(X=3:i64,k=[2])", (const void *[]){ tk, NULL }, (int64_t[]){ P53 + 1, P53 }, 2);
    expect_exact("ArgMax(data=3:i64,keepdims=0)", (const void *[]){ tk, NULL }, (int64_t[]){ 1 }, 1);
    expect_exact("ArgMin(data=3:i64,keepdims=0)", (const void *[]){ tk, NULL }, (int64_t[]){ 2 }, 1);
    /* u64: 2^64 - 16 is above 1 (as signed it is -16) and below 2^64 - 15 (one double) */
    const uint64_t uk[3] = { UINT64_C(0xFFFFFFFFFFFFFFF0), 1, UINT64_C(0xFFFFFFFFFFFFFFF1) };
    expect_exact("ArgMax(data=3:u64,keepdims=0)", (const void *[]){ uk, NULL }, (int64_t[]){ 2 }, 1);
    expect_exact("ArgMin(data=3:u64,keepdims=0)", (const void *[]){ uk, NULL }, (int64_t[]){ 1 }, 1);
    expect_exact("TopK(X=3:u64,k=[3])", (const void *[]){ uk, NULL },
                 (int64_t[]){ (int64_t)UINT64_C(0xFFFFFFFFFFFFFFF1), (int64_t)UINT64_C(0xFFFFFFFFFFFFFFF0), 1 }, 3);
    expect_exact("TopK(X=3:u64,k=[2],largest=0)", (const void *[]){ uk, NULL },
                 (int64_t[]){ 1, (int64_t)UINT64_C(0xFFFFFFFFFFFFFFF0) }, 2);
    const uint64_t ux[2] = { UINT64_C(0xFFFFFFFFFFFFFFF0), 1 }, uy[2] = { 1, UINT64_C(0xFFFFFFFFFFFFFFF1) };
    expect_exact("Where(condition=2:bool,x=2:u64,y=2:u64)", (const void *[]){ cond, ux, uy, NULL },
                 (int64_t[]){ (int64_t)UINT64_C(0xFFFFFFFFFFFFFFF0), (int64_t)UINT64_C(0xFFFFFFFFFFFFFFF1) }, 2);
    return CC_TEST_RESULT();
}
