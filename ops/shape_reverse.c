/* shape_reverse.c — ReverseSequence (opset 10), in the shape family: for input of rank >= 2
 * with a batch axis and a time axis (0 and 1, either way round), and sequence_lens [batch]
 * (int64, each in [0, time]), slice b of the batch axis has its first sequence_lens[b]
 * steps along the time axis reversed and the rest copied: output element (.., t, ..) of
 * batch b is input element (.., L - 1 - t, ..) for t < L = sequence_lens[b], else
 * (.., t, ..). Every value is copied: exact, S = |value|, K = 1. */
#include <math.h>
#include <stdio.h>

#include "shape_internal.h"
#include "sweep.h"

enum { RS_INPUT, RS_LENS };

typedef struct reverse_geom {
    int batch_axis, time_axis;
    int64_t batch, time, inner; /* inner: the elements of one (axis 0, axis 1) position */
} reverse_geom;

static cc_status reverse_geometry(const cc_node *node, const cc_tensor *const *in, reverse_geom *g, cc_err *err)
{
    const cc_tensor *x = shape_input(node, in, RS_INPUT), *lens = shape_input(node, in, RS_LENS);
    if (!x || !lens) return cc_err_set(err, CC_ERR_ARG, "ReverseSequence: input and sequence_lens are required");
    if (x->shape.rank < 2)
        return cc_err_set(err, CC_ERR_ARG, "ReverseSequence: input must have rank 2 or more, got %d", x->shape.rank);
    int64_t ba = cc_attr_i(node, "batch_axis"), ta = cc_attr_i(node, "time_axis");
    if ((ba != 0 && ba != 1) || (ta != 0 && ta != 1) || ba == ta)
        return cc_err_set(err, CC_ERR_ARG, "ReverseSequence: batch_axis and time_axis must be 0 and 1 (either way), got %lld "
                          "and %lld", (long long)ba, (long long)ta);
    g->batch_axis = (int)ba;
    g->time_axis = (int)ta;
    g->batch = x->shape.dims[ba];
    g->time = x->shape.dims[ta];
    g->inner = 1;
    for (int d = 2; d < x->shape.rank; d++) g->inner *= x->shape.dims[d];
    if (lens->dtype != CC_I64 || lens->shape.rank != 1 || lens->shape.dims[0] != g->batch)
        return cc_err_set(err, CC_ERR_ARG, "ReverseSequence: sequence_lens must be int64 [%lld] (the batch), got %s of %d dims",
                          (long long)g->batch, cc_dtype_name(lens->dtype), lens->shape.rank);
    return CC_OK;
}

static cc_status reverse_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "ReverseSequence: has 1 output, asked for %d", n_out);
    reverse_geom g = { 0 };
    cc_status st = reverse_geometry(node, in, &g, err);
    if (st) return st;
    out[0].dtype = in[RS_INPUT]->dtype;
    out[0].shape = in[RS_INPUT]->shape;
    out[0].data = NULL;
    return CC_OK;
}

static cc_status reverse_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err)
{
    (void)n_out;
    reverse_geom g = { 0 };
    cc_status st = reverse_geometry(node, in, &g, err);
    if (st) return st;
    const cc_tensor *x = in[RS_INPUT], *lens = in[RS_LENS];
    const int64_t d1 = x->shape.dims[1];
    for (int64_t b = 0; b < g.batch; b++) {
        int64_t len = ((const int64_t *)lens->data)[b];
        if (len < 0 || len > g.time)
            return cc_err_set(err, CC_ERR_ARG, "ReverseSequence: sequence_lens[%lld] = %lld is outside [0, %lld]",
                              (long long)b, (long long)len, (long long)g.time);
        for (int64_t t = 0; t < g.time; t++) {
            int64_t from = t < len ? len - 1 - t : t;
            /* the positions along axes 0 and 1 of (b, t) and of (b, from) */
            int64_t to_pos = g.time_axis == 0 ? t * d1 + b : b * d1 + t;
            int64_t from_pos = g.time_axis == 0 ? from * d1 + b : b * d1 + from;
            for (int64_t i = 0; i < g.inner; i++) shape_put(&out[0], to_pos * g.inner + i, x, from_pos * g.inner + i);
        }
    }
    out[0].k = 1;
    return CC_OK;
}

/* sequence lengths within [0, time]: one of each batch's steps in five is the whole time */
static cc_status reverse_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)exact;
    (void)err;
    if (!rng || !in[RS_INPUT].data || !in[RS_LENS].data || in[RS_INPUT].shape.rank < 2) return CC_OK;
    int64_t time = in[RS_INPUT].shape.dims[cc_attr_i(node, "time_axis") == 0 ? 0 : 1];
    int64_t *lens = in[RS_LENS].data;
    for (int64_t b = 0; b < cc_tensor_numel(&in[RS_LENS]); b++) lens[b] = b % 5 == 0 ? time : cc_rng_int(rng, 0, time);
    return CC_OK;
}

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

/* clang-format off */
static const cc_sweep_row reverse_sweep[] = {
    { Q, "input=4x4,sequence_lens=4:i64", "batch_axis=1,time_axis=0", 0 },
    { Q, "input=4x4,sequence_lens=4:i64", "batch_axis=0,time_axis=1", 0 },
    { Q, "input=3x5x2,sequence_lens=3:i64", "batch_axis=0,time_axis=1", 0 },
    { Q, "input=6x2x3x2,sequence_lens=2:i64", "batch_axis=1,time_axis=0", 0 },
    { Q | EDGE, "input=1x7,sequence_lens=1:i64", "batch_axis=0,time_axis=1", 0 },   /* one sequence */
    { Q | EDGE, "input=5x0,sequence_lens=0:i64", "batch_axis=1,time_axis=0", 0 },   /* empty batch */
    { MODEL, "input=32x8x256,sequence_lens=8:i64", "batch_axis=1,time_axis=0", 0 }, /* a bidirectional RNN's input */
};
/* clang-format on */

const cc_op_def cc_op_ReverseSequence = {
    .id = CC_OP_ID_ReverseSequence, .name = "ReverseSequence", .domain = "", .since_version = 10, .family = "shape",
    .n_inputs = 2,
    .inputs = {
        { .name = "input", .role = CC_IN_DATA },
        { .name = "sequence_lens", .role = CC_IN_DATA, .lo = 0, .hi = 1, .ilo = 0, .ihi = 1 },
    },
    .min_outputs = 1, .max_outputs = 1,
    .n_attrs = CC_ONNX_NATTRS(ReverseSequence, 10), .attrs = { CC_ONNX_ATTRS(ReverseSequence, 10) },
    .dtypes = SHAPE_DTYPES, .infer = reverse_infer, .cost = shape_move_cost, .gen = reverse_gen,
    .golden = reverse_golden, CC_SWEEP(reverse_sweep),
};
