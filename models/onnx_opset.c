/* onnx_opset.c — which version of an op a model's default-domain opset means, and whether
 * the catalog (which implements each op at op->since_version, opset 17 semantics) may run
 * a node of that version.
 *
 * The table lists every version of every catalog op from opset 1 to CC_ONNX_MAX_OPSET
 * (ONNX's operator_sets.h: Debian's libonnx-dev 1.12 for opsets 1..17, ONNX's own history
 * for 18..20). A node's version V is the newest one <= the model's opset. Then:
 *   - V == since_version: the catalog's semantics;
 *   - V >  since_version: a newer definition the catalog does not have: refused;
 *   - V <  since_version: allowed only where the row says the older definition computes
 *     the same thing for every node it can express (the changes were new types, new
 *     attributes or inputs whose absence means the old behaviour, negative axes), perhaps
 *     after a rewrite the importer does (the CC_ONNX_LEGACY_* flags); otherwise refused.
 * An op of the catalog missing from this table is refused: its history must be added
 * before a model using it can be trusted. The versions up to since_version must be the
 * ones ops/ops.def lists for the op (checked on every lookup: CC_ERR_INTERNAL otherwise). */
#include <stdio.h>
#include <string.h>

#include "onnx_internal.h"

#define REFUSED 0x100u

typedef struct op_version {
    const char *op;
    int version;
    unsigned flags;    /* 0: same semantics; CC_ONNX_LEGACY_* rewrites; REFUSED */
    const char *why;   /* what differs, for refused rows and rewrites */
} op_version;

/* clang-format off */
static const op_version table[] = {
    { "Conv",               1,  CC_ONNX_LEGACY_NO_SAME_PAD, "auto_pad SAME_* meant 'output size matches input'" },
    { "Conv",               11, 0, NULL },
    { "ConvInteger",        10, 0, NULL },
    { "QLinearConv",        10, 0, NULL },
    { "MaxPool",            1,  CC_ONNX_LEGACY_NO_SAME_PAD, "auto_pad SAME_* meant 'output size matches input'" },
    { "MaxPool",            8,  CC_ONNX_LEGACY_NO_SAME_PAD, "adds storage_order and the Indices output" },
    { "MaxPool",            10, CC_ONNX_LEGACY_NO_SAME_PAD, "adds ceil_mode and dilations" },
    { "MaxPool",            11, 0, "clarifies auto_pad" },
    { "MaxPool",            12, 0, "adds int8/uint8" },
    { "AveragePool",        1,  REFUSED, "count_include_pad did not exist" },
    { "AveragePool",        7,  CC_ONNX_LEGACY_NO_SAME_PAD, "adds count_include_pad" },
    { "AveragePool",        10, CC_ONNX_LEGACY_NO_SAME_PAD, "adds ceil_mode" },
    { "AveragePool",        11, 0, NULL },
    { "AveragePool",        19, REFUSED, "adds dilations" },
    { "GlobalAveragePool",  1,  0, NULL },
    { "BatchNormalization", 1,  REFUSED, "consumed_inputs, is_test and spatial" },
    { "BatchNormalization", 6,  REFUSED, "is_test and spatial" },
    { "BatchNormalization", 7,  CC_ONNX_LEGACY_ONE_OUTPUT | CC_ONNX_LEGACY_BN_SPATIAL, "spatial; more outputs meant training" },
    { "BatchNormalization", 9,  CC_ONNX_LEGACY_ONE_OUTPUT, "more outputs meant training" },
    { "BatchNormalization", 14, 0, "adds training_mode" },
    { "BatchNormalization", 15, 0, NULL },
    { "Relu",               1,  REFUSED, "consumed_inputs" },
    { "Relu",               6,  0, NULL },
    { "Relu",               13, 0, NULL },
    { "Relu",               14, 0, NULL },
    { "LeakyRelu",          1,  REFUSED, "consumed_inputs" },
    { "LeakyRelu",          6,  0, NULL },
    { "LeakyRelu",          16, 0, NULL },
    { "Sigmoid",            1,  REFUSED, "consumed_inputs" },
    { "Sigmoid",            6,  0, NULL },
    { "Sigmoid",            13, 0, NULL },
    { "Tanh",               1,  REFUSED, "consumed_inputs" },
    { "Tanh",               6,  0, NULL },
    { "Tanh",               13, 0, NULL },
    { "HardSigmoid",        1,  REFUSED, "consumed_inputs" },
    { "HardSigmoid",        6,  0, NULL },
    { "HardSwish",          14, 0, NULL },
    { "Clip",               1,  REFUSED, "consumed_inputs" },
    { "Clip",               6,  CC_ONNX_LEGACY_ATTR_INPUTS, "min and max were attributes" },
    { "Clip",               11, 0, NULL },
    { "Clip",               12, 0, NULL },
    { "Clip",               13, 0, NULL },
    { "Exp",                1,  REFUSED, "consumed_inputs" },
    { "Exp",                6,  0, NULL },
    { "Exp",                13, 0, NULL },
    { "Sqrt",               1,  REFUSED, "consumed_inputs" },
    { "Sqrt",               6,  0, NULL },
    { "Sqrt",               13, 0, NULL },
#define BINARY(OP)                                                                  \
    { OP,                   1,  REFUSED, "legacy broadcast attribute" },             \
    { OP,                   6,  REFUSED, "legacy broadcast attribute" },             \
    { OP,                   7,  0, NULL },                                           \
    { OP,                   13, 0, NULL },                                           \
    { OP,                   14, 0, NULL }
    BINARY("Add"), BINARY("Sub"), BINARY("Mul"), BINARY("Div"),
#undef BINARY
    { "Softmax",            1,  CC_ONNX_LEGACY_SOFTMAX_AXIS, "coerces the input to 2-D at axis" },
    { "Softmax",            11, CC_ONNX_LEGACY_SOFTMAX_AXIS, "coerces the input to 2-D at axis" },
    { "Softmax",            13, 0, NULL },
    { "ReduceMean",         1,  0, NULL },
    { "ReduceMean",         11, 0, "adds negative axes" },
    { "ReduceMean",         13, 0, NULL },
    { "ReduceMean",         18, REFUSED, "axes became an input, adds noop_with_empty_axes" },
    { "ReduceMax",          1,  0, NULL },
    { "ReduceMax",          11, 0, "adds negative axes" },
    { "ReduceMax",          12, 0, "adds int8/uint8" },
    { "ReduceMax",          13, 0, NULL },
    { "ReduceMax",          18, REFUSED, "axes became an input, adds noop_with_empty_axes" },
    { "ReduceMax",          20, REFUSED, "adds boolean inputs" },
    { "Gemm",               1,  REFUSED, "legacy broadcast attribute" },
    { "Gemm",               6,  REFUSED, "legacy broadcast attribute" },
    { "Gemm",               7,  0, NULL },
    { "Gemm",               9,  0, NULL },
    { "Gemm",               11, 0, "C becomes optional" },
    { "Gemm",               13, 0, NULL },
    { "MatMul",             1,  0, NULL },
    { "MatMul",             9,  0, NULL },
    { "MatMul",             13, 0, NULL },
    { "MatMulInteger",      10, 0, NULL },
    { "QLinearMatMul",      10, 0, NULL },
    { "QuantizeLinear",     10, 0, "per-tensor only (axis came in 13)" },
    { "QuantizeLinear",     13, 0, NULL },
    { "QuantizeLinear",     19, REFUSED, "adds saturate, float8 and float16 scales" },
    { "DequantizeLinear",   10, 0, "per-tensor only (axis came in 13)" },
    { "DequantizeLinear",   13, 0, NULL },
    { "DequantizeLinear",   19, REFUSED, "adds float8 and float16 scales" },
    { "Flatten",            1,  0, NULL },
    { "Flatten",            9,  0, NULL },
    { "Flatten",            11, 0, "adds negative axis" },
    { "Flatten",            13, 0, NULL },
    { "Reshape",            1,  REFUSED, "shape was an attribute, consumed_inputs" },
    { "Reshape",            5,  0, NULL },
    { "Reshape",            13, 0, NULL },
    { "Reshape",            14, 0, "adds allowzero" },
    { "Reshape",            19, REFUSED, "adds float8 types" },
    { "Transpose",          1,  0, NULL },
    { "Transpose",          13, 0, NULL },
    { "Concat",             1,  REFUSED, "axis defaulted to 1" },
    { "Concat",             4,  0, NULL },
    { "Concat",             11, 0, "adds negative axis" },
    { "Concat",             13, 0, NULL },
    { "Split",              1,  REFUSED, "split could be a second input or an attribute" },
    { "Split",              2,  CC_ONNX_LEGACY_ATTR_INPUTS, "split was an attribute" },
    { "Split",              11, CC_ONNX_LEGACY_ATTR_INPUTS, "split was an attribute" },
    { "Split",              13, 0, NULL },
    { "Split",              18, REFUSED, "adds num_outputs and uneven splits" },
    { "Slice",              1,  CC_ONNX_LEGACY_ATTR_INPUTS, "starts, ends and axes were attributes" },
    { "Slice",              10, 0, NULL },
    { "Slice",              11, 0, "adds negative axes" },
    { "Slice",              13, 0, NULL },
    { "Resize",             10, REFUSED, "nearest and linear with the asymmetric transform of Upsample" },
    { "Resize",             11, 0, "roi and scales were required inputs (possibly empty)" },
    { "Resize",             13, 0, NULL },
    { "Resize",             18, REFUSED, "adds antialias, axes, keep_aspect_ratio_policy" },
    { "Resize",             19, REFUSED, "adds half_pixel_symmetric" },
};
/* clang-format on */

#define N_ROWS ((int)(sizeof table / sizeof table[0]))

cc_status cc_onnx_op_version(const cc_op_def *op, int opset, int *version, unsigned *legacy, cc_err *err)
{
    const op_version *in_force = NULL, *first = NULL;
    const cc_op_info *info = cc_op_info_of(op->id);
    int known_since = 0, n_history = 0, history_differs = !info;
    for (int i = 0; i < N_ROWS; i++) {
        if (strcmp(table[i].op, op->name) != 0) continue;
        if (!first) first = &table[i];
        if (table[i].version == op->since_version) known_since = 1;
        if (table[i].version <= op->since_version && info) {
            if (n_history == CC_OP_MAX_VERSIONS || info->versions[n_history] != table[i].version) history_differs = 1;
            n_history++;
        }
        if (table[i].version <= opset && (!in_force || table[i].version > in_force->version)) in_force = &table[i];
    }
    if (n_history < CC_OP_MAX_VERSIONS && info && info->versions[n_history] != 0) history_differs = 1;
    if (!first)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "the importer does not know the version history of %s (models/onnx_opset.c)", op->name);
    if (!known_since)
        return cc_err_set(err, CC_ERR_INTERNAL, "the catalog's %s-%d is not a version the importer knows", op->name,
                          op->since_version);
    if (history_differs)
        return cc_err_set(err, CC_ERR_INTERNAL,
                          "the versions of %s up to %d differ in ops/ops.def and models/onnx_opset.c", op->name,
                          op->since_version);
    if (!in_force)
        return cc_err_set(err, CC_ERR_ARG, "%s does not exist in opset %d (it came in opset %d)", op->name, opset,
                          first->version);
    *version = in_force->version;
    if (in_force->version > op->since_version)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opset %d semantics are not in the catalog (it has %s-%d; %s-%d %s)",
                          in_force->version, op->name, op->since_version, op->name, in_force->version,
                          in_force->why ? in_force->why : "differs");
    if (in_force->flags & REFUSED)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opset %d semantics are not in the catalog (it has %s-%d; %s-%d: %s)",
                          in_force->version, op->name, op->since_version, op->name, in_force->version, in_force->why);
    *legacy = in_force->flags;
    return CC_OK;
}
