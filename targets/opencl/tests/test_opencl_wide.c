/* test_opencl_wide.c — the opencl backend on the dtypes of target ABI 8 (f64, i16, u16, u32,
 * u64), through the full vtable path (cc_target_supports, prepare, upload, run, download,
 * guard bytes after every output): each new kernel on values a float32 or signed path would
 * get wrong (f64 values that are no f32 value such as 1 + 2^-40, u32 past 2^31, u64 past
 * 2^53 and 2^63, 16-bit wrap-around, Cast's rounding and truncation edges, products exact in
 * double only, -0 and subnormals moved as they are, -0 and NaN ordered by ArgMax, ArgMin
 * and TopK), compared bit for bit with results worked out by hand; ops without kernels for these dtypes declined with the op and dtype
 * in the reason, and an op's modes without one with the op's own reason, never run.
 *
 * Then a context that takes the device as one without cl_khr_fp64 (CROSSCHECK_OPENCL_FP64=
 * off): what would compute in f64 is declined as not on this hardware, with the device in
 * the reason (ArgMax, ArgMin and TopK among them), while f64 data movers (Resize's nearest
 * mode and Where's select among them), Range's host values and the integer kernels still
 * run; the programs that compute in double are refused, and no other program's code names
 * that type (so such a device builds them all).
 * Exits 77 when no OpenCL device opens here; the f64 kernels are skipped (and said so) on
 * a device without cl_khr_fp64. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "ops/case.h"
#include "targets/tests/one_case.h"
#include "targets/opencl/ocl.h"

extern const cc_target_iface cc_target_opencl;

static void *ocl; /* the context the checks run in (the device as it is, or without fp64) */

/* Runs case `id` on opencl in context ocl (one_case_run). */
static int run_id(const char *id, int n_set, const void *const *set, int which, void *got, size_t cap, cc_shape *shape)
{
    return one_case_run(&cc_target_opencl, ocl, id, n_set, set, which, got, cap, shape);
}

/* Runs id (output 0) and checks its bytes against want (bytes long). */
static void expect_bytes(const char *id, int n_set, const void *const *set, const void *want, size_t bytes)
{
    unsigned char got[256];
    cc_shape s;
    if (run_id(id, n_set, set, 0, got, sizeof got, &s)) return;
    if (memcmp(got, want, bytes) != 0) {
        fprintf(stderr, "%s: output differs from the hand-worked one:", id);
        for (size_t i = 0; i < bytes; i++) fprintf(stderr, "%s%02x", i % 8 ? "" : " ", got[i]);
        fprintf(stderr, "\n");
        CHECK(0);
    }
}

#define SET(...) ((const void *const[]){ __VA_ARGS__ })
#define N_SET(...) ((int)(sizeof((const void *const[]){ __VA_ARGS__ }) / sizeof(const void *)))
#define EXPECT(id, want, ...) expect_bytes(id, N_SET(__VA_ARGS__), SET(__VA_ARGS__), want, sizeof want)

static const uint64_t P53 = UINT64_C(1) << 53, P63 = UINT64_C(1) << 63;

/* ---- Cast, CastLike ---------------------------------------------------------------------- */

/* Casts that involve no f64: kernels/cast.cl for the 16/32/64-bit integer types. */
static void test_cast_int(void)
{
    /* u64 -> f32: at 2^63 the f32 spacing is 2^40; 2^63 + 2^39 is a tie (to 2^63, even),
     * one more rounds up (a signed path reads UINT64_MAX as -1); 2^64 - 1 gives 2^64 */
    const uint64_t u[] = { UINT64_MAX, P63 + (UINT64_C(1) << 39) + 1, P63 + (UINT64_C(1) << 39), P53 + 1 };
    EXPECT("Cast(input=4:u64,to=1)", ((float[]){ 0x1p64f, 0x1p63f + 0x1p40f, 0x1p63f, 0x1p53f }), u);
    EXPECT("Cast(input=4:u64,to=7)", ((int64_t[]){ -1, INT64_MIN + (INT64_C(1) << 39) + 1, INT64_MIN + (INT64_C(1) << 39),
                                                   (int64_t)P53 + 1 }), u);
    EXPECT("Cast(input=4:u64,to=12)", ((uint32_t[]){ UINT32_MAX, 1, 0, 1 }), u);
    /* to f16: 65519 is below the midpoint 65520 of 65504 and 2^16 (inf); to bf16: 2^64 - 1
     * rounds up to 2^64 (0x5f80) */
    uint16_t hu[2] = { cc_f32_to_f16(65504), 0x7c00 };
    EXPECT("Cast(input=2:u64,to=10)", hu, ((uint64_t[]){ 65519, 65520 }));
    EXPECT("Cast(input=1:u64,to=16)", ((uint16_t[]){ 0x5f80 }), ((uint64_t[]){ UINT64_MAX }));
    EXPECT("Cast(input=2:u64,to=9)", ((uint8_t[]){ 1, 0 }), ((uint64_t[]){ P63, 0 }));
    /* narrowing keeps the low bits; widening sign-extends signed and zero-extends unsigned */
    EXPECT("Cast(input=2:i32,to=12)", ((uint32_t[]){ UINT32_MAX, 70000 }), ((int32_t[]){ -1, 70000 }));
    EXPECT("Cast(input=2:i32,to=4)", ((uint16_t[]){ 65535, 4464 }), ((int32_t[]){ -1, 70000 }));
    EXPECT("Cast(input=2:i32,to=13)", ((uint64_t[]){ UINT64_MAX, 5 }), ((int32_t[]){ -1, 5 }));
    EXPECT("Cast(input=2:u16,to=5)", ((int16_t[]){ -1, 1 }), ((uint16_t[]){ 65535, 1 }));
    EXPECT("Cast(input=2:i16,to=7)", ((int64_t[]){ -2, 32767 }), ((int16_t[]){ -2, 32767 }));
    EXPECT("Cast(input=2:i16,to=12)", ((uint32_t[]){ 0xfffffffeu, 32767 }), ((int16_t[]){ -2, 32767 }));
    EXPECT("Cast(input=2:u32,to=7)", ((int64_t[]){ 4294967295, 2147483648 }), ((uint32_t[]){ UINT32_MAX, 0x80000000u }));
    EXPECT("Cast(input=1:u32,to=1)", ((float[]){ 0x1p32f }), ((uint32_t[]){ UINT32_MAX }));
    EXPECT("Cast(input=2:u16,to=10)", ((uint16_t[]){ 0x7c00, cc_f32_to_f16(2048) }), ((uint16_t[]){ 65535, 2049 }));
    /* float -> integer: truncation; -2^63 is int64's least value; u64 past 2^63 */
    EXPECT("Cast(input=2:f32,to=7)", ((int64_t[]){ INT64_MIN, -3 }), ((float[]){ -0x1p63f, -3.9f }));
    EXPECT("Cast(input=2:f32,to=13)", ((uint64_t[]){ P63, UINT64_C(13835058055282163712) }), ((float[]){ 0x1p63f, 0x1.8p63f }));
    EXPECT("Cast(input=2:f32,to=12)", ((uint32_t[]){ 4000000000u, 0 }), ((float[]){ 4e9f, 0.75f }));
    EXPECT("Cast(input=2:bf16,to=4)", ((uint16_t[]){ 65280, 1 }),
           ((uint16_t[]){ cc_f32_to_bf16(65280), cc_f32_to_bf16(1.5f) }));
    EXPECT("CastLike(input=2:f16,target_type=1:i16)", ((int16_t[]){ -2048, 3 }),
           ((uint16_t[]){ cc_f32_to_f16(-2048), cc_f32_to_f16(3.75f) }));
}

/* Casts from or to f64: kernels/cast_f64.cl. */
static void test_cast_f64(void)
{
    /* f64 -> f32: 1 + 2^-40 is no f32 value (to 1); 1e300 overflows; 1 + 2^-24 + 2^-40 is
     * just above a midpoint (up); f64 -> f16: 1 + 2^-11 + 2^-40 lies just above the midpoint
     * of 1 and 1 + 2^-10 (through a float rounded to nearest it would be the midpoint, then
     * 1); f64 -> bf16 likewise at 1 + 2^-8 + 2^-40 */
    const double d[] = { 1 + 0x1p-40, -2.5, 1e300, 1 + 0x1p-24 + 0x1p-40 };
    EXPECT("Cast(input=4:f64,to=1)", ((float[]){ 1, -2.5f, INFINITY, 1 + 0x1p-23f }), d);
    const double dh[] = { 1 + 0x1p-11 + 0x1p-40, -2.5, 1e300, 0x1p-1074 };
    EXPECT("Cast(input=4:f64,to=10)", ((uint16_t[]){ 0x3c01, cc_f32_to_f16(-2.5f), 0x7c00, 0 }), dh);
    const double db[] = { 1 + 0x1p-8 + 0x1p-40, -2.5, 1e300, -0x1p-1074 };
    EXPECT("Cast(input=4:f64,to=16)", ((uint16_t[]){ 0x3f81, cc_f32_to_bf16(-2.5f), 0x7f80, 0x8000 }), db);
    /* f64 -> u64 past 2^63 (2^64 - 2048 is the largest double below 2^64), truncation;
     * -> i64 at both ends of its range; -> 16/32-bit types */
    EXPECT("Cast(input=3:f64,to=13)",
           ((uint64_t[]){ UINT64_C(10000000000000000000), 2, UINT64_C(18446744073709549568) }),
           ((double[]){ 1e19, 2.9, 18446744073709549568.0 }));
    EXPECT("Cast(input=3:f64,to=7)", ((int64_t[]){ INT64_MIN, INT64_C(9223372036854774784), -3 }),
           ((double[]){ -0x1p63, 0x1p63 - 1024, -3.9 }));
    EXPECT("Cast(input=2:f64,to=5)", ((int16_t[]){ -3, 32767 }), ((double[]){ -3.9, 32767.9 }));
    EXPECT("Cast(input=2:f64,to=4)", ((uint16_t[]){ 65535, 0 }), ((double[]){ 65535.5, 0.5 }));
    EXPECT("Cast(input=3:f64,to=9)", ((uint8_t[]){ 1, 0, 1 }), ((double[]){ 0x1p-1074, -0.0, NAN }));
    /* to f64: u64 as unsigned, rounded once; i64 past 2^53 to nearest even; floats exactly */
    const uint64_t u[] = { UINT64_MAX, P63 + (UINT64_C(1) << 39) + 1, P63 + (UINT64_C(1) << 39), P53 + 1 };
    EXPECT("Cast(input=4:u64,to=11)", ((double[]){ 0x1p64, 0x1p63 + 0x1p39, 0x1p63 + 0x1p39, 0x1p53 }), u);
    EXPECT("Cast(input=2:i64,to=11)", ((double[]){ 0x1p53, 0x1p53 + 4 }),
           ((int64_t[]){ (int64_t)P53 + 1, (int64_t)P53 + 3 }));
    EXPECT("Cast(input=2:u32,to=11)", ((double[]){ 4294967295.0, 2147483648.0 }), ((uint32_t[]){ UINT32_MAX, 0x80000000u }));
    EXPECT("Cast(input=2:i16,to=11)", ((double[]){ -32768, 7 }), ((int16_t[]){ -32768, 7 }));
    EXPECT("Cast(input=1:f32,to=11)", ((double[]){ (double)0.1f }), ((float[]){ 0.1f }));
    EXPECT("Cast(input=1:f16,to=11)", ((double[]){ (double)cc_f16_to_f32(13652) }), ((uint16_t[]){ 13652 }));
    EXPECT("Cast(input=2:bool,to=11)", ((double[]){ 1, 0 }), ((uint8_t[]){ 1, 0 }));
    EXPECT("Cast(input=2:f64,to=11)", ((double[]){ 1 + 0x1p-52, -0x1p-1074 }), ((double[]){ 1 + 0x1p-52, -0x1p-1074 }));
    /* CastLike takes the second input's dtype */
    EXPECT("CastLike(input=2:f64,target_type=1:u32)", ((uint32_t[]){ 4000000000u, 0 }), ((double[]){ 4e9 + 0.5, 0.25 }));
    EXPECT("CastLike(input=1:u64,target_type=1:f64)", ((double[]){ 0x1p63 }), ((uint64_t[]){ P63 }));
}

/* ---- Min, Max, Sum, Mean, Pow, PRelu, Mod, BitShift -------------------------------------- */

static void test_eltwise_int(void)
{
    /* u32 past 2^31 and u64 past 2^63 compare unsigned (as signed they would be negative) */
    const uint32_t a32[] = { 0x80000005u, 7 }, b32[] = { 0x80000000u, UINT32_MAX };
    EXPECT("Max(data_0=2:u32,data_1=2)", ((uint32_t[]){ 0x80000005u, UINT32_MAX }), a32, b32);
    EXPECT("Min(data_0=2:u32,data_1=2)", ((uint32_t[]){ 0x80000000u, 7 }), a32, b32);
    const uint64_t a64[] = { P63 + 1, 1 }, b64[] = { P63, UINT64_MAX };
    EXPECT("Max(data_0=2:u64,data_1=2)", ((uint64_t[]){ P63 + 1, UINT64_MAX }), a64, b64);
    EXPECT("Min(data_0=2:u64,data_1=2)", ((uint64_t[]){ P63, 1 }), a64, b64);
    EXPECT("Max(data_0=2:i16,data_1=2)", ((int16_t[]){ 32767, 5 }), ((int16_t[]){ -32768, 5 }), ((int16_t[]){ 32767, -5 }));
    EXPECT("Max(data_0=2:u16,data_1=1,data_2=2)", ((uint16_t[]){ 65535, 9 }), ((uint16_t[]){ 65535, 1 }),
           ((uint16_t[]){ 2 }), ((uint16_t[]){ 3, 9 }));
    EXPECT("Min(data_0=2x1:i16,data_1=1x2)", ((int16_t[]){ -32768, -32768, -1, 0 }), ((int16_t[]){ -32768, 0 }),
           ((int16_t[]){ -1, 1 }));
    /* Mod: unsigned past 2^31 / 2^63 / 2^15; fmod=0 floors (sign of the divisor), fmod=1
     * truncates; by zero 0 (undefined, never a trap) */
    EXPECT("Mod(a=3:u32,b=3)", ((uint32_t[]){ 5, 1, 0 }), ((uint32_t[]){ UINT32_MAX, 10, 5 }), ((uint32_t[]){ 10, 3, 0 }));
    EXPECT("Mod(a=1:u64,b=1)", ((uint64_t[]){ P63 - 1 }), ((uint64_t[]){ UINT64_MAX }), ((uint64_t[]){ P63 }));
    EXPECT("Mod(a=1:u16,b=1,fmod=1)", ((uint16_t[]){ 1 }), ((uint16_t[]){ 65535 }), ((uint16_t[]){ 2 }));
    EXPECT("Mod(a=2:i16,b=2)", ((int16_t[]){ 2, -2 }), ((int16_t[]){ -7, 7 }), ((int16_t[]){ 3, -3 }));
    EXPECT("Mod(a=2:i16,b=2,fmod=1)", ((int16_t[]){ -1, 1 }), ((int16_t[]){ -7, 7 }), ((int16_t[]){ 3, -3 }));
    /* BitShift at 16, 32 and 64 bits: bits shifted out are lost, the width or more gives 0 */
    EXPECT("BitShift(x=2:u16,y=2,direction=LEFT)", ((uint16_t[]){ 2, 0 }), ((uint16_t[]){ 0x8001, 1 }),
           ((uint16_t[]){ 1, 16 }));
    EXPECT("BitShift(x=3:u32,y=3,direction=LEFT)", ((uint32_t[]){ 0x80000000u, 0, 6 }), ((uint32_t[]){ 1, 1, 3 }),
           ((uint32_t[]){ 31, 32, 1 }));
    EXPECT("BitShift(x=3:u64,y=3,direction=RIGHT)", ((uint64_t[]){ 15, 0, 1 }), ((uint64_t[]){ UINT64_MAX, UINT64_MAX, P63 }),
           ((uint64_t[]){ 60, 64, 63 }));
    EXPECT("BitShift(x=1:u64,y=1,direction=LEFT)", ((uint64_t[]){ P63 }), ((uint64_t[]){ 1 }), ((uint64_t[]){ 63 }));
    /* Pow with an integer exponent of another dtype: an f32 base with a u32 or u64 one; an
     * i64 base with a u32 one wraps modulo 2^64 (3^40 is past 2^63); an i32 base with an
     * i64 one wraps to 32 bits (2^31 is INT32_MIN) */
    EXPECT("Pow(x=2:f32,y=2:u32)", ((float[]){ 0x1p31f, 9 }), ((float[]){ 2, 3 }), ((uint32_t[]){ 31, 2 }));
    EXPECT("Pow(x=1:f32,y=1:u64)", ((float[]){ 0.5f }), ((float[]){ 0.5f }), ((uint64_t[]){ 1 }));
    EXPECT("Pow(x=2:f16,y=2:i16)", ((uint16_t[]){ cc_f32_to_f16(0.25f), cc_f32_to_f16(9) }),
           ((uint16_t[]){ cc_f32_to_f16(2), cc_f32_to_f16(3) }), ((int16_t[]){ -2, 2 }));
    EXPECT("Pow(x=2:i64,y=2:u32)", ((int64_t[]){ INT64_C(-6289078614652622815), 1 }), ((int64_t[]){ 3, -1 }),
           ((uint32_t[]){ 40, 40 }));
    EXPECT("Pow(x=2:i32,y=2:i64)", ((int32_t[]){ INT32_MIN, -1 }), ((int32_t[]){ 2, -1 }), ((int64_t[]){ 31, -3 }));
}

/* f64 (eltwise_f64.cl) and integer Pow with a float exponent: both compute in double. */
static void test_eltwise_f64(void)
{
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
    EXPECT("PRelu(x=2:f64,slope=1)", ((double[]){ -0.5 - 0x1p-41, 3 }), ((double[]){ -1 - 0x1p-40, 3 }), ((double[]){ 0.5 }));
    EXPECT("Mod(a=2:f64,b=2,fmod=1)", ((double[]){ 1.5, -0x1p-40 }), ((double[]){ 5.5, -1 - 0x1p-40 }), ((double[]){ 2, 1 }));
    /* Pow: (1 + 2^-20)^2 = 1 + 2^-19 + 2^-40 exactly (1 + 2^-19 in f32); an f64 base with a
     * u32 and an i16 exponent; an f32 and an f16 base with an f64 exponent, rounded once */
    EXPECT("Pow(x=1:f64,y=1)", ((double[]){ 1 + 0x1p-19 + 0x1p-40 }), ((double[]){ 1 + 0x1p-20 }), ((double[]){ 2 }));
    EXPECT("Pow(x=2:f64,y=2:u32)", ((double[]){ 1 + 0x1p-19 + 0x1p-40, 0x1p40 }), ((double[]){ 1 + 0x1p-20, 2 }),
           ((uint32_t[]){ 2, 40 }));
    EXPECT("Pow(x=1:f64,y=1:i16)", ((double[]){ 0x1p-40 }), ((double[]){ 2 }), ((int16_t[]){ -40 }));
    EXPECT("Pow(x=2:f32,y=2:f64)", ((float[]){ (float)pow(2.0, 0.5), 3 }), ((float[]){ 2, 9 }), ((double[]){ 0.5, 0.5 }));
    EXPECT("Pow(x=1:f16,y=1:f64)", ((uint16_t[]){ cc_f32_to_f16(9) }), ((uint16_t[]){ cc_f32_to_f16(3) }), ((double[]){ 2 }));
    /* an integer base with a float exponent: the real power in double, truncated toward zero
     * (8^0.4 = 2.297..., (-2)^3 = -8); 2^40 to the 1.5 is 2^60, past f32's and f64's
     * integers but exact as int64 */
    EXPECT("Pow(x=3:i32,y=3:f32)", ((int32_t[]){ 3, 2, -8 }), ((int32_t[]){ 9, 8, -2 }), ((float[]){ 0.5f, 0.4f, 3 }));
    EXPECT("Pow(x=2:i32,y=2:f64)", ((int32_t[]){ 3, 2 }), ((int32_t[]){ 9, 8 }), ((double[]){ 0.5, 0.4 }));
    EXPECT("Pow(x=2:i64,y=2:f32)", ((int64_t[]){ INT64_C(1) << 60, 9 }), ((int64_t[]){ INT64_C(1) << 40, 3 }),
           ((float[]){ 1.5f, 2 }));
    EXPECT("Pow(x=1:i64,y=1:f16)", ((int64_t[]){ 25 }), ((int64_t[]){ 5 }), ((uint16_t[]){ cc_f32_to_f16(2) }));
}

/* ---- CumSum, reductions, Einsum, Scatter's reductions ------------------------------------ */

static void test_reduce(int fp64)
{
    EXPECT("CumSum(x=3:u64,axis=0)", ((uint64_t[]){ P63, 0, 5 }), ((uint64_t[]){ P63, P63, 5 }));
    EXPECT("CumSum(x=2x2:u32,axis=0)", ((uint32_t[]){ UINT32_MAX, 2, 0, 5 }), ((uint32_t[]){ UINT32_MAX, 2, 1, 3 }));
    EXPECT("CumSum(x=3:u32,axis=0,exclusive=1,reverse=1)", ((uint32_t[]){ 0x80000001u, 1, 0 }),
           ((uint32_t[]){ 5, 0x80000000u, 1 }));
    /* Einsum: a u64 inner product wrapping modulo 2^64 (2^32 * 2^32 = 2^64 is 0), a u32
     * product past 2^32, an i16 transpose, a u16 sum of 65535 + 1 (0) */
    EXPECT("Einsum(x0=2:u64,x1=2,equation=\"i,i\")", ((uint64_t[]){ 15 }), ((uint64_t[]){ UINT64_C(1) << 32, 3 }),
           ((uint64_t[]){ UINT64_C(1) << 32, 5 }));
    EXPECT("Einsum(x0=2x2:u32,x1=2x1,equation=\"ij,jk->ik\")", ((uint32_t[]){ UINT32_MAX - 1, 7 }),
           ((uint32_t[]){ UINT32_MAX, 0, 2, 3 }), ((uint32_t[]){ 2, 1 }));
    EXPECT("Einsum(x0=2x3:i16,equation=\"ij->ji\")", ((int16_t[]){ -1, 4, 2, 5, -32768, 6 }),
           ((int16_t[]){ -1, 2, -32768, 4, 5, 6 }));
    EXPECT("Einsum(x0=2:u16,equation=\"i->\")", ((uint16_t[]){ 0 }), ((uint16_t[]){ 65535, 1 }));
    /* ScatterElements add: u16 wraps (65535 + 2 = 1); ScatterND mul: u64 past 2^63 */
    EXPECT("ScatterElements(data=2:u16,indices=1:i64,updates=1,reduction=add)", ((uint16_t[]){ 1, 7 }),
           ((uint16_t[]){ 65535, 7 }), ((int64_t[]){ 0 }), ((uint16_t[]){ 2 }));
    EXPECT("ScatterND(data=2:u64,indices=1x1:i64,updates=1,reduction=mul)", ((uint64_t[]){ 3, P63 }),
           ((uint64_t[]){ 3, P63 + (UINT64_C(1) << 62) }), ((int64_t[]){ 1 }), ((uint64_t[]){ 2 }));
    EXPECT("ScatterElements(data=2:u32,indices=2:i64,updates=2,reduction=add)", ((uint32_t[]){ 0x80000002u, 0 }),
           ((uint32_t[]){ 0x80000000u, 0 }), ((int64_t[]){ 0, 0 }), ((uint32_t[]){ 1, 1 }));
    if (!fp64) return;
    const double x[] = { 1, 0x1p-40, 0x1p-40, -1 };
    EXPECT("CumSum(x=4:f64,axis=0)", ((double[]){ 1, 1 + 0x1p-40, 1 + 0x1p-39, 0x1p-39 }), x);
    EXPECT("CumSum(x=4:f64,exclusive=1,reverse=1,axis=0)", ((double[]){ -1 + 0x1p-39, -1 + 0x1p-40, -1, 0 }), x);
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
    /* LogSumExp: 1000 + log 2 (the shift keeps exp from overflowing, f32 would give inf
     * without it and lose the last digits with it); checked to an ulp */
    double lse;
    cc_shape s;
    if (!run_id("ReduceLogSumExp(data=2:f64)", 1, SET(((double[]){ 1000, 1000 })), 0, &lse, sizeof lse, &s))
        CHECK_NEAR(lse, 1000 + log(2.0), 2.3e-13);
    /* Einsum in double: (1 + 2^-40) as an inner product; ScatterElements add keeps 2^-40 */
    EXPECT("Einsum(x0=2:f64,x1=2,equation=\"i,i\")", ((double[]){ 1 + 0x1p-40 }), ((double[]){ 1, 0x1p-40 }),
           ((double[]){ 1, 1 }));
    EXPECT("ScatterElements(data=2:f64,indices=1:i64,updates=1,reduction=add)", ((double[]){ 1, 1 + 0x1p-40 }),
           ((double[]){ 1, 1 }), ((int64_t[]){ 1 }), ((double[]){ 0x1p-40 }));
}

/* ---- data movement, EyeLike --------------------------------------------------------------- */

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
    EXPECT("EyeLike(input=2x2:f64)", ((double[]){ 1, 0, 0, 1 }), NULL);
    EXPECT("ScatterElements(data=3:f64,indices=1:i64,updates=1)", ((double[]){ 1, 1 + 0x1p-40, 3 }),
           ((double[]){ 1, 2, 3 }), ((int64_t[]){ 1 }), ((double[]){ 1 + 0x1p-40 }));
}

/* ---- Resize in nearest mode, MatMul and Gemm in f64 --------------------------------------- */

/* Resize of the wide dtypes in nearest mode: elements moved by size (copy.cl's copy_taps), so
 * u64 past 2^63, a subnormal and -0 in f64 and the 16/32-bit integers keep their bits, and
 * tf_crop_and_resize's extrapolation_value is stored in the dtype (saturated for integers). */
static void test_resize_wide(void)
{
    /* half_pixel, round_prefer_floor: x_original -0.25, 0.25, 0.75, 1.25 take 0, 0, 1, 1
     * (an f32 or f64 path reads UINT64_MAX - 1 as 2^64 and P63 + 1 as 2^63) */
    EXPECT("Resize(x=1x2:u64,scales=[1,2])", ((uint64_t[]){ UINT64_MAX - 1, UINT64_MAX - 1, P63 + 1, P63 + 1 }),
           ((uint64_t[]){ UINT64_MAX - 1, P63 + 1 }));
    /* 2x2 to 4x4: 1 + 2^-40 (no f32 value), the least subnormal, -0 and 2^1000 as they are */
    const double a = 1 + 0x1p-40, b = -0x1p-1074, c = -0.0, d = 0x1p1000;
    EXPECT("Resize(x=1x1x2x2:f64,scales=[1,1,2,2])",
           ((double[]){ a, a, b, b, a, a, b, b, c, c, d, d, c, c, d, d }), ((double[]){ a, b, c, d }));
    /* asymmetric, floor: x_original o / 2 */
    EXPECT("Resize(x=3:i16,coordinate_transformation_mode=asymmetric,nearest_mode=floor,scales=[2])",
           ((int16_t[]){ -32768, -32768, 32767, 32767, -1, -1 }), ((int16_t[]){ -32768, 32767, -1 }));
    /* tf_crop_and_resize over roi [-0.5, 1.5] of 4 elements to 5: x_original -1.5 + 1.5 o,
     * outside at both ends (7 there), 1.5 to 1 (round_prefer_floor) */
    EXPECT("Resize(x=4:u32,coordinate_transformation_mode=tf_crop_and_resize,extrapolation_value=7,"
           "roi=[-0.5,1.5],sizes=[5])",
           ((uint32_t[]){ 7, 0x80000001u, UINT32_MAX, 0xfffffffeu, 7 }),
           ((uint32_t[]){ 0x80000001u, UINT32_MAX, 5, 0xfffffffeu }));
    /* an extrapolation_value of -3 saturates to u16's 0 */
    EXPECT("Resize(x=2:u16,coordinate_transformation_mode=tf_crop_and_resize,extrapolation_value=-3,roi=[-1,1],"
           "sizes=[3])",
           ((uint16_t[]){ 0, 65535, 1 }), ((uint16_t[]){ 65535, 1 }));
}

/* MatMul and Gemm in f64: gemm_naive.cl's f64 copy, in double. Every product and sum below
 * is exact in double and lost in float (2^-30 and 2^-40 beside 1, 256 beside 2^60). */
static void test_matmul_f64(void)
{
    EXPECT("MatMul(a=2x2:f64,b=2x2)",
           ((double[]){ 1 + 0x1p-20 + 0x1p-30 + 0x1p-40 + 0x1p-50, 0x1p-39, 4 + 3 * 0x1p-20 + 0x1p-40, 2 + 0x1p-39 }),
           ((double[]){ 1 + 0x1p-30, 0x1p-40, 3, 1 + 0x1p-40 }), ((double[]){ 1 + 0x1p-20, 0, 1, 2 }));
    /* two batches of a, b broadcast to both */
    EXPECT("MatMul(a=2x1x2:f64,b=2x1)", ((double[]){ 0x1p60 + 256, 1 + 0x1p-40 }),
           ((double[]){ 0x1p60, 256, 0x1p-40, 1 }), ((double[]){ 1, 1 }));
    /* both transposed (b the identity), alpha 0.5, a row bias scaled by beta 2:
     * 0.5 a^T + 2 [2^-45, 1] */
    EXPECT("Gemm(a=2x2:f64,b=2x2,c=2,alpha=0.5,beta=2,transA=1,transB=1)",
           ((double[]){ 0.5 + 0x1p-41 + 0x1p-44, 4, 1 + 0x1p-44, 6 }), ((double[]){ 1 + 0x1p-40, 2, 4, 8 }),
           ((double[]){ 1, 0, 0, 1 }), ((double[]){ 0x1p-45, 1 }));
}

/* ---- Where, ArgMax, ArgMin, TopK, Range ---------------------------------------------------- */

/* Where picks elements as they are (eltwise_logic.cl's select of the element's size, so f64
 * needs no cl_khr_fp64): u64 2^64 - 16 beside 1 and 2^64 - 15 (one double), f64 -0 with its
 * sign, NaN and 1 + 2^-40 (1 in f32), the ends of i16, u16 and u32. */
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

/* ArgMax and ArgMin (axis.cl) in each dtype's own order: u64 2^64 - 15 above 2^64 - 16 (one
 * double) and 2^63 above 2^63 - 1 (as signed 2^63 is the least); f64 (with fp64) 1 + 2^-40
 * above 1, 2^53 + 2 above 2^53 (one f32 each), -0 tied with 0, NaN winning both; i16's,
 * u16's and u32's ends (a path of the other signedness orders them the other way). */
static void test_args(int fp64)
{
    const uint64_t b = UINT64_C(0xFFFFFFFFFFFFFFF0), h = P63;
    expect_args("2x5:u64", ((uint64_t[]){ 1, b, h - 1, b + 1, b, h, h - 1, 1, h, 1 }), 2, (int64_t[]){ 3, 0 },
                (int64_t[]){ 3, 3 }, (int64_t[]){ 0, 2 }, (int64_t[]){ 0, 4 });
    if (fp64)
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

/* TopK (axis.cl): Values (output 0) and Indices (output 1), each in its dtype's order, ties
 * in input order, NaN the largest, values bit for bit (-0 keeps its sign). */
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

static void test_topk(int fp64)
{
    const uint64_t b = UINT64_C(0xFFFFFFFFFFFFFFF0), h = P63;
    const uint64_t u[5] = { 1, b, h - 1, b + 1, b };
    TOPK("TopK(X=5:u64,k=[3])", u, ((uint64_t[]){ b + 1, b, b }), 3, 1, 4);
    TOPK("TopK(X=5:u64,k=[2],largest=0)", u, ((uint64_t[]){ 1, h - 1 }), 0, 2);
    const double f[7] = { 1, 1 + 0x1p-40, -0.0, 0.0, NAN, 1 + 0x1p-40, 0x1p53 + 2 };
    if (fp64) {
        TOPK("TopK(X=7:f64,k=[7])", f, ((double[]){ NAN, 0x1p53 + 2, 1 + 0x1p-40, 1 + 0x1p-40, 1, -0.0, 0.0 }), 4, 6,
             1, 5, 0, 2, 3);
        TOPK("TopK(X=7:f64,k=[4],largest=0)", f, ((double[]){ -0.0, 0.0, 1, 1 + 0x1p-40 }), 2, 3, 0, 1);
    }
    TOPK("TopK(X=4:i16,k=[2],largest=0)", ((int16_t[]){ -1, -32768, 32767, 0 }), ((int16_t[]){ -32768, -1 }), 1, 0);
    TOPK("TopK(X=4:u16,k=[2])", ((uint16_t[]){ 32767, 65535, 1, 32768 }), ((uint16_t[]){ 65535, 32768 }), 1, 3);
    TOPK("TopK(X=3:u32,k=[3])", ((uint32_t[]){ 0x80000000u, 0x7fffffffu, 0xffffffffu }),
         ((uint32_t[]){ 0xffffffffu, 0x80000000u, 0x7fffffffu }), 2, 0, 1);
    /* along axis 0 of a [2, 2]: per column */
    TOPK("TopK(X=2x2:u32,k=[1],axis=0)", ((uint32_t[]){ 0x80000000u, 1, 5, 0xffffffffu }),
         ((uint32_t[]){ 0x80000000u, 0xffffffffu }), 0, 1);
}

/* Range, made on the host (the shared lowering), so f64 needs no cl_khr_fp64: f64 start + i *
 * delta in double (0.1 + 2 * 0.1 is 0.30000000000000004; 2^53 + 2 and 2^24 + 1 have no f32),
 * i16 across its whole range. The f64 start, limit and delta are set here (a case id's float
 * values are float32's) and give the count of the id's own. */
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

/* ---- what opencl declines ----------------------------------------------------------------- */

/* supports() answers `want` with exactly reason_want, and prepare() refuses the graph with
 * CC_ERR_UNSUPPORTED and the same words (no kernel ever runs on such data). */
static void expect_declined(const char *id, cc_support want, const char *reason_want)
{
    cc_case_inst inst;
    cc_err e = { 0 };
    if (one_case_inst(id, &inst)) return;
    const cc_graph *g = &inst.graph;
    char reason[256] = "";
    cc_support got = cc_target_supports(&cc_target_opencl, ocl, g, &g->nodes[0], reason, sizeof reason);
    if (got != want || strcmp(reason, reason_want) != 0) {
        fprintf(stderr, "%s: support %d '%s', expected %d '%s'\n", id, (int)got, reason, (int)want, reason_want);
        CHECK(0);
    }
    void *plan = NULL;
    cc_status st = cc_target_opencl.prepare(ocl, g, &plan, &e);
    CHECK(st == CC_ERR_UNSUPPORTED && plan == NULL);
    if (st == CC_ERR_UNSUPPORTED && !strstr(e.msg, reason_want)) {
        fprintf(stderr, "%s: prepare said '%s', expected '%s'\n", id, e.msg, reason_want);
        CHECK(0);
    }
    if (plan) cc_target_opencl.release(ocl, plan);
    cc_case_inst_free(&inst);
}

static void test_declined(void)
{
    expect_declined("Conv(x=1x1x3x3:f64,w=1x1x2x2)", CC_SUPPORT_NO, "opencl has no f64 kernel for Conv");
    expect_declined("LRN(X=1x2x2x2:f64,size=3)", CC_SUPPORT_NO, "opencl has no f64 kernel for LRN");
    expect_declined("BatchNormalization(x=1x2x1x1:f64,scale=2,b=2,input_mean=2,input_var=2)", CC_SUPPORT_NO,
                    "opencl has no f64 kernel for BatchNormalization");
    expect_declined("LayerNormalization(X=2x3:f64,Scale=3,B=3)", CC_SUPPORT_NO,
                    "opencl has no f64 kernel for LayerNormalization");
    expect_declined("ConvTranspose(x=1x1x3x3:f64,w=1x1x2x2)", CC_SUPPORT_NO, "opencl has no f64 kernel for ConvTranspose");
    /* a listed op still declines the operand dtypes and modes it has no kernel for */
    expect_declined("Pow(x=2:f32,y=2:f16)", CC_SUPPORT_NO, "opencl: no Pow kernel for a f16 exponent of a f32 base");
    expect_declined("Resize(x=1x1x2x2:f64,mode=linear,scales=[1,1,2,2])", CC_SUPPORT_NO,
                    "opencl: Resize of f64 in nearest mode only, not linear (the shared lowering's weights are float32)");
    expect_declined("Resize(x=1x2:u64,mode=cubic,scales=[1,2])", CC_SUPPORT_NO,
                    "opencl: Resize of u64 in nearest mode only, not cubic (no kernel interpolates it in its own type)");
}

/* ---- a device without cl_khr_fp64 ---------------------------------------------------------- */

/* The program's source with its comments removed. */
static void strip_comments(char *s)
{
    char *w = s;
    for (char *p = s; *p;) {
        if (p[0] == '/' && p[1] == '*') {
            char *end = strstr(p + 2, "*/");
            p = end ? end + 2 : p + strlen(p);
            *w++ = ' ';
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n') p++;
        } else {
            *w++ = *p++;
        }
    }
    *w = '\0';
}

/* 1 when word occurs in s as an identifier (not inside a longer one). */
static int has_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = s; (p = strstr(p, word)) != NULL; p += n) {
        int before = p > s && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
                               (p[-1] >= '0' && p[-1] <= '9'));
        char a = p[n];
        int after = a == '_' || (a >= 'a' && a <= 'z') || (a >= 'A' && a <= 'Z') || (a >= '0' && a <= '9');
        if (!before && !after) return 1;
    }
    return 0;
}

/* Every program's code (comments aside) names double and enables cl_khr_fp64 exactly when
 * the table marks it fp64; the f64 programs the kernels need are among those. */
static void test_program_sources(void)
{
    int n_fp64 = 0, checked = 0;
    for (int i = 0; cc_ocl_program_name(i); i++) {
        char *src = NULL;
        cc_err e = { 0 };
        if (cc_ocl_program_source(i, &src, &e)) {
            fprintf(stderr, "program %s: %s\n", cc_ocl_program_name(i), e.msg);
            CHECK(0);
            continue;
        }
        strip_comments(src);
        int fp64 = cc_ocl_program_fp64(i);
        int uses = has_word(src, "double") || has_word(src, "cl_khr_fp64");
        if (uses != fp64) {
            fprintf(stderr, "program %s is %smarked fp64 but its code %s double\n", cc_ocl_program_name(i),
                    fp64 ? "" : "not ", uses ? "names" : "does not name");
            CHECK(0);
        }
        n_fp64 += fp64;
        checked++;
        free(src);
    }
    CHECK(checked > 100);
    CHECK(n_fp64 == 6); /* cast_f64, eltwise_f64, einsum_f64, reduce_f64, axis_f64, gemm_naive_f64 */
}

static void test_without_fp64(void)
{
    setenv("CROSSCHECK_OPENCL_FP64", "off", 1);
    void *ctx = NULL;
    cc_device_desc desc;
    cc_err err = { 0 };
    cc_status st = cc_target_opencl.open("", &ctx, &desc, &err);
    unsetenv("CROSSCHECK_OPENCL_FP64");
    if (st) {
        fprintf(stderr, "open without fp64: %s\n", err.msg);
        CHECK(0);
        return;
    }
    void *saved = ocl;
    ocl = ctx;
    ocl_ctx *c = ctx;
    CHECK(c->has_fp64 == 0);
    CHECK(strstr(desc.library, "no cl_khr_fp64") != NULL);
    char why[256];
    snprintf(why, sizeof why, "opencl: %s has no fp64 (cl_khr_fp64)", c->device_name);
    /* what would compute in f64: not on this hardware */
    expect_declined("Cast(input=2:f64,to=1)", CC_SUPPORT_NOT_HERE, why);
    expect_declined("CastLike(input=2:u64,target_type=1:f64)", CC_SUPPORT_NOT_HERE, why);
    expect_declined("Max(data_0=2:f64,data_1=2)", CC_SUPPORT_NOT_HERE, why);
    expect_declined("Mod(a=2:f64,b=2,fmod=1)", CC_SUPPORT_NOT_HERE, why);
    expect_declined("Pow(x=2:f32,y=2:f64)", CC_SUPPORT_NOT_HERE, why);
    expect_declined("Pow(x=2:i32,y=2:f32)", CC_SUPPORT_NOT_HERE, why); /* computes in double */
    expect_declined("CumSum(x=4:f64,axis=0)", CC_SUPPORT_NOT_HERE, why);
    expect_declined("ReduceLogSumExp(data=2:f64)", CC_SUPPORT_NOT_HERE, why);
    expect_declined("Einsum(x0=2:f64,x1=2,equation=\"i,i\")", CC_SUPPORT_NOT_HERE, why);
    expect_declined("ScatterElements(data=2:f64,indices=1:i64,updates=1,reduction=add)", CC_SUPPORT_NOT_HERE, why);
    expect_declined("MatMul(a=2x2:f64,b=2x2)", CC_SUPPORT_NOT_HERE, why);
    expect_declined("Gemm(a=2x2:f64,b=2x2,c=2,alpha=0.5,beta=2,transA=1,transB=1)", CC_SUPPORT_NOT_HERE, why);
    expect_declined("ArgMax(data=3x5:f64,axis=-1)", CC_SUPPORT_NOT_HERE, why);
    expect_declined("ArgMin(data=3x5:f64,axis=-1)", CC_SUPPORT_NOT_HERE, why);
    expect_declined("TopK(X=7:f64,k=[7])", CC_SUPPORT_NOT_HERE, why);
    /* a mode no device runs for f64 is declined for that, not for the device */
    expect_declined("Resize(x=1x1x2x2:f64,mode=linear,scales=[1,1,2,2])", CC_SUPPORT_NO,
                    "opencl: Resize of f64 in nearest mode only, not linear (the shared lowering's weights are float32)");
    /* an op without f64 kernels anywhere is declined for that */
    expect_declined("Conv(x=1x1x3x3:f64,w=1x1x2x2)", CC_SUPPORT_NO, "opencl has no f64 kernel for Conv");
    /* f64 data moved by size (Where's select among them) or made on the host (Range), and
     * the integer kernels, still run */
    test_movers();
    test_resize_wide();
    test_cast_int();
    test_eltwise_int();
    test_reduce(0);
    test_where();
    test_args(0);
    test_topk(0);
    test_range();
    /* the double programs are refused; every other one builds (those above were built) */
    cl_program p;
    CHECK(cc_ocl_program(c, "cast_f64", &p, &err) == CC_ERR_UNSUPPORTED);
    CHECK(strstr(err.msg, "no fp64") != NULL);
    CHECK(cc_ocl_program(c, "reduce_f32", &p, &err) == CC_OK);
    CHECK(cc_ocl_program(c, "einsum_f32", &p, &err) == CC_OK);
    ocl = saved;
    cc_target_opencl.close(ctx);
}

int main(void)
{
    cc_device_desc desc;
    cc_err err = { 0 };
    if (cc_target_opencl.open("", &ocl, &desc, &err) != CC_OK) CC_TEST_SKIP(err.msg);
    ocl_ctx *c = ocl;
    CHECK(cc_target_opencl.dtypes & CC_DTYPE_BIT(CC_F64));
    CHECK(cc_target_opencl.dtypes & CC_DTYPE_BIT(CC_U64));
    CHECK(cc_target_opencl.dtypes & CC_DTYPE_BIT(CC_I16));
    test_cast_int();
    test_eltwise_int();
    test_movers();
    test_resize_wide();
    test_declined();
    if (c->has_fp64) {
        test_cast_f64();
        test_eltwise_f64();
        test_matmul_f64();
    } else {
        printf("%s has no cl_khr_fp64: the f64 kernels are not checked here\n", c->device_name);
    }
    test_reduce(c->has_fp64);
    test_where();
    test_args(c->has_fp64);
    test_topk(c->has_fp64);
    test_range();
    cc_target_opencl.close(ocl);
    ocl = NULL;
    test_program_sources();
    test_without_fp64();
    return CC_TEST_RESULT();
}
