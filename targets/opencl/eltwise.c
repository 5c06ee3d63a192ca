/* eltwise.c — the opencl backend's element-wise ops: the unary activations and Clip,
 * Add/Sub/Mul/Div, Pow, PRelu and Mod with multidirectional broadcasting, the variadic
 * Min, Max, Sum and Mean as a chain of broadcasting launches (rank <= 8, as strides; adjacent
 * dimensions are merged first, so most cases run as rank 1 or 2), and inference-mode
 * BatchNormalization as a per-channel scale and shift (folded on the host, or by a kernel
 * where the parameters are computed at run time). The
 * activations' formulas are those of targets/eltwise_formulas.h. Kernels in
 * kernels/eltwise_float.cl (f32, f16, bf16), kernels/eltwise_int.cl (i8, u8, i16, u16,
 * i32, u32, i64, u64) and kernels/eltwise_f64.cl (f64, and Pow that computes in double:
 * with an f64 operand, or an integer base with a float exponent); of the dtypes of target
 * ABI 8, the ops plan.c lists take them (Min, Max, Sum, Mean, Pow, PRelu, Mod, BitShift). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl.h"

#define ELT_WG 256

/* the 16/32-bit float types (stored as such, computed in float) */
static int is_float(cc_dtype d)
{
    return d == CC_F32 || d == CC_F16 || d == CC_BF16;
}

static int is_int(cc_dtype d)
{
    return !cc_dtype_is_float(d) && d != CC_BOOL && d < CC_DTYPE_COUNT;
}

/* ---- unary ---------------------------------------------------------------------------------- */

#include "../eltwise_formulas.h"

/* The activations (eltwise_formulas.h): kernel elt_<name>, float attributes p0, p1. */
typedef struct unary_kernel {
    const char *op, *kernel, *p0, *p1;
} unary_kernel;

static const unary_kernel unary_kernels[] = {
#define X(Op, name, P0, P1, F) { #Op, "elt_" #name, P0, P1 },
    CC_ACTIVATIONS(X)
#undef X
    { "Clip", "elt_clip", "", "" },
};

static const unary_kernel *unary_kernel_of(const char *op)
{
    for (size_t i = 0; i < sizeof unary_kernels / sizeof unary_kernels[0]; i++)
        if (strcmp(unary_kernels[i].op, op) == 0) return &unary_kernels[i];
    return NULL;
}

static cc_support unary_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                 const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    (void)out;
    int clip = strcmp(node->op->name, "Clip") == 0;
    cc_dtype d = in[0]->dtype;
    if (!is_float(d) && !(clip && (d == CC_I8 || d == CC_U8 || d == CC_I32))) {
        snprintf(reason, n, "opencl: no %s kernel for %s", node->op->name, cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    if (clip)
        for (int i = 1; i < node->n_in && i < 3; i++)
            if (in[i] && (!in[i]->data || cc_tensor_numel(in[i]) != 1)) {
                snprintf(reason, n, "opencl: Clip needs constant scalar min and max");
                return CC_SUPPORT_NO;
            }
    return CC_SUPPORT_YES;
}

/* A 1-D launch of kernel base_<suffix> (program eltwise_<suffix>, or prog where not NULL)
 * over n elements; sets the note. */
static cc_status launch_1d_in(ocl_build *b, const char *prog_in, const char *base, cc_dtype dt, int64_t n,
                              ocl_launch **out, cc_err *err)
{
    char name[48], prog[32];
    snprintf(name, sizeof name, "%s_%s", base, cc_ocl_suffix(dt));
    snprintf(prog, sizeof prog, "eltwise_%s", cc_ocl_suffix(dt));
    cc_status st = cc_ocl_kernel(b, prog_in ? prog_in : prog, name, out, err);
    if (st) return st;
    size_t wg = cc_ocl_wg_limit(b, *out, ELT_WG);
    cc_ocl_range1(*out, (size_t)n, wg);
    cc_ocl_note(b, "%s wg %zu%s", name, wg, cc_ocl_storage_note(dt));
    return CC_OK;
}

static cc_status launch_1d(ocl_build *b, const char *base, cc_dtype dt, int64_t n, ocl_launch **out, cc_err *err)
{
    return launch_1d_in(b, NULL, base, dt, n, out, err);
}

static cc_status unary_prepare(ocl_build *b, cc_err *err)
{
    const cc_node *node = b->node;
    const unary_kernel *k = unary_kernel_of(node->op->name);
    if (!k) return cc_err_set(err, CC_ERR_INTERNAL, "opencl: no kernel for %s", node->op->name);
    double p0 = k->p0[0] ? cc_attr_f(node, k->p0) : 0, p1 = k->p1[0] ? cc_attr_f(node, k->p1) : 0;
    if (strcmp(node->op->name, "Clip") == 0) {
        p0 = -INFINITY;
        p1 = INFINITY;
        if (node->n_in > 1 && b->in[1]) p0 = cc_ocl_const_float(b->in[1], 0);
        if (node->n_in > 2 && b->in[2]) p1 = cc_ocl_const_float(b->in[2], 0);
    }
    int64_t n = cc_tensor_numel(b->out[0]);
    ocl_launch *l;
    cc_status st = launch_1d(b, k->kernel, b->in[0]->dtype, n, &l, err);
    if (st) return st;
    cc_ocl_arg_mem(l, b->in_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, n);
    if (!is_float(b->in[0]->dtype)) {
        /* integer Clip (eltwise_int.cl): the bounds as int, the dtype's own where absent */
        int64_t lo = INT32_MIN, hi = INT32_MAX;
        if (node->n_in > 1 && b->in[1]) lo = cc_ocl_const_int(b->in[1], 0);
        if (node->n_in > 2 && b->in[2]) hi = cc_ocl_const_int(b->in[2], 0);
        cc_ocl_arg_int(l, lo);
        cc_ocl_arg_int(l, hi);
        return CC_OK;
    }
    cc_ocl_arg_float(l, p0);
    cc_ocl_arg_float(l, p1);
    return CC_OK;
}

/* ---- binary ----------------------------------------------------------------------------------- */

static cc_support binary_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                  const cc_tensor *out, char *reason, size_t n)
{
    (void)out;
    cc_dtype d = in[0]->dtype;
    if (!cc_ocl_suffix(d) || in[1]->dtype != d) {
        snprintf(reason, n, "opencl: no %s kernel for %s", node->op->name, cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    return d == CC_F64 ? cc_ocl_fp64(c, reason, n) : CC_SUPPORT_YES;
}

/* One broadcasting launch of kernel base_<output suffix> (add, min, pow, ...) of program
 * prog (NULL: eltwise_<output suffix>): out = a op b, a and b buffer slots of the given
 * shapes broadcasting to the output (a may be the output). */
static cc_status binary_launch_in(ocl_build *b, const char *prog, const char *base, int a_slot, const cc_shape *as,
                                  int b_slot, const cc_shape *bs, cc_err *err)
{
    const cc_shape *os = &b->out[0]->shape;
    int64_t dims[CC_MAX_RANK], strides[2][CC_MAX_RANK];
    int rank = os->rank;
    for (int d = 0; d < rank; d++) dims[d] = os->dims[d];
    if (cc_backend_broadcast_strides(as, os, strides[0]) || cc_backend_broadcast_strides(bs, os, strides[1]))
        return cc_err_set(err, CC_ERR_ARG, "%s: the inputs do not broadcast to the output",
                          b->node->op->name);
    int gslot;
    cc_status st = cc_ocl_walk_const(b, &rank, dims, strides, &gslot, err);
    if (st) return st;
    int64_t n = cc_tensor_numel(b->out[0]);
    ocl_launch *l;
    if ((st = launch_1d_in(b, prog, base, b->out[0]->dtype, n, &l, err))) return st;
    cc_ocl_arg_mem(l, a_slot);
    cc_ocl_arg_mem(l, b_slot);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, n);
    cc_ocl_arg_int(l, rank);
    cc_ocl_arg_int(l, strides[0][0]);
    cc_ocl_arg_int(l, strides[1][0]);
    cc_ocl_arg_mem(l, gslot);
    cc_ocl_note_append(b, ", broadcast rank %d", rank);
    return CC_OK;
}

static cc_status binary_launch(ocl_build *b, const char *base, int a_slot, const cc_shape *as, int b_slot,
                               const cc_shape *bs, cc_err *err)
{
    return binary_launch_in(b, NULL, base, a_slot, as, b_slot, bs, err);
}

/* Pow computes in double (program eltwise_f64) with an f64 operand, or with an integer
 * base and a float exponent (the real power, truncated, as the golden model does). */
static int pow_in_double(cc_dtype base, cc_dtype exponent)
{
    return base == CC_F64 || exponent == CC_F64 || (is_int(base) && cc_dtype_is_float(exponent));
}

/* Add, Sub, Mul, Div: the kernel named like the op; Pow, PRelu elt_<op>, Pow with an
 * exponent of another dtype elt_pow_<exponent> (of eltwise_f64 where it computes in
 * double); Mod: elt_fmod or elt_imod (kernels/eltwise_*.cl). */
static cc_status binary_prepare(ocl_build *b, cc_err *err)
{
    char base[16];
    const char *prog = NULL;
    cc_op_id id = b->node->op->id;
    cc_dtype dx = b->in[0]->dtype, dy = b->in[1]->dtype;
    if (id == CC_OP_ID_Mod) {
        snprintf(base, sizeof base, "%s", cc_attr_i(b->node, "fmod") ? "elt_fmod" : "elt_imod");
    } else if (id == CC_OP_ID_Pow && dy != dx) {
        snprintf(base, sizeof base, "elt_pow_%s", cc_ocl_suffix(dy));
        if (pow_in_double(dx, dy)) prog = "eltwise_f64";
    } else if (id == CC_OP_ID_Pow || id == CC_OP_ID_PRelu) {
        snprintf(base, sizeof base, "%s", id == CC_OP_ID_Pow ? "elt_pow" : "elt_prelu");
    } else {
        snprintf(base, sizeof base, "%s", b->node->op->name);
        for (char *p = base; *p; p++) *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    }
    return binary_launch_in(b, prog, base, b->in_slot[0], &b->in[0]->shape, b->in_slot[1], &b->in[1]->shape, err);
}

/* Pow and PRelu on operands of one dtype: the float, integer and f64 kernels. Pow with an
 * exponent of another dtype: a 16/32-bit float base with an integer exponent
 * (eltwise_float.cl, in float) or an f64 one; an f64 base with any exponent; an i32 or
 * i64 base with an integer exponent (eltwise_int.cl) or a float one. */
static cc_support arith_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                 const cc_tensor *out, char *reason, size_t n)
{
    cc_dtype dx = in[0]->dtype, dy = in[1]->dtype;
    if (dy == dx) return binary_supports(c, node, in, out, reason, n);
    if (node->op->id != CC_OP_ID_Pow) {
        snprintf(reason, n, "opencl: %s takes a second operand of its first one's dtype (%s, %s)", node->op->name,
                 cc_dtype_name(dx), cc_dtype_name(dy));
        return CC_SUPPORT_NO;
    }
    int ok = (is_float(dx) && (is_int(dy) || dy == CC_F64)) || (dx == CC_F64 && (is_int(dy) || cc_dtype_is_float(dy))) ||
             ((dx == CC_I32 || dx == CC_I64) && (is_int(dy) || cc_dtype_is_float(dy)));
    if (!ok) {
        snprintf(reason, n, "opencl: no Pow kernel for a %s exponent of a %s base", cc_dtype_name(dy), cc_dtype_name(dx));
        return CC_SUPPORT_NO;
    }
    return pow_in_double(dx, dy) ? cc_ocl_fp64(c, reason, n) : CC_SUPPORT_YES;
}

/* ---- variadic: Min, Max, Sum, Mean ----------------------------------------------------------- */

static cc_support variadic_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                    const cc_tensor *out, char *reason, size_t n)
{
    (void)in;
    if (!cc_ocl_suffix(out->dtype)) {
        snprintf(reason, n, "opencl: no %s kernel for %s", node->op->name, cc_dtype_name(out->dtype));
        return CC_SUPPORT_NO;
    }
    return out->dtype == CC_F64 ? cc_ocl_fp64(c, reason, n) : CC_SUPPORT_YES;
}

/* A chain of broadcasting launches into the output: y = x0 op x1, then y = y op xk for
 * each further present input (one input: y = x0); Mean divides y by the count at the end.
 * Each step rounds to the output dtype. */
static cc_status variadic_prepare(ocl_build *b, cc_err *err)
{
    const cc_node *node = b->node;
    int xs[CC_MAX_IO], n = 0;
    for (int i = 0; i < node->n_in && i < CC_MAX_IO; i++)
        if (b->in[i]) xs[n++] = i;
    if (n == 0) return cc_err_set(err, CC_ERR_ARG, "%s: no input", node->op->name);
    cc_op_id id = node->op->id;
    const char *base = id == CC_OP_ID_Min ? "elt_min" : id == CC_OP_ID_Max ? "elt_max" : "add";
    int x0 = xs[0], x1 = xs[n > 1 ? 1 : 0];
    cc_status st = binary_launch(b, n > 1 ? base : "elt_first", b->in_slot[x0], &b->in[x0]->shape,
                                 b->in_slot[x1], &b->in[x1]->shape, err);
    for (int k = 2; k < n && !st; k++)
        st = binary_launch(b, base, b->out_slot[0], &b->out[0]->shape, b->in_slot[xs[k]],
                           &b->in[xs[k]]->shape, err);
    if (st || id != CC_OP_ID_Mean || n == 1) return st;
    int64_t cnt = cc_tensor_numel(b->out[0]);
    ocl_launch *l;
    if ((st = launch_1d(b, "elt_divide", b->out[0]->dtype, cnt, &l, err))) return st;
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, cnt);
    cc_ocl_arg_float(l, (double)n);
    cc_ocl_arg_float(l, 0.0);
    cc_ocl_note_append(b, ", %d steps", n);
    return CC_OK;
}

/* ---- BatchNormalization ------------------------------------------------------------------------ */

enum { BN_X, BN_SCALE, BN_B, BN_MEAN, BN_VAR };

static cc_support bn_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                              const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    (void)out;
    if (cc_attr_i(node, "training_mode") == 1) return cc_ocl_bn_train_supports(node, in, reason, n);
    if (!is_float(in[BN_X]->dtype)) {
        snprintf(reason, n, "opencl: no BatchNormalization kernel for %s", cc_dtype_name(in[BN_X]->dtype));
        return CC_SUPPORT_NO;
    }
    int constant = 1;
    for (int i = BN_SCALE; i <= BN_VAR; i++) constant &= in[i] && in[i]->data;
    for (int i = BN_SCALE; i <= BN_VAR && !constant; i++)
        if (!in[i] || in[i]->dtype != in[BN_X]->dtype) {
            snprintf(reason, n, "opencl: BatchNormalization's scale, b, mean and var computed at run time must have "
                     "x's dtype %s", cc_dtype_name(in[BN_X]->dtype));
            return CC_SUPPORT_NO;
        }
    return CC_SUPPORT_YES;
}

static cc_status bn_affine(ocl_build *b, const char *name, const char *prog, int s_scale, int s_shift, int64_t ch,
                           int64_t inner, const char *how, cc_err *err);

/* Inference: y = x * a + (b - mean * a) with a = scale / sqrt(var + epsilon), folded in
 * double at prepare where the parameters are constants, else by kernel bn_fold at run time;
 * training mode: reduce.c's kernel with the batch's statistics. */
static cc_status bn_prepare(ocl_build *b, cc_err *err)
{
    if (cc_attr_i(b->node, "training_mode") == 1) return cc_ocl_bn_train_prepare(b, err);
    const cc_tensor *x = b->in[BN_X];
    int64_t ch = x->shape.dims[1], inner = 1;
    for (int d = 2; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    double eps = (double)(float)cc_attr_f(b->node, "epsilon");
    char name[48], prog[32];
    snprintf(name, sizeof name, "affine_channel_%s", cc_ocl_suffix(x->dtype));
    snprintf(prog, sizeof prog, "eltwise_%s", cc_ocl_suffix(x->dtype));
    int constant = 1;
    for (int i = BN_SCALE; i <= BN_VAR; i++) constant &= b->in[i]->data != NULL;
    int s_scale, s_shift;
    cc_status st;
    ocl_launch *l;
    if (!constant) {
        size_t bytes = sizeof(float) * (size_t)(ch ? ch : 1);
        char fold_name[48];
        snprintf(fold_name, sizeof fold_name, "bn_fold_%s", cc_ocl_suffix(x->dtype));
        if ((st = cc_ocl_scratch(b, bytes, &s_scale, err)) || (st = cc_ocl_scratch(b, bytes, &s_shift, err)) ||
            (st = cc_ocl_kernel(b, prog, fold_name, &l, err)))
            return st;
        for (int i = BN_SCALE; i <= BN_VAR; i++) cc_ocl_arg_mem(l, b->in_slot[i]);
        cc_ocl_arg_int(l, ch);
        cc_ocl_arg_float(l, eps);
        cc_ocl_arg_mem(l, s_scale);
        cc_ocl_arg_mem(l, s_shift);
        cc_ocl_range1(l, (size_t)ch, cc_ocl_wg_limit(b, l, ELT_WG));
        return bn_affine(b, name, prog, s_scale, s_shift, ch, inner, "scale and shift folded at run time", err);
    }
    float *fold = malloc(sizeof(float) * 2 * (size_t)(ch ? ch : 1));
    if (!fold) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    for (int64_t c = 0; c < ch; c++) {
        double var = cc_ocl_const_float(b->in[BN_VAR], c) + eps;
        if (!(var > 0)) {
            free(fold);
            return cc_err_set(err, CC_ERR_ARG, "BatchNormalization: input_var + epsilon must be > 0 (channel %lld)",
                              (long long)c);
        }
        double a = cc_ocl_const_float(b->in[BN_SCALE], c) / sqrt(var);
        fold[c] = (float)a;
        fold[ch + c] = (float)(cc_ocl_const_float(b->in[BN_B], c) - cc_ocl_const_float(b->in[BN_MEAN], c) * a);
    }
    st = cc_ocl_const(b, fold, sizeof(float) * (size_t)ch, &s_scale, err);
    if (!st) st = cc_ocl_const(b, fold + ch, sizeof(float) * (size_t)ch, &s_shift, err);
    free(fold);
    if (st) return st;
    return bn_affine(b, name, prog, s_scale, s_shift, ch, inner, "folded scale and shift", err);
}

/* Kernel affine_channel `name` of `prog`: y = x * scale[c] + shift[c], scale and shift f32
 * in slots s_scale and s_shift. */
static cc_status bn_affine(ocl_build *b, const char *name, const char *prog, int s_scale, int s_shift, int64_t ch,
                           int64_t inner, const char *how, cc_err *err)
{
    const cc_tensor *x = b->in[BN_X];
    ocl_launch *l;
    cc_status st = cc_ocl_kernel(b, prog, name, &l, err);
    if (st) return st;
    int64_t planes = inner ? cc_tensor_numel(x) / inner : 0;
    cc_ocl_arg_mem(l, b->in_slot[BN_X]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, inner);
    cc_ocl_arg_int(l, planes);
    cc_ocl_arg_int(l, ch);
    cc_ocl_arg_mem(l, s_scale);
    cc_ocl_arg_mem(l, s_shift);
    size_t wg = cc_ocl_wg_limit(b, l, ELT_WG), lx = 1;
    while (lx < (size_t)inner && lx * 2 <= wg) lx *= 2;
    size_t gws[2] = { (size_t)inner, (size_t)planes }, lws[2] = { lx, wg / lx };
    cc_ocl_range(l, 2, gws, lws);
    cc_ocl_note(b, "%s (%s) wg %zux%zu%s", name, how, lws[0], lws[1], cc_ocl_storage_note(x->dtype));
    return CC_OK;
}

/* ---- comparisons and Where (kernels/eltwise_logic.cl) ---------------------------------------- */

/* The program suffix of node's operands (in[0], Where's X in[1]): a comparison's storage
 * type (bool runs as u8); for Where the word of the element's size (u8, u16, u32, u64), since
 * a selection moves elements as they are: f64 then needs no cl_khr_fp64, and i16, u16, u32
 * and u64 no programs of their own. */
static const char *logic_suffix(const cc_node *node, const cc_tensor *const *in)
{
    if (node->op->id == CC_OP_ID_Where) return cc_ocl_word_suffix(in[1]->dtype);
    return in[0]->dtype == CC_BOOL ? "u8" : cc_ocl_suffix(in[0]->dtype);
}

static cc_support logic_supports(ocl_ctx *c, const cc_node *node, const cc_tensor *const *in,
                                 const cc_tensor *out, char *reason, size_t n)
{
    (void)c;
    (void)out;
    /* each op's dtypes are its infer()'s rule (ops/eltwise_logic.c) */
    cc_dtype d = in[node->op->id == CC_OP_ID_Where ? 1 : 0]->dtype;
    if (!logic_suffix(node, in)) {
        snprintf(reason, n, "opencl: no %s kernel for %s", node->op->name, cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

/* Comparisons, And, Or, Xor, BitShift: kernel elt_<op> of program logic_<suffix> over the
 * collapsed broadcast; Where: elt_where of the program of its element's size with the
 * geometry of its three operands; Not,
 * IsNaN, IsInf: one operand of the output's shape. */
static cc_status logic_prepare(ocl_build *b, cc_err *err)
{
    const cc_node *node = b->node;
    int where = node->op->id == CC_OP_ID_Where, m = node->op->n_inputs;
    const cc_shape *os = &b->out[0]->shape;
    int64_t dims[CC_MAX_RANK], strides[3][CC_MAX_RANK];
    int rank = os->rank;
    for (int d = 0; d < rank; d++) dims[d] = os->dims[d];
    for (int k = 0; k < m; k++)
        if (cc_backend_broadcast_strides(&b->in[k]->shape, os, strides[k]))
            return cc_err_set(err, CC_ERR_ARG, "%s: the inputs do not broadcast to the output", node->op->name);
    const char *base;
    switch (node->op->id) {
    case CC_OP_ID_Equal: base = "elt_equal"; break;
    case CC_OP_ID_Greater: base = "elt_greater"; break;
    case CC_OP_ID_GreaterOrEqual: base = "elt_greater_equal"; break;
    case CC_OP_ID_Less: base = "elt_less"; break;
    case CC_OP_ID_LessOrEqual: base = "elt_less_equal"; break;
    case CC_OP_ID_And: base = "elt_and"; break;
    case CC_OP_ID_Or: base = "elt_or"; break;
    case CC_OP_ID_Xor: base = "elt_xor"; break;
    case CC_OP_ID_Not: base = "elt_not"; break;
    case CC_OP_ID_IsNaN: base = "elt_isnan"; break;
    case CC_OP_ID_IsInf: base = "elt_isinf"; break;
    case CC_OP_ID_BitShift: base = "elt_bitshift"; break;
    default: base = "elt_where"; break;
    }
    const char *sfx = logic_suffix(node, b->in);
    int gslot = -1;
    cc_status st = CC_OK;
    if (m == 1) {
        /* the output has the operand's shape: a flat walk */
    } else if (!where) {
        st = cc_ocl_walk_const(b, &rank, dims, strides, &gslot, err);
    } else {
        cc_ocl_collapse(&rank, dims, 3, strides);
        int geom[4 * CC_MAX_RANK];
        for (int d = 0; d < rank; d++) {
            geom[d] = (int)dims[d];
            for (int k = 0; k < 3; k++) geom[(k + 1) * rank + d] = (int)strides[k][d];
        }
        st = cc_ocl_const(b, geom, sizeof(int) * 4 * (size_t)(rank > 0 ? rank : 1), &gslot, err);
    }
    if (st) return st;
    char name[48], prog[32];
    snprintf(name, sizeof name, "%s_%s", base, sfx);
    snprintf(prog, sizeof prog, "logic_%s", sfx);
    int64_t n = cc_tensor_numel(b->out[0]);
    ocl_launch *l;
    if ((st = cc_ocl_kernel(b, prog, name, &l, err))) return st;
    size_t wg = cc_ocl_wg_limit(b, l, ELT_WG);
    cc_ocl_range1(l, (size_t)n, wg);
    cc_ocl_note(b, "%s wg %zu, %d merged dims", name, wg, rank);
    for (int k = 0; k < m; k++) cc_ocl_arg_mem(l, b->in_slot[k]);
    cc_ocl_arg_mem(l, b->out_slot[0]);
    cc_ocl_arg_int(l, n);
    if (m == 1) {
        if (node->op->id == CC_OP_ID_IsInf) {
            cc_ocl_arg_int(l, cc_attr_i(node, "detect_negative") != 0);
            cc_ocl_arg_int(l, cc_attr_i(node, "detect_positive") != 0);
        }
        return CC_OK;
    }
    cc_ocl_arg_int(l, rank);
    if (!where) {
        cc_ocl_arg_int(l, rank == 1 ? strides[0][0] : 0);
        cc_ocl_arg_int(l, rank == 1 ? strides[1][0] : 0);
    }
    cc_ocl_arg_mem(l, gslot);
    if (node->op->id == CC_OP_ID_BitShift) cc_ocl_arg_int(l, strcmp(cc_attr_s(node, "direction"), "LEFT") == 0);
    return CC_OK;
}

static const ocl_op eltwise_ops[] = {
#define X(Op, name, P0, P1, F) { CC_OP_ID_##Op, unary_supports, unary_prepare },
    CC_ACTIVATIONS(X)
#undef X
    { CC_OP_ID_Clip, unary_supports, unary_prepare },
    { CC_OP_ID_Add, binary_supports, binary_prepare },
    { CC_OP_ID_Sub, binary_supports, binary_prepare },
    { CC_OP_ID_Mul, binary_supports, binary_prepare },
    { CC_OP_ID_Div, binary_supports, binary_prepare },
    { CC_OP_ID_Pow, arith_supports, binary_prepare },
    { CC_OP_ID_PRelu, arith_supports, binary_prepare },
    { CC_OP_ID_Mod, binary_supports, binary_prepare },
    { CC_OP_ID_Min, variadic_supports, variadic_prepare },
    { CC_OP_ID_Max, variadic_supports, variadic_prepare },
    { CC_OP_ID_Sum, variadic_supports, variadic_prepare },
    { CC_OP_ID_Mean, variadic_supports, variadic_prepare },
    { CC_OP_ID_BatchNormalization, bn_supports, bn_prepare },
    { CC_OP_ID_Equal, logic_supports, logic_prepare },
    { CC_OP_ID_Greater, logic_supports, logic_prepare },
    { CC_OP_ID_GreaterOrEqual, logic_supports, logic_prepare },
    { CC_OP_ID_Less, logic_supports, logic_prepare },
    { CC_OP_ID_LessOrEqual, logic_supports, logic_prepare },
    { CC_OP_ID_Where, logic_supports, logic_prepare },
    { CC_OP_ID_And, logic_supports, logic_prepare },
    { CC_OP_ID_Or, logic_supports, logic_prepare },
    { CC_OP_ID_Xor, logic_supports, logic_prepare },
    { CC_OP_ID_Not, logic_supports, logic_prepare },
    { CC_OP_ID_IsNaN, logic_supports, logic_prepare },
    { CC_OP_ID_IsInf, logic_supports, logic_prepare },
    { CC_OP_ID_BitShift, logic_supports, logic_prepare },
};

const ocl_family cc_ocl_family_eltwise = {
    .n = (int)(sizeof eltwise_ops / sizeof eltwise_ops[0]),
    .ops = eltwise_ops,
};
