/* eltwise_internal.h — what the elementwise op files share (ops/eltwise_binary.c defines
 * it): multidirectional (numpy) broadcasting of shapes and integer element access. Not
 * part of the catalog's face (op.h). */
#ifndef CC_ELTWISE_INTERNAL_H
#define CC_ELTWISE_INTERNAL_H

#include "op.h"

/* Multidirectional broadcasting of a and b into *out: shapes are aligned at their last
 * dimension; each pair of dimensions must be equal or one of them 1 (a 1 against a 0
 * gives 0). One-line CC_ERR_ARG starting with `op` otherwise; *out is written only on
 * success. */
cc_status cc_eltwise_broadcast(const char *op, const cc_shape *a, const cc_shape *b, cc_shape *out,
                               cc_err *err);

/* Element strides of x seen through the output shape out (x broadcasts to it): 0 along
 * broadcast dimensions. strides has out->rank entries. */
void cc_eltwise_broadcast_strides(const cc_shape *x, const cc_shape *out, int64_t *strides);

/* Element i of integer data of dtype d (i8, u8, i32, i64) in its own type; 0 for others. */
int64_t cc_eltwise_load_int(const void *data, cc_dtype d, int64_t i);

/* The low bits of u as a value of dtype d (two's complement wrap-around). */
int64_t cc_eltwise_wrap_int(uint64_t u, cc_dtype d);

#endif
