/* tensor.c — shapes and host tensor allocation. */
#include "tensor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t cc_shape_numel(const cc_shape *s)
{
    int64_t n = 1;
    for (int i = 0; i < s->rank; i++) n *= s->dims[i];
    return n;
}

cc_status cc_shape_numel_checked(const cc_shape *s, int64_t *out, cc_err *err)
{
    if (s->rank < 0 || s->rank > CC_MAX_RANK)
        return cc_err_set(err, CC_ERR_ARG, "rank %d outside 0..%d", s->rank, CC_MAX_RANK);
    int64_t n = 1;
    for (int i = 0; i < s->rank; i++) {
        int64_t d = s->dims[i];
        if (d < 0) return cc_err_set(err, CC_ERR_ARG, "dimension %d is negative (%lld)", i, (long long)d);
        if (d != 0 && n > CC_MAX_NUMEL / d)
            return cc_err_set(err, CC_ERR_ARG, "element count overflows (more than 2^40 elements)");
        n *= d;
    }
    *out = n;
    return CC_OK;
}

int cc_shape_equal(const cc_shape *a, const cc_shape *b)
{
    if (a->rank != b->rank) return 0;
    for (int i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i]) return 0;
    return 1;
}

int cc_shape_within(const cc_shape *s, const cc_shape *bound)
{
    if (s->rank != bound->rank) return 0;
    for (int d = 0; d < s->rank; d++)
        if (s->dims[d] > bound->dims[d]) return 0;
    return 1;
}

cc_status cc_shape_parse(const char *text, cc_shape *out, cc_err *err)
{
    memset(out, 0, sizeof *out);
    if (strcmp(text, "scalar") == 0) return CC_OK;
    const char *p = text;
    while (*p) {
        if (out->rank == CC_MAX_RANK) return cc_err_set(err, CC_ERR_ARG, "more than %d dimensions", CC_MAX_RANK);
        if (*p < '0' || *p > '9') return cc_err_set(err, CC_ERR_ARG, "malformed shape '%.64s'", text);
        char *end;
        long long d = strtoll(p, &end, 10);
        if (d > CC_MAX_NUMEL) return cc_err_set(err, CC_ERR_ARG, "dimension %lld is too large", d);
        out->dims[out->rank++] = d;
        p = end;
        if (*p == 'x') {
            p++;
            if (!*p) return cc_err_set(err, CC_ERR_ARG, "malformed shape '%.64s'", text);
        } else if (*p) {
            return cc_err_set(err, CC_ERR_ARG, "malformed shape '%.64s'", text);
        }
    }
    if (out->rank == 0) return cc_err_set(err, CC_ERR_ARG, "empty shape");
    int64_t n;
    return cc_shape_numel_checked(out, &n, err);
}

char *cc_shape_format(const cc_shape *s, char *buf, size_t n)
{
    if (n == 0) return buf;
    buf[0] = '\0';
    if (s->rank == 0) {
        snprintf(buf, n, "scalar");
        return buf;
    }
    size_t len = 0;
    for (int i = 0; i < s->rank && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, i ? "x%lld" : "%lld", (long long)s->dims[i]);
    return buf;
}

cc_shape cc_shape_make(int rank, const int64_t *dims)
{
    cc_shape s;
    memset(&s, 0, sizeof s);
    s.rank = rank;
    for (int i = 0; i < rank; i++) s.dims[i] = dims[i];
    return s;
}

int64_t cc_tensor_numel(const cc_tensor *t) { return cc_shape_numel(&t->shape); }

size_t cc_tensor_bytes(const cc_tensor *t)
{
    return (size_t)cc_shape_numel(&t->shape) * cc_dtype_size(t->dtype);
}

cc_status cc_tensor_alloc(cc_tensor *t, cc_dtype dtype, const cc_shape *shape, cc_err *err)
{
    int64_t n;
    cc_status st = cc_shape_numel_checked(shape, &n, err);
    if (st) return st;
    size_t bytes = (size_t)n * cc_dtype_size(dtype);
    size_t padded = (bytes + 63) / 64 * 64;
    if (padded == 0) padded = 64;
    void *p = aligned_alloc(64, padded);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "out of memory allocating %zu bytes", padded);
    memset(p, 0, padded);
    t->dtype = dtype;
    t->shape = *shape;
    t->data = p;
    return CC_OK;
}

void cc_tensor_free(cc_tensor *t)
{
    if (!t) return;
    free(t->data);
    t->data = NULL;
}
