/* lower_norm.c — the groups of MeanVarianceNormalization and of BatchNormalization's
 * training mode, shared by the built-in backends (see lower.h). */
#include <stdio.h>
#include <string.h>

#include "lower.h"

cc_status cc_lower_norm_groups(const cc_node *node, const cc_shape *x, cc_lower_groups *g, cc_err *err)
{
    int r = x->rank, red[CC_MAX_RANK] = { 0 };
    if (node->op->id == CC_OP_ID_BatchNormalization) {
        if (r < 2) return cc_err_set(err, CC_ERR_ARG, "BatchNormalization: x must have rank >= 2");
        for (int d = 0; d < r; d++) red[d] = d != 1;
    } else {
        const cc_attr_value *a = cc_attr_get(node, "axes");
        if (!a->set || a->n == 0) return cc_err_set(err, CC_ERR_ARG, "%s: axes must name at least one axis", node->op->name);
        for (int i = 0; i < a->n; i++) {
            int64_t v = a->ints[i] < 0 ? a->ints[i] + r : a->ints[i];
            if (v < 0 || v >= r || red[v])
                return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld is out of range or repeated", node->op->name,
                                  (long long)a->ints[i]);
            red[v] = 1;
        }
    }
    memset(g, 0, sizeof *g);
    g->groups = g->n = 1;
    /* from the last axis: strides grow; a run of kept (or reduced) axes merges into one */
    int64_t stride = 1, last = -1;
    int64_t kd[CC_MAX_RANK], ks[CC_MAX_RANK], rd[CC_MAX_RANK], rs[CC_MAX_RANK];
    int nk = 0, nr = 0;
    for (int d = r - 1; d >= 0; d--) {
        int64_t size = x->dims[d];
        if (red[d]) g->n *= size;
        else g->groups *= size;
        if (size != 1) {
            if (last == red[d] && red[d]) rd[nr - 1] *= size;
            else if (last == red[d]) kd[nk - 1] *= size;
            else if (red[d]) {
                rd[nr] = size;
                rs[nr++] = stride;
            } else {
                kd[nk] = size;
                ks[nk++] = stride;
            }
            last = red[d];
        }
        stride *= size;
    }
    /* outermost first */
    for (int i = 0; i < nk; i++) {
        g->kept[i] = kd[nk - 1 - i];
        g->kept_stride[i] = ks[nk - 1 - i];
    }
    for (int i = 0; i < nr; i++) {
        g->red[i] = rd[nr - 1 - i];
        g->red_stride[i] = rs[nr - 1 - i];
    }
    g->nk = nk;
    g->nr = nr;
    return CC_OK;
}

static int64_t walk(const int64_t *dims, const int64_t *strides, int n, int64_t i)
{
    int64_t off = 0;
    for (int a = n - 1; a >= 0; a--) {
        off += i % dims[a] * strides[a];
        i /= dims[a];
    }
    return off;
}

int64_t cc_lower_group_base(const cc_lower_groups *g, int64_t k) { return walk(g->kept, g->kept_stride, g->nk, k); }

int64_t cc_lower_group_offset(const cc_lower_groups *g, int64_t j) { return walk(g->red, g->red_stride, g->nr, j); }
