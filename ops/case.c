/* case.c — case ids (parse, validate, canonical form), input generation for the two
 * regimes, the one-node graph of a case, and running its golden reference. */
#include "case.h"

#include "sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parsing ---------------------------------------------------------------------- */

static int find_input(const cc_op_def *op, const char *name)
{
    for (int i = 0; i < op->n_inputs; i++)
        if (op->inputs[i].role == CC_IN_DATA && strcmp(op->inputs[i].name, name) == 0) return i;
    return -1;
}

/* "1x64x56x56" or "scalar"; dims must be non-negative integers (cc_shape_parse). */
static cc_status parse_dims(const char *op, const char *name, const char *s, cc_shape *out,
                            cc_err *err)
{
    cc_err e;
    if (cc_shape_parse(s, out, &e)) return cc_err_set(err, CC_ERR_ARG, "%s: input '%s': %s", op, name, e.msg);
    return CC_OK;
}

static void format_case(cc_case *c)
{
    const cc_op_def *op = c->op;
    char *buf = c->id;
    size_t n = sizeof c->id, len = 0;
    len += (size_t)snprintf(buf + len, n - len, "%s(", op->name);
    int first = 1;
    cc_dtype first_dt = cc_case_dtype(c);
    for (int i = 0; i < op->n_inputs && len < n; i++) {
        if (!c->present[i]) continue;
        char dims[160];
        cc_shape_format(&c->in_shape[i], dims, sizeof dims);
        if (first || c->in_dtype[i] != first_dt)
            len += (size_t)snprintf(buf + len, n - len, "%s%s=%s:%s", first ? "" : ",",
                                    op->inputs[i].name, dims, cc_dtype_name(c->in_dtype[i]));
        else
            len += (size_t)snprintf(buf + len, n - len, ",%s=%s", op->inputs[i].name, dims);
        first = 0;
    }
    for (int a = 0; a < op->n_attrs && len < n; a++) {
        if (cc_attr_is_default(&op->attrs[a], &c->attrs[a])) continue;
        if (!c->attrs[a].set) continue;
        char v[CC_CASE_ID_MAX];
        cc_attr_format(op->attrs[a].kind, &c->attrs[a], v, sizeof v);
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", first ? "" : ",",
                                op->attrs[a].name, v);
        first = 0;
    }
    if (len < n) snprintf(buf + len, n - len, ")");
}

cc_status cc_case_reparse(cc_case *c, cc_err *err)
{
    format_case(c);
    if (strlen(c->id) >= sizeof c->id - 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: case id longer than %d bytes", c->op->name,
                          CC_CASE_ID_MAX - 2);
    char text[CC_CASE_ID_MAX];
    snprintf(text, sizeof text, "%s", c->id);
    return cc_case_parse(text, c, err);
}

cc_dtype cc_case_dtype(const cc_case *c)
{
    for (int i = 0; i < c->op->n_inputs; i++)
        if (c->present[i]) return c->in_dtype[i];
    /* no data input (ConstantOfShape, Range): the first tensor-valued parameter's dtype */
    for (int a = 0; a < c->op->n_attrs; a++)
        if (c->op->attrs[a].kind == CC_ATTR_TENSOR && c->attrs[a].set) return c->attrs[a].tdtype;
    return CC_F32;
}

static cc_status build(const cc_case *c, uint64_t seed, int exact, int fill, cc_case_inst *inst,
                       cc_err *err);

/* The memory need of a described case (case.h). Shapes are validated, so each count is
 * at most CC_MAX_NUMEL; the sum is in double, which no shape can overflow. */
static double mem_need(const cc_case_inst *inst)
{
    double need = 0;
    for (int i = 0; i < inst->n_in; i++)
        if (inst->present[i])
            need += 2.0 * (double)cc_shape_numel(&inst->inputs[i].shape) *
                    (double)cc_dtype_size(inst->inputs[i].dtype);
    const cc_graph *g = &inst->graph;
    for (int j = 0; j < inst->n_out; j++) {
        const cc_tensor *o = &g->values[g->outputs[j]];
        double n = (double)cc_shape_numel(&o->shape);
        need += 2.0 * n * (double)cc_dtype_size(o->dtype) + 2.0 * n * sizeof(double);
    }
    return need;
}

cc_status cc_case_parse(const char *text, cc_case *out, cc_err *err)
{
    cc_case c;
    memset(&c, 0, sizeof c);
    size_t tlen = strlen(text);
    const char *lp = strchr(text, '(');
    if (!lp || tlen < 3 || text[tlen - 1] != ')')
        return cc_err_set(err, CC_ERR_ARG, "malformed case id '%.200s': expected Op(name=value,...)",
                          text);
    char opname[64];
    size_t olen = (size_t)(lp - text);
    if (olen == 0 || olen >= sizeof opname)
        return cc_err_set(err, CC_ERR_ARG, "malformed case id '%.200s': missing op name", text);
    memcpy(opname, text, olen);
    opname[olen] = '\0';
    c.op = cc_catalog_find(opname);
    if (!c.op) return cc_err_set(err, CC_ERR_ARG, "unknown op '%s' in case id", opname);
    const cc_op_def *op = c.op;

    cc_node tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.op = op;
    cc_status st = cc_node_set_defaults(&tmp, err);
    if (st) return st;
    memcpy(c.attrs, tmp.attrs, sizeof c.attrs);

    int given_attr[CC_MAX_ATTRS] = {0};
    int has_dtype[CC_MAX_IO] = {0};
    /* split the body at top-level commas (outside brackets and quoted strings) */
    const char *p = lp + 1, *end = text + tlen - 1;
    while (p < end) {
        const char *q = cc_attr_text_end(p, end, ",");
        char item[CC_CASE_ID_MAX];
        size_t ilen = (size_t)(q - p);
        if (ilen == 0 || ilen >= sizeof item)
            return cc_err_set(err, CC_ERR_ARG, "%s: malformed case id '%.200s'", op->name, text);
        memcpy(item, p, ilen);
        item[ilen] = '\0';
        char *eq = strchr(item, '=');
        if (!eq || eq == item)
            return cc_err_set(err, CC_ERR_ARG, "%s: expected name=value, got '%s'", op->name, item);
        *eq = '\0';
        const char *name = item, *value = eq + 1;
        int in = find_input(op, name);
        int ai = cc_attr_index(op, name);
        if (in >= 0) {
            if (c.present[in])
                return cc_err_set(err, CC_ERR_ARG, "%s: input '%s' given twice", op->name, name);
            char spec[CC_CASE_ID_MAX];
            snprintf(spec, sizeof spec, "%s", value);
            char *colon = strchr(spec, ':');
            if (colon) {
                *colon = '\0';
                if (cc_dtype_parse(colon + 1, &c.in_dtype[in]))
                    return cc_err_set(err, CC_ERR_ARG, "%s: unknown dtype '%s' for input '%s'",
                                      op->name, colon + 1, name);
                has_dtype[in] = 1;
            }
            st = parse_dims(op->name, name, spec, &c.in_shape[in], err);
            if (st) return st;
            c.present[in] = 1;
        } else if (ai >= 0) {
            if (given_attr[ai])
                return cc_err_set(err, CC_ERR_ARG, "%s: attribute '%s' given twice", op->name, name);
            cc_err e;
            if (cc_attr_parse(op->attrs[ai].kind, value, &c.attrs[ai], &e))
                return cc_err_set(err, CC_ERR_ARG, "%s: attribute %s: %s", op->name, name, e.msg);
            given_attr[ai] = 1;
        } else {
            return cc_err_set(err, CC_ERR_ARG, "%s: unknown input or attribute '%s'", op->name, name);
        }
        if (q < end && q + 1 == end)
            return cc_err_set(err, CC_ERR_ARG, "%s: malformed case id '%.200s': a comma before ')'",
                              op->name, text);
        p = q < end ? q + 1 : q;
    }
    /* required inputs and attributes; dtype defaults */
    cc_dtype first_dt = CC_DTYPE_COUNT;
    for (int i = 0; i < op->n_inputs; i++) {
        if (op->inputs[i].role != CC_IN_DATA) continue;
        if (!c.present[i]) {
            if (!op->inputs[i].optional)
                return cc_err_set(err, CC_ERR_ARG, "%s: missing input '%s'", op->name,
                                  op->inputs[i].name);
            continue;
        }
        if (first_dt == CC_DTYPE_COUNT) {
            if (!has_dtype[i])
                return cc_err_set(err, CC_ERR_ARG, "%s: input '%s' needs a dtype (e.g. %s=%s:f32)",
                                  op->name, op->inputs[i].name, op->inputs[i].name, "1x8");
            first_dt = c.in_dtype[i];
        } else if (!has_dtype[i]) {
            c.in_dtype[i] = first_dt;
        }
    }
    int has_data = 0; /* ConstantOfShape and Range have none: their dtype is a tensor parameter's */
    for (int i = 0; i < op->n_inputs; i++) has_data |= op->inputs[i].role == CC_IN_DATA;
    if (first_dt == CC_DTYPE_COUNT && has_data)
        return cc_err_set(err, CC_ERR_ARG, "%s: the case id names no input", op->name);
    for (int a = 0; a < op->n_attrs; a++)
        if (op->attrs[a].required && !c.attrs[a].set)
            return cc_err_set(err, CC_ERR_ARG, "%s: missing attribute '%s'", op->name,
                              op->attrs[a].name);

    /* validate through the op's own shape inference (data inputs described, without data) */
    cc_case_inst *inst = malloc(sizeof *inst);
    if (!inst) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    st = build(&c, 0, 0, 0, inst, err);
    if (st) {
        free(inst);
        return st;
    }
    /* outputs obey the limit on inputs' sizes too (mem_need relies on it) */
    for (int j = 0; j < inst->n_out; j++) {
        int64_t n;
        cc_err e;
        if (cc_shape_numel_checked(&inst->graph.values[inst->graph.outputs[j]].shape, &n, &e)) {
            cc_case_inst_free(inst);
            free(inst);
            return cc_err_set(err, CC_ERR_ARG, "%s: output %d: %s", op->name, j, e.msg);
        }
    }
    c.n_out = inst->n_out;
    c.mem_need = mem_need(inst);
    cc_case_inst_free(inst);
    free(inst);
    format_case(&c);
    *out = c;
    return CC_OK;
}

/* ---- instantiation ------------------------------------------------------------------ */

static void fill_data(cc_tensor *t, const cc_io_def *io, cc_rng *rng, int exact)
{
    int64_t n = cc_tensor_numel(t);
    int has_domain = io->lo != 0 || io->hi != 0 || io->ilo != 0 || io->ihi != 0;
    if (cc_dtype_is_float(t->dtype)) {
        double lo = -1, hi = 1;
        int64_t ilo = -4, ihi = 4;
        if (has_domain) {
            lo = io->lo;
            hi = io->hi;
            ilo = io->ilo;
            ihi = io->ihi;
        }
        for (int64_t i = 0; i < n; i++) {
            double v = exact ? (double)cc_rng_int(rng, ilo, ihi) : lo + (hi - lo) * cc_rng_uniform(rng);
            cc_store(t->data, t->dtype, (size_t)i, v);
        }
        return;
    }
    int64_t lo, hi;
    if (has_domain && (io->ilo != 0 || io->ihi != 0)) {
        lo = io->ilo;
        hi = io->ihi;
    } else if (has_domain) {
        lo = (int64_t)io->lo;
        hi = (int64_t)io->hi;
    } else if (t->dtype == CC_I32 || t->dtype == CC_I64 || t->dtype == CC_U32 || t->dtype == CC_U64) {
        lo = t->dtype == CC_U32 || t->dtype == CC_U64 ? 0 : -1000; /* wide types: no overflow in sums */
        hi = 1000;
    } else {
        lo = (int64_t)cc_dtype_min(t->dtype);
        hi = (int64_t)cc_dtype_max(t->dtype);
    }
    for (int64_t i = 0; i < n; i++) cc_store(t->data, t->dtype, (size_t)i, (double)cc_rng_int(rng, lo, hi));
}

/* The attribute schema entry that fills input index i, or -1. */
static int attr_for_input(const cc_op_def *op, int i)
{
    for (int a = 0; a < op->n_attrs; a++)
        if (op->attrs[a].input == i && !op->attrs[a].knob) return a;
    return -1;
}

static cc_status make_attr_input(const cc_case *c, int a, cc_tensor *t, cc_err *err)
{
    const cc_attr_def *d = &c->op->attrs[a];
    const cc_attr_value *v = &c->attrs[a];
    if (d->kind == CC_ATTR_TENSOR) return cc_attr_value_tensor(v, t, err); /* its own dtype and shape */
    cc_dtype dt = d->input_dtype == CC_DTYPE_COUNT ? cc_case_dtype(c) : d->input_dtype;
    cc_shape s;
    memset(&s, 0, sizeof s);
    int list = d->kind == CC_ATTR_INTS || d->kind == CC_ATTR_FLOATS;
    if (list) {
        s.rank = 1;
        s.dims[0] = v->n;
    }
    cc_status st = cc_tensor_alloc(t, dt, &s, err);
    if (st) return st;
    if (list) {
        for (int k = 0; k < v->n; k++) {
            double x = d->kind == CC_ATTR_INTS ? (double)v->ints[k] : v->floats[k];
            if (dt == CC_I64 && d->kind == CC_ATTR_INTS) ((int64_t *)t->data)[k] = v->ints[k];
            else cc_store(t->data, dt, (size_t)k, x);
        }
    } else if (d->kind == CC_ATTR_INT) {
        if (dt == CC_I64) ((int64_t *)t->data)[0] = v->i;
        else cc_store(t->data, dt, 0, (double)v->i);
    } else {
        cc_store(t->data, dt, 0, v->f);
    }
    return CC_OK;
}

static cc_status build(const cc_case *c, uint64_t seed, int exact, int fill, cc_case_inst *inst,
                       cc_err *err)
{
    const cc_op_def *op = c->op;
    cc_status st = CC_OK;
    memset(inst, 0, sizeof *inst);
    inst->c = *c;
    inst->seed = seed;
    inst->exact = exact;
    inst->n_in = op->n_inputs;
    cc_rng rng;
    cc_rng_seed(&rng, seed);

    for (int i = 0; i < op->n_inputs; i++) {
        const cc_io_def *io = &op->inputs[i];
        if (io->role == CC_IN_DATA && c->present[i]) {
            /* when only validating, described without data: an id may describe tensors
               far larger than memory, and validating it must cost neither their memory
               nor the time to touch them */
            st = cc_gen_tensor(&inst->inputs[i], c->in_dtype[i], &c->in_shape[i], fill ? &rng : NULL, err);
            if (st) goto fail;
            inst->present[i] = 1;
            if (fill) fill_data(&inst->inputs[i], io, &rng, exact);
        } else if (io->role == CC_IN_ATTR) {
            int a = attr_for_input(op, i);
            if (a < 0) {
                st = cc_err_set(err, CC_ERR_INTERNAL, "%s: input '%s' has no attribute entry",
                                op->name, io->name);
                goto fail;
            }
            if (!c->attrs[a].set) {
                if (!io->optional) {
                    st = cc_err_set(err, CC_ERR_ARG, "%s: missing '%s'", op->name, io->name);
                    goto fail;
                }
                continue;
            }
            st = make_attr_input(c, a, &inst->inputs[i], err);
            if (st) goto fail;
            inst->present[i] = 1;
        }
    }
    /* the node (needed by gen) */
    cc_node *node = &inst->node;
    node->op = op;
    memcpy(node->attrs, c->attrs, sizeof node->attrs);
    snprintf(node->name, sizeof node->name, "%s", op->name);
    if (op->gen) {
        /* what gen made: with data when filling; when only describing, the inputs whose
           dtype it set (an input not yet made carries the marker CC_DTYPE_COUNT) */
        for (int i = 0; i < op->n_inputs; i++)
            if (!inst->present[i]) inst->inputs[i].dtype = CC_DTYPE_COUNT;
        st = op->gen(node, inst->inputs, fill ? &rng : NULL, exact, err);
        for (int i = 0; i < op->n_inputs; i++) {
            if (!inst->present[i] && inst->inputs[i].dtype == CC_DTYPE_COUNT) {
                inst->inputs[i].dtype = CC_F32;
                continue;
            }
            if (fill ? inst->inputs[i].data != NULL : 1) inst->present[i] = 1;
        }
        if (st) goto fail;
    }
    for (int i = 0; i < op->n_inputs; i++)
        if (!inst->present[i] && !op->inputs[i].optional) {
            st = cc_err_set(err, CC_ERR_INTERNAL, "%s: input '%s' was not made", op->name,
                            op->inputs[i].name);
            goto fail;
        }
    int n_out = op->count_outputs ? op->count_outputs(node) : op->min_outputs;
    if (n_out < op->min_outputs || n_out > op->max_outputs || n_out > CC_MAX_IO) {
        st = cc_err_set(err, CC_ERR_ARG, "%s: %d outputs requested, the op has %d to %d", op->name,
                        n_out, op->min_outputs, op->max_outputs);
        goto fail;
    }
    inst->n_out = n_out;
    /* drop trailing absent inputs, as ONNX does */
    int n_in = op->n_inputs;
    while (n_in > 0 && !inst->present[n_in - 1]) n_in--;
    node->n_in = n_in;
    node->n_out = n_out;
    const cc_tensor *in[CC_MAX_IO];
    cc_case_inst_inputs(inst, in);
    cc_tensor out[CC_MAX_IO];
    memset(out, 0, sizeof out);
    st = op->infer(node, in, n_out, out, err);
    if (st) goto fail;

    /* the graph: values 0..n_in-1 inputs, then outputs */
    cc_graph *g = &inst->graph;
    for (int i = 0; i < n_in; i++) {
        node->in[i] = inst->present[i] ? i : -1;
        if (!inst->present[i]) continue;
        cc_tensor *v = &inst->values[i];
        v->dtype = inst->inputs[i].dtype;
        v->shape = inst->inputs[i].shape;
        int is_const = op->inputs[i].role != CC_IN_DATA || op->inputs[i].constant;
        v->data = is_const ? inst->inputs[i].data : NULL;
        if (!is_const) g->inputs[g->n_inputs++] = i;
    }
    for (int j = 0; j < n_out; j++) {
        node->out[j] = n_in + j;
        inst->values[n_in + j] = out[j];
        inst->values[n_in + j].data = NULL;
        g->outputs[g->n_outputs++] = n_in + j;
    }
    g->n_values = n_in + n_out;
    g->values = inst->values;
    g->n_nodes = 1;
    g->nodes = node;
    return CC_OK;
fail:
    for (int i = 0; i < CC_MAX_IO; i++) cc_tensor_free(&inst->inputs[i]);
    memset(inst, 0, sizeof *inst);
    return st;
}

cc_status cc_case_instantiate(const cc_case *c, uint64_t seed, int exact, cc_case_inst *inst,
                              cc_err *err)
{
    return build(c, seed, exact, 1, inst, err);
}

void cc_case_inst_free(cc_case_inst *inst)
{
    if (!inst) return;
    for (int i = 0; i < CC_MAX_IO; i++) cc_tensor_free(&inst->inputs[i]);
}

void cc_case_inst_inputs(const cc_case_inst *inst, const cc_tensor **in)
{
    for (int i = 0; i < CC_MAX_IO; i++)
        in[i] = i < inst->c.op->n_inputs && inst->present[i] ? &inst->inputs[i] : NULL;
}

cc_status cc_case_golden(const cc_case_inst *inst, cc_golden *out, cc_err *err)
{
    const cc_graph *g = &inst->graph;
    memset(out, 0, sizeof(cc_golden) * (size_t)inst->n_out);
    for (int j = 0; j < inst->n_out; j++) {
        cc_status st = cc_golden_alloc(&out[j], &g->values[g->outputs[j]], err);
        if (st) {
            cc_golden_free(out, inst->n_out);
            return st;
        }
    }
    /* nothing to compute when every output is empty; the op's loops over the other
       dims could still be long (MatMulInteger of 142 M empty matrices). An op of
       data-dependent shape still writes its actual shape ([0, nnz] for a scalar's NonZero) */
    int64_t total = 0;
    for (int j = 0; j < inst->n_out; j++) total += cc_shape_numel(&out[j].shape);
    if (total == 0 && !cc_op_has_trait(inst->c.op, CC_TRAIT_DYNAMIC_SHAPE)) return CC_OK;
    const cc_tensor *in[CC_MAX_IO];
    cc_case_inst_inputs(inst, in);
    cc_status st = inst->c.op->golden(&inst->node, in, inst->n_out, out, err);
    if (st) cc_golden_free(out, inst->n_out);
    return st;
}

void cc_golden_free(cc_golden *g, int n)
{
    if (!g) return;
    for (int j = 0; j < n; j++) {
        free(g[j].value);
        free(g[j].mag);
        free(g[j].real);
        free(g[j].exact);
        g[j].value = g[j].mag = g[j].real = NULL;
        g[j].exact = NULL;
    }
}

cc_status cc_golden_alloc(cc_golden *g, const cc_tensor *d, cc_err *err)
{
    int64_t n = cc_tensor_numel(d);
    size_t cells = (size_t)(n > 0 ? n : 1);
    g->dtype = d->dtype;
    g->shape = d->shape;
    g->k = 1;
    g->value = calloc(cells, sizeof(double));
    g->mag = calloc(cells, sizeof(double));
    if (d->dtype == CC_I64 || d->dtype == CC_U64) g->exact = calloc(cells, sizeof(int64_t));
    if (!g->value || !g->mag || ((d->dtype == CC_I64 || d->dtype == CC_U64) && !g->exact))
        return cc_err_set(err, CC_ERR_NOMEM, "out of memory for golden outputs (%lld elements)", (long long)n);
    return CC_OK;
}

int cc_golden_int(const cc_golden *g, int64_t i, int64_t *v)
{
    if (!g->exact) return 0;
    int64_t e = g->exact[i];
    double as = g->dtype == CC_U64 ? (double)(uint64_t)e : (double)e;
    if (as != g->value[i]) return 0;
    *v = e;
    return 1;
}

double cc_int_gap(int64_t a, int64_t b, int is_unsigned)
{
    if (a == b) return 0;
    int a_above = is_unsigned ? (uint64_t)a > (uint64_t)b : a > b;
    uint64_t d = a_above ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
    double g = (double)d;
    return g < 1 ? 1 : g;
}

void cc_golden_store(const cc_golden *g, void *data, int64_t i)
{
    int64_t v;
    if (cc_golden_int(g, i, &v)) ((int64_t *)data)[i] = v; /* i64 or u64: the same 8 bytes */
    else cc_store(data, g->dtype, (size_t)i, g->value[i]);
}

cc_status cc_case_enumerate(const cc_op_def *op, cc_dtype dt, int quick, cc_case **out, int *n,
                            cc_err *err)
{
    cc_case_list list;
    cc_case_list_init(&list);
    cc_status st = CC_OK;
    for (int d = 0; d < CC_DTYPE_COUNT; d++) {
        if (!(op->dtypes & CC_DTYPE_BIT(d))) continue;
        if (dt < CC_DTYPE_COUNT && (cc_dtype)d != dt) continue;
        st = cc_sweep_expand(op, (cc_dtype)d, quick, &list, err);
        if (st) goto done;
    }
    if (list.status) {
        st = cc_err_set(err, CC_ERR_INTERNAL, "%s: the sweep's expansion failed (%s)", op->name,
                        cc_status_name(list.status));
        goto done;
    }
    cc_case *cases = calloc((size_t)(list.n ? list.n : 1), sizeof *cases);
    if (!cases) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto done;
    }
    int k = 0;
    for (int i = 0; i < list.n; i++) {
        cc_err e;
        if (cc_case_parse(list.ids[i], &cases[k], &e)) {
            st = cc_err_set(err, CC_ERR_INTERNAL, "the sweep of %s made a bad case: %s", op->name,
                            e.msg);
            free(cases);
            goto done;
        }
        cases[k].tags = list.tags[i];
        /* drop duplicates (same canonical id), keeping every row's tags */
        int dup = 0;
        for (int j = 0; j < k && !dup; j++)
            if (strcmp(cases[j].id, cases[k].id) == 0) {
                cases[j].tags |= cases[k].tags;
                dup = 1;
            }
        if (!dup) k++;
    }
    *out = cases;
    *n = k;
done:
    cc_case_list_free(&list);
    return st;
}
