/* window.c — sliding-window geometry (kernel, strides, dilations, pads, auto_pad,
 * ceil_mode) shared by the convolution and pooling op families; see window.h. */
#include "window.h"

#include <string.h>

#define WINDOW_VALUE_MAX ((int64_t)1 << 31) /* bound on any stride, dilation, pad or kernel */

/* Reads an optional ints attribute of `n` values, each >= lo, into v (def where absent). */
static cc_status read_list(const cc_node *node, const char *name, int n, int64_t def, int64_t lo,
                           int64_t *v, int *given, cc_err *err)
{
    const char *op = node->op->name;
    *given = 0;
    for (int i = 0; i < n; i++) v[i] = def;
    if (cc_attr_index(node->op, name) < 0) return CC_OK;
    const cc_attr_value *a = cc_attr_get(node, name);
    if (!a->set) return CC_OK;
    if (a->n != n)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s has %d values, expected %d", op, name, a->n, n);
    for (int i = 0; i < n; i++) {
        if (a->ints[i] < lo)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s must be %s, got %lld at index %d", op, name,
                              lo > 0 ? "> 0" : ">= 0", (long long)a->ints[i], i);
        if (a->ints[i] > WINDOW_VALUE_MAX)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s value %lld is out of range", op, name,
                              (long long)a->ints[i]);
        v[i] = a->ints[i];
    }
    *given = 1;
    return CC_OK;
}

int64_t cc_window_extent(const cc_window *w, int d)
{
    return (w->kernel[d] - 1) * w->dilation[d] + 1;
}

int64_t cc_window_out_numel(const cc_window *w)
{
    int64_t n = 1;
    for (int d = 0; d < w->nsp; d++) n *= w->out[d];
    return n;
}

int64_t cc_window_kernel_numel(const cc_window *w)
{
    int64_t n = 1;
    for (int d = 0; d < w->nsp; d++) n *= w->kernel[d];
    return n;
}

cc_status cc_window_resolve(const cc_node *node, int nsp, const int64_t *in,
                            const int64_t *kernel, cc_window *w, cc_err *err)
{
    const char *op = node->op->name;
    cc_window r;
    memset(&r, 0, sizeof r);
    if (nsp < 1 || nsp > CC_WINDOW_MAX_SP)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %d spatial dimensions (1 to %d supported)",
                          op, nsp, CC_WINDOW_MAX_SP);
    r.nsp = nsp;

    const char *auto_pad = cc_attr_s(node, "auto_pad");
    enum { NOTSET, SAME_UPPER, SAME_LOWER, VALID } mode;
    if (strcmp(auto_pad, "NOTSET") == 0) mode = NOTSET;
    else if (strcmp(auto_pad, "SAME_UPPER") == 0) mode = SAME_UPPER;
    else if (strcmp(auto_pad, "SAME_LOWER") == 0) mode = SAME_LOWER;
    else if (strcmp(auto_pad, "VALID") == 0) mode = VALID;
    else
        return cc_err_set(err, CC_ERR_ARG,
                          "%s: unknown auto_pad '%s' (NOTSET, SAME_UPPER, SAME_LOWER or VALID)", op,
                          auto_pad);

    int ceil_mode = 0;
    if (cc_attr_index(node->op, "ceil_mode") >= 0) {
        int64_t c = cc_attr_i(node, "ceil_mode");
        if (c != 0 && c != 1)
            return cc_err_set(err, CC_ERR_ARG, "%s: ceil_mode must be 0 or 1, got %lld", op,
                              (long long)c);
        ceil_mode = (int)c;
    }

    int given;
    int64_t pads[2 * CC_WINDOW_MAX_SP];
    cc_status st = read_list(node, "strides", nsp, 1, 1, r.stride, &given, err);
    if (st) return st;
    st = read_list(node, "dilations", nsp, 1, 1, r.dilation, &given, err);
    if (st) return st;
    st = read_list(node, "pads", 2 * nsp, 0, 0, pads, &given, err);
    if (st) return st;
    if (given && mode != NOTSET)
        for (int i = 0; i < 2 * nsp; i++)
            if (pads[i] != 0)
                return cc_err_set(err, CC_ERR_ARG, "%s: pads cannot be used together with auto_pad=%s",
                                  op, auto_pad);

    for (int d = 0; d < nsp; d++) {
        if (kernel[d] <= 0 || kernel[d] > WINDOW_VALUE_MAX)
            return cc_err_set(err, CC_ERR_ARG, "%s: kernel size %lld on spatial axis %d is invalid",
                              op, (long long)kernel[d], d);
        r.in[d] = in[d];
        r.kernel[d] = kernel[d];
        int64_t ext = cc_window_extent(&r, d);
        int64_t s = r.stride[d];
        switch (mode) {
        case NOTSET: {
            r.pad_begin[d] = pads[d];
            r.pad_end[d] = pads[nsp + d];
            int64_t span = in[d] + r.pad_begin[d] + r.pad_end[d] - ext;
            if (span < 0)
                return cc_err_set(err, CC_ERR_ARG,
                                  "%s: kernel extent %lld exceeds the padded input %lld on spatial axis %d",
                                  op, (long long)ext, (long long)(in[d] + r.pad_begin[d] + r.pad_end[d]), d);
            if (!ceil_mode) {
                r.out[d] = span / s + 1;
            } else {
                r.out[d] = (span + s - 1) / s + 1;
                /* a last window that starts inside the end padding sees no input: dropped */
                if ((r.out[d] - 1) * s >= in[d] + r.pad_begin[d]) r.out[d]--;
            }
            break;
        }
        case SAME_UPPER:
        case SAME_LOWER: {
            r.out[d] = (in[d] + s - 1) / s;
            int64_t total = (r.out[d] - 1) * s + ext - in[d];
            if (total < 0) total = 0;
            int64_t small = total / 2, big = total - small;
            r.pad_begin[d] = mode == SAME_UPPER ? small : big;
            r.pad_end[d] = mode == SAME_UPPER ? big : small;
            break;
        }
        case VALID:
            if (in[d] < ext)
                return cc_err_set(err, CC_ERR_ARG,
                                  "%s: kernel extent %lld exceeds the input %lld on spatial axis %d (auto_pad=VALID)",
                                  op, (long long)ext, (long long)in[d], d);
            r.out[d] = (in[d] - ext) / s + 1;
            break;
        }
    }
    *w = r;
    return CC_OK;
}

void cc_window_as_3d(const cc_window *w, cc_window *w3)
{
    cc_window r;
    memset(&r, 0, sizeof r);
    r.nsp = CC_WINDOW_MAX_SP;
    int lead = CC_WINDOW_MAX_SP - w->nsp;
    for (int d = 0; d < CC_WINDOW_MAX_SP; d++) {
        if (d < lead) {
            r.in[d] = r.kernel[d] = r.stride[d] = r.dilation[d] = r.out[d] = 1;
            continue;
        }
        int s = d - lead;
        r.in[d] = w->in[s];
        r.kernel[d] = w->kernel[s];
        r.stride[d] = w->stride[s];
        r.dilation[d] = w->dilation[s];
        r.pad_begin[d] = w->pad_begin[s];
        r.pad_end[d] = w->pad_end[s];
        r.out[d] = w->out[s];
    }
    *w3 = r;
}
