/* onnx_tensor.c — the byte level of ONNX import: reading files, unpacking protobuf
 * messages (and, when that fails, finding where the bytes stop being valid protobuf for
 * the schema, so the user reads "failed at byte 812" instead of "failed"), data types, and
 * TensorProto -> host tensor conversion (raw_data, little-endian, or the typed fields). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "onnx_internal.h"

/* ---- files ------------------------------------------------------------------------- */

cc_status cc_onnx_read_file(const char *path, uint8_t **buf, size_t *len, cc_err *err)
{
    struct stat sb;
    if (stat(path, &sb) != 0) return cc_err_set(err, CC_ERR_IO, "%s: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode)) return cc_err_set(err, CC_ERR_IO, "%s: not a regular file", path);
    if ((uint64_t)sb.st_size > (uint64_t)CC_ONNX_MAX_FILE)
        return cc_err_set(err, CC_ERR_IO, "%s: %lld bytes, more than protobuf's 2 GiB limit", path,
                          (long long)sb.st_size);
    if (sb.st_size == 0) return cc_err_set(err, CC_ERR_ARG, "%s: empty file", path);
    FILE *f = fopen(path, "rb");
    if (!f) return cc_err_set(err, CC_ERR_IO, "%s: %s", path, strerror(errno));
    size_t n = (size_t)sb.st_size;
    uint8_t *p = malloc(n);
    if (!p) {
        fclose(f);
        return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory reading %zu bytes", path, n);
    }
    size_t got = fread(p, 1, n, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || got != n) {
        free(p);
        return cc_err_set(err, CC_ERR_IO, "%s: read %zu of %zu bytes%s", path, got, n,
                          bad ? " (read error)" : " (the file shrank while being read)");
    }
    *buf = p;
    *len = n;
    return CC_OK;
}

/* ---- protobuf unpacking with a diagnosis --------------------------------------------- */

typedef struct wire_diag {
    size_t at;           /* absolute byte offset of the problem */
    char text[160];      /* the problem, naming the field by its dotted path */
} wire_diag;

static int read_varint(const uint8_t *p, size_t len, size_t *pos, uint64_t *v)
{
    uint64_t r = 0;
    for (int i = 0; i < 10; i++) {
        if (*pos >= len) return -1;
        uint8_t b = p[(*pos)++];
        r |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *v = r;
            return 0;
        }
    }
    return -1;
}

/* Records the problem `what` at byte `at`: of field `name` of the message at `prefix`, or
 * of that message itself where name is "". */
static void diag_set(wire_diag *d, size_t at, const char *prefix, const char *name, const char *what)
{
    d->at = at;
    if (name[0]) snprintf(d->text, sizeof d->text, "field %s%s%s %s", prefix, prefix[0] ? "." : "", name, what);
    else if (prefix[0]) snprintf(d->text, sizeof d->text, "%s inside %s", what, prefix);
    else snprintf(d->text, sizeof d->text, "%s", what);
}

/* Walks p[0..len) as a message of type desc (at absolute offset base); returns 0 when the
 * wire format is consistent with the schema, else -1 with *d filled. Depth-limited like
 * protobuf-c itself. */
static int wire_scan(const ProtobufCMessageDescriptor *desc, const uint8_t *p, size_t len, size_t base,
                     const char *prefix, int depth, wire_diag *d)
{
    if (depth > 64) {
        diag_set(d, base, prefix, "", "messages nested too deeply");
        return -1;
    }
    size_t pos = 0;
    while (pos < len) {
        size_t start = pos;
        uint64_t tag;
        if (read_varint(p, len, &pos, &tag)) {
            diag_set(d, base + start, prefix, "", "a field tag is cut off");
            return -1;
        }
        if ((tag >> 3) == 0 || (tag >> 3) > 536870911u) { /* protobuf field numbers are 1 .. 2^29 - 1 */
            diag_set(d, base + start, prefix, "", "an invalid field number");
            return -1;
        }
        uint32_t num = (uint32_t)(tag >> 3);
        int wire = (int)(tag & 7);
        const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(desc, num);
        char unknown[24];
        snprintf(unknown, sizeof unknown, "#%u", (unsigned)num);
        const char *fname = f ? f->name : unknown;
        uint64_t n;
        switch (wire) {
        case 0:
            if (read_varint(p, len, &pos, &n)) {
                diag_set(d, base + start, prefix, fname, "has a number cut off");
                return -1;
            }
            break;
        case 1:
        case 5: {
            size_t w = wire == 1 ? 8 : 4;
            if (len - pos < w) {
                diag_set(d, base + start, prefix, fname, "has a fixed-size value running past the end");
                return -1;
            }
            pos += w;
            break;
        }
        case 2:
            if (read_varint(p, len, &pos, &n) || n > len - pos) {
                diag_set(d, base + start, prefix, fname, "runs past the end");
                return -1;
            }
            if (f && f->type == PROTOBUF_C_TYPE_MESSAGE) {
                char sub[96];
                snprintf(sub, sizeof sub, "%s%s%s", prefix, prefix[0] ? "." : "", fname);
                if (wire_scan(f->descriptor, p + pos, (size_t)n, base + pos, sub, depth + 1, d)) return -1;
            }
            pos += (size_t)n;
            break;
        default:
            diag_set(d, base + start, prefix, fname, "has an invalid wire type");
            return -1;
        }
        if (f) {
            int want_len = f->type == PROTOBUF_C_TYPE_STRING || f->type == PROTOBUF_C_TYPE_BYTES ||
                           f->type == PROTOBUF_C_TYPE_MESSAGE;
            int packed_ok = f->label == PROTOBUF_C_LABEL_REPEATED && !want_len;
            if (want_len && wire != 2) {
                diag_set(d, base + start, prefix, fname, "should be length-delimited");
                return -1;
            }
            if (!want_len && wire == 2 && !packed_ok) {
                diag_set(d, base + start, prefix, fname, "is length-delimited where a number belongs");
                return -1;
            }
        }
    }
    return 0;
}

cc_status cc_onnx_unpack(const char *path, const char *what, const ProtobufCMessageDescriptor *desc,
                         const uint8_t *buf, size_t len, ProtobufCMessage **out, cc_err *err)
{
    /* the schema walk first: it is depth-limited, while protobuf-c's unpack recurses once
     * per nesting level and a few kilobytes of nested graphs overflow the stack */
    wire_diag d = { 0 };
    if (wire_scan(desc, buf, len, 0, "", 0, &d) != 0)
        return cc_err_set(err, CC_ERR_ARG, "%s: not a valid %s (protobuf parse failed at byte %zu of %zu: %s)", path,
                          what, d.at, len, d.text);
    ProtobufCMessage *m = protobuf_c_message_unpack(desc, NULL, len, buf);
    if (m) {
        *out = m;
        return CC_OK;
    }
    return cc_err_set(err, CC_ERR_ARG, "%s: not a valid %s (protobuf parse failed)", path, what);
}

cc_status cc_onnx_one_line(cc_err *err, cc_status st)
{
    if (err)
        for (char *c = err->msg; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    return st;
}

/* ---- data types ---------------------------------------------------------------------- */

/* TensorProto.DataType's numbers are ONNX's own (ops/core/dtype.h knows them). */
int cc_onnx_dtype(int32_t t, cc_dtype *out)
{
    return cc_dtype_from_onnx(t, out, NULL);
}

const char *cc_onnx_type_name(int32_t t, char *buf, size_t n)
{
    const ProtobufCEnumValue *v =
        protobuf_c_enum_descriptor_get_value(&onnx__tensor_proto__data_type__descriptor, t);
    if (v) snprintf(buf, n, "%s", v->name);
    else snprintf(buf, n, "type %d", (int)t);
    return buf;
}

/* ---- TensorProto -> tensor ---------------------------------------------------------- */

/* Little-endian element i of width w bytes from raw bytes. */
static uint64_t le_load(const uint8_t *p, size_t w, size_t i)
{
    uint64_t v = 0;
    for (size_t b = 0; b < w; b++) v |= (uint64_t)p[i * w + b] << (8 * b);
    return v;
}

/* Stores the bit pattern v (w bytes wide) as element i in host order. */
static void host_store(void *dst, size_t w, size_t i, uint64_t v)
{
    uint8_t *d = (uint8_t *)dst + i * w;
    switch (w) {
    case 1: *d = (uint8_t)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(d, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(d, &x, 4); break; }
    default: memcpy(d, &v, 8); break;
    }
}

cc_status cc_onnx_tensor(const char *path, const char *what, const Onnx__TensorProto *tp, cc_tensor *out,
                         cc_err *err)
{
    char tn[48];
    if (tp->has_data_location && tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "%s: %s keeps its data in an external file, which is not supported", path, what);
    if (tp->segment) return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s is a segment of a tensor, which is not supported", path, what);
    if (!tp->has_data_type || tp->data_type == ONNX__TENSOR_PROTO__DATA_TYPE__UNDEFINED)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s has no data type", path, what);
    cc_dtype dt;
    if (cc_onnx_dtype(tp->data_type, &dt))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s has data type %s, which crosscheck does not support",
                          path, what, cc_onnx_type_name(tp->data_type, tn, sizeof tn));
    if (tp->n_dims > CC_MAX_RANK)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s has rank %zu, more than %d", path, what, tp->n_dims,
                          CC_MAX_RANK);
    cc_shape s;
    memset(&s, 0, sizeof s);
    s.rank = (int)tp->n_dims;
    for (size_t i = 0; i < tp->n_dims; i++) s.dims[i] = tp->dims[i];
    int64_t n;
    cc_err e = { 0 };
    if (cc_shape_numel_checked(&s, &n, &e)) return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s", path, what, e.msg);
    size_t w = cc_dtype_size(dt);

    /* Where the values are: raw_data, or the typed field this data type uses. */
    size_t have = 0;
    const char *field = "raw_data";
    int use_raw = tp->has_raw_data && tp->raw_data.len > 0;
    if (use_raw) {
        if (tp->raw_data.len % w != 0 || tp->raw_data.len / w != (uint64_t)n)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s has %zu bytes of raw_data, shape %lld elements of %s need %lld",
                              path, what, tp->raw_data.len, (long long)n, cc_dtype_name(dt),
                              (long long)((uint64_t)n * w));
        have = (size_t)n;
    } else {
        switch (dt) {
        case CC_F32: have = tp->n_float_data; field = "float_data"; break;
        case CC_I64: have = tp->n_int64_data; field = "int64_data"; break;
        default: have = tp->n_int32_data; field = "int32_data"; break;
        }
        if (have != (size_t)n) {
            if (tp->n_string_data || tp->n_double_data || tp->n_uint64_data)
                return cc_err_set(err, CC_ERR_ARG, "%s: %s stores its values in a field that does not belong to %s",
                                  path, what, cc_onnx_type_name(tp->data_type, tn, sizeof tn));
            return cc_err_set(err, CC_ERR_ARG, "%s: %s has %zu values in %s, its shape needs %lld", path, what,
                              have, field, (long long)n);
        }
    }
    cc_tensor t = { 0 };
    cc_status st = cc_tensor_alloc(&t, dt, &s, err);
    if (st) return st;
    for (size_t i = 0; i < (size_t)n; i++) {
        if (use_raw) {
            host_store(t.data, w, i, le_load(tp->raw_data.data, w, i));
            continue;
        }
        switch (dt) {
        case CC_F32: ((float *)t.data)[i] = tp->float_data[i]; break;
        case CC_I64: ((int64_t *)t.data)[i] = tp->int64_data[i]; break;
        case CC_I32: ((int32_t *)t.data)[i] = tp->int32_data[i]; break;
        case CC_F16:
        case CC_BF16: host_store(t.data, 2, i, (uint16_t)tp->int32_data[i]); break; /* the bit pattern */
        case CC_BOOL: ((uint8_t *)t.data)[i] = tp->int32_data[i] != 0; break;
        default: {
            int32_t v = tp->int32_data[i];
            if (v < cc_dtype_min(dt) || v > cc_dtype_max(dt)) {
                cc_tensor_free(&t);
                return cc_err_set(err, CC_ERR_ARG, "%s: %s: value %d at %zu is out of range for %s", path, what,
                                  (int)v, i, cc_dtype_name(dt));
            }
            cc_store(t.data, dt, i, (double)v);
        }
        }
    }
    if (dt == CC_BOOL && use_raw)
        for (size_t i = 0; i < (size_t)n; i++) ((uint8_t *)t.data)[i] = ((uint8_t *)t.data)[i] != 0;
    *out = t;
    return CC_OK;
}

cc_status cc_onnx_read_tensor(const char *path, cc_tensor *out, char *name, size_t name_size, cc_err *err)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    ProtobufCMessage *m = NULL;
    cc_status st = cc_onnx_read_file(path, &buf, &len, err);
    if (st) return cc_onnx_one_line(err, st);
    st = cc_onnx_unpack(path, "ONNX tensor", &onnx__tensor_proto__descriptor, buf, len, &m, err);
    free(buf);
    if (st) return cc_onnx_one_line(err, st);
    const Onnx__TensorProto *tp = (const Onnx__TensorProto *)m;
    char what[96];
    snprintf(what, sizeof what, "tensor '%s'", tp->name ? tp->name : "");
    cc_tensor t;
    st = cc_onnx_tensor(path, what, tp, &t, err);
    if (st == CC_OK) {
        *out = t;
        if (name && name_size) snprintf(name, name_size, "%s", tp->name ? tp->name : "");
    }
    protobuf_c_message_free_unpacked(m, NULL);
    return cc_onnx_one_line(err, st);
}
