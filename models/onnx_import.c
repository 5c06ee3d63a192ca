/* onnx_import.c — ONNX ModelProto -> cc_model: opset and version checks, graph inputs,
 * initializers and Constant nodes, nodes in topological order with their attributes mapped
 * onto the catalog's schemas (and the few rewrites older opsets need, see onnx_opset.c),
 * shapes from the catalog's infer() through the model builder, and graph outputs checked
 * against their declared types. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/control.h"
#include "onnx_internal.h"

/* IR versions read: 3 (opset_import) to 10 (ONNX 1.16). Newer IR features are types
 * (refused by the dtype check) and model-local functions (their ops are unknown here). */
#define IR_MIN 3
#define IR_MAX 10

/* ---- names -> value indices ------------------------------------------------------------ */

typedef struct name_map {
    size_t cap;            /* power of two */
    const char **keys;     /* borrowed from the unpacked model */
    int *vals;
} name_map;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s) h = (h ^ (uint8_t)*s++) * 1099511628211ull;
    return h;
}

static cc_status map_init(name_map *m, size_t n, cc_err *err)
{
    m->cap = 64;
    while (m->cap < 2 * n + 16) m->cap *= 2;
    m->keys = calloc(m->cap, sizeof *m->keys);
    m->vals = calloc(m->cap, sizeof *m->vals);
    if (!m->keys || !m->vals) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    return CC_OK;
}

static void map_free(name_map *m)
{
    free(m->keys);
    free(m->vals);
}

/* Index of name, or -1. */
static int map_get(const name_map *m, const char *name)
{
    for (size_t i = hash_str(name) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i]) return -1;
        if (strcmp(m->keys[i], name) == 0) return m->vals[i];
    }
}

/* Adds name -> v; 1 if the name was already there (nothing changed), 0 if added. The
 * table is sized at init for every name the graph can define, so it never fills up. */
static int map_put(name_map *m, const char *name, int v)
{
    size_t i = hash_str(name) & (m->cap - 1);
    for (; m->keys[i]; i = (i + 1) & (m->cap - 1))
        if (strcmp(m->keys[i], name) == 0) return 1;
    m->keys[i] = name;
    m->vals[i] = v;
    return 0;
}

/* ---- the import context --------------------------------------------------------------- */

typedef struct importer {
    const char *path;
    const cc_onnx_options *opt;
    const Onnx__GraphProto *g;
    int opset;
    cc_model_builder *b;
    name_map values;      /* ONNX value name -> builder value index */
    name_map dynamic;     /* values of data-dependent shape (cc_op_dynamic_shape nodes make, and what reads them) */
    /* a sub-graph (If's branches, Loop's and Scan's body): the importer of the graph whose
     * node runs it, and the values of outer graphs it reads, captured as its trailing
     * inputs: captured[i] is the parent's value, captured_v[i] this graph's input */
    struct importer *parent;
    int depth;
    int n_captured, captured[CC_MAX_IO], captured_v[CC_MAX_IO];
} importer;

static int is_default_domain(const char *d)
{
    return !d || !d[0] || strcmp(d, "ai.onnx") == 0;
}

static const char *str_or(const char *s, const char *alt)
{
    return s && s[0] ? s : alt;
}

/* A name from the file as crosscheck keeps it: control characters become '?' (names end
 * up in one-line messages, reports and the database), truncated to fit dst. */
static const char *printable(char *dst, size_t n, const char *src)
{
    size_t i = 0;
    for (; src && src[i] && i + 1 < n; i++) dst[i] = (unsigned char)src[i] < 0x20 || src[i] == 0x7f ? '?' : src[i];
    dst[i] = '\0';
    return dst;
}

/* The value index of ONNX name `name` in im's graph, or -1 where no graph defines it. A
 * sub-graph reads a value of an enclosing graph as a captured input (a constant is copied
 * in as a constant of its own, so that it stays foldable); CC_ERR_UNSUPPORTED past
 * CC_MAX_IO inputs. */
static cc_status value_of(importer *im, const char *name, int *v, cc_err *err)
{
    *v = map_get(&im->values, name);
    if (*v >= 0 || !im->parent) return CC_OK;
    int pv;
    cc_status st = value_of(im->parent, name, &pv, err);
    if (st || pv < 0) return st;
    const cc_tensor *d = cc_mb_value(im->parent->b, pv);
    char pn[CC_VALUE_NAME_MAX];
    printable(pn, sizeof pn, name);
    if (d->data) {
        cc_tensor t = { 0 };
        if ((st = cc_tensor_alloc(&t, d->dtype, &d->shape, err))) return st;
        memcpy(t.data, d->data, cc_tensor_bytes(d));
        if ((st = cc_mb_const(im->b, pn, &t, v, err))) return st;
    } else {
        if (im->n_captured == CC_MAX_IO - 2)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: a sub-graph reads more than %d values of the graphs around it",
                              im->path, CC_MAX_IO - 2);
        if ((st = cc_mb_input(im->b, pn, d->dtype, &d->shape, v, err))) return st;
        im->captured[im->n_captured] = pv;
        im->captured_v[im->n_captured++] = *v;
    }
    map_put(&im->values, name, *v);
    return CC_OK;
}

/* Whether a graph around im's defines name (a sub-graph may read it). */
static int defined_outside(const importer *im, const char *name)
{
    for (const importer *p = im->parent; p; p = p->parent)
        if (map_get(&p->values, name) >= 0) return 1;
    return 0;
}

/* "Conv" or "com.microsoft.QLinearAdd" */
static void op_label(const Onnx__NodeProto *nd, char *buf, size_t n)
{
    if (is_default_domain(nd->domain)) snprintf(buf, n, "%s", str_or(nd->op_type, "?"));
    else snprintf(buf, n, "%s.%s", nd->domain, str_or(nd->op_type, "?"));
}

/* ---- model header ------------------------------------------------------------------------ */

static cc_status parse_model(const char *path, Onnx__ModelProto **out, cc_err *err)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    cc_status st = cc_onnx_read_file(path, &buf, &len, err);
    if (st) return st;
    ProtobufCMessage *msg = NULL;
    st = cc_onnx_unpack(path, "ONNX model", &onnx__model_proto__descriptor, buf, len, &msg, err);
    free(buf);
    if (st) return st;
    Onnx__ModelProto *m = (Onnx__ModelProto *)msg;
    if (!m->has_ir_version || !m->graph) {
        const char *why = !m->has_ir_version ? "no ir_version" : "no graph";
        protobuf_c_message_free_unpacked(msg, NULL);
        return cc_err_set(err, CC_ERR_ARG, "%s: not a valid ONNX model (%s)", path, why);
    }
    *out = m;
    return CC_OK;
}

static cc_status check_header(const char *path, const Onnx__ModelProto *m, int *opset, cc_err *err)
{
    if (m->ir_version < IR_MIN || m->ir_version > IR_MAX)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: IR version %lld is not supported (%d to %d are)", path,
                          (long long)m->ir_version, IR_MIN, IR_MAX);
    int found = 0;
    for (size_t i = 0; i < m->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *o = m->opset_import[i];
        if (!is_default_domain(o->domain)) continue;
        if (!o->has_version) return cc_err_set(err, CC_ERR_ARG, "%s: the default-domain opset has no version", path);
        if (found && *opset != (int)o->version)
            return cc_err_set(err, CC_ERR_ARG, "%s: the default domain is imported twice (opsets %d and %lld)", path,
                              *opset, (long long)o->version);
        if (o->version < 1 || o->version > 1000)
            return cc_err_set(err, CC_ERR_ARG, "%s: invalid opset version %lld", path, (long long)o->version);
        *opset = (int)o->version;
        found = 1;
    }
    if (!found) return cc_err_set(err, CC_ERR_ARG, "%s: the model imports no default-domain (ai.onnx) opset", path);
    if (*opset < CC_ONNX_MIN_OPSET)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: opset %d is older than opset %d, the oldest the importer reads",
                          path, *opset, CC_ONNX_MIN_OPSET);
    if (*opset > CC_ONNX_MAX_OPSET)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "%s: opset %d is newer than opset %d, the newest whose operator changes the importer knows",
                          path, *opset, CC_ONNX_MAX_OPSET);
    if (m->graph->n_sparse_initializer)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: sparse initializers are not supported", path);
    return CC_OK;
}

/* ---- graph inputs ------------------------------------------------------------------------ */

/* dtype and shape a ValueInfo declares. *has_shape = 0 where it gives none; dims that are
 * symbolic or unknown are -1. */
static cc_status value_info_type(const importer *im, const Onnx__ValueInfoProto *vi, const char *role, cc_dtype *dt,
                                 int *has_dtype, cc_shape *s, int *has_shape, cc_err *err)
{
    char tn[48];
    const char *name = str_or(vi->name, "");
    *has_dtype = *has_shape = 0;
    if (!vi->type) return CC_OK;
    if (vi->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s '%s' is not a tensor (sequences, maps and optionals are not supported)",
                          im->path, role, name);
    const Onnx__TypeProto__Tensor *tt = vi->type->tensor_type;
    if (tt->has_elem_type && tt->elem_type != ONNX__TENSOR_PROTO__DATA_TYPE__UNDEFINED) {
        if (cc_onnx_dtype(tt->elem_type, dt))
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s '%s' has data type %s, which crosscheck does not support",
                              im->path, role, name, cc_onnx_type_name(tt->elem_type, tn, sizeof tn));
        *has_dtype = 1;
    }
    if (tt->shape) {
        if (tt->shape->n_dim > CC_MAX_RANK)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s '%s' has rank %zu, more than %d", im->path, role, name,
                              tt->shape->n_dim, CC_MAX_RANK);
        memset(s, 0, sizeof *s);
        s->rank = (int)tt->shape->n_dim;
        for (int i = 0; i < s->rank; i++) {
            const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
            s->dims[i] = d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE ? d->dim_value : -1;
            if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && d->dim_value < 0)
                return cc_err_set(err, CC_ERR_ARG, "%s: %s '%s' has a negative dim %lld", im->path, role, name,
                                  (long long)d->dim_value);
        }
        *has_shape = 1;
    }
    return CC_OK;
}

static const cc_tensor *fixed_value(const importer *im, const char *name)
{
    if (!im->opt) return NULL;
    for (int i = 0; i < im->opt->n_fixed; i++)
        if (im->opt->fixed_names[i] && strcmp(im->opt->fixed_names[i], name) == 0) return &im->opt->fixed[i];
    return NULL;
}

static cc_status add_graph_input(importer *im, const Onnx__ValueInfoProto *vi, cc_err *err)
{
    const char *name = str_or(vi->name, "");
    if (!name[0]) return cc_err_set(err, CC_ERR_ARG, "%s: a graph input has no name", im->path);
    if (map_get(&im->values, name) >= 0) return CC_OK; /* an initializer: a constant (IR < 4 lists them as inputs) */
    cc_dtype dt = CC_F32;
    cc_shape s;
    int has_dt, has_shape, v;
    char a[128], c[128];
    cc_status st = value_info_type(im, vi, "input", &dt, &has_dt, &s, &has_shape, err);
    if (st) return st;
    const cc_tensor *fix = fixed_value(im, name);
    if (fix) {
        if (has_dt && fix->dtype != dt)
            return cc_err_set(err, CC_ERR_ARG, "%s: input '%s' is %s, the value given for it is %s", im->path, name,
                              cc_dtype_name(dt), cc_dtype_name(fix->dtype));
        int same = !has_shape || s.rank == fix->shape.rank;
        for (int i = 0; same && has_shape && i < s.rank; i++) same = s.dims[i] < 0 || s.dims[i] == fix->shape.dims[i];
        if (!same)
            return cc_err_set(err, CC_ERR_ARG, "%s: input '%s' is declared %s, the value given for it is %s", im->path,
                              name, cc_shape_format(&s, a, sizeof a), cc_shape_format(&fix->shape, c, sizeof c));
        cc_tensor t = { 0 };
        if ((st = cc_tensor_alloc(&t, fix->dtype, &fix->shape, err))) return st;
        memcpy(t.data, fix->data, cc_tensor_bytes(fix));
        char pn[CC_VALUE_NAME_MAX];
        if ((st = cc_mb_const(im->b, printable(pn, sizeof pn, name), &t, &v, err))) return st;
        map_put(&im->values, name, v);
        return CC_OK;
    }
    if (!has_dt) return cc_err_set(err, CC_ERR_ARG, "%s: input '%s' declares no data type", im->path, name);
    const cc_shape *bound = NULL;
    for (int i = 0; im->opt && i < im->opt->n_shapes; i++)
        if (im->opt->shape_names[i] && strcmp(im->opt->shape_names[i], name) == 0) bound = &im->opt->shapes[i];
    if (bound) {
        if (has_shape && bound->rank != s.rank) {
            size_t len = 0;
            a[0] = '\0';
            for (int i = 0; i < s.rank && len < sizeof a; i++) /* symbolic dims as '?' */
                len += (size_t)(s.dims[i] >= 0 ? snprintf(a + len, sizeof a - len, "%s%lld", i ? "x" : "", (long long)s.dims[i])
                                               : snprintf(a + len, sizeof a - len, "%s?", i ? "x" : ""));
            return cc_err_set(err, CC_ERR_ARG, "%s: input '%s' has rank %d (%s), the shape bound to it %s", im->path,
                              name, s.rank, s.rank ? a : "scalar", cc_shape_format(bound, c, sizeof c));
        }
        for (int i = 0; has_shape && i < s.rank; i++)
            if (s.dims[i] >= 0 && s.dims[i] != bound->dims[i])
                return cc_err_set(err, CC_ERR_ARG, "%s: input '%s': dim %d is %lld, the shape bound to it says %lld",
                                  im->path, name, i, (long long)s.dims[i], (long long)bound->dims[i]);
        int batch_dim = has_shape && s.rank > 0 && s.dims[0] < 0 && im->opt->batch > 0;
        s = *bound;
        has_shape = 1;
        if (batch_dim) s.dims[0] = im->opt->batch; /* the batch sets a symbolic dim 0 */
    }
    if (!has_shape)
        return cc_err_set(err, CC_ERR_ARG, "%s: input '%s' declares no shape; bind one with --input-shape %s=DIMS",
                          im->path, name, name);
    for (int i = 0; i < s.rank; i++) {
        if (s.dims[i] >= 0) continue;
        const Onnx__TensorShapeProto__Dimension *d = vi->type->tensor_type->shape->dim[i];
        const char *sym = d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM ? d->dim_param : NULL;
        if (i == 0 && im->opt && im->opt->batch > 0) {
            s.dims[0] = im->opt->batch;
            continue;
        }
        char how[96];
        snprintf(how, sizeof how, "%s%s", i == 0 ? "give a batch size or " : "", "bind its shape with --input-shape");
        return cc_err_set(err, CC_ERR_ARG, "%s: input '%s': dim %d is %s%s%s; %s %s=DIMS", im->path, name, i,
                          sym ? "symbolic ('" : "unknown", sym ? sym : "", sym ? "')" : "", how, name);
    }
    char pn[CC_VALUE_NAME_MAX];
    if ((st = cc_mb_input(im->b, printable(pn, sizeof pn, name), dt, &s, &v, err))) return st;
    map_put(&im->values, name, v);
    return CC_OK;
}

/* ---- Constant nodes ------------------------------------------------------------------------ */

static cc_status constant_node(importer *im, int k, const Onnx__NodeProto *nd, cc_err *err)
{
    char what[96];
    snprintf(what, sizeof what, "node %d (Constant)", k);
    if (nd->n_output != 1 || !str_or(nd->output[0], "")[0])
        return cc_err_set(err, CC_ERR_ARG, "%s: %s: needs exactly one named output", im->path, what);
    if (nd->n_attribute != 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s: needs exactly one attribute, has %zu", im->path, what,
                          nd->n_attribute);
    const Onnx__AttributeProto *a = nd->attribute[0];
    const char *an = str_or(a->name, "");
    cc_tensor t = { 0 };
    cc_status st = CC_OK;
    if (strcmp(an, "value") == 0 && a->t) {
        st = cc_onnx_tensor(im->path, what, a->t, &t, err);
    } else if (strcmp(an, "value_float") == 0 || strcmp(an, "value_int") == 0) {
        int is_f = an[6] == 'f';
        cc_shape s = cc_shape_make(0, NULL);
        if (!(st = cc_tensor_alloc(&t, is_f ? CC_F32 : CC_I64, &s, err))) {
            if (is_f) ((float *)t.data)[0] = a->f;
            else ((int64_t *)t.data)[0] = a->i;
        }
    } else if (strcmp(an, "value_floats") == 0 || strcmp(an, "value_ints") == 0) {
        int is_f = an[6] == 'f';
        int64_t n = is_f ? (int64_t)a->n_floats : (int64_t)a->n_ints;
        cc_shape s = cc_shape_make(1, &n);
        if (!(st = cc_tensor_alloc(&t, is_f ? CC_F32 : CC_I64, &s, err)) && n) { /* an empty list has no array */
            if (is_f) memcpy(t.data, a->floats, sizeof(float) * (size_t)n);
            else memcpy(t.data, a->ints, sizeof(int64_t) * (size_t)n);
        }
    } else {
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: attribute '%s' is not supported (value, value_float(s), value_int(s) are)",
                          im->path, what, an);
    }
    if (st) return st;
    int v;
    char pn[CC_VALUE_NAME_MAX];
    if ((st = cc_mb_const(im->b, printable(pn, sizeof pn, nd->output[0]), &t, &v, err))) return st;
    if (map_put(&im->values, nd->output[0], v))
        return cc_err_set(err, CC_ERR_ARG, "%s: %s: value '%s' is defined twice", im->path, what, nd->output[0]);
    return CC_OK;
}

/* ---- attributes ----------------------------------------------------------------------------- */

static Onnx__AttributeProto__AttributeType attr_type(const Onnx__AttributeProto *a)
{
    if (a->has_type && a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED) return a->type;
    /* files written before the type field: tell by what is set */
    if (a->n_ints) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
    if (a->n_floats) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS;
    if (a->n_strings) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS;
    if (a->t) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR;
    if (a->g) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH;
    if (a->has_s) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
    if (a->has_f) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
    if (a->has_i) return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
    return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED;
}

static const char *attr_type_name(Onnx__AttributeProto__AttributeType t)
{
    const ProtobufCEnumValue *v =
        protobuf_c_enum_descriptor_get_value(&onnx__attribute_proto__attribute_type__descriptor, (int)t);
    return v ? v->name : "UNDEFINED";
}

static const char *kind_name(cc_attr_kind k)
{
    static const char *const names[] = {
        [CC_ATTR_INT] = "INT",         [CC_ATTR_FLOAT] = "FLOAT",     [CC_ATTR_INTS] = "INTS",
        [CC_ATTR_FLOATS] = "FLOATS",   [CC_ATTR_STRING] = "STRING",   [CC_ATTR_STRINGS] = "STRINGS",
        [CC_ATTR_TENSOR] = "TENSOR",   [CC_ATTR_GRAPH] = "GRAPH",
    };
    return names[k];
}

/* Converts ONNX attribute a into v as schema kind `kind`; a one-line reason in why. */
static int attr_value(const Onnx__AttributeProto *a, cc_attr_kind kind, cc_attr_value *v, char *why, size_t n)
{
    static const Onnx__AttributeProto__AttributeType want[] = {
        [CC_ATTR_INT] = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT,
        [CC_ATTR_FLOAT] = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT,
        [CC_ATTR_INTS] = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS,
        [CC_ATTR_FLOATS] = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS,
        [CC_ATTR_STRING] = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING,
        [CC_ATTR_STRINGS] = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS,
        [CC_ATTR_TENSOR] = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR,
        [CC_ATTR_GRAPH] = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH,
    };
    Onnx__AttributeProto__AttributeType t = attr_type(a);
    if (a->ref_attr_name && a->ref_attr_name[0]) {
        snprintf(why, n, "refers to a function attribute, which is not supported");
        return -1;
    }
    if (t != want[kind]) {
        snprintf(why, n, "is %s, the catalog's schema has %s", attr_type_name(t), kind_name(kind));
        return -1;
    }
    memset(v, 0, sizeof *v);
    v->set = 1;
    switch (kind) {
    case CC_ATTR_GRAPH: break; /* imported by control_node(), which sets the index */
    case CC_ATTR_INT: v->i = a->i; break;
    case CC_ATTR_FLOAT: v->f = a->f; break;
    case CC_ATTR_INTS:
    case CC_ATTR_FLOATS: {
        size_t cnt = kind == CC_ATTR_INTS ? a->n_ints : a->n_floats;
        if (cnt > CC_MAX_INTS) {
            snprintf(why, n, "has %zu values, at most %d are supported", cnt, CC_MAX_INTS);
            return -1;
        }
        v->n = (int)cnt;
        for (size_t i = 0; i < cnt; i++) {
            if (kind == CC_ATTR_INTS) v->ints[i] = a->ints[i];
            else v->floats[i] = a->floats[i];
        }
        break;
    }
    case CC_ATTR_STRING:
        if (a->s.len >= CC_ATTR_STR || (a->s.len && memchr(a->s.data, 0, a->s.len))) {
            snprintf(why, n, "is a string of %zu bytes, at most %d are supported", a->s.len, CC_ATTR_STR - 1);
            return -1;
        }
        if (a->s.len) memcpy(v->s, a->s.data, a->s.len);
        v->s[a->s.len] = '\0';
        break;
    case CC_ATTR_STRINGS:
        if (a->n_strings > CC_MAX_STRS) {
            snprintf(why, n, "has %zu strings, at most %d are supported", a->n_strings, CC_MAX_STRS);
            return -1;
        }
        for (size_t i = 0; i < a->n_strings; i++) {
            const ProtobufCBinaryData *b = &a->strings[i];
            if (b->len >= CC_ATTR_STR || (b->len && memchr(b->data, 0, b->len))) {
                snprintf(why, n, "has a string of %zu bytes, at most %d are supported", b->len, CC_ATTR_STR - 1);
                return -1;
            }
            if (b->len) memcpy(v->strs[i], b->data, b->len);
            v->strs[i][b->len] = '\0';
        }
        v->n = (int)a->n_strings;
        break;
    case CC_ATTR_TENSOR: {
        cc_tensor t;
        cc_err e;
        if (!a->t || cc_onnx_tensor("", "attribute tensor", a->t, &t, &e)) {
            snprintf(why, n, "is a tensor crosscheck cannot read%s%.80s", a->t ? ": " : "", a->t ? e.msg : "");
            return -1;
        }
        int64_t cnt = cc_tensor_numel(&t);
        if (cnt > CC_MAX_INTS) {
            snprintf(why, n, "is a tensor of %lld elements, at most %d are supported", (long long)cnt, CC_MAX_INTS);
            cc_tensor_free(&t);
            return -1;
        }
        v->tdtype = t.dtype;
        v->tshape = t.shape;
        v->n = (int)cnt;
        for (int64_t i = 0; i < cnt; i++) {
            v->ints[i] = t.dtype == CC_I64 ? ((const int64_t *)t.data)[i] : cc_load_i64(t.data, t.dtype, (size_t)i);
            v->floats[i] = cc_load(t.data, t.dtype, (size_t)i);
        }
        cc_tensor_free(&t);
        break;
    }
    }
    return 0;
}

/* ---- nodes ----------------------------------------------------------------------------------- */

/* Legacy attributes that later opsets turned into inputs: op, attribute, input index and
 * the dtype of the constant input (CC_DTYPE_COUNT: the dtype of input 0). */
static const struct legacy_input {
    const char *op, *attr;
    int input;
    cc_dtype dtype;
} legacy_inputs[] = {
    { "Clip", "min", 1, CC_DTYPE_COUNT },
    { "Clip", "max", 2, CC_DTYPE_COUNT },
    { "Split", "split", 1, CC_I64 },
    { "Slice", "starts", 1, CC_I64 },
    { "Slice", "ends", 2, CC_I64 },
    { "Slice", "axes", 3, CC_I64 },
    { "Unsqueeze", "axes", 1, CC_I64 },
    { "Squeeze", "axes", 1, CC_I64 },
    { "Pad", "pads", 1, CC_I64 },
    { "Pad", "value", 2, CC_DTYPE_COUNT },
    { "ReduceSum", "axes", 1, CC_I64 },
    { "TopK", "k", 1, CC_I64 },
    { "Dropout", "ratio", 1, CC_DTYPE_COUNT },
};

/* Makes a constant input from legacy attribute a of node nd (see legacy_inputs). */
static cc_status legacy_attr_input(importer *im, const char *label, const Onnx__NodeProto *nd,
                                   const struct legacy_input *li, const Onnx__AttributeProto *a, int *in, int *n_in,
                                   cc_err *err)
{
    cc_dtype dt = li->dtype;
    if (dt == CC_DTYPE_COUNT) {
        const cc_tensor *x = in[0] >= 0 ? cc_mb_value(im->b, in[0]) : NULL;
        if (!x) return cc_err_set(err, CC_ERR_ARG, "%s: %s: input 0 is missing", im->path, label);
        dt = x->dtype;
    }
    Onnx__AttributeProto__AttributeType t = attr_type(a);
    int is_list = t == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS || t == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS;
    if (!is_list && t != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT && t != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s: attribute '%s' is %s", im->path, label, li->attr, attr_type_name(t));
    int64_t cnt = t == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS     ? (int64_t)a->n_ints
                  : t == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS ? (int64_t)a->n_floats
                                                                       : 1;
    cc_shape s = is_list ? cc_shape_make(1, &cnt) : cc_shape_make(0, NULL);
    cc_tensor c = { 0 };
    cc_status st = cc_tensor_alloc(&c, dt, &s, err);
    if (st) return st;
    for (int64_t i = 0; i < cnt; i++) {
        double v = t == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS     ? (double)a->ints[i]
                   : t == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS ? (double)a->floats[i]
                   : t == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT  ? (double)a->f
                                                                        : (double)a->i;
        if (dt == CC_I64) ((int64_t *)c.data)[i] = t == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS ? a->ints[i] : (int64_t)v;
        else cc_store(c.data, dt, (size_t)i, v);
    }
    char cname[CC_VALUE_NAME_MAX];
    char pn[80];
    snprintf(cname, sizeof cname, "%s/%.8s", printable(pn, sizeof pn, str_or(nd->name, str_or(nd->n_output ? nd->output[0] : NULL, label))),
             li->attr);
    int v;
    if ((st = cc_mb_const(im->b, cname, &c, &v, err))) return st;
    while (*n_in <= li->input) in[(*n_in)++] = -1;
    in[li->input] = v;
    return CC_OK;
}

/* Node-level checks of the legacy flags once attributes are known. */
static cc_status legacy_checks(importer *im, const char *label, const cc_op_def *op, int version, unsigned legacy,
                               cc_attr_value *attrs, const int *in, int n_out, cc_err *err)
{
    if (legacy & CC_ONNX_LEGACY_ONE_OUTPUT && n_out != 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: %s-%d with %d outputs: %s", im->path, label, op->name,
                          version, n_out,
                          op->id == CC_OP_ID_BatchNormalization
                              ? "its extra outputs meant training as that version defined it (mean, var, saved_mean, "
                                "saved_var), which the catalog does not compute"
                              : "that version has one output");
    if (legacy & CC_ONNX_LEGACY_NO_SAME_PAD) {
        const cc_attr_value *ap = &attrs[cc_attr_index(op, "auto_pad")];
        const cc_attr_value *sv = &attrs[cc_attr_index(op, "strides")];
        int strided = 0;
        for (int i = 0; sv->set && i < sv->n; i++) strided |= sv->ints[i] != 1;
        if (strided && (strcmp(ap->s, "SAME_UPPER") == 0 || strcmp(ap->s, "SAME_LOWER") == 0))
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "%s: %s: opset %d semantics are not in the catalog (%s-%d's auto_pad=%s with strides "
                              "meant 'output size matches input')",
                              im->path, label, version, op->name, version, ap->s);
    }
    if (legacy & CC_ONNX_LEGACY_SOFTMAX_AXIS) {
        int a = cc_attr_index(op, "axis");
        const cc_tensor *x = in[0] >= 0 ? cc_mb_value(im->b, in[0]) : NULL;
        if (!x) return cc_err_set(err, CC_ERR_ARG, "%s: %s: input 0 is missing", im->path, label);
        int64_t axis = attrs[a].set == 2 ? attrs[a].i : 1; /* the default was 1 before opset 13 */
        int r = x->shape.rank;
        int64_t norm = axis < 0 ? axis + r : axis;
        if (norm != r - 1)
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "%s: %s: opset %d semantics are not in the catalog (%s-%d with axis %lld of a "
                              "rank-%d input normalises over the flattened trailing axes)",
                              im->path, label, version, op->name, version, (long long)axis, r);
        attrs[a].set = 1;
        attrs[a].i = norm;
    }
    return CC_OK;
}

/* Maps node k's attributes onto the schema of op; attrs holds the defaults on entry. */
static cc_status node_attrs(importer *im, const char *label, const Onnx__NodeProto *nd, const cc_op_def *op,
                            unsigned legacy, cc_attr_value *attrs, int *in, int *n_in, cc_err *err)
{
    for (size_t j = 0; j < nd->n_attribute; j++) {
        const Onnx__AttributeProto *a = nd->attribute[j];
        const char *an = str_or(a->name, "");
        for (size_t i = 0; i < j; i++)
            if (strcmp(str_or(nd->attribute[i]->name, ""), an) == 0)
                return cc_err_set(err, CC_ERR_ARG, "%s: %s: attribute '%s' is given twice", im->path, label, an);
        if (legacy & CC_ONNX_LEGACY_ATTR_INPUTS) {
            const struct legacy_input *li = NULL;
            for (size_t i = 0; i < sizeof legacy_inputs / sizeof legacy_inputs[0]; i++)
                if (strcmp(legacy_inputs[i].op, op->name) == 0 && strcmp(legacy_inputs[i].attr, an) == 0)
                    li = &legacy_inputs[i];
            if (li) {
                if (li->input < *n_in && in[li->input] >= 0)
                    return cc_err_set(err, CC_ERR_ARG, "%s: %s: '%s' is given as attribute and input", im->path,
                                      label, an);
                cc_status st = legacy_attr_input(im, label, nd, li, a, in, n_in, err);
                if (st) return st;
                continue;
            }
        }
        if (legacy & CC_ONNX_NEWER_AXES_INPUT && strcmp(an, "noop_with_empty_axes") == 0) {
            if (attr_type(a) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT)
                return cc_err_set(err, CC_ERR_ARG, "%s: %s: attribute 'noop_with_empty_axes' is %s", im->path, label,
                                  attr_type_name(attr_type(a)));
            int ai = cc_attr_index(op, "axes");
            if (a->i != 0 && (ai < 0 || !attrs[ai].set))
                return cc_err_set(err, CC_ERR_UNSUPPORTED,
                                  "%s: %s: %s-18 with noop_with_empty_axes=1 and no axes (the identity) is not in "
                                  "the catalog's %s-13",
                                  im->path, label, op->name, op->name);
            continue;
        }
        if (legacy & CC_ONNX_LEGACY_SCAN_BATCH && strcmp(an, "directions") == 0) { /* Scan-8's name */
            char why[128];
            int di = cc_attr_index(op, "scan_input_directions");
            if (attr_value(a, CC_ATTR_INTS, &attrs[di], why, sizeof why))
                return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: attribute '%s' %s", im->path, label, an, why);
            attrs[di].set = 2;
            continue;
        }
        if (legacy & CC_ONNX_LEGACY_BN_SPATIAL && strcmp(an, "spatial") == 0) {
            if (attr_type(a) == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT && a->i == 1) continue; /* the default */
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "%s: %s: BatchNormalization-7 with spatial=0 (per-element statistics) is not in the catalog",
                              im->path, label);
        }
        int idx = cc_attr_index(op, an);
        if (idx < 0 || op->attrs[idx].input >= 0 || op->attrs[idx].knob)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: attribute '%s' is not in the catalog's %s schema",
                              im->path, label, an, op->name);
        char why[128];
        if (op->attrs[idx].kind == CC_ATTR_GRAPH) continue; /* control_node() imports it */
        if (attr_value(a, op->attrs[idx].kind, &attrs[idx], why, sizeof why))
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: attribute '%s' %s", im->path, label, an, why);
        attrs[idx].set = 2; /* given by the file (legacy_checks tells it from a default) */
    }
    return CC_OK;
}

/* Strips the builder's "node NAME: " prefix from a message. */
static const char *strip_node_prefix(const char *msg, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(msg, "node ", 5) == 0 && strncmp(msg + 5, name, n) == 0 && strncmp(msg + 5 + n, ": ", 2) == 0)
        return msg + 5 + n + 2;
    return msg;
}

/* ---- control flow: sub-graphs ------------------------------------------------------------- */

static cc_status import_node(importer *im, int k, const Onnx__NodeProto *nd, cc_err *err);
static cc_status node_order(const importer *im, int *order, cc_err *err);

static void sub_free(importer *c)
{
    cc_mb_destroy(c->b);
    c->b = NULL;
    map_free(&c->values);
    map_free(&c->dynamic);
}

/* Imports sub-graph sg (attribute `attr` of node `label`) into child, a builder of its own
 * left unfinished: its first n_formal inputs take the dtypes and shapes formal[] (what the
 * node passes in; a sub-graph input's declared type, where it has one, must agree), then
 * its initializers and nodes; the values of outer graphs it reads become its trailing
 * inputs (child->captured). The caller frees child with sub_free. */
static cc_status sub_import(importer *im, const char *label, const char *attr, const Onnx__GraphProto *sg, int n_formal,
                            const cc_tensor *formal, importer *child, cc_err *err)
{
    memset(child, 0, sizeof *child);
    child->path = im->path;
    child->g = sg;
    child->opset = im->opset;
    child->parent = im;
    child->depth = im->depth + 1;
    if (child->depth > CC_CONTROL_MAX_DEPTH)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: sub-graphs nest deeper than %d", im->path, label,
                          CC_CONTROL_MAX_DEPTH);
    if ((int)sg->n_input != n_formal)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s takes %zu inputs, the node passes %d", im->path, label, attr,
                          sg->n_input, n_formal);
    size_t n_names = sg->n_initializer + sg->n_input + CC_MAX_IO;
    for (size_t k = 0; k < sg->n_node; k++) n_names += sg->node[k]->n_output;
    char bname[64];
    snprintf(bname, sizeof bname, "%.40s/%s", label, attr);
    cc_status st;
    if ((st = map_init(&child->values, n_names, err)) || (st = map_init(&child->dynamic, n_names, err)) ||
        (st = cc_mb_create(bname, &child->b, err)))
        return st;
    for (size_t i = 0; i < sg->n_initializer; i++) {
        const Onnx__TensorProto *tp = sg->initializer[i];
        const char *name = str_or(tp->name, "");
        char what[160];
        snprintf(what, sizeof what, "%s: %s: initializer '%s'", label, attr, name);
        cc_tensor t;
        int v;
        if (!name[0]) return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s: an initializer has no name", im->path, label, attr);
        if ((st = cc_onnx_tensor(im->path, what, tp, &t, err)) || (st = cc_mb_const(child->b, name, &t, &v, err)))
            return st;
        if (map_put(&child->values, name, v))
            return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s: initializer '%s' is defined twice", im->path, label, attr, name);
    }
    for (int i = 0; i < n_formal; i++) {
        const Onnx__ValueInfoProto *vi = sg->input[i];
        const char *name = str_or(vi->name, "");
        if (!name[0]) return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s: input %d has no name", im->path, label, attr, i);
        cc_dtype dt;
        cc_shape s;
        int has_dt, has_shape, v;
        if ((st = value_info_type(child, vi, "sub-graph input", &dt, &has_dt, &s, &has_shape, err))) return st;
        int same = (!has_dt || dt == formal[i].dtype) && (!has_shape || s.rank == formal[i].shape.rank);
        for (int d = 0; same && has_shape && d < s.rank; d++) same = s.dims[d] < 0 || s.dims[d] == formal[i].shape.dims[d];
        if (!same) {
            char a[96];
            return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s input '%s' is declared otherwise than the %s %s the node passes",
                              im->path, label, attr, name, cc_dtype_name(formal[i].dtype),
                              cc_shape_format(&formal[i].shape, a, sizeof a));
        }
        char pn[CC_VALUE_NAME_MAX];
        if ((st = cc_mb_input(child->b, printable(pn, sizeof pn, name), formal[i].dtype, &formal[i].shape, &v, err)))
            return st;
        if (map_put(&child->values, name, v))
            return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s input '%s' is defined twice", im->path, label, attr, name);
    }
    int *order = malloc(sizeof *order * (sg->n_node + 1));
    if (!order) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    st = node_order(child, order, err);
    for (size_t i = 0; i < sg->n_node && !st; i++) st = import_node(child, order[i], sg->node[order[i]], err);
    free(order);
    if (st) return st;
    if (sg->n_output == 0) return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s has no outputs", im->path, label, attr);
    for (size_t j = 0; j < sg->n_output; j++) {
        const char *name = str_or(sg->output[j]->name, "");
        int v;
        if ((st = value_of(child, name, &v, err))) return st;
        if (v < 0)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s output '%s' is not computed", im->path, label, attr, name);
        cc_dtype dt;
        cc_shape s;
        int has_dt, has_shape;
        if ((st = value_info_type(child, sg->output[j], "sub-graph output", &dt, &has_dt, &s, &has_shape, err))) return st;
        if (map_get(&child->dynamic, name) >= 0) {
            /* a shape that follows the data: the one the file declares is asserted (and checked
             * at run time); without one, its bound stands (an If's output then takes the
             * branch's actual shape; a Loop's carried value must keep one shape) */
            int fixed = has_shape;
            for (int d = 0; fixed && d < s.rank; d++) fixed = s.dims[d] >= 0;
            if (fixed && (st = cc_mb_narrow(child->b, v, &s, err))) return st;
        }
        if (has_dt && dt != cc_mb_value(child->b, v)->dtype)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s output '%s' is declared %s, the graph computes %s", im->path,
                              label, attr, name, cc_dtype_name(dt), cc_dtype_name(cc_mb_value(child->b, v)->dtype));
        if ((st = cc_mb_output(child->b, v, err))) return st;
    }
    return CC_OK;
}

/* Finishes child into a sub-graph of im's graph; its index goes to *index. */
static cc_status sub_finish(importer *im, importer *child, int *index, cc_err *err)
{
    cc_model *m = NULL;
    cc_status st = cc_mb_finish(child->b, CC_TASK_GENERIC, 0, &m, err);
    child->b = NULL;
    if (!st) st = cc_mb_subgraph(im->b, m, index, err);
    return st;
}

/* The graph attribute `name` of node nd, or NULL with the reason in err. */
static const Onnx__GraphProto *graph_attr(const importer *im, const char *label, const Onnx__NodeProto *nd,
                                          const char *name, cc_err *err)
{
    for (size_t j = 0; j < nd->n_attribute; j++) {
        const Onnx__AttributeProto *a = nd->attribute[j];
        if (strcmp(str_or(a->name, ""), name) != 0) continue;
        if (attr_type(a) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH || !a->g) {
            cc_err_set(err, CC_ERR_ARG, "%s: %s: attribute '%s' is %s, not a graph", im->path, label, name,
                       attr_type_name(attr_type(a)));
            return NULL;
        }
        return a->g;
    }
    cc_err_set(err, CC_ERR_ARG, "%s: %s: attribute '%s' is required", im->path, label, name);
    return NULL;
}

/* The longest stacked output of Loop node nd as the file declares it (graph outputs and
 * value_info), 0 where it declares none. */
static int64_t declared_trips(const importer *im, const Onnx__NodeProto *nd, int first)
{
    int64_t best = 0;
    const Onnx__GraphProto *g = im->g;
    for (size_t j = (size_t)first; j < nd->n_output; j++) {
        const char *name = str_or(nd->output[j], "");
        if (!name[0]) continue;
        for (int list = 0; list < 2; list++) {
            size_t n = list ? g->n_value_info : g->n_output;
            for (size_t i = 0; i < n; i++) {
                const Onnx__ValueInfoProto *vi = list ? g->value_info[i] : g->output[i];
                if (strcmp(str_or(vi->name, ""), name) != 0 || !vi->type ||
                    vi->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !vi->type->tensor_type->shape ||
                    vi->type->tensor_type->shape->n_dim == 0)
                    continue;
                const Onnx__TensorShapeProto__Dimension *d = vi->type->tensor_type->shape->dim[0];
                if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && d->dim_value > best)
                    best = d->dim_value;
            }
        }
    }
    return best;
}

/* Value v without (squeeze) or with a new batch axis 0 of 1, as node `name` whose output
 * is named out_name (NULL: after the node); *out its value. */
static cc_status batch_axis(importer *im, const char *name, int v, int squeeze, const char *out_name, int *out,
                            cc_err *err)
{
    cc_tensor axes = { 0 };
    int64_t one = 1;
    cc_shape s = cc_shape_make(1, &one);
    int va;
    char an[CC_VALUE_NAME_MAX];
    snprintf(an, sizeof an, "%.80s/axes", name);
    cc_status st = cc_tensor_alloc(&axes, CC_I64, &s, err);
    if (st) return st;
    ((int64_t *)axes.data)[0] = 0;
    if ((st = cc_mb_const(im->b, an, &axes, &va, err))) return st;
    return cc_mb_node(im->b, squeeze ? "Squeeze" : "Unsqueeze", name, NULL, 2, (int[]){ v, va }, 1, out,
                      out_name ? &out_name : NULL, err);
}

/* A control-flow node (If, Loop, Scan): imports its sub-graphs, sets its graph attributes
 * and knobs, and appends the outer values they read to its inputs in[0..*n_in). */
static cc_status control_node(importer *im, const char *label, const Onnx__NodeProto *nd, const cc_op_def *op,
                              unsigned legacy, cc_attr_value *attrs, int *in, int *n_in, int n_out, cc_err *err)
{
    cc_status st = CC_OK;
    cc_tensor formal[CC_MAX_IO];
    memset(formal, 0, sizeof formal);
    int n_formal = 0;
    if (op->id == CC_OP_ID_If) {
        const Onnx__GraphProto *br[2] = { graph_attr(im, label, nd, "then_branch", err), NULL };
        if (br[0]) br[1] = graph_attr(im, label, nd, "else_branch", err);
        if (!br[0] || !br[1]) return CC_ERR_ARG;
        importer c[2];
        memset(c, 0, sizeof c);
        const char *names[2] = { "then_branch", "else_branch" };
        int all[CC_MAX_IO], n_all = 0; /* the outer values either branch reads, in first-read order */
        for (int b = 0; b < 2 && !st; b++) st = sub_import(im, label, names[b], br[b], 0, NULL, &c[b], err);
        for (int b = 0; b < 2 && !st; b++)
            for (int i = 0; i < c[b].n_captured; i++) {
                int seen = 0;
                for (int j = 0; j < n_all && !seen; j++) seen = all[j] == c[b].captured[i];
                if (!seen) all[n_all++] = c[b].captured[i];
            }
        if (!st && 1 + n_all > CC_MAX_IO)
            st = cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: the branches read %d outer values, more than %d", im->path,
                            label, n_all, CC_MAX_IO - 1);
        /* each branch takes every one of them, in that order */
        for (int b = 0; b < 2 && !st; b++) {
            int order[CC_MAX_IO];
            for (int j = 0; j < n_all && !st; j++) {
                int at = -1;
                for (int i = 0; i < c[b].n_captured && at < 0; i++)
                    if (c[b].captured[i] == all[j]) at = c[b].captured_v[i];
                if (at < 0) {
                    const cc_tensor *d = cc_mb_value(im->b, all[j]);
                    char pn[32];
                    snprintf(pn, sizeof pn, "unread:%d", j);
                    st = cc_mb_input(c[b].b, pn, d->dtype, &d->shape, &at, err);
                }
                order[j] = at;
            }
            if (!st) st = cc_mb_order_inputs(c[b].b, n_all, order, err);
        }
        int idx;
        for (int b = 0; b < 2 && !st; b++) {
            st = sub_finish(im, &c[b], &idx, err);
            attrs[cc_attr_index(op, names[b])] = (cc_attr_value){ .set = 1, .i = idx };
        }
        for (int b = 0; b < 2; b++) sub_free(&c[b]);
        if (st) return st;
        *n_in = 1;
        for (int j = 0; j < n_all; j++) in[(*n_in)++] = all[j];
        return CC_OK;
    }
    const Onnx__GraphProto *body = graph_attr(im, label, nd, "body", err);
    if (!body) return CC_ERR_ARG;
    int n_carried;
    if (op->id == CC_OP_ID_Loop) {
        n_carried = *n_in > 2 ? *n_in - 2 : 0;
        while (*n_in < 2) in[(*n_in)++] = -1;
        cc_shape scalar = { 0 };
        formal[0] = (cc_tensor){ .dtype = CC_I64, .shape = scalar };
        formal[1] = (cc_tensor){ .dtype = CC_BOOL, .shape = scalar };
        /* the iteration and cond as the body declares them where it does: [1] or a scalar */
        for (int i = 0; i < 2 && (size_t)i < body->n_input; i++) {
            cc_dtype dt;
            cc_shape s;
            int has_dt, has_shape;
            if (!value_info_type(im, body->input[i], "sub-graph input", &dt, &has_dt, &s, &has_shape, err) && has_shape &&
                s.rank == 1 && s.dims[0] == 1)
                formal[i].shape = s;
        }
        n_formal = 2;
        int64_t cap = 0;
        const cc_tensor *m = in[0] >= 0 ? cc_mb_value(im->b, in[0]) : NULL;
        if ((!m || !m->data) && n_out > n_carried) cap = declared_trips(im, nd, n_carried);
        attrs[cc_attr_index(op, "max_trips")] = (cc_attr_value){ .set = 1, .i = cap };
    } else {
        if (legacy & CC_ONNX_LEGACY_SCAN_BATCH) { /* Scan-8: without sequence_lens and the batch axis */
            if (*n_in > 0 && in[0] >= 0)
                return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: Scan-8's sequence_lens input is not supported",
                                  im->path, label);
            for (int i = 1; i < *n_in; i++) {
                const cc_tensor *x = in[i] >= 0 ? cc_mb_value(im->b, in[i]) : NULL;
                if (!x || x->shape.rank < 1 || x->shape.dims[0] != 1)
                    return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: Scan-8 runs here with a batch of 1; input %d %s",
                                      im->path, label, i, x ? "has another" : "is absent");
                char name[CC_VALUE_NAME_MAX];
                snprintf(name, sizeof name, "%.60s/unbatched%d", label, i);
                cc_status st2 = batch_axis(im, name, in[i], 1, NULL, &in[i - 1], err);
                if (st2) return st2;
            }
            (*n_in)--;
        }
        int64_t m = attrs[cc_attr_index(op, "num_scan_inputs")].i;
        if (m < 1 || m > *n_in)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s: num_scan_inputs is %lld for %d inputs", im->path, label,
                              (long long)m, *n_in);
        n_carried = *n_in - (int)m;
        const cc_attr_value *ax = &attrs[cc_attr_index(op, "scan_input_axes")];
        for (int i = 0; i < *n_in; i++) {
            if (in[i] < 0) return cc_err_set(err, CC_ERR_ARG, "%s: %s: input %d is absent", im->path, label, i);
            const cc_tensor *x = cc_mb_value(im->b, in[i]);
            formal[i] = (cc_tensor){ .dtype = x->dtype, .shape = x->shape };
            if (i < n_carried) continue;
            int j = i - n_carried, r = x->shape.rank;
            int64_t a = ax->set && j < ax->n ? ax->ints[j] : 0;
            if (a < -r || a >= r)
                return cc_err_set(err, CC_ERR_ARG, "%s: %s: scan_input_axes[%d] is %lld for a rank-%d input", im->path,
                                  label, j, (long long)a, r);
            if (a < 0) a += r;
            formal[i].shape.rank = 0;
            for (int d = 0; d < r; d++)
                if (d != a) formal[i].shape.dims[formal[i].shape.rank++] = x->shape.dims[d];
        }
        n_formal = *n_in;
    }
    for (int i = n_formal; i < *n_in; i++) {
        if (in[i] < 0) return cc_err_set(err, CC_ERR_ARG, "%s: %s: input %d is absent", im->path, label, i);
        const cc_tensor *x = cc_mb_value(im->b, in[i]);
        formal[i] = (cc_tensor){ .dtype = x->dtype, .shape = x->shape };
    }
    n_formal = *n_in;
    attrs[cc_attr_index(op, "carried")] = (cc_attr_value){ .set = 1, .i = n_carried };
    importer c;
    int idx = -1;
    st = sub_import(im, label, "body", body, n_formal, formal, &c, err);
    if (!st && n_formal + c.n_captured > CC_MAX_IO)
        st = cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: %d inputs and outer values read, more than %d", im->path, label,
                        n_formal + c.n_captured, CC_MAX_IO);
    for (int j = 0; !st && j < c.n_captured; j++) in[(*n_in)++] = c.captured[j];
    if (!st) st = sub_finish(im, &c, &idx, err);
    sub_free(&c);
    if (st) return st;
    attrs[cc_attr_index(op, "body")] = (cc_attr_value){ .set = 1, .i = idx };
    return CC_OK;
}

static cc_status import_node(importer *im, int k, const Onnx__NodeProto *nd, cc_err *err)
{
    char opl[96], label[128];
    op_label(nd, opl, sizeof opl);
    snprintf(label, sizeof label, "node %d (%s)", k, opl);
    if (!is_default_domain(nd->domain))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: unknown op %s (only the default ONNX domain is supported)",
                          im->path, label, opl);
    if (!nd->op_type || !nd->op_type[0]) return cc_err_set(err, CC_ERR_ARG, "%s: %s: no op type", im->path, label);
    if (strcmp(nd->op_type, "Constant") == 0) return constant_node(im, k, nd, err);
    const cc_op_def *op = cc_catalog_find(nd->op_type);
    const cc_onnx_alias *alias = op ? NULL : cc_onnx_alias_of(nd->op_type, im->opset);
    if (alias) op = cc_catalog_find(alias->op);
    if (!op && cc_onnx_alias_of(nd->op_type, 0))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: %s is deprecated at opset %d; the catalog runs it as %s at opsets %d to %d",
                          im->path, label, opl, im->opset, cc_onnx_alias_of(nd->op_type, 0)->op,
                          cc_onnx_alias_of(nd->op_type, 0)->first, cc_onnx_alias_of(nd->op_type, 0)->last);
    if (!op) return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: unknown op %s (not in the catalog)", im->path, label, opl);

    cc_err e = { 0 };
    int version = op->since_version;
    unsigned legacy = 0;
    cc_status st = alias ? CC_OK : cc_onnx_op_version(op, im->opset, &version, &legacy, &e);
    if (st) return cc_err_set(err, st, "%s: %s: %s", im->path, label, e.msg);

    /* inputs: "" is an absent optional input; trailing absent ones are dropped */
    size_t n_given = nd->n_input;
    while (n_given > 0 && !str_or(nd->input[n_given - 1], "")[0]) n_given--;
    const cc_tensor *axes_in = NULL; /* Reduce*-18's axes input, made the attribute below */
    if ((legacy & CC_ONNX_NEWER_AXES_INPUT) && n_given == 2) {
        int v = map_get(&im->values, str_or(nd->input[1], ""));
        axes_in = v >= 0 ? cc_mb_value(im->b, v) : NULL;
        if (!axes_in || !axes_in->data)
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "%s: %s: %s-%d's axes input '%s' is computed at run time; the catalog's %s-13 needs "
                              "it constant",
                              im->path, label, op->name, version, str_or(nd->input[1], ""), op->name);
        if ((axes_in->dtype != CC_I64 && axes_in->dtype != CC_I32) || axes_in->shape.rank != 1 ||
            cc_shape_numel(&axes_in->shape) > CC_MAX_INTS)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s: axes must be a 1-D int64 tensor of at most %d values",
                              im->path, label, CC_MAX_INTS);
        n_given = 1;
    }
    if (n_given > (size_t)(alias ? alias->n_in : op->n_inputs))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: %zu inputs, the catalog's %s takes at most %d", im->path,
                          label, n_given, alias ? alias->onnx : op->name, alias ? alias->n_in : op->n_inputs);
    int in[CC_MAX_IO], n_in = (int)n_given;
    for (int i = 0; i < n_in; i++) {
        const char *iname = str_or(nd->input[i], "");
        in[i] = -1;
        if (iname[0] && (st = value_of(im, iname, &in[i], err))) return st;
        if (iname[0] && in[i] < 0)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s: input '%s' is not computed before the node", im->path, label,
                              iname);
    }
    if (alias) { /* the deprecated op's inputs where the catalog op takes them */
        int moved[CC_MAX_IO], n_moved = 0;
        for (int i = 0; i < n_in; i++) {
            while (n_moved <= alias->in_map[i]) moved[n_moved++] = -1;
            moved[alias->in_map[i]] = in[i];
        }
        memcpy(in, moved, sizeof(int) * (size_t)n_moved);
        n_in = n_moved;
    }

    cc_node tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.op = op;
    if ((st = cc_node_set_defaults(&tmp, &e))) return cc_err_set(err, st, "%s: %s: %s", im->path, label, e.msg);
    for (int i = 0; alias && i < 2 && alias->attr[i]; i++) {
        int a = cc_attr_index(op, alias->attr[i]);
        if (a < 0 || cc_attr_parse(op->attrs[a].kind, alias->value[i], &tmp.attrs[a], &e))
            return cc_err_set(err, CC_ERR_INTERNAL, "%s: %s: the alias of %s sets %s", im->path, label, alias->onnx,
                              alias->attr[i]);
        tmp.attrs[a].set = 1;
    }
    const char *la, *lv;
    if ((legacy & CC_ONNX_LEGACY_SET_ATTR) && cc_onnx_legacy_attr(op, version, &la, &lv)) {
        int a = cc_attr_index(op, la);
        for (size_t j = 0; j < nd->n_attribute; j++)
            if (strcmp(str_or(nd->attribute[j]->name, ""), la) == 0)
                return cc_err_set(err, CC_ERR_ARG, "%s: %s: %s-%d has no attribute '%s'", im->path, label, op->name,
                                  version, la);
        if (a < 0 || cc_attr_parse(op->attrs[a].kind, lv, &tmp.attrs[a], &e))
            return cc_err_set(err, CC_ERR_INTERNAL, "%s: %s: %s-%d sets %s", im->path, label, op->name, version, la);
        tmp.attrs[a].set = 1;
    }
    if (axes_in) {
        cc_attr_value *av = &tmp.attrs[cc_attr_index(op, "axes")];
        av->n = (int)cc_shape_numel(&axes_in->shape);
        for (int i = 0; i < av->n; i++)
            av->ints[i] = cc_load_i64(axes_in->data, axes_in->dtype, (size_t)i);
        if (axes_in->dtype == CC_I64) memcpy(av->ints, axes_in->data, sizeof(int64_t) * (size_t)av->n);
        av->set = av->n > 0 ? 2 : 0; /* an empty axes tensor is "no axes" */
    }
    if ((st = node_attrs(im, label, nd, op, legacy, tmp.attrs, in, &n_in, err))) return st;

    /* outputs: trailing unnamed ones are not requested */
    size_t n_out = nd->n_output;
    while (n_out > 0 && !str_or(nd->output[n_out - 1], "")[0]) n_out--;
    if (n_out == 0) return cc_err_set(err, CC_ERR_ARG, "%s: %s: no output", im->path, label);
    if (n_out > (size_t)op->max_outputs)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s: %zu outputs, the catalog's %s has at most %d", im->path,
                          label, n_out, op->name, op->max_outputs);
    if ((st = legacy_checks(im, label, op, version, legacy, tmp.attrs, in, (int)n_out, err))) return st;
    for (int i = 0; i < op->n_attrs; i++)
        if (tmp.attrs[i].set) tmp.attrs[i].set = 1;
    if (cc_op_has_trait(op, CC_TRAIT_SUBGRAPH) &&
        (st = control_node(im, label, nd, op, legacy, tmp.attrs, in, &n_in, (int)n_out, err)))
        return st;

    const char *out_names[CC_MAX_IO];
    char oname[CC_MAX_IO][CC_VALUE_NAME_MAX], batched[CC_MAX_IO][CC_VALUE_NAME_MAX];
    for (size_t j = 0; j < n_out; j++) {
        if (str_or(nd->output[j], "")[0]) printable(oname[j], sizeof oname[j], nd->output[j]);
        else snprintf(oname[j], sizeof oname[j], "%.60s:%zu", label, j);
        memcpy(batched[j], oname[j], sizeof oname[j]);
        if (legacy & CC_ONNX_LEGACY_SCAN_BATCH) snprintf(oname[j], sizeof oname[j], "%.80s/unbatched", batched[j]);
        out_names[j] = oname[j];
    }
    char name[64];
    printable(name, sizeof name, str_or(nd->name, label));
    /* shape computations fold into constants, except a node that makes a graph output (a
     * target must compute every output) */
    int out[CC_MAX_IO], folded = 0, makes_output = 0;
    for (size_t j = 0; j < n_out; j++)
        for (size_t i = 0; i < im->g->n_output && !makes_output; i++)
            makes_output = im->g->output[i]->name && str_or(nd->output[j], "")[0] &&
                           strcmp(im->g->output[i]->name, nd->output[j]) == 0;
    if (!makes_output)
        st = cc_mb_fold_node(im->b, op, name, tmp.attrs, n_in, in, (int)n_out, out, out_names, &folded, &e);
    if (!st && !folded) st = cc_mb_node_values(im->b, op, name, tmp.attrs, n_in, in, (int)n_out, out, out_names, &e);
    for (size_t j = 0; !st && (legacy & CC_ONNX_LEGACY_SCAN_BATCH) && j < n_out; j++) { /* the batch axis back */
        char bn[CC_VALUE_NAME_MAX];
        snprintf(bn, sizeof bn, "%.60s/batched%zu", label, j);
        st = batch_axis(im, bn, out[j], 0, batched[j], &out[j], &e); /* the file's name on the batched value */
    }
    if (st) return cc_err_set(err, st, "%s: %s: %s", im->path, label, strip_node_prefix(e.msg, name));
    const cc_tensor *din[CC_MAX_IO] = { 0 };
    for (int i = 0; i < n_in; i++) din[i] = in[i] >= 0 ? cc_mb_value(im->b, in[i]) : NULL;
    int dynamic = cc_op_dynamic_shape(op, n_in, din); /* or reads a value whose shape follows the data */
    for (size_t i = 0; i < nd->n_input && !dynamic; i++)
        dynamic = str_or(nd->input[i], "")[0] && map_get(&im->dynamic, nd->input[i]) >= 0;
    for (size_t j = 0; j < n_out; j++) {
        if (!str_or(nd->output[j], "")[0]) continue;
        if (map_put(&im->values, nd->output[j], out[j]))
            return cc_err_set(err, CC_ERR_ARG, "%s: %s: value '%s' is defined twice", im->path, label, nd->output[j]);
        if (!folded && dynamic && map_put(&im->dynamic, nd->output[j], out[j]))
            return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", im->path);
    }
    return CC_OK;
}

/* ---- topological order ------------------------------------------------------------------ */

/* Writes the order in which to import the nodes: file order where that is topological
 * (ONNX requires it), else a stable topological sort. A node input that nothing defines is
 * reported naming it; a cycle is reported naming a node on it. */
static cc_status node_order(const importer *im, int *order, cc_err *err)
{
    const Onnx__GraphProto *g = im->g;
    int n = (int)g->n_node;
    cc_status st = CC_OK;
    name_map defined = { 0 }, producer = { 0 };
    size_t n_names = g->n_initializer + g->n_input;
    for (int k = 0; k < n; k++) n_names += g->node[k]->n_output;
    unsigned char *done = calloc((size_t)n + 1, 1);
    if (!done) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    if ((st = map_init(&defined, n_names, err)) || (st = map_init(&producer, n_names, err))) goto fail;
    for (size_t i = 0; i < g->n_initializer; i++)
        if (g->initializer[i]->name) map_put(&defined, g->initializer[i]->name, 0);
    for (size_t i = 0; i < g->n_input; i++)
        if (g->input[i]->name) map_put(&defined, g->input[i]->name, 0);
    for (int k = 0; k < n; k++)
        for (size_t j = 0; j < g->node[k]->n_output; j++)
            if (str_or(g->node[k]->output[j], "")[0]) map_put(&producer, g->node[k]->output[j], k);
    int placed = 0;
    while (placed < n) {
        int progress = 0;
        for (int k = 0; k < n; k++) {
            if (done[k]) continue;
            const Onnx__NodeProto *nd = g->node[k];
            int ready = 1;
            for (size_t i = 0; i < nd->n_input && ready; i++) {
                const char *iname = str_or(nd->input[i], "");
                if (!iname[0] || map_get(&defined, iname) >= 0) continue;
                int p = map_get(&producer, iname);
                if (p < 0 && defined_outside(im, iname)) continue; /* a sub-graph reads an outer value */
                if (p < 0) {
                    char opl[96];
                    op_label(nd, opl, sizeof opl);
                    st = cc_err_set(err, CC_ERR_ARG,
                                    "%s: node %d (%s): input '%s' is not an initializer, a graph input or any node's output",
                                    im->path, k, opl, iname);
                    goto fail;
                }
                ready = done[p];
            }
            if (!ready) continue;
            done[k] = 1;
            order[placed++] = k;
            progress = 1;
            for (size_t j = 0; j < nd->n_output; j++)
                if (str_or(nd->output[j], "")[0]) map_put(&defined, nd->output[j], 0);
        }
        if (!progress) {
            int k = 0;
            while (done[k]) k++;
            char opl[96];
            op_label(g->node[k], opl, sizeof opl);
            st = cc_err_set(err, CC_ERR_ARG, "%s: node %d (%s) is on a cycle of the graph", im->path, k, opl);
            goto fail;
        }
    }
fail:
    free(done);
    map_free(&defined);
    map_free(&producer);
    return st;
}

/* ---- graph outputs ------------------------------------------------------------------------ */

static cc_status add_graph_output(importer *im, const Onnx__ValueInfoProto *vi, cc_err *err)
{
    const char *name = str_or(vi->name, "");
    int v = map_get(&im->values, name);
    if (v < 0) return cc_err_set(err, CC_ERR_ARG, "%s: graph output '%s' is not computed by the graph", im->path, name);
    cc_dtype dt = CC_F32;
    cc_shape s;
    int has_dt, has_shape;
    cc_status st = value_info_type(im, vi, "output", &dt, &has_dt, &s, &has_shape, err);
    if (st) return st;
    const cc_tensor *t = cc_mb_value(im->b, v);
    char a[128], c[128];
    if (has_dt && dt != t->dtype)
        return cc_err_set(err, CC_ERR_ARG, "%s: graph output '%s' is declared %s, the graph computes %s", im->path, name,
                          cc_dtype_name(dt), cc_dtype_name(t->dtype));
    int same = !has_shape || s.rank == t->shape.rank;
    /* a data-dependent shape: the graph keeps the bound, the file declares what the exported
     * example gave */
    int bounded = map_get(&im->dynamic, name) >= 0;
    for (int i = 0; same && has_shape && !bounded && i < s.rank; i++)
        same = s.dims[i] < 0 || s.dims[i] == t->shape.dims[i];
    if (!same)
        return cc_err_set(err, CC_ERR_ARG, "%s: graph output '%s' is declared %s, the graph computes %s", im->path, name,
                          cc_shape_format(&s, a, sizeof a), cc_shape_format(&t->shape, c, sizeof c));
    return cc_mb_output(im->b, v, err);
}

/* ---- entry points ------------------------------------------------------------------------- */

cc_status cc_onnx_load(const char *path, const cc_onnx_options *opt, cc_model **out, cc_err *err)
{
    Onnx__ModelProto *m = NULL;
    importer im;
    memset(&im, 0, sizeof im);
    im.path = path;
    im.opt = opt;
    int *order = NULL;
    cc_status st = parse_model(path, &m, err);
    if (st) return cc_onnx_one_line(err, st);
    if ((st = check_header(path, m, &im.opset, err))) goto fail;
    const Onnx__GraphProto *g = m->graph;
    im.g = g;
    size_t n_names = g->n_initializer + g->n_input;
    for (size_t k = 0; k < g->n_node; k++) n_names += g->node[k]->n_output;
    if ((st = map_init(&im.values, n_names, err)) || (st = map_init(&im.dynamic, n_names, err))) goto fail;
    const char *base = strrchr(path, '/');
    char stem[256], mname[64];
    snprintf(stem, sizeof stem, "%s", base ? base + 1 : path);
    size_t sl = strlen(stem);
    if (sl > 5 && strcmp(stem + sl - 5, ".onnx") == 0) stem[sl - 5] = '\0';
    if ((st = cc_mb_create(printable(mname, sizeof mname, opt && opt->name ? opt->name : stem), &im.b, err)))
        goto fail;

    for (size_t i = 0; i < g->n_initializer; i++) {
        const Onnx__TensorProto *tp = g->initializer[i];
        const char *name = str_or(tp->name, "");
        char what[128];
        snprintf(what, sizeof what, "initializer '%s'", name);
        if (!name[0]) {
            st = cc_err_set(err, CC_ERR_ARG, "%s: initializer %zu has no name", path, i);
            goto fail;
        }
        cc_tensor t;
        int v;
        if ((st = cc_onnx_tensor(path, what, tp, &t, err))) goto fail;
        if ((st = cc_mb_const(im.b, name, &t, &v, err))) goto fail;
        if (map_put(&im.values, name, v)) {
            st = cc_err_set(err, CC_ERR_ARG, "%s: initializer '%s' is defined twice", path, name);
            goto fail;
        }
    }
    for (int k = 0; opt && k < opt->n_shapes; k++) {
        int found = 0;
        for (size_t i = 0; i < g->n_input && !found; i++)
            found = g->input[i]->name && opt->shape_names[k] && strcmp(g->input[i]->name, opt->shape_names[k]) == 0;
        if (!found) {
            st = cc_err_set(err, CC_ERR_ARG, "%s: a shape is bound to '%s', which is not an input of the graph", path,
                            opt->shape_names[k] ? opt->shape_names[k] : "");
            goto fail;
        }
    }
    for (size_t i = 0; i < g->n_input; i++)
        if ((st = add_graph_input(&im, g->input[i], err))) goto fail;
    order = malloc(sizeof *order * (g->n_node + 1));
    if (!order) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto fail;
    }
    if ((st = node_order(&im, order, err))) goto fail;
    for (size_t i = 0; i < g->n_node; i++)
        if ((st = import_node(&im, order[i], g->node[order[i]], err))) goto fail;
    if (g->n_output == 0) {
        st = cc_err_set(err, CC_ERR_ARG, "%s: the graph has no outputs", path);
        goto fail;
    }
    for (size_t i = 0; i < g->n_output; i++)
        if ((st = add_graph_output(&im, g->output[i], err))) goto fail;
    cc_model *model = NULL;
    /* outputs that are post-NMS detections are compared as sets (models/detect.h) */
    st = cc_mb_finish(im.b, CC_TASK_DETECTIONS, 0, &model, err);
    im.b = NULL;
    if (st) goto fail;
    *out = model;
fail:
    cc_mb_destroy(im.b);
    map_free(&im.values);
    map_free(&im.dynamic);
    free(order);
    protobuf_c_message_free_unpacked(&m->base, NULL);
    return cc_onnx_one_line(err, st);
}

/* Nodes of g and of the sub-graphs its nodes run, down to CC_CONTROL_MAX_DEPTH. */
static size_t count_nodes(const Onnx__GraphProto *g, int depth)
{
    size_t n = g->n_node;
    for (size_t k = 0; k < g->n_node && depth < CC_CONTROL_MAX_DEPTH; k++)
        for (size_t j = 0; j < g->node[k]->n_attribute; j++)
            if (g->node[k]->attribute[j]->g) n += count_nodes(g->node[k]->attribute[j]->g, depth + 1);
    return n;
}

typedef struct op_tally {
    char (*seen)[64];
    int count, max;
    char (*names)[64];
    int *counts;
} op_tally;

static void tally_graph(const Onnx__GraphProto *g, int depth, op_tally *t)
{
    for (size_t k = 0; k < g->n_node; k++) {
        char opl[64];
        op_label(g->node[k], opl, sizeof opl);
        int at = -1;
        for (int i = 0; i < t->count && at < 0; i++)
            if (strcmp(t->seen[i], opl) == 0) at = i;
        if (at >= 0) {
            if (t->counts && at < t->max) t->counts[at]++;
        } else {
            memcpy(t->seen[t->count], opl, sizeof opl);
            if (t->count < t->max) {
                memcpy(t->names[t->count], opl, sizeof opl);
                if (t->counts) t->counts[t->count] = 1;
            }
            t->count++;
        }
        for (size_t j = 0; j < g->node[k]->n_attribute && depth < CC_CONTROL_MAX_DEPTH; j++)
            if (g->node[k]->attribute[j]->g) tally_graph(g->node[k]->attribute[j]->g, depth + 1, t);
    }
}

cc_status cc_onnx_op_counts(const char *path, char (*names)[64], int *counts, int max, int *n, cc_err *err)
{
    Onnx__ModelProto *m = NULL;
    cc_status st = parse_model(path, &m, err);
    if (st) return cc_onnx_one_line(err, st);
    op_tally t = { .max = max, .names = names, .counts = counts };
    t.seen = malloc(sizeof *t.seen * (count_nodes(m->graph, 0) + 1));
    if (!t.seen) {
        protobuf_c_message_free_unpacked(&m->base, NULL);
        return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    tally_graph(m->graph, 0, &t);
    *n = t.count;
    free(t.seen);
    protobuf_c_message_free_unpacked(&m->base, NULL);
    return CC_OK;
}

cc_status cc_onnx_op_types(const char *path, char (*names)[64], int max, int *n, cc_err *err)
{
    return cc_onnx_op_counts(path, names, NULL, max, n, err);
}
