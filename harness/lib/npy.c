/* npy.c — the .npy writer: a magic string, a little-endian header dict padded to a
 * multiple of 64 bytes, then the raw C-order data. */
#include "npy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *descr(cc_dtype d)
{
    switch (d) {
    case CC_F32: return "<f4";
    case CC_F16: return "<f2";
    case CC_BF16: return "<f4"; /* widened, see npy.h */
    case CC_I8: return "|i1";
    case CC_U8: return "|u1";
    case CC_I32: return "<i4";
    case CC_I64: return "<i8";
    case CC_BOOL: return "|b1";
    default: return "|u1";
    }
}

static cc_status write_file(const char *path, const char *dtype_descr, const cc_shape *shape,
                            const void *data, size_t bytes, cc_err *err)
{
    char dict[512], dims[256];
    size_t len = 0;
    dims[0] = '\0';
    for (int i = 0; i < shape->rank; i++)
        len += (size_t)snprintf(dims + len, sizeof dims - len, "%lld,%s", (long long)shape->dims[i],
                                (shape->rank > 1 && i < shape->rank - 1) ? " " : "");
    if (shape->rank > 1 && len > 0 && dims[len - 1] == ',') dims[len - 1] = '\0';
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }",
                     dtype_descr, dims);
    /* magic(6) + version(2) + header_len(2) + dict + padding + '\n' = multiple of 64 */
    size_t total = 10 + (size_t)n + 1;
    size_t pad = (64 - total % 64) % 64;
    FILE *f = fopen(path, "wb");
    if (!f) return cc_err_set(err, CC_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    unsigned short hlen = (unsigned short)((size_t)n + pad + 1);
    unsigned char head[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                               (unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8) };
    int ok = fwrite(head, 1, 10, f) == 10 && fwrite(dict, 1, (size_t)n, f) == (size_t)n;
    for (size_t i = 0; ok && i < pad; i++) ok = fputc(' ', f) != EOF;
    ok = ok && fputc('\n', f) != EOF;
    ok = ok && (bytes == 0 || fwrite(data, 1, bytes, f) == bytes);
    if (fclose(f) != 0) ok = 0;
    if (!ok) return cc_err_set(err, CC_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    return CC_OK;
}

cc_status cc_npy_write(const char *path, const cc_tensor *t, cc_err *err)
{
    int64_t n = cc_tensor_numel(t);
    if (t->dtype == CC_BF16) {
        float *w = malloc(sizeof(float) * (size_t)(n ? n : 1));
        if (!w) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        for (int64_t i = 0; i < n; i++) w[i] = cc_bf16_to_f32(((const uint16_t *)t->data)[i]);
        cc_status st = write_file(path, "<f4", &t->shape, w, sizeof(float) * (size_t)n, err);
        free(w);
        return st;
    }
    return write_file(path, descr(t->dtype), &t->shape, t->data, cc_tensor_bytes(t), err);
}

cc_status cc_npy_write_f64(const char *path, const double *data, const cc_shape *shape, cc_err *err)
{
    return write_file(path, "<f8", shape, data, sizeof(double) * (size_t)cc_shape_numel(shape), err);
}
