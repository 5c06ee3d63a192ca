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
    case CC_F64: return "<f8";
    case CC_I16: return "<i2";
    case CC_U16: return "<u2";
    case CC_U32: return "<u4";
    case CC_U64: return "<u8";
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

/* ---- reading ------------------------------------------------------------------------------ */

/* The value of key in a header dict: the text after "'key':" with spaces skipped, or NULL. */
static const char *dict_value(const char *dict, const char *key)
{
    char pat[32];
    snprintf(pat, sizeof pat, "'%s'", key);
    const char *p = strstr(dict, pat);
    if (!p) return NULL;
    p += strlen(pat);
    while (*p == ' ') p++;
    if (*p != ':') return NULL;
    p++;
    while (*p == ' ') p++;
    return p;
}

cc_status cc_npy_read(const char *path, cc_tensor *out, cc_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return cc_err_set(err, CC_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    unsigned char head[12];
    cc_status st = CC_OK;
    char *dict = NULL;
    void *data = NULL;
    if (fread(head, 1, 10, f) != 10 || memcmp(head, "\x93NUMPY", 6) != 0) {
        st = cc_err_set(err, CC_ERR_ARG, "%s: not an .npy file (no \\x93NUMPY magic)", path);
        goto done;
    }
    size_t hlen;
    if (head[6] == 1) {
        hlen = (size_t)head[8] | (size_t)head[9] << 8;
    } else if (head[6] == 2 || head[6] == 3) {
        if (fread(head + 10, 1, 2, f) != 2) {
            st = cc_err_set(err, CC_ERR_ARG, "%s: truncated .npy header", path);
            goto done;
        }
        hlen = (size_t)head[8] | (size_t)head[9] << 8 | (size_t)head[10] << 16 | (size_t)head[11] << 24;
    } else {
        st = cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: .npy format version %d is not supported", path, head[6]);
        goto done;
    }
    if (hlen == 0 || hlen > 65536) {
        st = cc_err_set(err, CC_ERR_ARG, "%s: .npy header of %zu bytes", path, hlen);
        goto done;
    }
    if (!(dict = malloc(hlen + 1))) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (fread(dict, 1, hlen, f) != hlen) {
        st = cc_err_set(err, CC_ERR_ARG, "%s: truncated .npy header", path);
        goto done;
    }
    dict[hlen] = '\0';
    for (size_t i = 0; i < hlen; i++)
        if (dict[i] == '\0') dict[i] = ' ';
    const char *d = dict_value(dict, "descr"), *fo = dict_value(dict, "fortran_order"), *sh = dict_value(dict, "shape");
    if (!d || !fo || !sh || *d != '\'' || *sh != '(') {
        st = cc_err_set(err, CC_ERR_ARG, "%s: the .npy header lacks descr, fortran_order or shape", path);
        goto done;
    }
    if (strncmp(fo, "False", 5) != 0) {
        st = cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: Fortran-order .npy data is not supported", path);
        goto done;
    }
    static const struct {
        const char *descr;
        cc_dtype dt;
        int size;
    } kinds[] = {
        { "'<f4'", CC_F32, 4 }, { "'<f2'", CC_F16, 2 }, { "'<f8'", CC_F32, 8 }, { "'|i1'", CC_I8, 1 },
        { "'|u1'", CC_U8, 1 },  { "'<i4'", CC_I32, 4 }, { "'<i8'", CC_I64, 8 }, { "'|b1'", CC_BOOL, 1 },
    };
    int kind = -1;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] && kind < 0; k++)
        if (!strncmp(d, kinds[k].descr, strlen(kinds[k].descr))) kind = (int)k;
    if (kind < 0) {
        const char *end = strchr(d + 1, '\'');
        int len = end ? (int)(end - d - 1) : 0;
        st = cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: .npy dtype '%.*s' is not supported (f4, f2, f8, i1, u1, i4, i8, b1, "
                        "little-endian)", path, len > 16 ? 16 : len, d + 1);
        goto done;
    }
    cc_shape shape;
    shape.rank = 0;
    const char *p = sh + 1;
    for (;;) {
        while (*p == ' ' || *p == ',') p++;
        if (*p == ')') break;
        if (*p < '0' || *p > '9' || shape.rank == CC_MAX_RANK) {
            st = cc_err_set(err, shape.rank == CC_MAX_RANK ? CC_ERR_UNSUPPORTED : CC_ERR_ARG,
                            "%s: the .npy shape is malformed or has more than %d dims", path, CC_MAX_RANK);
            goto done;
        }
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (v > (1ull << 40)) {
            st = cc_err_set(err, CC_ERR_ARG, "%s: .npy dim %llu is too large", path, v);
            goto done;
        }
        shape.dims[shape.rank++] = (int64_t)v;
        p = end;
    }
    int64_t n;
    cc_err e;
    if (cc_shape_numel_checked(&shape, &n, &e)) {
        st = cc_err_set(err, CC_ERR_ARG, "%s: %s", path, e.msg);
        goto done;
    }
    size_t bytes = (size_t)n * (size_t)kinds[kind].size;
    /* the data must be in the file before anything that size is allocated */
    long here = ftell(f), size = -1;
    if (here >= 0 && fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    if (size < 0 || fseek(f, here, SEEK_SET) != 0) {
        st = cc_err_set(err, CC_ERR_IO, "cannot read %s: %s", path, strerror(errno));
        goto done;
    }
    if ((unsigned long long)(size - here) < (unsigned long long)bytes) {
        st = cc_err_set(err, CC_ERR_ARG, "%s: the .npy data is shorter than its shape says", path);
        goto done;
    }
    if (n > 0 && !(data = malloc(bytes))) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (n > 0 && fread(data, 1, bytes, f) != bytes) {
        st = cc_err_set(err, CC_ERR_ARG, "%s: the .npy data is shorter than its shape says", path);
        goto done;
    }
    cc_tensor t;
    memset(&t, 0, sizeof t);
    if ((st = cc_tensor_alloc(&t, kinds[kind].dt, &shape, err))) goto done;
    if (kinds[kind].size == 8 && kinds[kind].dt == CC_F32) {
        for (int64_t i = 0; i < n; i++) {
            double v;
            memcpy(&v, (const char *)data + (size_t)i * 8, 8);
            ((float *)t.data)[i] = (float)v;
        }
    } else if (n > 0) {
        memcpy(t.data, data, bytes);
        if (kinds[kind].dt == CC_BOOL)
            for (int64_t i = 0; i < n; i++) ((unsigned char *)t.data)[i] = ((unsigned char *)t.data)[i] != 0;
    }
    *out = t;
done:
    free(dict);
    free(data);
    fclose(f);
    return st;
}
