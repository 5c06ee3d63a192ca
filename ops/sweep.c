/* sweep.c — expanding sweep rows into case ids, and the shared shape classes (sweep.h). */
#include "sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"

/* ---- shared shape classes ----------------------------------------------------------- */

/* Elementwise ops of one input: ranks 0 to 5, odd sizes, size-1 dims, and the activation
 * maps of the reference models. */
static const cc_sweep_row eltwise_entries[] = {
    { CC_SWEEP_QUICK, "$0=1x16x32x32", NULL, 0 },
    { CC_SWEEP_QUICK, "$0=3x5x7", NULL, 0 },                       /* odd sizes */
    { CC_SWEEP_QUICK | CC_SWEEP_EDGE, "$0=1", NULL, 0 },           /* one element */
    { CC_SWEEP_EDGE, "$0=scalar", NULL, 0 },
    { CC_SWEEP_EDGE, "$0=1x1x1x1", NULL, 0 },
    { CC_SWEEP_EDGE, "$0=2x1x7x1x3", NULL, 0 },                    /* rank 5 with size-1 dims */
    { 0, "$0=1000", NULL, 0 },
    { CC_SWEEP_MODEL, "$0=1x64x112x112", NULL, 0 },                /* ResNet50 conv1 output */
    { CC_SWEEP_MODEL, "$0=1x256x56x56", NULL, 0 },                 /* ResNet50 stage 1 */
    { CC_SWEEP_QUICK | CC_SWEEP_MODEL, "$0=1x2048x7x7", NULL, 0 }, /* ResNet50 stage 4 */
    { CC_SWEEP_MODEL, "$0=1x32x320x320", NULL, 0 },                /* YOLOv5s/v8 stem at 640x640 */
    { CC_SWEEP_MODEL, "$0=1x128x80x80", NULL, 0 },                 /* YOLO P3 */
    { CC_SWEEP_MODEL, "$0=1x512x20x20", NULL, 0 },                 /* YOLO P5 */
};

/* Elementwise ops of two inputs under numpy broadcasting. */
static const cc_sweep_row broadcast_entries[] = {
    { CC_SWEEP_QUICK, "$0=2x3x4x5,$1=2x3x4x5", NULL, 0 },                 /* same shape */
    { CC_SWEEP_QUICK, "$0=2x3,$1=3", NULL, 0 },                           /* rank mismatch, trailing dims */
    { CC_SWEEP_QUICK, "$0=3x1,$1=1x4", NULL, 0 },                         /* both sides broadcast */
    { CC_SWEEP_QUICK, "$0=1x16x8x8,$1=16x1x1", NULL, 0 },                 /* [C,1,1] against NCHW */
    { CC_SWEEP_QUICK, "$0=5x7,$1=1", NULL, 0 },                           /* one-element b */
    { CC_SWEEP_EDGE, "$0=scalar,$1=3x5", NULL, 0 },                       /* scalar a */
    { CC_SWEEP_EDGE, "$0=3x5,$1=scalar", NULL, 0 },
    { CC_SWEEP_EDGE, "$0=scalar,$1=scalar", NULL, 0 },
    { CC_SWEEP_EDGE, "$0=1,$1=1", NULL, 0 },
    { 0, "$0=7x13,$1=7x13", NULL, 0 },                                    /* odd sizes */
    { CC_SWEEP_EDGE, "$0=1x1x1,$1=7x1x5", NULL, 0 },
    { 0, "$0=5x1x4x1,$1=3x1x6", NULL, 0 },                                /* 5x3x4x6 */
    { 0, "$0=2x1,$1=1x3", NULL, 0 },
    { CC_SWEEP_MODEL, "$0=1x64x1x1,$1=1x64x56x56", NULL, 0 },             /* squeeze-excite scale */
    { CC_SWEEP_MODEL, "$0=1x256x56x56,$1=1x256x56x56", NULL, 0 },         /* ResNet50 residual Add */
    { CC_SWEEP_QUICK | CC_SWEEP_MODEL, "$0=1x2048x7x7,$1=1x2048x7x7", NULL, 0 }, /* last residual Add */
    { CC_SWEEP_MODEL, "$0=1x32x320x320,$1=1x32x320x320", NULL, 0 },       /* YOLO SiLU at 640x640 */
    { CC_SWEEP_MODEL, "$0=1x3x80x80x2,$1=1x3x80x80x2", NULL, 0 },         /* YOLOv5 box decoding */
    { CC_SWEEP_MODEL, "$0=1x3x80x80x2,$1=1x3x1x1x2", NULL, 0 },           /* YOLOv5 anchor scaling */
    { CC_SWEEP_MODEL, "$0=1x4x8400,$1=1x8400", NULL, 0 },                 /* YOLOv8 boxes * strides */
    { CC_SWEEP_MODEL, "$0=1x2x8400,$1=1x2x8400", NULL, 0 },               /* YOLOv8 dist2bbox */
    { CC_SWEEP_MODEL, "$0=1x3x224x224,$1=1x3x1x1", NULL, 0 },             /* (x - mean) / std */
};

#define CLASS(nm, arr) { nm, (int)(sizeof(arr) / sizeof((arr)[0])), arr }
extern const cc_shape_class cc_shape_class_conv, cc_shape_class_conv_models, cc_shape_class_reduce;

static const cc_shape_class eltwise_class = CLASS("eltwise", eltwise_entries);
static const cc_shape_class broadcast_class = CLASS("broadcast", broadcast_entries);

static const cc_shape_class *const classes[] = {
    &eltwise_class, &broadcast_class, &cc_shape_class_conv, &cc_shape_class_conv_models,
    &cc_shape_class_reduce,
};

const cc_shape_class *cc_shape_class_find(const char *name)
{
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (strcmp(classes[i]->name, name) == 0) return classes[i];
    return NULL;
}

/* ---- expansion ------------------------------------------------------------------------ */

#define MAX_ITEMS 32
#define MAX_ALTS 16
#define TEXT 256

/* Splits s at top-level commas (not inside brackets or quoted strings) into items; -1 on
 * overflow. */
static int split_items(const char *s, char items[][TEXT], int max)
{
    int n = 0;
    if (!s || !*s) return 0;
    const char *end = s + strlen(s);
    for (const char *p = s; p <= end;) {
        const char *q = cc_attr_text_end(p, end, ",");
        size_t len = (size_t)(q - p);
        if (len) {
            if (n == max || len >= TEXT) return -1;
            memcpy(items[n], p, len);
            items[n++][len] = '\0';
        }
        p = q + 1;
    }
    return n;
}

typedef struct in_spec {
    int set;           /* 1: the input is written */
    char dims[TEXT];
    char dtype[16];    /* "" for none given */
} in_spec;

typedef struct attr_spec {
    char name[64];
    int n_alt;
    int spread;        /* 1: alternatives spread over the row's cases, 0: crossed */
    char alt[MAX_ALTS][TEXT];
} attr_spec;

static int input_index(const cc_op_def *op, const char *name)
{
    if (name[0] == '$') {
        char *end;
        long k = strtol(name + 1, &end, 10);
        return (*end == '\0' && end != name + 1 && k >= 0 && k < op->n_inputs) ? (int)k : -1;
    }
    for (int i = 0; i < op->n_inputs; i++)
        if (strcmp(op->inputs[i].name, name) == 0) return i;
    return -1;
}

/* Applies one input item ("name=DIMS[:dt]", "name:dt", "-name") to ins. */
static cc_status apply_input(const cc_op_def *op, const char *item, in_spec *ins, cc_err *err)
{
    char name[64];
    const char *eq = strchr(item, '=');
    if (item[0] == '-') {
        int i = input_index(op, item + 1);
        if (i < 0) return cc_err_set(err, CC_ERR_INTERNAL, "no input '%s'", item + 1);
        ins[i].set = 0;
        return CC_OK;
    }
    const char *colon = strchr(item, ':');
    size_t nl = eq ? (size_t)(eq - item) : colon ? (size_t)(colon - item) : strlen(item);
    if (nl == 0 || nl >= sizeof name) return cc_err_set(err, CC_ERR_INTERNAL, "bad input item '%s'", item);
    memcpy(name, item, nl);
    name[nl] = '\0';
    int i = input_index(op, name);
    if (i < 0) return cc_err_set(err, CC_ERR_INTERNAL, "no input '%s'", name);
    if (eq) {
        const char *d = eq + 1;
        const char *c2 = strchr(d, ':');
        size_t dl = c2 ? (size_t)(c2 - d) : strlen(d);
        if (dl == 0 || dl >= sizeof ins[i].dims)
            return cc_err_set(err, CC_ERR_INTERNAL, "bad dims in '%s'", item);
        memcpy(ins[i].dims, d, dl);
        ins[i].dims[dl] = '\0';
        ins[i].set = 1;
        ins[i].dtype[0] = '\0';
        if (c2) snprintf(ins[i].dtype, sizeof ins[i].dtype, "%s", c2 + 1);
    } else {
        if (!ins[i].set) return CC_OK; /* a dtype for an input this entry does not give */
        snprintf(ins[i].dtype, sizeof ins[i].dtype, "%s", colon + 1);
    }
    return CC_OK;
}

/* Adds (or replaces) attributes from text "a=v1|v2,b=w" to specs. */
static cc_status apply_attrs(const char *text, attr_spec *specs, int *n, cc_err *err)
{
    char items[MAX_ITEMS][TEXT];
    int k = split_items(text, items, MAX_ITEMS);
    if (k < 0) return cc_err_set(err, CC_ERR_INTERNAL, "attributes too long: '%s'", text);
    for (int i = 0; i < k; i++) {
        char *eq = strchr(items[i], '=');
        if (!eq || eq == items[i] || (size_t)(eq - items[i]) >= sizeof specs[0].name)
            return cc_err_set(err, CC_ERR_INTERNAL, "bad attribute item '%s'", items[i]);
        *eq = '\0';
        int j = 0;
        while (j < *n && strcmp(specs[j].name, items[i]) != 0) j++;
        if (j == *n) {
            if (*n == MAX_ITEMS) return cc_err_set(err, CC_ERR_INTERNAL, "too many attributes");
            (*n)++;
        }
        attr_spec *a = &specs[j];
        memcpy(a->name, items[i], (size_t)(eq - items[i]) + 1); /* length checked above */
        const char *v = eq + 1, *vend = v + strlen(v);
        /* '|' crosses, '/' spreads; one kind per attribute (outside brackets and quoted strings) */
        int has_bar = cc_attr_text_end(v, vend, "|") != vend, has_slash = cc_attr_text_end(v, vend, "/") != vend;
        if (has_bar && has_slash)
            return cc_err_set(err, CC_ERR_INTERNAL, "attribute '%s' mixes '|' and '/'", a->name);
        const char *sep = has_slash ? "/" : "|";
        a->spread = has_slash;
        a->n_alt = 0;
        for (const char *p = v; p <= vend;) {
            const char *q = cc_attr_text_end(p, vend, sep);
            size_t len = (size_t)(q - p);
            if (a->n_alt == MAX_ALTS || len == 0)
                return cc_err_set(err, CC_ERR_INTERNAL, "attribute '%s': empty or too many values", a->name);
            if (len >= TEXT) return cc_err_set(err, CC_ERR_INTERNAL, "attribute '%s' too long", a->name);
            memcpy(a->alt[a->n_alt], p, len);
            a->alt[a->n_alt++][len] = '\0';
            p = q + 1;
        }
    }
    return CC_OK;
}

/* Appends one id to list with tags. */
static cc_status add_tagged(cc_case_list *list, unsigned tags, const char *id)
{
    if (list->n == list->cap) {
        int cap = list->cap ? list->cap * 2 : 64;
        char **ids = realloc(list->ids, (size_t)cap * sizeof *ids);
        if (!ids) return list->status = CC_ERR_NOMEM;
        list->ids = ids;
        unsigned *tg = realloc(list->tags, (size_t)cap * sizeof *tg);
        if (!tg) return list->status = CC_ERR_NOMEM;
        list->tags = tg;
        list->cap = cap;
    }
    char *s = strdup(id);
    if (!s) return list->status = CC_ERR_NOMEM;
    list->ids[list->n] = s;
    list->tags[list->n] = tags;
    list->n++;
    return CC_OK;
}

/* The dtype name text stands for in a case of dtype dt: "other8" is the other 8-bit type
 * (u8 for i8 and the reverse); any other text stands for itself. */
static const char *resolve_dtype(const char *text, cc_dtype dt)
{
    if (strcmp(text, "other8") != 0) return text;
    return cc_dtype_name(dt == CC_U8 ? CC_I8 : dt == CC_I8 ? CC_U8 : dt);
}

/* The cases of one row and one class entry (entry NULL: the row alone). *counter counts
 * the row's cases (for spread attributes). */
static cc_status expand_one(const cc_op_def *op, const cc_sweep_row *row, const cc_sweep_row *entry,
                            char items[][TEXT], int n_items, cc_dtype dt, cc_case_list *list,
                            long *counter, cc_err *err)
{
    in_spec ins[CC_MAX_IO];
    memset(ins, 0, sizeof ins);
    cc_status st;
    if (entry) {
        char eitems[MAX_ITEMS][TEXT];
        int ne = split_items(entry->inputs, eitems, MAX_ITEMS);
        if (ne < 0) return cc_err_set(err, CC_ERR_INTERNAL, "class entry '%s' too long", entry->inputs);
        for (int i = 0; i < ne; i++) {
            /* an input the row drops is skipped: the op may not have it at all (the conv
             * class's b for ConvInteger) */
            int dropped = 0;
            size_t nl = strcspn(eitems[i], "=:");
            for (int r = 0; r < n_items && !dropped; r++)
                dropped = items[r][0] == '-' && strlen(items[r] + 1) == nl &&
                          strncmp(items[r] + 1, eitems[i], nl) == 0;
            if (!dropped && (st = apply_input(op, eitems[i], ins, err))) return st;
        }
    }
    for (int i = 0; i < n_items; i++) {
        if (items[i][0] == '@') continue;
        if (items[i][0] == '-' && input_index(op, items[i] + 1) < 0) continue; /* dropped above */
        if ((st = apply_input(op, items[i], ins, err))) return st;
    }
    attr_spec *specs = calloc(MAX_ITEMS, sizeof *specs);
    if (!specs) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    int n_specs = 0;
    st = CC_OK;
    if (entry && entry->attrs) st = apply_attrs(entry->attrs, specs, &n_specs, err);
    if (!st && row->attrs) st = apply_attrs(row->attrs, specs, &n_specs, err);
    if (st) goto done;

    long combos = 1;
    for (int a = 0; a < n_specs; a++)
        if (!specs[a].spread) combos *= specs[a].n_alt;
    for (long c = 0; c < combos; c++, (*counter)++) {
        char id[CC_CASE_ID_MAX * 2];
        size_t len = (size_t)snprintf(id, sizeof id, "%s(", op->name);
        int first = 1;
        for (int i = 0; i < op->n_inputs && len < sizeof id; i++) {
            if (!ins[i].set) continue;
            const char *dtn = ins[i].dtype[0] ? resolve_dtype(ins[i].dtype, dt) : first ? cc_dtype_name(dt) : "";
            len += (size_t)snprintf(id + len, sizeof id - len, "%s%s=%s%s%s", first ? "" : ",",
                                    op->inputs[i].name, ins[i].dims, dtn[0] ? ":" : "", dtn);
            first = 0;
        }
        long rest = c;
        for (int a = 0; a < n_specs && len < sizeof id; a++) {
            const attr_spec *s = &specs[a];
            int k;
            if (s->spread) {
                k = (int)(*counter % s->n_alt);
            } else {
                k = (int)(rest % s->n_alt);
                rest /= s->n_alt;
            }
            if (strcmp(s->alt[k], "-") == 0) continue;
            /* "dt:VALUE" is a tensor of the case dtype (ConstantOfShape's value) */
            if (strncmp(s->alt[k], "dt:", 3) == 0)
                len += (size_t)snprintf(id + len, sizeof id - len, "%s%s=%s:%s", first ? "" : ",", s->name,
                                        cc_dtype_name(dt), s->alt[k] + 3);
            else
                len += (size_t)snprintf(id + len, sizeof id - len, "%s%s=%s", first ? "" : ",", s->name,
                                        resolve_dtype(s->alt[k], dt));
            first = 0;
        }
        if (len + 2 >= sizeof id) {
            st = cc_err_set(err, CC_ERR_INTERNAL, "case id too long");
            goto done;
        }
        id[len++] = ')';
        id[len] = '\0';
        unsigned tags = (row->tags | (entry ? entry->tags : 0)) & ~(unsigned)CC_SWEEP_QUICK;
        if ((row->tags & CC_SWEEP_QUICK) && (!entry || (entry->tags & CC_SWEEP_QUICK))) tags |= CC_SWEEP_QUICK;
        if ((st = add_tagged(list, tags, id))) {
            st = cc_err_set(err, st, "out of memory");
            goto done;
        }
    }
done:
    free(specs);
    return st;
}

static cc_status expand_row(const cc_op_def *op, const cc_sweep_row *row, cc_dtype dt, int quick,
                            cc_case_list *list, cc_err *err)
{
    if (row->dtypes && !(row->dtypes & CC_DTYPE_BIT(dt))) return CC_OK;
    if (quick && !(row->tags & CC_SWEEP_QUICK)) return CC_OK;
    char items[MAX_ITEMS][TEXT];
    int n = split_items(row->inputs, items, MAX_ITEMS);
    if (n < 0) return cc_err_set(err, CC_ERR_INTERNAL, "inputs too long");
    const cc_shape_class *cls = NULL;
    for (int i = 0; i < n; i++) {
        if (items[i][0] != '@') continue;
        if (cls || i != 0) return cc_err_set(err, CC_ERR_INTERNAL, "a class must come first, once");
        cls = cc_shape_class_find(items[i] + 1);
        if (!cls) return cc_err_set(err, CC_ERR_INTERNAL, "no shape class '%s'", items[i] + 1);
    }
    long counter = 0;
    if (!cls) return expand_one(op, row, NULL, items, n, dt, list, &counter, err);
    for (int e = 0; e < cls->n; e++) {
        const cc_sweep_row *entry = &cls->entries[e];
        if (entry->dtypes && !(entry->dtypes & CC_DTYPE_BIT(dt))) continue;
        if (quick && !(entry->tags & CC_SWEEP_QUICK)) continue;
        cc_status st = expand_one(op, row, entry, items, n, dt, list, &counter, err);
        if (st) return st;
    }
    return CC_OK;
}

cc_status cc_sweep_expand_rows(const cc_op_def *op, const cc_sweep_row *rows, int n, cc_dtype dt,
                               int quick, cc_case_list *list, cc_err *err)
{
    for (int r = 0; r < n; r++) {
        cc_err e;
        cc_status st = expand_row(op, &rows[r], dt, quick, list, &e);
        if (st)
            return cc_err_set(err, st == CC_ERR_NOMEM ? st : CC_ERR_INTERNAL, "%s: sweep row %d (%s%s%s): %s",
                              op->name, r, rows[r].inputs, rows[r].attrs && rows[r].attrs[0] ? " / " : "",
                              rows[r].attrs ? rows[r].attrs : "", e.msg);
    }
    return CC_OK;
}

cc_status cc_sweep_expand(const cc_op_def *op, cc_dtype dt, int quick, cc_case_list *list, cc_err *err)
{
    return cc_sweep_expand_rows(op, op->sweep, op->n_sweep, dt, quick, list, err);
}

void cc_case_list_init(cc_case_list *l) { memset(l, 0, sizeof *l); }

void cc_case_list_free(cc_case_list *l)
{
    if (!l) return;
    for (int i = 0; i < l->n; i++) free(l->ids[i]);
    free(l->ids);
    free(l->tags);
    memset(l, 0, sizeof *l);
}
