/* onnx_opset.c — which version of an op a model's default-domain opset means, and whether
 * the catalog (which implements each op at op->since_version, opset 17 semantics) may run
 * a node of that version.
 *
 * Every op's versions from opset 1 to CC_ONNX_MAX_OPSET are ops/ops.def's versions column
 * (ONNX's operator_sets.h: Debian's libonnx-dev 1.12 for opsets 1..17, ONNX's own history
 * for 18..20). A node's version V is the newest one <= the model's opset. Then:
 *   - V == since_version: the catalog's semantics;
 *   - V >  since_version: a newer definition the catalog does not have: refused, except
 *     where the row rewrites it into the catalog's (CC_ONNX_NEWER_AXES_INPUT: Reduce*-18's
 *     constant axes input becomes the opset-13 attribute) or says it only adds what the
 *     catalog's shape inference refuses anyway (CC_ONNX_NEWER_ADDS);
 *   - V <  since_version: allowed only where the row says the older definition computes
 *     the same thing for every node it can express (the changes were new types, new
 *     attributes or inputs whose absence means the old behaviour, negative axes), perhaps
 *     after a rewrite the importer does (the CC_ONNX_LEGACY_* flags); otherwise refused.
 * The table below holds only the versions that are not simply "the same semantics": the
 * refused ones and the rewrites with their reasons, notes on what a version added, and
 * why a newer version differs. A version without a row computes what the catalog's does.
 * cc_onnx_opset_check says whether every row names a version ops.def lists. */
#include <stdio.h>
#include <string.h>

#include "onnx_internal.h"

#define REFUSED 0x100u

typedef struct op_version {
    const char *op;
    int version;
    unsigned flags;    /* 0: same semantics; CC_ONNX_LEGACY_* rewrites; REFUSED */
    const char *why;   /* what differs, for refused rows and rewrites */
    const char *attr, *value; /* CC_ONNX_LEGACY_SET_ATTR: the attribute set, its value */
} op_version;

/* clang-format off */
static const op_version table[] = {
    { "Conv",               1,  CC_ONNX_LEGACY_NO_SAME_PAD, "auto_pad SAME_* meant 'output size matches input'" },
    { "ConvTranspose",      1,  CC_ONNX_LEGACY_NO_SAME_PAD, "auto_pad SAME_* with strides was specified only from opset 11" },
    { "MaxPool",            1,  CC_ONNX_LEGACY_NO_SAME_PAD | CC_ONNX_LEGACY_ONE_OUTPUT,
      "auto_pad SAME_* meant 'output size matches input'; no Indices output" },
    { "MaxPool",            8,  CC_ONNX_LEGACY_NO_SAME_PAD, "adds storage_order and the Indices output" },
    { "MaxPool",            10, CC_ONNX_LEGACY_NO_SAME_PAD, "adds ceil_mode and dilations" },
    { "MaxPool",            11, 0, "clarifies auto_pad" },
    { "MaxPool",            12, 0, "adds int8/uint8" },
    { "AveragePool",        1,  REFUSED, "count_include_pad did not exist" },
    { "AveragePool",        7,  CC_ONNX_LEGACY_NO_SAME_PAD, "adds count_include_pad" },
    { "AveragePool",        10, CC_ONNX_LEGACY_NO_SAME_PAD, "adds ceil_mode" },
    { "AveragePool",        19, REFUSED, "adds dilations" },
    { "BatchNormalization", 1,  REFUSED, "consumed_inputs, is_test and spatial" },
    { "BatchNormalization", 6,  REFUSED, "is_test and spatial" },
    { "BatchNormalization", 7,  CC_ONNX_LEGACY_ONE_OUTPUT | CC_ONNX_LEGACY_BN_SPATIAL, "spatial; more outputs meant training" },
    { "BatchNormalization", 9,  CC_ONNX_LEGACY_ONE_OUTPUT, "more outputs meant training" },
    { "BatchNormalization", 14, 0, "adds training_mode" },
    { "Relu",               1,  REFUSED, "consumed_inputs" },
    { "LeakyRelu",          1,  REFUSED, "consumed_inputs" },
    { "Sigmoid",            1,  REFUSED, "consumed_inputs" },
    { "Tanh",               1,  REFUSED, "consumed_inputs" },
    { "HardSigmoid",        1,  REFUSED, "consumed_inputs" },
    { "Clip",               1,  REFUSED, "consumed_inputs" },
    { "Clip",               6,  CC_ONNX_LEGACY_ATTR_INPUTS, "min and max were attributes" },
    { "Exp",                1,  REFUSED, "consumed_inputs" },
    { "Sqrt",               1,  REFUSED, "consumed_inputs" },
#define BINARY(OP)                                                                  \
    { OP,                   1,  REFUSED, "legacy broadcast attribute" },             \
    { OP,                   6,  REFUSED, "legacy broadcast attribute" }
    BINARY("Add"), BINARY("Sub"), BINARY("Mul"), BINARY("Div"),
#undef BINARY
    { "Softmax",            1,  CC_ONNX_LEGACY_SOFTMAX_AXIS, "coerces the input to 2-D at axis" },
    { "Softmax",            11, CC_ONNX_LEGACY_SOFTMAX_AXIS, "coerces the input to 2-D at axis" },
    { "ReduceMean",         11, 0, "adds negative axes" },
    { "ReduceMean",         18, CC_ONNX_NEWER_AXES_INPUT, "axes became an input, adds noop_with_empty_axes" },
    { "ReduceMax",          11, 0, "adds negative axes" },
    { "ReduceMax",          12, 0, "adds int8/uint8" },
    { "ReduceMax",          18, CC_ONNX_NEWER_AXES_INPUT, "axes became an input, adds noop_with_empty_axes" },
    { "ReduceMax",          20, CC_ONNX_NEWER_AXES_INPUT, "adds boolean inputs (axes an input since 18)" },
    { "ReduceMin",          11, 0, "adds negative axes" },
    { "ReduceMin",          12, 0, "adds int8/uint8" },
    { "ReduceMin",          18, CC_ONNX_NEWER_AXES_INPUT, "axes became an input, adds noop_with_empty_axes" },
    { "ReduceMin",          20, CC_ONNX_NEWER_AXES_INPUT, "adds boolean inputs (axes an input since 18)" },
    { "ReduceSum",          1,  CC_ONNX_LEGACY_ATTR_INPUTS, "axes was an attribute, non-negative" },
    { "ReduceSum",          11, CC_ONNX_LEGACY_ATTR_INPUTS, "axes was an attribute" },
#define REDUCE(OP)                                                                  \
    { OP,                   11, 0, "adds negative axes" },                           \
    { OP,                   18, CC_ONNX_NEWER_AXES_INPUT, "axes became an input, adds noop_with_empty_axes" }
    REDUCE("ReduceProd"), REDUCE("ReduceL1"), REDUCE("ReduceL2"), REDUCE("ReduceLogSum"),
    REDUCE("ReduceLogSumExp"), REDUCE("ReduceSumSquare"),
#undef REDUCE
    { "LogSoftmax",         1,  CC_ONNX_LEGACY_SOFTMAX_AXIS, "coerces the input to 2-D at axis" },
    { "LogSoftmax",         11, CC_ONNX_LEGACY_SOFTMAX_AXIS, "coerces the input to 2-D at axis" },
    { "Hardmax",            1,  CC_ONNX_LEGACY_SOFTMAX_AXIS, "coerces the input to 2-D at axis" },
    { "Hardmax",            11, CC_ONNX_LEGACY_SOFTMAX_AXIS, "coerces the input to 2-D at axis" },
    { "Gemm",               1,  REFUSED, "legacy broadcast attribute" },
    { "Gemm",               6,  REFUSED, "legacy broadcast attribute" },
    { "Gemm",               11, 0, "C becomes optional" },
    { "QuantizeLinear",     10, 0, "per-tensor only (axis came in 13)" },
    { "QuantizeLinear",     19, REFUSED, "adds saturate, float8 and float16 scales" },
    { "DequantizeLinear",   10, 0, "per-tensor only (axis came in 13)" },
    { "DequantizeLinear",   19, REFUSED, "adds float8 and float16 scales" },
    { "Flatten",            11, 0, "adds negative axis" },
    { "Reshape",            1,  REFUSED, "shape was an attribute, consumed_inputs" },
    { "Reshape",            14, 0, "adds allowzero" },
    { "Reshape",            19, REFUSED, "adds float8 types" },
    { "Concat",             1,  REFUSED, "axis defaulted to 1" },
    { "Concat",             11, 0, "adds negative axis" },
    { "Split",              1,  REFUSED, "split could be a second input or an attribute" },
    { "Split",              2,  CC_ONNX_LEGACY_ATTR_INPUTS, "split was an attribute" },
    { "Split",              11, CC_ONNX_LEGACY_ATTR_INPUTS, "split was an attribute" },
    { "Split",              18, REFUSED, "adds num_outputs and uneven splits" },
    { "Slice",              1,  CC_ONNX_LEGACY_ATTR_INPUTS, "starts, ends and axes were attributes" },
    { "Slice",              11, 0, "adds negative axes" },
    { "Resize",             10, REFUSED, "nearest and linear with the asymmetric transform of Upsample" },
    { "Resize",             11, 0, "roi and scales were required inputs (possibly empty)" },
    { "Resize",             18, REFUSED, "adds antialias, axes, keep_aspect_ratio_policy" },
    { "Resize",             19, REFUSED, "adds half_pixel_symmetric" },
    { "GridSample",         20, REFUSED, "adds N-D inputs and renames the modes bilinear and bicubic to linear and cubic" },
    { "Min",                1,  REFUSED, "consumed_inputs" },
    { "Min",                6,  0, "inputs of one shape" },
    { "Min",                8,  0, "adds multidirectional broadcasting" },
    { "Min",                12, 0, "adds integer types" },
    { "Max",                1,  REFUSED, "consumed_inputs" },
    { "Max",                6,  0, "inputs of one shape" },
    { "Max",                8,  0, "adds multidirectional broadcasting" },
    { "Max",                12, 0, "adds integer types" },
    { "Sum",                1,  REFUSED, "consumed_inputs" },
    { "Sum",                6,  0, "inputs of one shape" },
    { "Sum",                8,  0, "adds multidirectional broadcasting" },
    { "Mean",               1,  REFUSED, "consumed_inputs" },
    { "Mean",               6,  0, "inputs of one shape" },
    { "Mean",               8,  0, "adds multidirectional broadcasting" },
    { "Pow",                1,  REFUSED, "legacy broadcast attribute" },
    { "Pow",                7,  0, "base and exponent of one type" },
    { "Pow",                12, 0, "adds exponent types" },
    { "PRelu",              1,  REFUSED, "consumed_inputs" },
    { "PRelu",              6,  REFUSED, "slope was of x's shape or size 1, with no broadcasting rule" },
    { "PRelu",              7,  0, "adds unidirectional broadcasting" },
    { "PRelu",              9,  0, "adds integer types" },
    { "Equal",              1,  REFUSED, "legacy broadcast attribute" },
    { "Equal",              7,  0, "bool and integer types only" },
    { "Equal",              11, 0, "adds float types" },
    { "Greater",            1,  REFUSED, "legacy broadcast attribute" },
    { "Greater",            7,  0, "float types only" },
    { "Greater",            9,  0, "adds integer types" },
    { "Less",               1,  REFUSED, "legacy broadcast attribute" },
    { "Less",               7,  0, "float types only" },
    { "Less",               9,  0, "adds integer types" },
    { "GreaterOrEqual",     12, 0, "without bfloat16" },
    { "LessOrEqual",        12, 0, "without bfloat16" },
    { "Where",              9,  0, "without bfloat16" },
    { "And",                1,  REFUSED, "legacy broadcast attribute" },
    { "Or",                 1,  REFUSED, "legacy broadcast attribute" },
    { "Xor",                1,  REFUSED, "legacy broadcast attribute" },
    { "IsNaN",              9,  0, "without bfloat16" },
    { "Identity",           1,  0, "without bfloat16" },
    { "Identity",           14, 0, "adds sequence types" },
    { "Dropout",            1,  REFUSED, "is_test=0 by default: training, random" },
    { "Dropout",            6,  REFUSED, "is_test=0 by default: training, random" },
    { "Dropout",            7,  CC_ONNX_LEGACY_ATTR_INPUTS, "ratio was an attribute (inference: the identity)" },
    { "Dropout",            10, CC_ONNX_LEGACY_ATTR_INPUTS, "ratio was an attribute (inference: the identity)" },
    { "Dropout",            12, 0, "without bfloat16" },
    { "Shape",              1,  0, "without start and end" },
    { "Shape",              13, 0, "without start and end" },
    { "Shape",              19, REFUSED, "adds float8 types" },
    { "Size",               19, REFUSED, "adds float8 types" },
    { "Unsqueeze",          1,  CC_ONNX_LEGACY_ATTR_INPUTS, "axes was an attribute, non-negative" },
    { "Unsqueeze",          11, CC_ONNX_LEGACY_ATTR_INPUTS, "axes was an attribute" },
    { "Squeeze",            1,  CC_ONNX_LEGACY_ATTR_INPUTS, "axes was an attribute, non-negative" },
    { "Squeeze",            11, CC_ONNX_LEGACY_ATTR_INPUTS, "axes was an attribute" },
    { "Expand",             8,  0, "without bfloat16" },
    { "Tile",               1,  REFUSED, "tiles and axis inputs instead of repeats" },
    { "Tile",               6,  0, "without bfloat16" },
    { "Gather",             1,  0, "non-negative indices" },
    { "Gather",             11, 0, "without bfloat16" },
    { "GatherElements",     11, 0, "without bfloat16" },
    { "GatherND",           11, 0, "without batch_dims" },
    { "GatherND",           12, 0, "without bfloat16" },
    { "Cast",               1,  REFUSED, "to was a string" },
    { "Cast",               6,  0, "without string and bfloat16" },
    { "Cast",               9,  0, "without bfloat16" },
    { "Cast",               19, REFUSED, "adds float8 types and saturate" },
    { "CastLike",           19, REFUSED, "adds float8 types and saturate" },
    { "DepthToSpace",       1,  0, "DCR only (no mode)" },
    { "DepthToSpace",       11, 0, "without bfloat16" },
    { "SpaceToDepth",       1,  0, "without bfloat16" },
    { "ArgMax",             1,  0, "non-negative axis, without select_last_index" },
    { "ArgMax",             11, 0, "without select_last_index" },
    { "ArgMax",             12, 0, "without bfloat16" },
    { "ArgMin",             1,  0, "non-negative axis, without select_last_index" },
    { "ArgMin",             11, 0, "without select_last_index" },
    { "ArgMin",             12, 0, "without bfloat16" },
    { "CumSum",             11, 0, "without bfloat16 and float16" },
    { "ScatterND",          11, 0, "without reduction" },
    { "ScatterND",          13, 0, "without reduction, adds bfloat16" },
    { "ScatterND",          18, CC_ONNX_NEWER_ADDS, "adds reduction max and min" },
    { "ScatterElements",    11, 0, "without reduction" },
    { "ScatterElements",    13, 0, "without reduction, adds bfloat16" },
    { "ScatterElements",    18, CC_ONNX_NEWER_ADDS, "adds reduction max and min" },
    { "InstanceNormalization", 1, REFUSED, "consumed_inputs" },
    { "TopK",               1,  CC_ONNX_LEGACY_ATTR_INPUTS, "k was an attribute; without largest and sorted" },
    { "TopK",               10, 0, "without largest and sorted, non-negative axis" },
    { "ConstantOfShape",    20, CC_ONNX_NEWER_ADDS, "adds float8, int4 and other value types" },
    { "Pad",                1,  REFUSED, "paddings attribute" },
    { "Pad",                2,  CC_ONNX_LEGACY_ATTR_INPUTS, "pads and value were attributes" },
    { "Pad",                11, 0, "without bfloat16" },
    { "Pad",                18, REFUSED, "adds axes" },
    { "Pad",                19, REFUSED, "adds wrap mode" },
    { "RNN",                1,  REFUSED, "output_sequence chose whether Y was written" },
    { "RNN",                7,  0, "layout did not exist (time-major)" },
    { "GRU",                1,  REFUSED, "output_sequence chose whether Y was written" },
    { "GRU",                3,  REFUSED, "output_sequence chose whether Y was written" },
    { "GRU",                7,  0, "layout did not exist (time-major)" },
    { "LSTM",               1,  REFUSED, "output_sequence chose whether Y was written" },
    { "LSTM",               7,  0, "layout did not exist (time-major)" },
    { "NonZero",            9,  0, "13 adds bfloat16" },
    { "NonMaxSuppression",  10, 0, "11 clarifies that boxes may be flipped corners" },
    { "Compress",           9,  0, "11 adds negative axes" },
    { "OneHot",             9,  0, "11 adds negative indices and axis" },
    { "MaxUnpool",          9,  0, "11 says strides default to 1" },
    { "MeanVarianceNormalization", 9, 0, "without bfloat16" },
    { "RoiAlign",           10, CC_ONNX_LEGACY_SET_ATTR, "no coordinate_transformation_mode: no half-pixel shift, "
      "rois of at least 1 x 1 (16's output_half_pixel)", "coordinate_transformation_mode", "output_half_pixel" },
    { "If",                 1,  0, "the branches' outputs of one shape (the catalog needs that at every version)" },
    { "If",                 11, 0, "lets the branches' output shapes differ" },
    { "If",                 13, 0, "adds sequence types" },
    { "Loop",               1,  0, "the same iteration rule: M and cond both bound it" },
    { "Loop",               11, 0, "clarifies the body's scan outputs" },
    { "Loop",               13, 0, "adds sequence types" },
    { "Scan",               8,  CC_ONNX_LEGACY_SCAN_BATCH, "a batch axis on every input and output and a "
      "sequence_lens input: run for a batch of 1 without sequence_lens" },
    { "Scan",               9,  0, "scan axes and directions without negative axes" },
    { "Scan",               11, 0, "adds negative axes" },
};
/* clang-format on */

#define N_ROWS ((int)(sizeof table / sizeof table[0]))

/* The row of op's version v; NULL when the version has none (same semantics). */
static const op_version *row_of(const char *op, int v)
{
    for (int i = 0; i < N_ROWS; i++)
        if (table[i].version == v && strcmp(table[i].op, op) == 0) return &table[i];
    return NULL;
}

static cc_status alias_check(cc_err *err);

cc_status cc_onnx_opset_check(cc_err *err)
{
    for (int i = 0; i < N_ROWS; i++) {
        const cc_op_def *op = cc_catalog_find(table[i].op);
        const cc_op_info *info = op ? cc_op_info_of(op->id) : NULL;
        int known = 0;
        for (int k = 0; info && k < CC_OP_MAX_VERSIONS && info->versions[k]; k++) known |= info->versions[k] == table[i].version;
        if (!known)
            return cc_err_set(err, CC_ERR_INTERNAL, "models/onnx_opset.c names %s-%d, not a version ops/ops.def lists",
                              table[i].op, table[i].version);
        if (table[i].version < op->since_version && (table[i].flags & (CC_ONNX_NEWER_AXES_INPUT | CC_ONNX_NEWER_ADDS)))
            return cc_err_set(err, CC_ERR_INTERNAL, "models/onnx_opset.c: %s-%d is older than the catalog's version",
                              table[i].op, table[i].version);
        if (table[i].version == op->since_version && table[i].flags)
            return cc_err_set(err, CC_ERR_INTERNAL, "models/onnx_opset.c rewrites or refuses %s-%d, the catalog's own version",
                              table[i].op, table[i].version);
        if (table[i].flags & CC_ONNX_LEGACY_SET_ATTR) {
            int ai = table[i].attr ? cc_attr_index(op, table[i].attr) : -1;
            cc_attr_value v;
            if (ai < 0 || !table[i].value || cc_attr_parse(op->attrs[ai].kind, table[i].value, &v, NULL))
                return cc_err_set(err, CC_ERR_INTERNAL, "models/onnx_opset.c: %s-%d sets an attribute %s does not have",
                                  table[i].op, table[i].version, table[i].op);
        }
    }
    return alias_check(err);
}

cc_status cc_onnx_op_version(const cc_op_def *op, int opset, int *version, unsigned *legacy, cc_err *err)
{
    const cc_op_info *info = cc_op_info_of(op->id);
    if (!info) return cc_err_set(err, CC_ERR_INTERNAL, "%s has no entry in ops/ops.def", op->name);
    int in_force = 0, known_since = 0;
    for (int k = 0; k < CC_OP_MAX_VERSIONS && info->versions[k]; k++) {
        if (info->versions[k] <= opset) in_force = info->versions[k];
        known_since |= info->versions[k] == op->since_version;
    }
    if (!known_since)
        return cc_err_set(err, CC_ERR_INTERNAL, "the catalog's %s-%d is not a version ops/ops.def lists", op->name,
                          op->since_version);
    if (!in_force)
        return cc_err_set(err, CC_ERR_ARG, "%s does not exist in opset %d (it came in opset %d)", op->name, opset,
                          info->versions[0]);
    const op_version *row = row_of(op->name, in_force);
    *version = in_force;
    if (in_force > op->since_version && row && (row->flags & (CC_ONNX_NEWER_AXES_INPUT | CC_ONNX_NEWER_ADDS))) {
        *legacy = row->flags;
        return CC_OK;
    }
    if (in_force > op->since_version)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opset %d semantics are not in the catalog (it has %s-%d; %s-%d %s)",
                          in_force, op->name, op->since_version, op->name, in_force,
                          row && row->why ? row->why : "differs");
    if (row && (row->flags & REFUSED))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opset %d semantics are not in the catalog (it has %s-%d; %s-%d: %s)",
                          in_force, op->name, op->since_version, op->name, in_force, row->why);
    *legacy = row ? row->flags : 0;
    return CC_OK;
}

int cc_onnx_legacy_attr(const cc_op_def *op, int version, const char **attr, const char **value)
{
    const op_version *row = row_of(op->name, version);
    if (!row || !(row->flags & CC_ONNX_LEGACY_SET_ATTR)) return 0;
    *attr = row->attr;
    *value = row->value;
    return 1;
}

/* Deprecated ops and their successors in the catalog. */
static const cc_onnx_alias aliases[] = {
    { "Scatter", 9, 10, "ScatterElements", 3, { 0, 1, 2 }, { NULL, NULL }, { NULL, NULL },
      "Scatter-9 is ScatterElements-11 without negative indices" },
    { "Upsample", 9, 9, "Resize", 2, { 0, 2 }, { "coordinate_transformation_mode", "nearest_mode" },
      { "asymmetric", "floor" },
      "Upsample-9 is Resize with the scales input, x_original = x_resized / scale and the nearest input "
      "pixel below it (floor)" },
};

const cc_onnx_alias *cc_onnx_alias_of(const char *onnx, int opset)
{
    for (size_t i = 0; onnx && i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(aliases[i].onnx, onnx) == 0 && (opset == 0 || (opset >= aliases[i].first && opset <= aliases[i].last)))
            return &aliases[i];
    return NULL;
}

int cc_onnx_op_known(const char *op_type)
{
    return op_type && (strcmp(op_type, "Constant") == 0 || cc_catalog_find(op_type) || cc_onnx_alias_of(op_type, 0));
}

/* Each alias names a catalog op that is not itself an ONNX op type, inputs within it and
 * attributes it has, with values they take. */
static cc_status alias_check(cc_err *err)
{
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        const cc_onnx_alias *a = &aliases[i];
        const cc_op_def *op = cc_catalog_find(a->op);
        if (!op || cc_catalog_find(a->onnx))
            return cc_err_set(err, CC_ERR_INTERNAL, "models/onnx_opset.c: the alias %s -> %s", a->onnx, a->op);
        for (int k = 0; k < a->n_in; k++)
            if (a->in_map[k] < 0 || a->in_map[k] >= op->n_inputs)
                return cc_err_set(err, CC_ERR_INTERNAL, "models/onnx_opset.c: %s's input %d is not one of %s's", a->onnx,
                                  k, a->op);
        for (int k = 0; k < 2 && a->attr[k]; k++) {
            int ai = cc_attr_index(op, a->attr[k]);
            cc_attr_value v;
            if (ai < 0 || cc_attr_parse(op->attrs[ai].kind, a->value[k], &v, NULL))
                return cc_err_set(err, CC_ERR_INTERNAL, "models/onnx_opset.c: %s has no attribute %s=%s", a->op,
                                  a->attr[k], a->value[k]);
        }
    }
    return CC_OK;
}
