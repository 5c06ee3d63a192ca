/* op.c — attribute schema handling (defaults, parsing, canonical formatting, access by
 * name) and case-list appending, shared by every op family. */
#include "op.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"

int cc_attr_index(const cc_op_def *op, const char *name)
{
    for (int i = 0; i < op->n_attrs; i++)
        if (strcmp(op->attrs[i].name, name) == 0) return i;
    return -1;
}

const cc_attr_value *cc_attr_get(const cc_node *n, const char *name)
{
    int i = cc_attr_index(n->op, name);
    assert(i >= 0 && "attribute not in the op's schema");
    return &n->attrs[i];
}

int64_t cc_attr_i(const cc_node *n, const char *name)
{
    int i = cc_attr_index(n->op, name);
    assert(i >= 0 && n->op->attrs[i].kind == CC_ATTR_INT);
    return n->attrs[i].i;
}

double cc_attr_f(const cc_node *n, const char *name)
{
    int i = cc_attr_index(n->op, name);
    assert(i >= 0 && n->op->attrs[i].kind == CC_ATTR_FLOAT);
    return n->attrs[i].f;
}

const char *cc_attr_s(const cc_node *n, const char *name)
{
    int i = cc_attr_index(n->op, name);
    assert(i >= 0 && n->op->attrs[i].kind == CC_ATTR_STRING);
    return n->attrs[i].s;
}

const char *cc_attr_str_at(const cc_node *n, const char *name, int k)
{
    int i = cc_attr_index(n->op, name);
    assert(i >= 0 && n->op->attrs[i].kind == CC_ATTR_STRINGS);
    const cc_attr_value *v = &n->attrs[i];
    return v->set && k >= 0 && k < v->n ? v->strs[k] : NULL;
}

cc_status cc_attr_value_tensor(const cc_attr_value *v, cc_tensor *t, cc_err *err)
{
    cc_status st = cc_tensor_alloc(t, v->tdtype, &v->tshape, err);
    if (st) return st;
    for (int k = 0; k < v->n; k++) {
        if (v->tdtype == CC_I64) ((int64_t *)t->data)[k] = v->ints[k];
        else cc_store(t->data, v->tdtype, (size_t)k, v->floats[k]);
    }
    return CC_OK;
}

cc_status cc_attr_tensor(const cc_node *n, const char *name, cc_tensor *t, cc_err *err)
{
    int i = cc_attr_index(n->op, name);
    assert(i >= 0 && n->op->attrs[i].kind == CC_ATTR_TENSOR);
    const cc_attr_value *v = &n->attrs[i];
    if (!v->set) return cc_err_set(err, CC_ERR_ARG, "%s: attribute %s is absent", n->op->name, name);
    return cc_attr_value_tensor(v, t, err);
}

static const char *kind_name(cc_attr_kind k)
{
    switch (k) {
    case CC_ATTR_INT: return "an integer";
    case CC_ATTR_FLOAT: return "a number";
    case CC_ATTR_INTS: return "a list of integers";
    case CC_ATTR_FLOATS: return "a list of numbers";
    case CC_ATTR_STRING: return "a word or a quoted string";
    case CC_ATTR_STRINGS: return "a list of words";
    case CC_ATTR_TENSOR: return "a tensor (dtype:[values])";
    case CC_ATTR_GRAPH: return "a graph (which a case id cannot write)";
    }
    return "?";
}

/* 1 when s[0..len) is a word of case-id syntax (letters, digits, '_', '-', '.'). */
static int is_word(const char *s, size_t len)
{
    if (len == 0 || len >= CC_ATTR_STR) return 0;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.') return 0;
    return 1;
}

/* The bytes of the quoted string s[0..len) ('"' first and last; inside, printable ASCII
 * with \" for a quote, \\ for a backslash and \xHH for any other byte but NUL) into out
 * (CC_ATTR_STR bytes). 0 on success; -1 for anything else, or a string too long. */
static int unquote(const char *s, size_t len, char *out)
{
    if (len < 2 || s[0] != '"' || s[len - 1] != '"') return -1;
    size_t i = 1, n = 0;
    while (i < len - 1) {
        unsigned char c = (unsigned char)s[i++];
        if (c == '"' || c < 0x20 || c > 0x7e) return -1;
        if (c == '\\') {
            c = (unsigned char)s[i++];
            if (c == 'x') {
                if (i + 2 > len - 1 || !isxdigit((unsigned char)s[i]) || !isxdigit((unsigned char)s[i + 1])) return -1;
                char hex[3] = { s[i], s[i + 1], '\0' };
                c = (unsigned char)strtoul(hex, NULL, 16);
                if (c == 0) return -1;
                i += 2;
            } else if (c != '"' && c != '\\') {
                return -1;
            }
        }
        if (n + 1 >= CC_ATTR_STR) return -1;
        out[n++] = (char)c;
    }
    if (i != len - 1) return -1; /* the last quote was escaped: the string never closes */
    out[n] = '\0';
    return 0;
}

/* s quoted as unquote() reads it: a quote and a backslash escaped, every byte outside
 * printable ASCII as \xHH, and an apostrophe as \x27 too: a canonical id stays whole within
 * the shell's single quotes of a repro line (crosscheck run --case '<id>'). */
static void quote(const char *s, char *buf, size_t n)
{
    size_t len = 0;
    if (n < 3) {
        if (n) buf[0] = '\0';
        return;
    }
    buf[len++] = '"';
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char e[8];
        if (*p == '"' || *p == '\\') snprintf(e, sizeof e, "\\%c", *p);
        else if (*p < 0x20 || *p > 0x7e || *p == '\'') snprintf(e, sizeof e, "\\x%02x", *p);
        else snprintf(e, sizeof e, "%c", *p);
        size_t el = strlen(e);
        if (len + el + 2 > n) break;
        memcpy(buf + len, e, el);
        len += el;
    }
    buf[len++] = '"';
    buf[len] = '\0';
}

const char *cc_attr_text_end(const char *p, const char *end, const char *stops)
{
    int depth = 0;
    while (p < end) {
        if (*p == '"') {
            for (p++; p < end && *p != '"'; p++)
                if (*p == '\\' && p + 1 < end) p++;
            if (p < end) p++;
            continue;
        }
        if (depth == 0 && strchr(stops, *p)) return p;
        if (*p == '[') depth++;
        if (*p == ']') depth--;
        p++;
    }
    return end;
}

static int parse_int(const char *s, size_t len, int64_t *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf) return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

/* A float literal of an attribute or a float32 constant input (wide = 0: rounded to
 * float32) or of an f64 constant input (wide = 1: the double as written). */
static int parse_float(const char *s, size_t len, double *out, int wide)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf) return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (*end || (errno && !isinf(v) && v != 0)) return -1;
    if (isnan(v)) return -1; /* no catalog attribute means anything with NaN */
    /* ONNX float attributes and float constant inputs are float32; a literal past its
       range (1e39, 1e999) is refused, not taken for infinity: only "inf" says that */
    if ((wide ? isinf(v) : isinf((float)v)) && !strcasestr(buf, "inf")) return -1;
    *out = wide ? v : (double)(float)v;
    return 0;
}

static cc_status attr_parse(cc_attr_kind kind, const char *text, cc_attr_value *v, int wide, cc_err *err);

cc_status cc_attr_parse(cc_attr_kind kind, const char *text, cc_attr_value *v, cc_err *err)
{
    return attr_parse(kind, text, v, 0, err);
}

/* wide: float elements are an f64 tensor's, read as doubles */
static cc_status attr_parse(cc_attr_kind kind, const char *text, cc_attr_value *v, int wide, cc_err *err)
{
    cc_attr_value r;
    memset(&r, 0, sizeof r);
    r.set = 1;
    size_t len = strlen(text);
    switch (kind) {
    case CC_ATTR_GRAPH: goto bad; /* only the importer and the model builder make one */
    case CC_ATTR_INT:
        if (parse_int(text, len, &r.i)) goto bad;
        break;
    case CC_ATTR_FLOAT:
        if (parse_float(text, len, &r.f, wide)) goto bad;
        break;
    case CC_ATTR_STRING:
        if (text[0] == '"') {
            if (unquote(text, len, r.s)) goto bad;
        } else {
            if (!is_word(text, len)) goto bad;
            memcpy(r.s, text, len + 1);
        }
        break;
    case CC_ATTR_TENSOR: {
        /* dtype:[v,...] (rank 1) or dtype:v (rank 0); the elements as a list of the dtype's kind */
        const char *colon = strchr(text, ':');
        char dt[16];
        if (!colon || (size_t)(colon - text) >= sizeof dt) goto bad;
        memcpy(dt, text, (size_t)(colon - text));
        dt[colon - text] = '\0';
        if (cc_dtype_parse(dt, &r.tdtype)) goto bad;
        const char *body = colon + 1;
        int rank1 = body[0] == '[';
        cc_attr_value list;
        cc_attr_kind lk = cc_dtype_is_float(r.tdtype) ? CC_ATTR_FLOATS : CC_ATTR_INTS;
        if (attr_parse(lk, body, &list, r.tdtype == CC_F64, err)) goto bad;
        if (!rank1 && list.n != 1) goto bad;
        r.n = list.n;
        memcpy(r.ints, list.ints, sizeof r.ints);
        memcpy(r.floats, list.floats, sizeof r.floats);
        for (int k = 0; k < r.n; k++) {
            /* the value must be the dtype's own: no rounding, no saturation */
            double x = lk == CC_ATTR_INTS ? (double)r.ints[k] : r.floats[k];
            unsigned char cell[8];
            cc_store(cell, r.tdtype, 0, x);
            if (lk == CC_ATTR_INTS && r.tdtype != CC_I64 && cc_load(cell, r.tdtype, 0) != x) goto bad;
            if (lk == CC_ATTR_FLOATS) r.floats[k] = cc_load(cell, r.tdtype, 0);
        }
        r.tshape.rank = rank1;
        if (rank1) r.tshape.dims[0] = r.n;
        break;
    }
    case CC_ATTR_INTS:
    case CC_ATTR_FLOATS:
    case CC_ATTR_STRINGS: {
        const char *p = text, *end = text + len;
        if (len >= 2 && text[0] == '[' && text[len - 1] == ']') {
            p++;
            end--;
        } else if (len == 0) {
            goto bad;
        }
        /* a bare single element is accepted as a one-element list */
        while (p < end) {
            const char *q = p;
            while (q < end && *q != ',') q++;
            if (r.n >= CC_MAX_INTS)
                return cc_err_set(err, CC_ERR_ARG, "list '%s' has more than %d elements", text,
                                  CC_MAX_INTS);
            if (kind == CC_ATTR_STRINGS) {
                if (r.n >= CC_MAX_STRS)
                    return cc_err_set(err, CC_ERR_ARG, "list '%s' has more than %d words", text, CC_MAX_STRS);
                if (!is_word(p, (size_t)(q - p))) goto bad;
                memcpy(r.strs[r.n], p, (size_t)(q - p));
                r.strs[r.n][q - p] = '\0';
            } else if (kind == CC_ATTR_INTS) {
                if (parse_int(p, (size_t)(q - p), &r.ints[r.n])) goto bad;
                r.floats[r.n] = (double)r.ints[r.n];
            } else {
                if (parse_float(p, (size_t)(q - p), &r.floats[r.n], wide)) goto bad;
            }
            r.n++;
            p = q < end ? q + 1 : q;
            if (q < end && p == end) goto bad; /* trailing comma */
        }
        break;
    }
    }
    *v = r;
    return CC_OK;
bad:
    return cc_err_set(err, CC_ERR_ARG, "'%s' is not %s", text, kind_name(kind));
}

/* Shortest decimal that reads back as the same float32 (wide: the same double, for an f64
 * tensor's elements). */
static void format_float(double f, char *buf, size_t n, int wide)
{
    if (isnan(f)) {
        snprintf(buf, n, "nan");
        return;
    }
    if (isinf(f)) {
        snprintf(buf, n, f > 0 ? "inf" : "-inf");
        return;
    }
    for (int prec = 1; prec <= (wide ? 17 : 9); prec++) {
        snprintf(buf, n, "%.*g", prec, f);
        double back = strtod(buf, NULL);
        if (wide ? back == f : (float)back == (float)f) return;
    }
}

static void attr_format(cc_attr_kind kind, const cc_attr_value *v, char *buf, size_t n, int wide);

void cc_attr_format(cc_attr_kind kind, const cc_attr_value *v, char *buf, size_t n)
{
    attr_format(kind, v, buf, n, 0);
}

static void attr_format(cc_attr_kind kind, const cc_attr_value *v, char *buf, size_t n, int wide)
{
    if (n == 0) return;
    buf[0] = '\0';
    switch (kind) {
    case CC_ATTR_GRAPH: snprintf(buf, n, "graph%lld", (long long)v->i); return;
    case CC_ATTR_INT: snprintf(buf, n, "%lld", (long long)v->i); return;
    case CC_ATTR_FLOAT: format_float(v->f, buf, n, wide); return;
    case CC_ATTR_STRING:
        if (is_word(v->s, strlen(v->s))) snprintf(buf, n, "%s", v->s);
        else quote(v->s, buf, n);
        return;
    case CC_ATTR_TENSOR: {
        int len = snprintf(buf, n, "%s:", cc_dtype_name(v->tdtype));
        if (len < 0 || (size_t)len >= n) return;
        cc_attr_value list = *v;
        cc_attr_kind lk = cc_dtype_is_float(v->tdtype) ? CC_ATTR_FLOATS : CC_ATTR_INTS;
        if (v->tshape.rank == 0) {
            char e[40];
            if (lk == CC_ATTR_INTS) snprintf(e, sizeof e, "%lld", (long long)v->ints[0]);
            else format_float(v->floats[0], e, sizeof e, v->tdtype == CC_F64);
            snprintf(buf + len, n - (size_t)len, "%s", e);
        } else {
            attr_format(lk, &list, buf + len, n - (size_t)len, v->tdtype == CC_F64);
        }
        return;
    }
    case CC_ATTR_INTS:
    case CC_ATTR_FLOATS:
    case CC_ATTR_STRINGS: {
        size_t len = 0;
        len += (size_t)snprintf(buf + len, n - len, "[");
        for (int i = 0; i < v->n && len < n; i++) {
            char e[40];
            if (kind == CC_ATTR_INTS) snprintf(e, sizeof e, "%lld", (long long)v->ints[i]);
            else if (kind == CC_ATTR_STRINGS) snprintf(e, sizeof e, "%s", v->strs[i]);
            else format_float(v->floats[i], e, sizeof e, wide);
            len += (size_t)snprintf(buf + len, n - len, i ? ",%s" : "%s", e);
        }
        if (len < n) snprintf(buf + len, n - len, "]");
        return;
    }
    }
}

int cc_attr_equal(cc_attr_kind kind, const cc_attr_value *a, const cc_attr_value *b)
{
    if (a->set != b->set) return 0;
    if (!a->set) return 1;
    switch (kind) {
    case CC_ATTR_GRAPH:
    case CC_ATTR_INT: return a->i == b->i;
    case CC_ATTR_FLOAT: return (float)a->f == (float)b->f;
    case CC_ATTR_STRING: return strcmp(a->s, b->s) == 0;
    case CC_ATTR_INTS:
        if (a->n != b->n) return 0;
        for (int i = 0; i < a->n; i++)
            if (a->ints[i] != b->ints[i]) return 0;
        return 1;
    case CC_ATTR_FLOATS:
        if (a->n != b->n) return 0;
        for (int i = 0; i < a->n; i++)
            if ((float)a->floats[i] != (float)b->floats[i]) return 0;
        return 1;
    case CC_ATTR_STRINGS:
        if (a->n != b->n) return 0;
        for (int i = 0; i < a->n; i++)
            if (strcmp(a->strs[i], b->strs[i]) != 0) return 0;
        return 1;
    case CC_ATTR_TENSOR:
        if (a->tdtype != b->tdtype || !cc_shape_equal(&a->tshape, &b->tshape) || a->n != b->n) return 0;
        for (int i = 0; i < a->n; i++)
            if (cc_dtype_is_float(a->tdtype) ? a->floats[i] != b->floats[i] : a->ints[i] != b->ints[i]) return 0;
        return 1;
    }
    return 0;
}

cc_status cc_node_set_defaults(cc_node *node, cc_err *err)
{
    const cc_op_def *op = node->op;
    for (int i = 0; i < op->n_attrs; i++) {
        memset(&node->attrs[i], 0, sizeof node->attrs[i]);
        if (!op->attrs[i].def) continue;
        cc_err e;
        if (cc_attr_parse(op->attrs[i].kind, op->attrs[i].def, &node->attrs[i], &e))
            return cc_err_set(err, CC_ERR_INTERNAL, "%s: default of '%s' is malformed: %s",
                              op->name, op->attrs[i].name, e.msg);
    }
    return CC_OK;
}

cc_status cc_gen_tensor(cc_tensor *t, cc_dtype dt, const cc_shape *s, const cc_rng *rng,
                        cc_err *err)
{
    if (rng) return cc_tensor_alloc(t, dt, s, err);
    int64_t n;
    cc_status st = cc_shape_numel_checked(s, &n, err);
    if (st) return st;
    t->dtype = dt;
    t->shape = *s;
    t->data = NULL;
    return CC_OK;
}

void cc_attr_default(const cc_attr_def *d, cc_attr_value *v)
{
    memset(v, 0, sizeof *v);
    if (d->def && cc_attr_parse(d->kind, d->def, v, NULL) != CC_OK) memset(v, 0, sizeof *v);
}

int cc_attr_is_default(const cc_attr_def *d, const cc_attr_value *v)
{
    if (!d->def) return !v->set;
    cc_attr_value dv;
    if (cc_attr_parse(d->kind, d->def, &dv, NULL)) return 0;
    return cc_attr_equal(d->kind, &dv, v);
}
