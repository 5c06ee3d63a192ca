/* reduce_topk.c — TopK (opset 11): along one axis, the K largest (largest=1) or smallest
 * elements in order, as Values and their int64 Indices, the axis's length becoming K. Equal
 * values keep their input order (the lower index first), as the specification requires; a
 * NaN counts as larger than every number (numpy's sort puts it last). K is a constant
 * input, or one computed at run time: then the outputs' extent depends on the data
 * (cc_op_dynamic_shape), their bound the axis's length, and golden() writes the actual
 * shape. sorted=0 leaves the order open, which no check can judge element by element: it
 * is refused. Every number type but i8 and u8: floats ordered in double (f16, bf16 and f32
 * widen exactly; -0 equals 0), integers in their own type in 64 bits (u64 as unsigned: 2^63
 * is above 2^63 - 1, though one double holds both). Values are copies (64-bit integers
 * held exactly) and indices exact: S = |value|, K = 1. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shape_internal.h"
#include "sweep.h"

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

#define TOPK_NARROW (CC_DTYPES_FLOAT | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64))
/* the dtypes of target ABI 8, with sweep rows of their own */
#define TOPK_WIDE                                                                                         \
    (CC_DTYPE_BIT(CC_F64) | CC_DTYPE_BIT(CC_I16) | CC_DTYPE_BIT(CC_U16) | CC_DTYPE_BIT(CC_U32) | CC_DTYPE_BIT(CC_U64))
#define TOPK_DTYPES (TOPK_NARROW | TOPK_WIDE)

/* The axis and K; *k = -1 where K is an input computed at run time (one int64). */
static cc_status topk_args(const cc_node *node, const cc_tensor *const *in, int *axis, int64_t *k, cc_err *err)
{
    const cc_tensor *x = in[0];
    int r = x->shape.rank;
    int64_t a = cc_attr_i(node, "axis");
    if (r == 0 || a < -r || a >= r)
        return cc_err_set(err, CC_ERR_ARG, "TopK: axis %lld is outside [%d, %d] for rank %d", (long long)a, -r, r - 1, r);
    *axis = (int)(a < 0 ? a + r : a);
    const cc_tensor *kt = shape_input(node, in, 1);
    if (kt && !kt->data && !cc_attr_get(node, "k")->set) {
        if (kt->dtype != CC_I64 || cc_tensor_numel(kt) != 1)
            return cc_err_set(err, CC_ERR_ARG, "TopK: K must be one int64, got %s", cc_dtype_name(kt->dtype));
        *k = -1;
        return CC_OK;
    }
    int64_t kv[CC_MAX_INTS];
    int n, present;
    cc_status st = shape_const_ints(node, in, 1, "k", kv, &n, &present, err);
    if (st) return st;
    if (!present || n != 1) return cc_err_set(err, CC_ERR_ARG, "TopK: K must be one value");
    if (kv[0] < 0 || kv[0] > x->shape.dims[*axis])
        return cc_err_set(err, CC_ERR_ARG, "TopK: K = %lld is outside [0, %lld] (the axis's length)", (long long)kv[0],
                          (long long)x->shape.dims[*axis]);
    *k = kv[0];
    return CC_OK;
}

static cc_status topk_infer(const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    if (n_out != 2) return cc_err_set(err, CC_ERR_ARG, "TopK: has 2 outputs (Values, Indices), asked for %d", n_out);
    const cc_tensor *x = node->n_in > 0 ? in[0] : NULL;
    if (!x) return cc_err_set(err, CC_ERR_ARG, "TopK: X is missing");
    if (!(TOPK_DTYPES & CC_DTYPE_BIT(x->dtype)))
        return cc_err_set(err, CC_ERR_ARG, "TopK: X is %s, must be a float, 16-, 32- or 64-bit integer type",
                          cc_dtype_name(x->dtype));
    int64_t largest = cc_attr_i(node, "largest"), sorted = cc_attr_i(node, "sorted");
    if ((largest != 0 && largest != 1) || (sorted != 0 && sorted != 1))
        return cc_err_set(err, CC_ERR_ARG, "TopK: largest and sorted must be 0 or 1");
    if (!sorted)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "TopK: sorted=0 leaves the order of the K elements open, which "
                                                   "crosscheck cannot judge element by element");
    int axis;
    int64_t k;
    cc_status st = topk_args(node, in, &axis, &k, err);
    if (st) return st;
    int64_t n;
    if ((st = cc_shape_numel_checked(&x->shape, &n, err))) return st;
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].shape.dims[axis] = k >= 0 ? k : x->shape.dims[axis]; /* K at run time: the bound */
    out[0].data = NULL;
    out[1].dtype = CC_I64;
    out[1].shape = out[0].shape;
    out[1].data = NULL;
    return CC_OK;
}

/* An element as the order sees it: floats as a double, integers in their own type. */
typedef struct topk_key {
    double f;
    int64_t n; /* u64: the bits */
} topk_key;

enum { BY_FLOAT, BY_SIGNED, BY_UNSIGNED }; /* how keys compare: f, n, or n as uint64_t */

/* 1 when (a, ia) comes before (b, ib) in the output order. NaN is the largest value; equal
 * values keep the lower index first. */
static int before(const topk_key *a, int64_t ia, const topk_key *b, int64_t ib, int by, int largest)
{
    if (by == BY_FLOAT) {
        int na = isnan(a->f), nb = isnan(b->f);
        if (na != nb) return largest ? na : nb;
        if (!na && a->f != b->f) return largest ? a->f > b->f : a->f < b->f;
    } else if (a->n != b->n) {
        int less = by == BY_UNSIGNED ? (uint64_t)a->n < (uint64_t)b->n : a->n < b->n;
        return largest ? !less : less;
    }
    return ia < ib;
}

/* Element `at` of x as its key: the 64-bit integers as their bits, the narrower ones
 * exactly. */
static topk_key elem(const cc_tensor *x, int64_t at, int by)
{
    topk_key k = { 0, 0 };
    if (by == BY_FLOAT) k.f = cc_load(x->data, x->dtype, (size_t)at);
    else if (x->dtype == CC_I64 || x->dtype == CC_U64) memcpy(&k.n, (const char *)x->data + 8 * at, 8);
    else k.n = cc_load_i64(x->data, x->dtype, (size_t)at);
    return k;
}

/* Per line: K passes, each taking the first element after the previous one in the output
 * order (a selection written for plainness, not speed). */
static cc_status topk_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out,
                             cc_err *err)
{
    (void)n_out;
    const cc_tensor *x = in[0];
    int axis;
    int64_t k;
    cc_status st = topk_args(node, in, &axis, &k, err);
    if (st) return st;
    if (k < 0) return cc_err_set(err, CC_ERR_INTERNAL, "TopK: K has no value");
    out[0].shape.dims[axis] = out[1].shape.dims[axis] = k; /* the actual shape, K given at run time */
    int largest = cc_attr_i(node, "largest") != 0;
    int by = cc_dtype_is_float(x->dtype) ? BY_FLOAT : x->dtype == CC_U64 ? BY_UNSIGNED : BY_SIGNED;
    int64_t outer = 1, len = x->shape.dims[axis], inner = 1;
    for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
    for (int d = axis + 1; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            int64_t base = o * len * inner + i, prev = -1;
            topk_key pv = { 0, 0 };
            for (int64_t t = 0; t < k; t++) {
                int64_t best = -1;
                topk_key bv = { 0, 0 };
                for (int64_t j = 0; j < len; j++) {
                    topk_key v = elem(x, base + j * inner, by);
                    if (prev >= 0 && !before(&pv, prev, &v, j, by, largest)) continue; /* taken already */
                    if (best < 0 || before(&v, j, &bv, best, by, largest)) {
                        best = j;
                        bv = v;
                    }
                }
                int64_t at = (o * k + t) * inner + i;
                if (by == BY_FLOAT) {
                    out[0].value[at] = bv.f;
                    out[0].mag[at] = fabs(bv.f);
                } else {
                    cc_golden_put_int(&out[0], at, bv.n); /* exactly: u64 as its bits */
                }
                cc_golden_put_int(&out[1], at, best);
                prev = best;
                pv = bv;
            }
        }
    out[0].k = out[1].k = 1;
    return CC_OK;
}

static cc_status topk_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)node;
    (void)exact;
    (void)err;
    if (!rng || !in[0].data) return CC_OK; /* only validating (op.h) */
    if (TOPK_WIDE & CC_DTYPE_BIT(in[0].dtype)) cc_sweep_order_edges(&in[0], rng);
    return CC_OK;
}

/* TopK reads every element once per output; the cost counts a comparison per element. */
static void topk_cost(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *out,
                      double *flops, double *bytes)
{
    (void)node;
    (void)n_out;
    *flops = (double)cc_tensor_numel(in[0]);
    *bytes = (double)cc_tensor_bytes(in[0]) + (double)cc_tensor_bytes(&out[0]) + (double)cc_tensor_bytes(&out[1]);
}

static const cc_sweep_row topk_sweep[] = {
    { Q, "X=3x4", "k=[2]", TOPK_NARROW },
    { Q, "X=2x8x3", "k=[3],axis=1", TOPK_NARROW },
    { Q, "X=4x7", "k=[3],largest=0", TOPK_NARROW },
    { Q, "X=10", "k=[10]", TOPK_NARROW },                          /* the whole axis: a sort */
    { Q, "X=5x6", "k=[4],axis=0,largest=0", TOPK_NARROW },
    { EDGE, "X=3x4", "k=[0]", TOPK_NARROW },                       /* empty outputs */
    { EDGE, "X=3x1", "k=[1]", TOPK_NARROW },
    { 0, "X=5x100", "k=[5]", TOPK_NARROW },
    { 0, "X=2x3x40", "k=[7],axis=-1,largest=0", TOPK_NARROW },
    { MODEL, "X=1x1000", "k=[5]", TOPK_NARROW },                   /* top-5 of a classifier */
    { MODEL, "X=1x8400", "k=[100]", TOPK_NARROW },                 /* a detector's best 100 scores */
    /* the wide dtypes (topk_gen draws their edges) */
    { Q, "X=3x8", "k=[3]", TOPK_WIDE },
    { Q, "X=2x9x3", "k=[4],axis=1,largest=0", TOPK_WIDE },
    { Q, "X=12", "k=[12]", TOPK_WIDE },                            /* a stable sort */
};

const cc_op_def cc_op_TopK = {
    .id = CC_OP_ID_TopK, .name = "TopK", .domain = "", .since_version = 11, .family = "reduce",
    .n_inputs = 2,
    .inputs = {
        { .name = "X", .role = CC_IN_DATA },
        { .name = "K", .role = CC_IN_ATTR, .constant = 1 },
    },
    .min_outputs = 2, .max_outputs = 2,
    .n_attrs = CC_ONNX_NATTRS(TopK, 11) + 1,
    .attrs = {
        CC_ONNX_ATTRS(TopK, 11)
        { .name = "k", .kind = CC_ATTR_INTS, .def = NULL, .required = 1, .input = 1, .input_dtype = CC_I64 },
    },
    .dtypes = TOPK_DTYPES,
    .infer = topk_infer, .cost = topk_cost, .golden = topk_golden, .gen = topk_gen,
    CC_SWEEP(topk_sweep),
};
