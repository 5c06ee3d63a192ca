/* catalog.c — the operator catalog: every op of ops/ops.def, its definition (cc_op_<symbol>,
 * in the op's family file) and what ops.def says of it, indexed by op id. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "op.h"

/* every op's definition, by id; a definition missing from ops/ is a link error */
static const cc_op_def *const ops[] = {
#define CC_OP(symbol, name_, domain_, since_, versions_, family_, traits_, tol_) &cc_op_##symbol,
#include "ops.def"
#undef CC_OP
};

/* versions is written (1, 6, 13) in ops.def */
#define VERSION_LIST(...) { __VA_ARGS__ }

static const cc_op_info infos[] = {
#define CC_OP(symbol, name_, domain_, since_, versions_, family_, traits_, tol_)                   \
    [CC_OP_ID_##symbol] = { .name = name_, .domain = domain_, .family = #family_, .traits = traits_, \
                            .since = since_, .versions = VERSION_LIST versions_ },
#include "ops.def"
#undef CC_OP
};

_Static_assert(sizeof infos / sizeof infos[0] == CC_OP_ID_COUNT, "one cc_op_info per ops.def entry");

const cc_op_info *cc_op_info_of(cc_op_id id)
{
    return (unsigned)id < CC_OP_ID_COUNT ? &infos[id] : NULL;
}

int cc_op_has_trait(const cc_op_def *op, unsigned trait)
{
    const cc_op_info *info = cc_op_info_of(op->id);
    return info && (info->traits & trait) == trait;
}

/* The ops whose outputs' shape inputs' values set, and those inputs (a bit each). */
static const struct {
    cc_op_id op;
    unsigned inputs;
} shape_inputs[] = {
    { CC_OP_ID_Reshape, 1u << 1 }, { CC_OP_ID_Expand, 1u << 1 }, { CC_OP_ID_ConstantOfShape, 1u << 0 },
    { CC_OP_ID_Tile, 1u << 1 },    { CC_OP_ID_OneHot, 1u << 1 }, { CC_OP_ID_Pad, 1u << 1 },
    { CC_OP_ID_Resize, 1u << 3 },  { CC_OP_ID_Range, 7u },       { CC_OP_ID_Split, 1u << 1 },
};

int cc_op_runtime_shape_input(const cc_op_def *op, int n_in, const cc_tensor *const *in)
{
    for (size_t i = 0; i < sizeof shape_inputs / sizeof shape_inputs[0]; i++) {
        if (shape_inputs[i].op != op->id) continue;
        for (int k = 0; k < n_in && k < 8; k++)
            if ((shape_inputs[i].inputs & (1u << k)) && in[k] && !in[k]->data) return k;
        return -1;
    }
    return -1;
}

int cc_op_shape_input(const cc_op_def *op, int k)
{
    for (size_t i = 0; i < sizeof shape_inputs / sizeof shape_inputs[0]; i++)
        if (shape_inputs[i].op == op->id) return k >= 0 && k < 8 && (shape_inputs[i].inputs & (1u << k));
    return 0;
}

/* Range's count at the ends of its inputs' ranges: delta known and not 0. Integers exactly;
 * float start and limit have integer values here (casts of counts: models/model.c), delta
 * any, and the count ceil((limit - start) / delta), which the golden model and the targets
 * compute in the dtype, is computed in double here with one more for that rounding. */
static cc_status range_bound(const cc_node *node, const cc_tensor *const *in, const int64_t *const *lo,
                             const int64_t *const *hi, cc_tensor *out, cc_err *err)
{
    int64_t l[3], h[3];
    double fl[3], fh[3];
    int is_float = in[0] && cc_dtype_is_float(in[0]->dtype);
    for (int i = 0; i < 3; i++) {
        if (!in[i] || cc_tensor_numel(in[i]) != 1)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "Range: start, limit and delta computed at run time must be "
                              "scalars");
        if (lo[i]) l[i] = lo[i][0], h[i] = hi[i][0];
        else l[i] = h[i] = cc_load_i64(in[i]->data, in[i]->dtype, 0);
        fl[i] = lo[i] || !is_float ? (double)l[i] : cc_load(in[i]->data, in[i]->dtype, 0);
        fh[i] = lo[i] || !is_float ? (double)h[i] : fl[i];
    }
    int64_t n;
    if (is_float) {
        if (fl[2] != fh[2] || fl[2] == 0 || !isfinite(fl[2]))
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "Range: delta computed at run time: its count has no bound");
        double span = fl[2] > 0 ? fh[1] - fl[0] : fh[0] - fl[1];
        double c = span > 0 ? ceil(span / fabs(fl[2])) + 1 : 0;
        if (!(c <= (double)INT32_MAX))
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "Range: a count of up to %.3g computed at run time", c);
        n = (int64_t)c;
    } else {
        if (l[2] != h[2] || l[2] == 0)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "Range: delta computed at run time: its count has no bound");
        int64_t span = l[2] > 0 ? h[1] - l[0] : h[0] - l[1], step = l[2] > 0 ? l[2] : -l[2];
        n = span > 0 ? (span + step - 1) / step : 0;
    }
    (void)node;
    out[0].dtype = in[0]->dtype;
    out[0].shape = cc_shape_make(1, &n);
    out[0].data = NULL;
    return CC_OK;
}

cc_status cc_op_infer_bound(const cc_node *node, const cc_tensor *const *in, const int64_t *const *lo,
                            const int64_t *const *hi, int n_out, cc_tensor *out, cc_err *err)
{
    const cc_tensor *x = in[0];
    cc_op_id id = node->op->id;
    if (n_out < 1) return cc_err_set(err, CC_ERR_ARG, "%s: no output", node->op->name);
    if (id == CC_OP_ID_Range) return range_bound(node, in, lo, hi, out, err);
    if (id == CC_OP_ID_Split) { /* each part at most the whole */
        if (!x) return cc_err_set(err, CC_ERR_ARG, "Split: the input is missing");
        int64_t parts = in[1] ? cc_tensor_numel(in[1]) : n_out;
        if (parts != n_out)
            return cc_err_set(err, CC_ERR_ARG, "Split: %lld sizes for %d outputs", (long long)parts, n_out);
        for (int j = 0; j < n_out; j++) out[j] = (cc_tensor){ .dtype = x->dtype, .shape = x->shape, .data = NULL };
        return CC_OK;
    }
    int k = cc_op_runtime_shape_input(node->op, node->n_in, in);
    if (k < 0 || !lo[k]) return cc_err_set(err, CC_ERR_INTERNAL, "%s: no range to bound", node->op->name);
    int n = (int)cc_tensor_numel(in[k]);
    const int64_t *l = lo[k], *h = hi[k];
    if (id == CC_OP_ID_Reshape || id == CC_OP_ID_Expand) {
        if (!x) return cc_err_set(err, CC_ERR_ARG, "%s: the data input is missing", node->op->name);
        if (n > CC_MAX_RANK)
            return cc_err_set(err, CC_ERR_ARG, "%s: a shape of %d entries, more than rank %d", node->op->name, n,
                              CC_MAX_RANK);
        int64_t numel = cc_shape_numel(&x->shape);
        cc_shape o;
        memset(&o, 0, sizeof o);
        if (id == CC_OP_ID_Reshape) {
            /* each entry: a known -1 takes every element; a known 0 (or one that may be 0,
               allowzero = 0) copies the input's dim; else its largest value; none past the
               element count */
            int allowzero = cc_attr_i(node, "allowzero") != 0;
            o.rank = n;
            for (int i = 0; i < n; i++) {
                int64_t d = h[i];
                if (l[i] == h[i] && h[i] == -1) d = numel;
                else if (l[i] < 0)
                    return cc_err_set(err, CC_ERR_UNSUPPORTED,
                                      "Reshape: entry %d of the shape computed at run time may be negative", i);
                if (!allowzero && l[i] == 0) {
                    if (i >= x->shape.rank && h[i] == 0)
                        return cc_err_set(err, CC_ERR_ARG, "Reshape: shape[%d] = 0 copies a dimension the rank-%d input "
                                          "lacks", i, x->shape.rank);
                    if (i < x->shape.rank && x->shape.dims[i] > d) d = x->shape.dims[i];
                }
                o.dims[i] = d < numel ? d : numel;
            }
        } else {
            /* broadcast of x's dims and the shape's largest values, aligned at the end */
            o.rank = n > x->shape.rank ? n : x->shape.rank;
            for (int i = 0; i < o.rank; i++) {
                int ix = i - (o.rank - x->shape.rank), is = i - (o.rank - n);
                int64_t dx = ix >= 0 ? x->shape.dims[ix] : 1, ds = is >= 0 ? h[is] : 1;
                if (is >= 0 && l[is] < 0)
                    return cc_err_set(err, CC_ERR_UNSUPPORTED,
                                      "Expand: entry %d of the shape computed at run time may be negative", is);
                o.dims[i] = dx > ds ? dx : ds;
            }
        }
        out[0].dtype = x->dtype;
        out[0].shape = o;
        out[0].data = NULL;
        return CC_OK;
    }
    /* the others grow with the values: their shape at the largest values bounds it */
    cc_tensor sub = *in[k];
    void *vals = malloc(cc_dtype_size(in[k]->dtype) * (size_t)(n > 0 ? n : 1));
    if (!vals) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", node->op->name);
    const cc_tensor *subst[CC_MAX_IO];
    for (int i = 0; i < node->n_in && i < CC_MAX_IO; i++) subst[i] = in[i];
    if (in[k]->dtype == CC_I64) memcpy(vals, h, sizeof(int64_t) * (size_t)n);
    else
        for (int i = 0; i < n; i++) cc_store(vals, in[k]->dtype, (size_t)i, (double)h[i]);
    sub.data = vals;
    subst[k] = &sub;
    cc_status st = node->op->infer(node, subst, n_out, out, err);
    free(vals);
    for (int j = 0; j < n_out; j++) out[j].data = NULL;
    return st;
}

int cc_op_dynamic_shape(const cc_op_def *op, int n_in, const cc_tensor *const *in)
{
    if (cc_op_has_trait(op, CC_TRAIT_DYNAMIC_SHAPE)) return 1;
    if (cc_op_runtime_shape_input(op, n_in, in) >= 0) return 1;
    if (op->id == CC_OP_ID_TopK) return n_in > 1 && in[1] && !in[1]->data;
    if (op->id == CC_OP_ID_Slice)
        for (int i = 1; i < n_in && i < 5; i++)
            if (in[i] && !in[i]->data) return 1;
    return 0;
}

int cc_node_dynamic_shape(const cc_graph *g, const cc_node *nd)
{
    if (nd->op->id == CC_OP_ID_If) return cc_control_if_varies(nd, g->subgraphs, g->n_subgraphs);
    const cc_tensor *in[CC_MAX_IO] = { 0 };
    for (int i = 0; i < nd->n_in; i++)
        if (nd->in[i] >= 0) in[i] = &g->values[nd->in[i]];
    return cc_op_dynamic_shape(nd->op, nd->n_in, in);
}

void cc_graph_dynamic_values(const cc_graph *g, unsigned char *dyn)
{
    memset(dyn, 0, (size_t)g->n_values);
    for (int k = 0; k < g->n_nodes; k++) {
        const cc_node *nd = &g->nodes[k];
        int d = cc_node_dynamic_shape(g, nd);
        for (int i = 0; i < nd->n_in && !d; i++) d = nd->in[i] >= 0 && dyn[nd->in[i]];
        for (int j = 0; j < nd->n_out; j++) dyn[nd->out[j]] = (unsigned char)d;
    }
}

/* The ops grouped by family, families in the order of their first op in ops.def (an op
 * added at the end of ops.def joins its family), and the families as ranges of it. */
static const cc_op_def *grouped[CC_OP_ID_COUNT];
static cc_op_family families[CC_OP_ID_COUNT];
static int n_families;

static void group(void)
{
    if (n_families) return;
    int n = 0;
    for (int i = 0; i < CC_OP_ID_COUNT; i++) {
        int seen = 0;
        for (int k = 0; k < n_families && !seen; k++) seen = strcmp(families[k].name, infos[i].family) == 0;
        if (seen) continue;
        families[n_families] = (cc_op_family){ .name = infos[i].family, .n_ops = 0, .ops = &grouped[n] };
        for (int j = i; j < CC_OP_ID_COUNT; j++)
            if (strcmp(infos[j].family, infos[i].family) == 0) {
                grouped[n++] = ops[j];
                families[n_families].n_ops++;
            }
        n_families++;
    }
}

int cc_catalog_count(void) { return CC_OP_ID_COUNT; }

const cc_op_def *cc_catalog_at(int i)
{
    group();
    return i >= 0 && i < CC_OP_ID_COUNT ? grouped[i] : NULL;
}

const cc_op_def *cc_catalog_find(const char *name)
{
    for (int i = 0; i < CC_OP_ID_COUNT; i++)
        if (strcmp(ops[i]->name, name) == 0) return ops[i];
    return NULL;
}

const cc_op_def *cc_catalog_by_id(cc_op_id id)
{
    return (unsigned)id < CC_OP_ID_COUNT ? ops[id] : NULL;
}

const cc_op_family *cc_catalog_family(const char *name)
{
    group();
    for (int k = 0; k < n_families; k++)
        if (strcmp(families[k].name, name) == 0) return &families[k];
    return NULL;
}
