/* catalog.c — the operator catalog: every op of ops/ops.def, its definition (cc_op_<symbol>,
 * in the op's family file) and what ops.def says of it, indexed by op id. */
#include <string.h>

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

int cc_op_dynamic_shape(const cc_op_def *op, int n_in, const cc_tensor *const *in)
{
    if (cc_op_has_trait(op, CC_TRAIT_DYNAMIC_SHAPE)) return 1;
    if (op->id == CC_OP_ID_TopK) return n_in > 1 && in[1] && !in[1]->data;
    if (op->id == CC_OP_ID_Slice)
        for (int i = 1; i < n_in && i < 5; i++)
            if (in[i] && !in[i]->data) return 1;
    return 0;
}

int cc_node_dynamic_shape(const cc_graph *g, const cc_node *nd)
{
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
