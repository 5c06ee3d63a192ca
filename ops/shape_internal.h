/* shape_internal.h — shared by the shape family's files (shape.c holds Flatten, Reshape,
 * Transpose, Identity, Dropout; shape_concat.c Concat, Split and Slice; shape_dims.c,
 * shape_index.c and shape_block.c the rest) and by resize.c: reading a small
 * constant ONNX input (Reshape's shape, Slice's starts, Resize's scales) from its tensor or
 * from the case's attribute value, axis normalisation, row-major index helpers and the
 * cost of pure data movement. Not part of the catalog's public face. */
#ifndef CC_SHAPE_INTERNAL_H
#define CC_SHAPE_INTERNAL_H

#include <math.h>
#include <string.h>

#include "op.h"


/* Case dtypes of the data-movement ops: every type they can copy. */
#define SHAPE_DTYPES                                                                         \
    (CC_DTYPES_FLOAT | CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8) | CC_DTYPE_BIT(CC_I32) |    \
     CC_DTYPE_BIT(CC_I64))

/* Output 0 := input 0, element by element, exactly (shape.c): the golden of every op that
 * only changes the shape. */
cc_status shape_copy_golden(const cc_node *node, const cc_tensor *const *in, int n_out, cc_golden *out, cc_err *err);

/* Input i of node, or NULL where absent (beyond node->n_in or not given). */
static inline const cc_tensor *shape_input(const cc_node *node, const cc_tensor *const *in, int i)
{
    return (i >= 0 && i < node->n_in) ? in[i] : NULL;
}

/* Reads the constant integer input number idx, described in the op's schema by the
 * INTS entry `name`. A tensor with data wins (a model's initializer); otherwise the
 * node's attribute value (an op case's id). *present is 0 where neither exists (an
 * empty tensor is present with *n = 0). A present input without data and without attribute
 * value is CC_ERR_UNSUPPORTED: the op needs it constant. At most CC_MAX_INTS values. */
static inline cc_status shape_const_ints(const cc_node *node, const cc_tensor *const *in, int idx,
                                         const char *name, int64_t *vals, int *n, int *present,
                                         cc_err *err)
{
    *n = 0;
    *present = 0;
    const char *op = node->op->name;
    const cc_tensor *t = shape_input(node, in, idx);
    if (t && t->data) {
        if (t->shape.rank > 1)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s must be a 1-D tensor, got rank %d", op, name,
                              t->shape.rank);
        int64_t cnt = cc_shape_numel(&t->shape);
        if (cnt > CC_MAX_INTS)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s has %lld values, at most %d are supported",
                              op, name, (long long)cnt, CC_MAX_INTS);
        if (t->dtype != CC_I64 && t->dtype != CC_I32)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s must be int64, got %s", op, name,
                              cc_dtype_name(t->dtype));
        for (int64_t i = 0; i < cnt; i++) {
            if (t->dtype == CC_I64) memcpy(&vals[i], (const char *)t->data + 8 * i, 8);
            else {
                int32_t v32;
                memcpy(&v32, (const char *)t->data + 4 * i, 4);
                vals[i] = v32;
            }
        }
        *n = (int)cnt;
        *present = 1;
        return CC_OK;
    }
    const cc_attr_value *v = cc_attr_get(node, name);
    if (v->set) {
        for (int i = 0; i < v->n; i++) vals[i] = v->ints[i];
        *n = v->n;
        *present = 1;
        return CC_OK;
    }
    if (t)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s must be a constant input", op, name);
    *n = 0;
    *present = 0;
    return CC_OK;
}

/* As shape_const_ints for a FLOATS entry (Resize's scales and roi); values are read as
 * float32 (the ONNX input's type), so an attribute value is rounded to float32. */
static inline cc_status shape_const_floats(const cc_node *node, const cc_tensor *const *in, int idx,
                                           const char *name, double *vals, int *n, int *present,
                                           cc_err *err)
{
    *n = 0;
    *present = 0;
    const char *op = node->op->name;
    const cc_tensor *t = shape_input(node, in, idx);
    if (t && t->data) {
        if (t->shape.rank > 1)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s must be a 1-D tensor, got rank %d", op, name,
                              t->shape.rank);
        int64_t cnt = cc_shape_numel(&t->shape);
        if (cnt > CC_MAX_INTS)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s has %lld values, at most %d are supported",
                              op, name, (long long)cnt, CC_MAX_INTS);
        if (!cc_dtype_is_float(t->dtype))
            return cc_err_set(err, CC_ERR_ARG, "%s: %s must be a float tensor, got %s", op, name,
                              cc_dtype_name(t->dtype));
        for (int64_t i = 0; i < cnt; i++) vals[i] = cc_load(t->data, t->dtype, (size_t)i);
        *n = (int)cnt;
        *present = 1;
        return CC_OK;
    }
    const cc_attr_value *v = cc_attr_get(node, name);
    if (v->set) {
        for (int i = 0; i < v->n; i++) vals[i] = (double)(float)v->floats[i];
        *n = v->n;
        *present = 1;
        return CC_OK;
    }
    if (t)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s must be a constant input", op, name);
    *n = 0;
    *present = 0;
    return CC_OK;
}

/* Normalises axis (negative counts from the back) into [0, limit); -1 when out of range. */
static inline int shape_axis(int64_t axis, int limit)
{
    if (axis < 0) axis += limit;
    return (axis >= 0 && axis < limit) ? (int)axis : -1;
}

/* Row-major element strides of s. */
static inline void shape_strides(const cc_shape *s, int64_t *st)
{
    int64_t acc = 1;
    for (int i = s->rank - 1; i >= 0; i--) {
        st[i] = acc;
        acc *= s->dims[i];
    }
}

/* Advances the multi-index idx over shape s by one element (row-major, last fastest). */
static inline void shape_next(const cc_shape *s, int64_t *idx)
{
    for (int i = s->rank - 1; i >= 0; i--) {
        if (++idx[i] < s->dims[i]) return;
        idx[i] = 0;
    }
}

/* Golden output element j := element src of x, exactly (S = |value|; 0 for integers;
 * 64-bit integers in exact as well). */
static inline void shape_put(cc_golden *g, int64_t j, const cc_tensor *x, int64_t src)
{
    if (g->exact && (x->dtype == CC_I64 || x->dtype == CC_U64)) {
        cc_golden_put_int(g, j, ((const int64_t *)x->data)[src]);
        return;
    }
    double v = cc_load(x->data, x->dtype, (size_t)src);
    g->value[j] = v;
    g->mag[j] = cc_dtype_is_float(g->dtype) ? fabs(v) : 0.0;
}

/* Cost of pure data movement: no arithmetic; every present input read, every output written. */
static inline void shape_move_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                                   const cc_tensor *out, double *flops, double *bytes)
{
    double b = 0;
    for (int i = 0; i < node->n_in; i++)
        if (in[i]) b += (double)cc_tensor_bytes(in[i]);
    for (int j = 0; j < n_out; j++) b += (double)cc_tensor_bytes(&out[j]);
    *flops = 0;
    *bytes = b;
}

#endif
