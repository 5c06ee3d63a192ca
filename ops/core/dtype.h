/* dtype.h — element types, their names and sizes, and exact conversions.
 *
 * f16 and bf16 conversions from f32 round to nearest, ties to even, keep subnormals,
 * map overflow to ±inf and keep NaN a NaN (quiet, sign preserved). */
#ifndef CC_DTYPE_H
#define CC_DTYPE_H

#include <stddef.h>
#include <stdint.h>

typedef enum cc_dtype {
    CC_F32 = 0,
    CC_F16,
    CC_BF16,
    CC_I8,
    CC_U8,
    CC_I32,
    CC_I64,
    CC_BOOL,
    /* target ABI 8: a backend runs these only where its interface's dtypes says so. The golden
     * model computes in double, so for f64 data it is no more exact than a target: its own
     * rounding is of the order of the policy's bound, and an f64 comparison checks two double
     * computations against each other rather than against a reference of higher precision. */
    CC_F64,
    CC_I16,
    CC_U16,
    CC_U32,
    CC_U64,
    CC_DTYPE_COUNT
} cc_dtype;

/* The dtypes of target ABI 7 and before: what a backend that declares none handles. */
#define CC_DTYPES_ABI7 0xffu

#define CC_DTYPE_BIT(d) (1u << (d))
#define CC_DTYPES_FLOAT (CC_DTYPE_BIT(CC_F32) | CC_DTYPE_BIT(CC_F16) | CC_DTYPE_BIT(CC_BF16))

size_t cc_dtype_size(cc_dtype d);
/* "f32", "f16", ... Never NULL ("?" for an invalid value). */
const char *cc_dtype_name(cc_dtype d);
/* Parses a name as printed by cc_dtype_name; returns 0 on success, -1 for an unknown name. */
int cc_dtype_parse(const char *name, cc_dtype *out);
int cc_dtype_is_float(cc_dtype d);
/* Unit roundoff u of a floating type (2^-24, 2^-11, 2^-8); 0 for integer types. */
double cc_dtype_unit_roundoff(cc_dtype d);
/* Smallest positive subnormal of a floating type; 0 for integer types. */
double cc_dtype_min_subnormal(cc_dtype d);
/* Representable range of an integer type (for floats: ±largest finite). */
double cc_dtype_min(cc_dtype d);
double cc_dtype_max(cc_dtype d);

uint16_t cc_f32_to_f16(float f);
float cc_f16_to_f32(uint16_t h);
uint16_t cc_f32_to_bf16(float f);
float cc_bf16_to_f32(uint16_t h);

/* The dtype of ONNX's TensorProto.DataType number onnx (1 FLOAT, 2 UINT8, 3 INT8, 4 UINT16,
 * 5 INT16, 6 INT32, 7 INT64, 9 BOOL, 10 FLOAT16, 11 DOUBLE, 12 UINT32, 13 UINT64, 16 BFLOAT16):
 * 0 and *out set. -1 otherwise, with *onnx_name
 * (when non-NULL) ONNX's name of a type crosscheck lacks ("DOUBLE", ...), or NULL for a
 * number that names no type. */
int cc_dtype_from_onnx(int64_t onnx, cc_dtype *out, const char **onnx_name);

/* Element i of data (of type d) as a double (a 64-bit integer beyond 2^53 rounds to the
 * nearest double). */
double cc_load(const void *data, cc_dtype d, size_t i);
/* Element i of data as an int64: exact for the integer dtypes (u64 past INT64_MAX gives
 * INT64_MAX), floats toward zero and saturated (NaN: 0). What `cc_load_i64(...)` would
 * give where that is defined; an exporter's INT64_MAX sentinel (Slice ends, Non-
 * MaxSuppression's max_output_boxes_per_class) stays INT64_MAX instead of overflowing. */
int64_t cc_load_i64(const void *data, cc_dtype d, size_t i);
/* Stores v as element i of data: floats round to nearest even (f16/bf16 through an exact
 * double->f32->f16 path only where that is exact, see dtype.c); integers round half to even
 * and saturate; bool is v != 0. */
void cc_store(void *data, cc_dtype d, size_t i, double v);

/* Rounds a double to the nearest value of a floating dtype (ties to even), returned as double. */
double cc_round_to(cc_dtype d, double v);

/* Distance in units in the last place of dtype d between a and b (floats); |a-b| for ints. */
double cc_ulp_distance(cc_dtype d, double a, double b);

#endif
