/* lower_unpool.c — MaxUnpool's host-side lowering shared by the built-in backends (see
 * lower.h): the unpooled shape its indices count in, and where an unpooled element lands
 * in the output. */
#include <stdio.h>

#include "lower.h"

cc_status cc_lower_maxunpool(const cc_node *node, const cc_shape *x, const cc_shape *y, int has_output_shape, cc_shape *u,
                             cc_err *err)
{
    int nsp = x->rank - 2;
    const cc_attr_value *ks = cc_attr_get(node, "kernel_shape"), *st = cc_attr_get(node, "strides"),
                        *pd = cc_attr_get(node, "pads");
    if (nsp < 1 || y->rank != x->rank || !ks->set || ks->n != nsp || (st->set && st->n != nsp) ||
        (pd->set && pd->n != 2 * nsp))
        return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: X of rank %d with kernel_shape, strides and pads of %d, %d, %d values",
                          x->rank, ks->n, st->set ? st->n : nsp, pd->set ? pd->n : 2 * nsp);
    *u = *x;
    for (int d = 0; d < nsp; d++) {
        int64_t s = st->set ? st->ints[d] : 1, p = pd->set && !has_output_shape ? pd->ints[d] + pd->ints[nsp + d] : 0;
        u->dims[2 + d] = (x->dims[2 + d] - 1) * s + ks->ints[d] - p;
    }
    for (int d = 0; d < x->rank; d++)
        if (u->dims[d] < 0 || u->dims[d] > y->dims[d])
            return cc_err_set(err, CC_ERR_ARG, "MaxUnpool: the unpooled size %lld on axis %d does not fit the output's %lld",
                              (long long)u->dims[d], d, (long long)y->dims[d]);
    return CC_OK;
}

int64_t cc_lower_maxunpool_place(const cc_shape *u, const cc_shape *y, int64_t at)
{
    int64_t c[CC_MAX_RANK], o = 0;
    for (int d = u->rank - 1; d >= 0; d--) {
        c[d] = at % u->dims[d];
        at /= u->dims[d];
    }
    for (int d = 0; d < y->rank; d++) o = o * y->dims[d] + c[d];
    return o;
}
