/* catalog.c — the operator catalog: every op family's table, in report order. */
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
