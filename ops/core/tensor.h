/* tensor.h — shapes and host tensors (row-major, contiguous; NCHW for images). */
#ifndef CC_TENSOR_H
#define CC_TENSOR_H

#include "cc.h"
#include "dtype.h"

#define CC_MAX_RANK 8
/* Largest element count crosscheck accepts for one tensor (2^40). */
#define CC_MAX_NUMEL ((int64_t)1 << 40)

typedef struct cc_shape {
    int rank;                    /* 0 .. CC_MAX_RANK; 0 is a scalar */
    int64_t dims[CC_MAX_RANK];
} cc_shape;

typedef struct cc_tensor {
    cc_dtype dtype;
    cc_shape shape;
    void *data;                  /* NULL for a description only; owned by whoever allocated it */
} cc_tensor;

/* Element count; 1 for rank 0. Callers must have validated the shape (see _checked). */
int64_t cc_shape_numel(const cc_shape *s);
/* Element count with validation: every dim >= 0 and the product <= CC_MAX_NUMEL. */
cc_status cc_shape_numel_checked(const cc_shape *s, int64_t *out, cc_err *err);
int cc_shape_equal(const cc_shape *a, const cc_shape *b);
/* 1 when s has bound's rank and no dim past bound's (the actual shape of a value whose
 * shape follows the data, against the bound it was typed by). */
int cc_shape_within(const cc_shape *s, const cc_shape *bound);
/* Writes "1x64x56x56" ("scalar" for rank 0) into buf; returns buf. */
char *cc_shape_format(const cc_shape *s, char *buf, size_t n);
/* Parses cc_shape_format's text ("1x64x56x56", "scalar"): non-negative decimal dims, at
 * most CC_MAX_RANK of them, at most CC_MAX_NUMEL elements. CC_ERR_ARG with the reason
 * ("malformed shape '1x'", "more than 8 dimensions", ...) otherwise. */
cc_status cc_shape_parse(const char *text, cc_shape *out, cc_err *err);
cc_shape cc_shape_make(int rank, const int64_t *dims);

/* Allocates zeroed data for t (64-byte aligned) for the given dtype and shape; t->data is
 * owned by the caller and released with cc_tensor_free. On error t is untouched. */
cc_status cc_tensor_alloc(cc_tensor *t, cc_dtype dtype, const cc_shape *shape, cc_err *err);
/* Frees t->data (accepts NULL and a tensor without data) and sets it to NULL. */
void cc_tensor_free(cc_tensor *t);
size_t cc_tensor_bytes(const cc_tensor *t);
int64_t cc_tensor_numel(const cc_tensor *t);

#endif
