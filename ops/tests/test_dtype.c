/* test_dtype.c — f16 and bf16 conversions over all 65,536 bit patterns, checked against
 * an independent formula for the value of each pattern and against the midpoints between
 * neighbouring values (round to nearest, ties to even), plus integer stores. */
#include <math.h>
#include <string.h>

#include "harness/cctest.h"
#include "ops/core/dtype.h"

/* The value of an f16 pattern from the IEEE 754 definition. */
static double f16_value(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 31) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp(m, -24);
    else v = ldexp(1024 + m, e - 25);
    return s ? -v : v;
}

static double bf16_value(uint16_t h)
{
    int s = h >> 15, e = (h >> 7) & 255, m = h & 127;
    double v;
    if (e == 255) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp(m, -133);
    else v = ldexp(128 + m, e - 134);
    return s ? -v : v;
}

static void check_type(const char *name, float (*to_f32)(uint16_t), uint16_t (*from_f32)(float),
                       double (*value)(uint16_t), cc_dtype dt)
{
    int bad_value = 0, bad_trip = 0, bad_mid = 0, bad_round_to = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        double want = value((uint16_t)h);
        float f = to_f32((uint16_t)h);
        if (isnan(want)) {
            if (!isnan(f)) bad_value++;
            if (!isnan(to_f32(from_f32(f)))) bad_trip++;
            continue;
        }
        if ((double)f != want || !signbit(f) != !signbit(want)) bad_value++;
        if (from_f32(f) != h) bad_trip++;
        if (cc_round_to(dt, want) != want) bad_round_to++;
        /* midpoint to the next larger-magnitude finite value */
        uint16_t next = (uint16_t)(h + 1);
        double nv = value(next);
        if ((h & 0x7fff) == ((dt == CC_F16) ? 0x7bff : 0x7f7f)) {
            /* largest finite: the next "value" is the overflow threshold; mid rounds to inf */
            nv = (dt == CC_F16) ? (h & 0x8000 ? -65536.0 : 65536.0) : (h & 0x8000 ? -ldexp(1, 128) : ldexp(1, 128));
            next = (uint16_t)((h & 0x8000) | (dt == CC_F16 ? 0x7c00 : 0x7f80));
        }
        if (isnan(nv) || isinf(want)) continue;
        double mid = (want + nv) / 2; /* exact in double */
        float midf = (float)mid;
        if ((double)midf != mid) continue; /* bf16 mids near f32 limits are always exact; f16 too */
        uint16_t even = (h & 1) ? next : (uint16_t)h;
        if (from_f32(midf) != even) bad_mid++;
        if (cc_round_to(dt, mid) != value(even)) bad_round_to++;
        float below = nextafterf(midf, (float)want), above = nextafterf(midf, (float)nv);
        if (from_f32(below) != h) bad_mid++;
        if (from_f32(above) != next) bad_mid++;
    }
    if (bad_value || bad_trip || bad_mid || bad_round_to)
        fprintf(stderr, "%s: %d bad values, %d bad round trips, %d bad midpoints, %d bad cc_round_to\n", name,
                bad_value, bad_trip, bad_mid, bad_round_to);
    CHECK(bad_value == 0);
    CHECK(bad_trip == 0);
    CHECK(bad_mid == 0);
    CHECK(bad_round_to == 0);
}

/* cc_load_i64: exact 64-bit integers, the sentinels exporters write kept, floats toward
 * zero and saturated (the double route turned INT64_MAX into INT64_MIN). */
static void load_i64(void)
{
    const int64_t i64[3] = { INT64_MAX, INT64_MIN, 9007199254740993 }; /* 2^53 + 1 */
    CHECK(cc_load_i64(i64, CC_I64, 0) == INT64_MAX);
    CHECK(cc_load_i64(i64, CC_I64, 1) == INT64_MIN);
    CHECK(cc_load_i64(i64, CC_I64, 2) == 9007199254740993);
    const uint64_t u64[2] = { UINT64_MAX, 5 };
    CHECK(cc_load_i64(u64, CC_U64, 0) == INT64_MAX);
    CHECK(cc_load_i64(u64, CC_U64, 1) == 5);
    const float f[5] = { 1e30f, -1e30f, -3.7f, 2.9f, NAN };
    CHECK(cc_load_i64(f, CC_F32, 0) == INT64_MAX);
    CHECK(cc_load_i64(f, CC_F32, 1) == INT64_MIN);
    CHECK(cc_load_i64(f, CC_F32, 2) == -3);
    CHECK(cc_load_i64(f, CC_F32, 3) == 2);
    CHECK(cc_load_i64(f, CC_F32, 4) == 0);
    const int32_t i32[1] = { -7 };
    CHECK(cc_load_i64(i32, CC_I32, 0) == -7);
}

int main(void)
{
    cc_dtype d0;
    load_i64();
    check_type("f16", cc_f16_to_f32, cc_f32_to_f16, f16_value, CC_F16);
    check_type("bf16", cc_bf16_to_f32, cc_f32_to_bf16, bf16_value, CC_BF16);

    /* hand-picked f16 cases */
    CHECK(cc_f32_to_f16(1.0f) == 0x3c00);
    CHECK(cc_f32_to_f16(-2.0f) == 0xc000);
    CHECK(cc_f32_to_f16(65504.0f) == 0x7bff);
    CHECK(cc_f32_to_f16(65520.0f) == 0x7c00);      /* tie between 65504 and 2^16 -> even (inf) */
    CHECK(cc_f32_to_f16(65519.0f) == 0x7bff);
    CHECK(cc_f32_to_f16(5.9604645e-08f) == 0x0001); /* smallest subnormal */
    CHECK(cc_f32_to_f16(2.9802322e-08f) == 0x0000); /* exactly half of it: tie to even (0) */
    CHECK(cc_f32_to_f16(2.9802326e-08f) == 0x0001); /* just above half */
    CHECK(cc_f32_to_f16(6.1035156e-05f) == 0x0400); /* smallest normal */
    CHECK(cc_f32_to_f16(-0.0f) == 0x8000);
    CHECK(cc_f32_to_f16(INFINITY) == 0x7c00);
    CHECK((cc_f32_to_f16(NAN) & 0x7c00) == 0x7c00 && (cc_f32_to_f16(NAN) & 0x3ff) != 0);
    CHECK(cc_f32_to_f16(1.0f + 1.0f / 2048) == 0x3c00); /* tie -> even */
    CHECK(cc_f32_to_f16(1.0f + 3.0f / 2048) == 0x3c02); /* tie -> even (up) */
    /* bf16 */
    CHECK(cc_f32_to_bf16(1.0f) == 0x3f80);
    CHECK(cc_f32_to_bf16(1.0f + 1.0f / 256) == 0x3f80);
    CHECK(cc_f32_to_bf16(1.0f + 3.0f / 256) == 0x3f82);
    CHECK(cc_f32_to_bf16(3.3961775e38f) == 0x7f80); /* above the largest bf16 -> inf */
    uint16_t qn = cc_f32_to_bf16(NAN);
    CHECK((qn & 0x7f80) == 0x7f80 && (qn & 0x7f) != 0);

    /* integer stores round half to even and saturate */
    int8_t i8[4];
    cc_store(i8, CC_I8, 0, 2.5);
    cc_store(i8, CC_I8, 1, -3.5);
    cc_store(i8, CC_I8, 2, 300);
    cc_store(i8, CC_I8, 3, -129.4);
    CHECK(i8[0] == 2 && i8[1] == -4 && i8[2] == 127 && i8[3] == -128);
    uint8_t u8[2];
    cc_store(u8, CC_U8, 0, -1);
    cc_store(u8, CC_U8, 1, 255.5);
    CHECK(u8[0] == 0 && u8[1] == 255);
    CHECK(cc_load(u8, CC_U8, 1) == 255);

    /* the dtypes of target ABI 8: sizes, names, ONNX numbers, loads, saturating stores */
    static const struct {
        cc_dtype d;
        const char *name;
        size_t size;
        int onnx;
        double lo, hi;
    } wide[] = {
        { CC_F64, "f64", 8, 11, -1.7976931348623157e308, 1.7976931348623157e308 },
        { CC_I16, "i16", 2, 5, -32768, 32767 },
        { CC_U16, "u16", 2, 4, 0, 65535 },
        { CC_U32, "u32", 4, 12, 0, 4294967295.0 },
        { CC_U64, "u64", 8, 13, 0, 18446744073709551615.0 },
    };
    for (size_t k = 0; k < sizeof wide / sizeof wide[0]; k++) {
        CHECK(cc_dtype_size(wide[k].d) == wide[k].size);
        CHECK(strcmp(cc_dtype_name(wide[k].d), wide[k].name) == 0);
        CHECK(cc_dtype_parse(wide[k].name, &d0) == 0 && d0 == wide[k].d);
        CHECK(cc_dtype_from_onnx(wide[k].onnx, &d0, NULL) == 0 && d0 == wide[k].d);
        CHECK(cc_dtype_min(wide[k].d) == wide[k].lo && cc_dtype_max(wide[k].d) == wide[k].hi);
        CHECK(!(CC_DTYPES_ABI7 & CC_DTYPE_BIT(wide[k].d)));
    }
    CHECK(cc_dtype_is_float(CC_F64) && !cc_dtype_is_float(CC_U16));
    CHECK(cc_dtype_unit_roundoff(CC_F64) == ldexp(1, -53) && cc_dtype_min_subnormal(CC_F64) == ldexp(1, -1074));
    double f64[1];
    cc_store(f64, CC_F64, 0, 0.1); /* no rounding to float32 */
    CHECK(f64[0] == 0.1 && cc_load(f64, CC_F64, 0) == 0.1 && cc_round_to(CC_F64, 0.1) == 0.1);
    CHECK_NEAR(cc_ulp_distance(CC_F64, 1.0, 1.0 + ldexp(1, -51)), 2.0, 0);
    int16_t i16[3];
    cc_store(i16, CC_I16, 0, -32768.6);
    cc_store(i16, CC_I16, 1, 40000);
    cc_store(i16, CC_I16, 2, -2.5);
    CHECK(i16[0] == -32768 && i16[1] == 32767 && i16[2] == -2 && cc_load(i16, CC_I16, 0) == -32768);
    uint16_t u16[2];
    cc_store(u16, CC_U16, 0, -3);
    cc_store(u16, CC_U16, 1, 65535.4);
    CHECK(u16[0] == 0 && u16[1] == 65535 && cc_load(u16, CC_U16, 1) == 65535);
    uint32_t u32[2];
    cc_store(u32, CC_U32, 0, 4294967295.0);
    cc_store(u32, CC_U32, 1, 5e9);
    CHECK(u32[0] == 4294967295u && u32[1] == 4294967295u && cc_load(u32, CC_U32, 0) == 4294967295.0);
    uint64_t u64[2];
    cc_store(u64, CC_U64, 0, 9007199254740993.0); /* rounds to 2^53 as a double first */
    cc_store(u64, CC_U64, 1, 1e30);
    CHECK(u64[0] == 9007199254740992ull && u64[1] == 18446744073709549568ull);
    CHECK(cc_load(u64, CC_U64, 1) == 18446744073709549568.0);
    const char *onnx_name = NULL;
    CHECK(cc_dtype_from_onnx(8, &d0, &onnx_name) == -1 && strcmp(onnx_name, "STRING") == 0);

    /* ulp distance */
    CHECK_NEAR(cc_ulp_distance(CC_F32, 1.0, 1.0 + ldexp(1, -23)), 1.0, 0);
    CHECK_NEAR(cc_ulp_distance(CC_F16, 1.0, 1.0 + ldexp(1, -9)), 2.0, 0);
    CHECK(cc_dtype_unit_roundoff(CC_BF16) == ldexp(1, -8));
    cc_dtype d;
    CHECK(cc_dtype_parse("bf16", &d) == 0 && d == CC_BF16);
    CHECK(cc_dtype_parse("float", &d) == -1);
    return CC_TEST_RESULT();
}
