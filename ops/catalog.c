/* catalog.c — the operator catalog: every op family's table, in report order, and the
 * table of ops/ops.def indexed by op id. */
#include <string.h>

#include "op.h"

extern const cc_op_family cc_family_conv;
extern const cc_op_family cc_family_pool;
extern const cc_op_family cc_family_norm;
extern const cc_op_family cc_family_eltwise;
extern const cc_op_family cc_family_reduce;
extern const cc_op_family cc_family_matmul;
extern const cc_op_family cc_family_quant;
extern const cc_op_family cc_family_shape;
extern const cc_op_family cc_family_resize;

static const cc_op_family *const families[] = {
    &cc_family_conv,    &cc_family_pool,  &cc_family_norm,
    &cc_family_eltwise, &cc_family_reduce, &cc_family_matmul,
    &cc_family_quant,   &cc_family_shape, &cc_family_resize,
};

#define N_FAMILIES ((int)(sizeof families / sizeof families[0]))

/* versions is written (1, 6, 13) in ops.def */
#define VERSION_LIST(...) { __VA_ARGS__ }

static const cc_op_info infos[] = {
#define CC_OP(symbol, name_, domain_, since_, versions_, family_, traits_)                   \
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

int cc_catalog_count(void)
{
    int n = 0;
    for (int f = 0; f < N_FAMILIES; f++) n += families[f]->n_ops;
    return n;
}

const cc_op_def *cc_catalog_at(int i)
{
    for (int f = 0; f < N_FAMILIES; f++) {
        if (i < families[f]->n_ops) return families[f]->ops[i];
        i -= families[f]->n_ops;
    }
    return NULL;
}

const cc_op_def *cc_catalog_find(const char *name)
{
    int n = cc_catalog_count();
    for (int i = 0; i < n; i++) {
        const cc_op_def *op = cc_catalog_at(i);
        if (strcmp(op->name, name) == 0) return op;
    }
    return NULL;
}

const cc_op_def *cc_catalog_by_id(cc_op_id id)
{
    int n = cc_catalog_count();
    for (int i = 0; i < n; i++) {
        const cc_op_def *op = cc_catalog_at(i);
        if (op->id == id) return op;
    }
    return NULL;
}
