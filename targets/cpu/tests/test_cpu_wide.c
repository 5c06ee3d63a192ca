/* test_cpu_wide.c — the cpu backend on the dtypes of target ABI 8 (f64, i16, u16, u32,
 * u64), through the full vtable path (cc_target_supports, prepare, upload, run, download,
 * guard bytes after every output): each op on values a float32 or signed path would get
 * wrong (f64 values that are no f32 value such as 1 + 2^-40, u32 past 2^31, u64 past 2^53
 * and 2^63, i16/u16 wrap-around, -0 and NaN picked or ordered), compared bit for bit with
 * results worked out by hand;
 * and ops without a kernel for these dtypes declined with the op and dtype in the reason,
 * never run. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "ops/case.h"
#include "targets/tests/one_case.h"
#include "targets/cpu/cpu.h"

extern const cc_target_iface cc_target_cpu;

static void *cpu_ctx;

/* Runs case `id` on cpu (one_case_run). */
static int run_id(const char *id, int n_set, const void *const *set, int which, void *got, size_t cap, cc_shape *shape)
{
    return one_case_run(&cc_target_cpu, cpu_ctx, id, n_set, set, which, got, cap, shape);
}

/* Runs id (output 0) and checks its bytes against want (bytes long). */
static void expect_bytes(const char *id, int n_set, const void *const *set, const void *want, size_t bytes)
{
    unsigned char got[256];
    cc_shape s;
    if (run_id(id, n_set, set, 0, got, sizeof got, &s)) return;
    if (memcmp(got, want, bytes) != 0) {
        fprintf(stderr, "%s: output differs from the hand-worked one\n", id);
        CHECK(0);
    }
}

#define SET(...) ((const void *const[]){ __VA_ARGS__ })
#define N_SET(...) ((int)(sizeof((const void *const[]){ __VA_ARGS__ }) / sizeof(const void *)))
#define EXPECT(id, want, ...) expect_bytes(id, N_SET(__VA_ARGS__), SET(__VA_ARGS__), want, sizeof want)

static const uint64_t P53 = UINT64_C(1) << 53, P63 = UINT64_C(1) << 63;

/* ---- Cast, CastLike ---------------------------------------------------------------------- */

static void test_cast(void)
{
    /* f64 -> f32: 1 + 2^-40 is no f32 value (to 1); 1e300 overflows; f64 -> f16: 1 + 2^-11 +
     * 2^-40 lies just above the midpoint of 1 and 1 + 2^-10 (through a float rounded to
     * nearest it would be the midpoint, then 1) */
    const double d[] = { 1 + 0x1p-40, -2.5, 1e300, 1 + 0x1p-11 + 0x1p-40 };
    EXPECT("Cast(input=4:f64,to=1)", ((float[]){ 1, -2.5f, INFINITY, 1 + 0x1p-11f }), d);
    uint16_t h[4] = { cc_f32_to_f16(1), cc_f32_to_f16(-2.5f), 0x7c00, cc_f32_to_f16(1 + 0x1p-10f) };
    EXPECT("Cast(input=4:f64,to=10)", h, d);
    uint16_t b[4] = { cc_f32_to_bf16(1), cc_f32_to_bf16(-2.5f), 0x7f80, cc_f32_to_bf16(1) };
    EXPECT("Cast(input=4:f64,to=16)", b, d);
    /* f64 -> u64 past 2^63 (2^64 - 2048 is the largest double below 2^64), truncation */
    const double du[] = { 1e19, 2.9, 18446744073709549568.0 };
    EXPECT("Cast(input=3:f64,to=13)", ((uint64_t[]){ UINT64_C(10000000000000000000), 2, UINT64_C(18446744073709549568) }),
           du);
    EXPECT("Cast(input=2:f64,to=5)", ((int16_t[]){ -3, 32767 }), ((double[]){ -3.9, 32767.9 }));
    /* u64 -> f32: at 2^63 the f32 spacing is 2^40; 2^63 + 2^39 is a tie (to 2^63, even),
     * one more rounds up (through double it would meet that tie); 2^64 - 1 gives 2^64 */
    const uint64_t u[] = { UINT64_MAX, P63 + (UINT64_C(1) << 39) + 1, P63 + (UINT64_C(1) << 39), P53 + 1 };
    EXPECT("Cast(input=4:u64,to=1)", ((float[]){ 0x1p64f, 0x1p63f + 0x1p40f, 0x1p63f, 0x1p53f }), u);
    EXPECT("Cast(input=4:u64,to=11)", ((double[]){ 0x1p64, 0x1p63 + 0x1p39, 0x1p63 + 0x1p39, 0x1p53 }), u);
    EXPECT("Cast(input=4:u64,to=7)", ((int64_t[]){ -1, INT64_MIN + (INT64_C(1) << 39) + 1, INT64_MIN + (INT64_C(1) << 39),
                                                   (int64_t)P53 + 1 }), u);
    EXPECT("Cast(input=4:u64,to=12)", ((uint32_t[]){ UINT32_MAX, 1, 0, 1 }), u);
    uint16_t hu[2] = { cc_f32_to_f16(65504), 0x7c00 };
    EXPECT("Cast(input=2:u64,to=10)", hu, ((uint64_t[]){ 65519, 65520 }));
    /* narrowing keeps the low bits; widening sign-extends signed and zero-extends unsigned */
    EXPECT("Cast(input=2:i32,to=12)", ((uint32_t[]){ UINT32_MAX, 70000 }), ((int32_t[]){ -1, 70000 }));
    EXPECT("Cast(input=2:i32,to=4)", ((uint16_t[]){ 65535, 4464 }), ((int32_t[]){ -1, 70000 }));
    EXPECT("Cast(input=2:u16,to=5)", ((int16_t[]){ -1, 1 }), ((uint16_t[]){ 65535, 1 }));
    EXPECT("Cast(input=2:i16,to=7)", ((int64_t[]){ -2, 32767 }), ((int16_t[]){ -2, 32767 }));
    EXPECT("Cast(input=2:u32,to=7)", ((int64_t[]){ 4294967295, 2147483648 }), ((uint32_t[]){ UINT32_MAX, 0x80000000u }));
    EXPECT("Cast(input=1:u32,to=1)", ((float[]){ 0x1p32f }), ((uint32_t[]){ UINT32_MAX }));
    EXPECT("Cast(input=2:i64,to=11)", ((double[]){ 0x1p53, 0x1p53 + 4 }), ((int64_t[]){ (int64_t)P53 + 1, (int64_t)P53 + 3 }));
    /* float -> f64 exactly, and f64 -> bool */
    EXPECT("Cast(input=1:f32,to=11)", ((double[]){ (double)0.1f }), ((float[]){ 0.1f }));
    EXPECT("Cast(input=3:f64,to=9)", ((uint8_t[]){ 1, 0, 1 }), ((double[]){ 0x1p-1074, -0.0, NAN }));
    /* CastLike takes the second input's dtype */
    EXPECT("CastLike(input=2:f64,target_type=1:u32)", ((uint32_t[]){ 4000000000u, 0 }), ((double[]){ 4e9 + 0.5, 0.25 }));
}

/* ---- Min, Max, Sum, Mean, Pow, PRelu, Mod, BitShift -------------------------------------- */

static void test_eltwise(void)
{
    /* u32 past 2^31 and u64 past 2^63 compare unsigned (as signed they would be negative) */
    const uint32_t a32[] = { 0x80000005u, 7 }, b32[] = { 0x80000000u, UINT32_MAX };
    EXPECT("Max(data_0=2:u32,data_1=2)", ((uint32_t[]){ 0x80000005u, UINT32_MAX }), a32, b32);
    EXPECT("Min(data_0=2:u32,data_1=2)", ((uint32_t[]){ 0x80000000u, 7 }), a32, b32);
    const uint64_t a64[] = { P63 + 1, 1 }, b64[] = { P63, UINT64_MAX };
    EXPECT("Max(data_0=2:u64,data_1=2)", ((uint64_t[]){ P63 + 1, UINT64_MAX }), a64, b64);
    EXPECT("Min(data_0=2:u64,data_1=2)", ((uint64_t[]){ P63, 1 }), a64, b64);
    EXPECT("Max(data_0=2:i16,data_1=2)", ((int16_t[]){ 32767, 5 }), ((int16_t[]){ -32768, 5 }), ((int16_t[]){ 32767, -5 }));
    /* f64 values that differ only beyond f32's precision; three inputs broadcast */
    const double fa[] = { 1 + 0x1p-40, -1 }, fb[] = { 1, -1 - 0x1p-40 };
    EXPECT("Max(data_0=2:f64,data_1=2)", ((double[]){ 1 + 0x1p-40, -1 }), fa, fb);
    EXPECT("Min(data_0=2:f64,data_1=2)", ((double[]){ 1, -1 - 0x1p-40 }), fa, fb);
    EXPECT("Max(data_0=2x1:f64,data_1=1x3,data_2=1)",
           ((double[]){ 1 + 0x1p-40, 2, 1 + 0x1p-40, 1 + 0x1p-41, 2, 1 + 0x1p-41 }),
           ((double[]){ 1 + 0x1p-40, 0 }), ((double[]){ 0, 2, 1 }), ((double[]){ 1 + 0x1p-41 }));
    /* Sum and Mean in double: 1 + 2^-40 + 2^-40 is 1 + 2^-39 (1 in f32) */
    EXPECT("Sum(data_0=1:f64,data_1=1,data_2=1)", ((double[]){ 1 + 0x1p-39 }), ((double[]){ 1 }), ((double[]){ 0x1p-40 }),
           ((double[]){ 0x1p-40 }));
    EXPECT("Mean(data_0=1:f64,data_1=1)", ((double[]){ 2 + 0x1p-40 }), ((double[]){ 3 }), ((double[]){ 1 + 0x1p-39 }));
    /* Pow: (1 + 2^-40)^2 = 1 + 2^-39 + 2^-80 (to 1 + 2^-39); an f32 base with a u32 or u64
     * exponent; an i64 base with a u32 exponent wraps modulo 2^64 (3^40 is past 2^63) */
    EXPECT("Pow(x=1:f64,y=1)", ((double[]){ 1 + 0x1p-39 }), ((double[]){ 1 + 0x1p-40 }), ((double[]){ 2 }));
    EXPECT("Pow(x=2:f32,y=2:u32)", ((float[]){ 0x1p31f, 9 }), ((float[]){ 2, 3 }), ((uint32_t[]){ 31, 2 }));
    EXPECT("Pow(x=1:f32,y=1:u64)", ((float[]){ 0.5f }), ((float[]){ 0.5f }), ((uint64_t[]){ 1 }));
    EXPECT("Pow(x=2:i64,y=2:u32)", ((int64_t[]){ INT64_C(-6289078614652622815), 1 }), ((int64_t[]){ 3, -1 }),
           ((uint32_t[]){ 40, 40 }));
    EXPECT("Pow(x=2:i32,y=2:f64)", ((int32_t[]){ 3, 2 }), ((int32_t[]){ 9, 8 }), ((double[]){ 0.5, 0.4 }));
    EXPECT("PRelu(x=2:f64,slope=1)", ((double[]){ -0.5 - 0x1p-41, 3 }), ((double[]){ -1 - 0x1p-40, 3 }), ((double[]){ 0.5 }));
    /* Mod: unsigned past 2^31 / 2^63; fmod=0 floors (sign of the divisor), fmod=1
     * truncates; by zero 0 (undefined, never a trap) */
    EXPECT("Mod(a=3:u32,b=3)", ((uint32_t[]){ 5, 1, 0 }), ((uint32_t[]){ UINT32_MAX, 10, 5 }), ((uint32_t[]){ 10, 3, 0 }));
    EXPECT("Mod(a=1:u64,b=1)", ((uint64_t[]){ P63 - 1 }), ((uint64_t[]){ UINT64_MAX }), ((uint64_t[]){ P63 }));
    EXPECT("Mod(a=2:i16,b=2)", ((int16_t[]){ 2, -2 }), ((int16_t[]){ -7, 7 }), ((int16_t[]){ 3, -3 }));
    EXPECT("Mod(a=2:i16,b=2,fmod=1)", ((int16_t[]){ -1, 1 }), ((int16_t[]){ -7, 7 }), ((int16_t[]){ 3, -3 }));
    EXPECT("Mod(a=2:f64,b=2,fmod=1)", ((double[]){ 1.5, -0x1p-40 }), ((double[]){ 5.5, -1 - 0x1p-40 }), ((double[]){ 2, 1 }));
    /* BitShift at 16, 32 and 64 bits: bits shifted out are lost, the width or more gives 0 */
    EXPECT("BitShift(x=2:u16,y=2,direction=LEFT)", ((uint16_t[]){ 2, 0 }), ((uint16_t[]){ 0x8001, 1 }),
           ((uint16_t[]){ 1, 16 }));
    EXPECT("BitShift(x=3:u32,y=3,direction=LEFT)", ((uint32_t[]){ 0x80000000u, 0, 6 }), ((uint32_t[]){ 1, 1, 3 }),
           ((uint32_t[]){ 31, 32, 1 }));
    EXPECT("BitShift(x=3:u64,y=3,direction=RIGHT)", ((uint64_t[]){ 15, 0, 1 }), ((uint64_t[]){ UINT64_MAX, UINT64_MAX, P63 }),
           ((uint64_t[]){ 60, 64, 63 }));
    EXPECT("BitShift(x=1:u64,y=1,direction=LEFT)", ((uint64_t[]){ P63 }), ((uint64_t[]){ 1 }), ((uint64_t[]){ 63 }));
}

/* ---- CumSum, reductions, Einsum ---------------------------------------------------------- */

static void test_reduce(void)
{
    const double x[] = { 1, 0x1p-40, 0x1p-40, -1 };
    EXPECT("CumSum(x=4:f64,axis=0)", ((double[]){ 1, 1 + 0x1p-40, 1 + 0x1p-39, 0x1p-39 }), x);
    EXPECT("CumSum(x=4:f64,exclusive=1,reverse=1,axis=0)", ((double[]){ -1 + 0x1p-39, -1 + 0x1p-40, -1, 0 }), x);
    EXPECT("CumSum(x=3:u64,axis=0)", ((uint64_t[]){ P63, 0, 5 }), ((uint64_t[]){ P63, P63, 5 }));
    EXPECT("CumSum(x=2x2:u32,axis=0)", ((uint32_t[]){ UINT32_MAX, 2, 0, 5 }), ((uint32_t[]){ UINT32_MAX, 2, 1, 3 }));
    /* the Reduce* ops on f64 in double */
    const double r[] = { 1, 0x1p-40, 0x1p-40, 3 };
    EXPECT("ReduceSum(data=2x2:f64,axes=[1],keepdims=0)", ((double[]){ 1 + 0x1p-40, 3 + 0x1p-40 }), r);
    EXPECT("ReduceSum(data=4:f64)", ((double[]){ 4 + 0x1p-39 }), r);
    EXPECT("ReduceMean(data=2:f64)", ((double[]){ 1 + 0x1p-40 }), ((double[]){ 1, 1 + 0x1p-39 }));
    EXPECT("ReduceMax(data=2x2:f64,axes=[0],keepdims=0)", ((double[]){ 1 + 0x1p-41, 1 + 0x1p-40 }),
           ((double[]){ 1, 1 + 0x1p-40, 1 + 0x1p-41, 0 }));
    EXPECT("ReduceMin(data=2:f64)", ((double[]){ 1 }), ((double[]){ 1 + 0x1p-40, 1 }));
    EXPECT("ReduceL1(data=2:f64)", ((double[]){ 2 + 0x1p-40 }), ((double[]){ -1 - 0x1p-40, 1 }));
    EXPECT("ReduceL2(data=2:f64)", ((double[]){ 5 }), ((double[]){ 3, -4 }));
    EXPECT("ReduceSumSquare(data=2:f64)", ((double[]){ 2 + 0x1p-39 }), ((double[]){ 1 + 0x1p-40, 1 }));
    EXPECT("ReduceProd(data=2:f64)", ((double[]){ 1 + 0x1p-39 }), ((double[]){ 1 + 0x1p-40, 1 + 0x1p-40 }));
    EXPECT("ReduceLogSum(data=2:f64)", ((double[]){ 0 }), ((double[]){ 0.25, 0.75 }));
    /* LogSumExp: 1000 + log 2 (the shift keeps exp from overflowing); checked to an ulp */
    double lse;
    cc_shape s;
    if (!run_id("ReduceLogSumExp(data=2:f64)", 1, SET(((double[]){ 1000, 1000 })), 0, &lse, sizeof lse, &s))
        CHECK_NEAR(lse, 1000 + log(2.0), 2.3e-13);
    /* MatMul and Gemm on f64 through dgemm: (1 + 2^-40) - 1 is 2^-40 (0 in f32); Gemm with
     * transB, alpha 2, beta 0.5 and C broadcast along rows */
    EXPECT("MatMul(a=2x2:f64,b=2x1)", ((double[]){ 0x1p-40, 0 }), ((double[]){ 1 + 0x1p-40, 1, 1, 1 }),
           ((double[]){ 1, -1 }));
    EXPECT("MatMul(a=2x1x2:f64,b=2x1)", ((double[]){ 0x1p-40, 0 }), ((double[]){ 1 + 0x1p-40, 1, 3, 3 }),
           ((double[]){ 1, -1 }));
    EXPECT("Gemm(a=1x2:f64,b=3x2,c=3,transB=1,alpha=2,beta=0.5)", ((double[]){ 2.5 + 0x1p-39, 1 + 0x1p-39, 2 + 0x1p-41 }),
           ((double[]){ 1, 0x1p-40 }), ((double[]){ 1, 1, 0, 1, 1, 0 }), ((double[]){ 1, 2, 0x1p-40 }));
    /* Einsum: an f64 inner product, a u64 one wrapping modulo 2^64 (2^32 * 2^32 = 2^64 is
     * 0), an i16 transpose */
    EXPECT("Einsum(x0=2:f64,x1=2,equation=\"i,i\")", ((double[]){ 1 + 0x1p-40 }), ((double[]){ 1, 0x1p-40 }),
           ((double[]){ 1, 1 }));
    EXPECT("Einsum(x0=2:u64,x1=2,equation=\"i,i\")", ((uint64_t[]){ 15 }), ((uint64_t[]){ UINT64_C(1) << 32, 3 }),
           ((uint64_t[]){ UINT64_C(1) << 32, 5 }));
    EXPECT("Einsum(x0=2x2:u32,x1=2x1,equation=\"ij,jk->ik\")", ((uint32_t[]){ UINT32_MAX - 1, 7 }),
           ((uint32_t[]){ UINT32_MAX, 0, 2, 3 }), ((uint32_t[]){ 2, 1 }));
    EXPECT("Einsum(x0=2x3:i16,equation=\"ij->ji\")", ((int16_t[]){ -1, 4, 2, 5, -32768, 6 }),
           ((int16_t[]){ -1, 2, -32768, 4, 5, 6 }));
}

/* ---- data movement, Scatter, Unique, EyeLike -------------------------------------- */

static void test_movers(void)
{
    const uint64_t big[] = { P53 + 1, P63 + 3, UINT64_MAX, 1, 2, 3 };
    EXPECT("Identity(input=6:u64)", big, big);
    EXPECT("Transpose(data=2x3:u64)", ((uint64_t[]){ P53 + 1, 1, P63 + 3, 2, UINT64_MAX, 3 }), big);
    EXPECT("Gather(data=3x2:u64,indices=2:i64)", ((uint64_t[]){ 2, 3, P53 + 1, P63 + 3 }), big, ((int64_t[]){ 2, 0 }));
    EXPECT("Concat(x0=1:f64,x1=2,axis=0)", ((double[]){ 1 + 0x1p-40, -0x1p-60, 2 }), ((double[]){ 1 + 0x1p-40 }),
           ((double[]){ -0x1p-60, 2 }));
    EXPECT("Slice(data=4:u32,starts=[1],ends=[3])", ((uint32_t[]){ 0x80000001u, 0xffffffffu }),
           ((uint32_t[]){ 0, 0x80000001u, 0xffffffffu, 3 }));
    EXPECT("Pad(data=2:f64,pads=[1,1])", ((double[]){ 0, 1 + 0x1p-40, -0x1p-1074, 0 }), ((double[]){ 1 + 0x1p-40, -0x1p-1074 }));
    EXPECT("Expand(input=1:i16,shape=[3])", ((int16_t[]){ -32768, -32768, -32768 }), ((int16_t[]){ -32768 }));
    EXPECT("EyeLike(input=2x2:u64)", ((uint64_t[]){ 1, 0, 0, 1 }), NULL);
    /* Resize nearest copies u64 and f64 elements whole */
    EXPECT("Resize(x=1x2:u64,scales=[1,2])", ((uint64_t[]){ P53 + 1, P53 + 1, UINT64_MAX, UINT64_MAX }),
           ((uint64_t[]){ P53 + 1, UINT64_MAX }));
    /* ScatterElements add: u16 wraps (65535 + 2 = 1), f64 keeps 2^-40 */
    EXPECT("ScatterElements(data=2:u16,indices=1:i64,updates=1,reduction=add)", ((uint16_t[]){ 1, 7 }),
           ((uint16_t[]){ 65535, 7 }), ((int64_t[]){ 0 }), ((uint16_t[]){ 2 }));
    EXPECT("ScatterElements(data=2:f64,indices=1:i64,updates=1,reduction=add)", ((double[]){ 1, 1 + 0x1p-40 }),
           ((double[]){ 1, 1 }), ((int64_t[]){ 1 }), ((double[]){ 0x1p-40 }));
    EXPECT("ScatterND(data=2:u64,indices=1x1:i64,updates=1,reduction=mul)", ((uint64_t[]){ 3, P63 }),
           ((uint64_t[]){ 3, P63 + (UINT64_C(1) << 62) }), ((int64_t[]){ 1 }), ((uint64_t[]){ 2 }));
    /* Unique: u64 values that one double cannot tell apart are distinct */
    uint64_t uq[4];
    cc_shape s;
    if (!run_id("Unique(X=4:u64)", 1, SET(((uint64_t[]){ P63 + 1, P63, P63 + 1, 5 })), 0, uq, sizeof uq, &s)) {
        CHECK(s.rank == 1 && s.dims[0] == 3);
        CHECK(uq[0] == 5 && uq[1] == P63 && uq[2] == P63 + 1);
    }
}

/* ---- Where, ArgMax, ArgMin, TopK, Range ---------------------------------------------------- */

/* Where picks elements as they are: u64 2^64 - 16 beside 1 and 2^64 - 15 (one double), f64 -0
 * with its sign, NaN and 1 + 2^-40 (1 in f32), the ends of i16, u16 and u32. */
static void test_where(void)
{
    const uint64_t b = UINT64_C(0xFFFFFFFFFFFFFFF0);
    const uint8_t c[4] = { 1, 0, 1, 0 };
    EXPECT("Where(condition=4:bool,x=4:u64,y=4:u64)", ((uint64_t[]){ b, 1, b + 1, UINT64_MAX }), c,
           ((uint64_t[]){ b, 0, b + 1, 0 }), ((uint64_t[]){ 0, 1, 0, UINT64_MAX }));
    EXPECT("Where(condition=4:bool,x=4:f64,y=4:f64)", ((double[]){ -0.0, NAN, 1 + 0x1p-40, -0.0 }), c,
           ((double[]){ -0.0, 0, 1 + 0x1p-40, 0 }), ((double[]){ 0, NAN, 0, -0.0 }));
    /* condition [2] against x [2, 2] and a scalar y */
    EXPECT("Where(condition=2:bool,x=2x2:i16,y=scalar:i16)", ((int16_t[]){ -32768, 32767, -1, 32767 }),
           ((uint8_t[]){ 1, 0 }), ((int16_t[]){ -32768, 1, -1, 2 }), ((int16_t[]){ 32767 }));
    EXPECT("Where(condition=4:bool,x=4:u16,y=1:u16)", ((uint16_t[]){ 65535, 32768, 32769, 32768 }), c,
           ((uint16_t[]){ 65535, 0, 32769, 0 }), ((uint16_t[]){ 32768 }));
    EXPECT("Where(condition=4:bool,x=4:u32,y=4:u32)", ((uint32_t[]){ 0xffffffffu, 0x80000001u, 0x80000000u, 7 }), c,
           ((uint32_t[]){ 0xffffffffu, 0, 0x80000000u, 0 }), ((uint32_t[]){ 0, 0x80000001u, 0, 7 }));
}

/* ArgMax and ArgMin along the last axis: first and (select_last_index) last of ties. */
static void expect_args(const char *dims_dtype, const void *x, size_t lines, const int64_t *max, const int64_t *max_last,
                        const int64_t *min, const int64_t *min_last)
{
    char id[128];
    const int64_t *want[4] = { max, max_last, min, min_last };
    for (int k = 0; k < 4; k++) {
        snprintf(id, sizeof id, "%s(data=%s,axis=-1%s)", k < 2 ? "ArgMax" : "ArgMin", dims_dtype,
                 k % 2 ? ",select_last_index=1" : "");
        expect_bytes(id, 1, SET(x), want[k], lines * sizeof(int64_t));
    }
}

/* ArgMax and ArgMin in each dtype's own order: u64 2^64 - 15 above 2^64 - 16 (one double) and
 * 2^63 above 2^63 - 1 (as signed 2^63 is the least); f64 1 + 2^-40 above 1, 2^53 + 2 above
 * 2^53 (one f32 each), -0 tied with 0, NaN winning both; i16's, u16's and u32's ends (a path
 * of the other signedness orders them the other way). */
static void test_args(void)
{
    const uint64_t b = UINT64_C(0xFFFFFFFFFFFFFFF0), h = P63;
    expect_args("2x5:u64", ((uint64_t[]){ 1, b, h - 1, b + 1, b, h, h - 1, 1, h, 1 }), 2, (int64_t[]){ 3, 0 },
                (int64_t[]){ 3, 3 }, (int64_t[]){ 0, 2 }, (int64_t[]){ 0, 4 });
    expect_args("3x5:f64",
                ((double[]){ 1, 1 + 0x1p-40, -0.0, 1 + 0x1p-40, 0.0, 0x1p53, 0x1p53 + 2, -0x1p53 - 2, 0x1p24 + 1,
                             0x1p53 + 2, 1, NAN, 5, NAN, -1 }),
                3, (int64_t[]){ 1, 1, 1 }, (int64_t[]){ 3, 4, 3 }, (int64_t[]){ 2, 2, 1 }, (int64_t[]){ 4, 2, 3 });
    expect_args("5:i16", ((int16_t[]){ -32768, 32767, -1, 32767, -32768 }), 1, (int64_t[]){ 1 }, (int64_t[]){ 3 },
                (int64_t[]){ 0 }, (int64_t[]){ 4 });
    expect_args("5:u16", ((uint16_t[]){ 65535, 1, 32768, 65535, 1 }), 1, (int64_t[]){ 0 }, (int64_t[]){ 3 },
                (int64_t[]){ 1 }, (int64_t[]){ 4 });
    expect_args("4:u32", ((uint32_t[]){ 0x80000000u, 0x7fffffffu, 0xffffffffu, 3 }), 1, (int64_t[]){ 2 },
                (int64_t[]){ 2 }, (int64_t[]){ 3 }, (int64_t[]){ 3 });
    /* along axis 0 of a [2, 2] */
    EXPECT("ArgMax(data=2x2:u64,axis=0,keepdims=0)", ((int64_t[]){ 1, 0 }), ((uint64_t[]){ h - 1, b, h, 1 }));
}

/* TopK: Values (output 0) and Indices (output 1), each in its dtype's order, ties in input
 * order, NaN the largest, values bit for bit (-0 keeps its sign). */
static void expect_topk(const char *id, const void *x, const void *values, size_t vbytes, const int64_t *idx, size_t k)
{
    unsigned char got[256];
    cc_shape s;
    if (!run_id(id, 1, SET(x), 0, got, sizeof got, &s) && memcmp(got, values, vbytes) != 0) {
        fprintf(stderr, "%s: Values differ from the hand-worked ones\n", id);
        CHECK(0);
    }
    if (!run_id(id, 1, SET(x), 1, got, sizeof got, &s) && memcmp(got, idx, k * sizeof *idx) != 0) {
        fprintf(stderr, "%s: Indices differ from the hand-worked ones\n", id);
        CHECK(0);
    }
}

#define TOPK(id, x, values, ...)                                                                                \
    expect_topk(id, x, values, sizeof values, (const int64_t[]){ __VA_ARGS__ },                                 \
                sizeof((const int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t))

static void test_topk(void)
{
    const uint64_t b = UINT64_C(0xFFFFFFFFFFFFFFF0), h = P63;
    const uint64_t u[5] = { 1, b, h - 1, b + 1, b };
    TOPK("TopK(X=5:u64,k=[3])", u, ((uint64_t[]){ b + 1, b, b }), 3, 1, 4);
    TOPK("TopK(X=5:u64,k=[2],largest=0)", u, ((uint64_t[]){ 1, h - 1 }), 0, 2);
    const double f[7] = { 1, 1 + 0x1p-40, -0.0, 0.0, NAN, 1 + 0x1p-40, 0x1p53 + 2 };
    TOPK("TopK(X=7:f64,k=[7])", f, ((double[]){ NAN, 0x1p53 + 2, 1 + 0x1p-40, 1 + 0x1p-40, 1, -0.0, 0.0 }), 4, 6, 1,
         5, 0, 2, 3);
    TOPK("TopK(X=7:f64,k=[4],largest=0)", f, ((double[]){ -0.0, 0.0, 1, 1 + 0x1p-40 }), 2, 3, 0, 1);
    TOPK("TopK(X=4:i16,k=[2],largest=0)", ((int16_t[]){ -1, -32768, 32767, 0 }), ((int16_t[]){ -32768, -1 }), 1, 0);
    TOPK("TopK(X=4:u16,k=[2])", ((uint16_t[]){ 32767, 65535, 1, 32768 }), ((uint16_t[]){ 65535, 32768 }), 1, 3);
    TOPK("TopK(X=3:u32,k=[3])", ((uint32_t[]){ 0x80000000u, 0x7fffffffu, 0xffffffffu }),
         ((uint32_t[]){ 0xffffffffu, 0x80000000u, 0x7fffffffu }), 2, 0, 1);
    /* along axis 0 of a [2, 2]: per column */
    TOPK("TopK(X=2x2:u32,k=[1],axis=0)", ((uint32_t[]){ 0x80000000u, 1, 5, 0xffffffffu }),
         ((uint32_t[]){ 0x80000000u, 0xffffffffu }), 0, 1);
}

/* Range: f64 start + i * delta in double (0.1 + 2 * 0.1 is 0.30000000000000004; 2^53 + 2 and
 * 2^24 + 1 have no f32), i16 across its whole range. The f64 start, limit and delta are set
 * here (a case id's float values are float32's) and give the count of the id's own. */
static void test_range(void)
{
    EXPECT("Range(start=f64:0,limit=f64:3,delta=f64:1)", ((double[]){ 0.1, 0.2, 0x1.3333333333334p-2 }),
           ((double[]){ 0.1 }), ((double[]){ 0.35 }), ((double[]){ 0.1 }));
    EXPECT("Range(start=f64:0,limit=f64:6,delta=f64:2)", ((double[]){ 0x1p53, 0x1p53 + 2, 0x1p53 + 4 }),
           ((double[]){ 0x1p53 }), ((double[]){ 0x1p53 + 6 }), ((double[]){ 2 }));
    EXPECT("Range(start=f64:1,limit=f64:4,delta=f64:1)", ((double[]){ 0x1p24 + 1, 0x1p24 + 2, 0x1p24 + 3 }),
           ((double[]){ 0x1p24 + 1 }), ((double[]){ 0x1p24 + 3.5 }), ((double[]){ 1 }));
    int16_t w[16];
    for (int i = 0; i < 16; i++) w[i] = (int16_t)(-32768 + i * 4099);
    CHECK(w[15] == 28717);
    EXPECT("Range(start=i16:-32768,limit=i16:32767,delta=i16:4099)", w, NULL);
    EXPECT("Range(start=i16:32767,limit=i16:-32768,delta=i16:-32767)", ((int16_t[]){ 32767, 0, -32767 }), NULL);
}

/* ---- what cpu declines ------------------------------------------------------------------- */

/* Ops the golden model runs on these dtypes but cpu has no kernel for: NO with the op and
 * the dtype, and prepare() refuses the graph (the f32 kernel never runs on f64 data). */
static void expect_declined(const char *id, const char *reason_want)
{
    cc_case_inst inst;
    cc_err e = { 0 };
    if (one_case_inst(id, &inst)) return;
    const cc_graph *g = &inst.graph;
    char reason[256] = "";
    CHECK(cc_target_supports(&cc_target_cpu, cpu_ctx, g, &g->nodes[0], reason, sizeof reason) == CC_SUPPORT_NO);
    if (strcmp(reason, reason_want) != 0) {
        fprintf(stderr, "%s: reason '%s', expected '%s'\n", id, reason, reason_want);
        CHECK(0);
    }
    void *plan = NULL;
    CHECK(cc_target_cpu.prepare(cpu_ctx, g, &plan, &e) == CC_ERR_UNSUPPORTED);
    CHECK(plan == NULL && strcmp(e.msg, reason_want) == 0);
    cc_case_inst_free(&inst);
}

static void test_declined(void)
{
    expect_declined("Conv(x=1x1x3x3:f64,w=1x1x2x2)", "cpu has no f64 kernel for Conv");
    expect_declined("LRN(X=1x2x2x2:f64,size=3)", "cpu has no f64 kernel for LRN");
    expect_declined("BatchNormalization(x=1x2x1x1:f64,scale=2,b=2,input_mean=2,input_var=2)",
                    "cpu has no f64 kernel for BatchNormalization");
    expect_declined("LayerNormalization(X=2x3:f64,Scale=3,B=3)", "cpu has no f64 kernel for LayerNormalization");
    /* a kernel listed for these dtypes still declines the modes it computes in f32 */
    expect_declined("Resize(x=1x1x2x2:u16,mode=linear,scales=[1,1,2,2])", "Resize: linear on u16 not implemented");
    expect_declined("Resize(x=1x1x2x2:f64,mode=cubic,scales=[1,1,2,2])", "Resize: cubic on f64 not implemented");
}

int main(void)
{
    cc_device_desc desc;
    cc_err e = { 0 };
    CHECK_OK(cc_target_cpu.open("", &cpu_ctx, &desc, &e));
    CHECK(cc_target_cpu.dtypes & CC_DTYPE_BIT(CC_F64));
    CHECK(cc_target_cpu.dtypes & CC_DTYPE_BIT(CC_U64));
    test_cast();
    test_eltwise();
    test_reduce();
    test_movers();
    test_where();
    test_args();
    test_topk();
    test_range();
    test_declined();
    cc_target_cpu.close(cpu_ctx);
    return CC_TEST_RESULT();
}
