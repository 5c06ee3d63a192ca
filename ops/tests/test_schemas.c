/* test_schemas.c — every catalog op against ONNX's own operator schema (ops/onnx_schemas.def,
 * generated from libonnx by scripts/onnx-schemas.sh): the opset versions ops.def lists,
 * and each attribute's name, kind, required flag and default. The catalog's schemas start
 * with ops/onnx_attrs.h's entries (generated from the same table by the same script);
 * this catches an entry typed or changed by hand, a stale header and a wrong version. */
#include <string.h>

#include "../../harness/cctest.h"
#include "../op.h"

typedef struct onnx_attr {
    const char *op;
    int version;
    const char *name, *kind;
    int required;
    const char *def;
} onnx_attr;

static const onnx_attr attrs[] = {
#define CC_ONNX_SCHEMA(op, version, deprecated)
#define CC_ONNX_ATTR(op, version, name, kind, required, def) { op, version, name, #kind, required, def },
#include "../onnx_schemas.def"
#undef CC_ONNX_ATTR
#undef CC_ONNX_SCHEMA
};

typedef struct onnx_schema {
    const char *op;
    int version;
} onnx_schema;

static const onnx_schema schemas[] = {
#define CC_ONNX_SCHEMA(op, version, deprecated) { op, version },
#define CC_ONNX_ATTR(op, version, name, kind, required, def)
#include "../onnx_schemas.def"
#undef CC_ONNX_ATTR
#undef CC_ONNX_SCHEMA
};

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define ONNX_MAX_OPSET 17 /* what the generated table covers */

static const char *kind_name(cc_attr_kind k)
{
    switch (k) {
    case CC_ATTR_INT: return "INT";
    case CC_ATTR_FLOAT: return "FLOAT";
    case CC_ATTR_INTS: return "INTS";
    case CC_ATTR_FLOATS: return "FLOATS";
    case CC_ATTR_STRING: return "STRING";
    case CC_ATTR_STRINGS: return "STRINGS";
    case CC_ATTR_TENSOR: return "TENSOR";
    case CC_ATTR_GRAPH: return "GRAPH";
    }
    return "?";
}

static int failures_here;
#define CHECK_OP(cond, op, ...)                                                               \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "%s: ", op);                                                      \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fprintf(stderr, "\n");                                                            \
            failures_here++;                                                                  \
        }                                                                                     \
        CHECK(cond);                                                                          \
    } while (0)

static void check_versions(const cc_op_def *op)
{
    const cc_op_info *info = cc_op_info_of(op->id);
    int n = 0;
    for (int i = 0; i < N(schemas); i++) {
        if (strcmp(schemas[i].op, op->name) != 0) continue;
        CHECK_OP(n < CC_OP_MAX_VERSIONS && info->versions[n] == schemas[i].version, op->name,
                 "ONNX has version %d where ops.def lists %d", schemas[i].version,
                 n < CC_OP_MAX_VERSIONS ? info->versions[n] : -1);
        n++;
    }
    CHECK_OP(n > 0, op->name, "not an ONNX operator of the default domain");
    CHECK_OP(n >= CC_OP_MAX_VERSIONS || info->versions[n] == 0 || info->versions[n] > ONNX_MAX_OPSET, op->name,
             "ops.def lists version %d, which ONNX (to opset %d) does not have", info->versions[n], ONNX_MAX_OPSET);
}

static int checked; /* ONNX attributes compared, over the catalog */

static void check_attrs(const cc_op_def *op)
{
    int seen = 0;
    for (int i = 0; i < N(attrs); i++) {
        const onnx_attr *a = &attrs[i];
        if (strcmp(a->op, op->name) != 0 || a->version != op->since_version) continue;
        seen++;
        int k = cc_attr_index(op, a->name);
        if (k < 0 || op->attrs[k].input >= 0 || op->attrs[k].knob) {
            CHECK_OP(0, op->name, "ONNX attribute %s (%s) is not in the schema", a->name, a->kind);
            continue;
        }
        const cc_attr_def *d = &op->attrs[k];
        CHECK_OP(strcmp(kind_name(d->kind), a->kind) == 0, op->name, "%s is %s in ONNX, %s here", a->name, a->kind,
                 kind_name(d->kind));
        CHECK_OP(d->required == a->required, op->name, "%s: required %d in ONNX, %d here", a->name, a->required,
                 d->required);
        if (a->def) {
            cc_attr_value want, got;
            cc_err e;
            int ok = d->def && cc_attr_parse(d->kind, a->def, &want, &e) == CC_OK &&
                     cc_attr_parse(d->kind, d->def, &got, &e) == CC_OK && cc_attr_equal(d->kind, &want, &got);
            CHECK_OP(ok, op->name, "%s: default %s in ONNX, %s here", a->name, a->def, d->def ? d->def : "none");
        }
    }
    /* every ONNX-attribute entry of the schema is an ONNX attribute */
    for (int k = 0; k < op->n_attrs; k++) {
        const cc_attr_def *d = &op->attrs[k];
        if (d->input >= 0 || d->knob) continue;
        int found = 0;
        for (int i = 0; i < N(attrs) && !found; i++)
            found = strcmp(attrs[i].op, op->name) == 0 && attrs[i].version == op->since_version &&
                    strcmp(attrs[i].name, d->name) == 0;
        CHECK_OP(found, op->name, "attribute %s is not in ONNX's %s-%d", d->name, op->name, op->since_version);
    }
    checked += seen;
}

int main(void)
{
    CHECK(N(schemas) > 300 && N(attrs) > 300); /* the table is ONNX's, not a stub */
    for (int i = 0; i < cc_catalog_count(); i++) {
        const cc_op_def *op = cc_catalog_at(i);
        check_versions(op);
        check_attrs(op);
    }
    fprintf(stderr, "%d ONNX attributes of %d catalog ops compared\n", checked, cc_catalog_count());
    CHECK(checked >= 50);
    if (failures_here) fprintf(stderr, "%d difference(s) from ONNX's schemas\n", failures_here);
    return CC_TEST_RESULT();
}
