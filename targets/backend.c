/* backend.c — helpers the built-in backends share (backend.h): node input checks, kernel
 * notes, attribute reads with defaults, broadcast strides, window geometry of Conv and pool nodes, and the
 * describe_plan text. */
#include "backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cc_backend_inputs_valid(const cc_graph *g, const cc_node *node, char *reason, size_t n)
{
    for (int i = 0; i < node->n_in; i++)
        if (node->in[i] >= g->n_values) {
            snprintf(reason, n, "node input %d names value %d of %d", i, node->in[i], g->n_values);
            return 0;
        }
    return 1;
}

cc_status cc_backend_dynamic_outputs_check(const cc_graph *g, const cc_node *node, const char *who, cc_err *err)
{
    if (!cc_node_dynamic_shape(g, node)) return CC_OK;
    for (int j = 0; j < node->n_out; j++) {
        int v = node->out[j], read = 0, is_out = 0;
        for (int k = 0; k < g->n_nodes; k++)
            for (int i = 0; i < g->nodes[k].n_in; i++) read |= g->nodes[k].in[i] == v;
        for (int o = 0; o < g->n_outputs; o++) is_out |= g->outputs[o] == v;
        if (read || !is_out)
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "%s: %s's output %d has a data-dependent shape and %s: only graph outputs may have one",
                              who, node->op->name, j, read ? "feeds another node" : "is not a graph output");
    }
    return CC_OK;
}

static _Thread_local char current_note[CC_BACKEND_NOTE_MAX];

void cc_backend_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(current_note, sizeof current_note, fmt, ap);
    va_end(ap);
}

void cc_backend_note_clear(void)
{
    current_note[0] = '\0';
}

const char *cc_backend_note_get(void)
{
    return current_note;
}

int64_t cc_backend_attr_int(const cc_node *node, const char *name, int64_t def)
{
    int idx = cc_attr_index(node->op, name);
    if (idx < 0 || !node->attrs[idx].set) return def;
    return node->attrs[idx].i;
}

int cc_backend_attr_ints(const cc_node *node, const char *name, int n, int64_t def, int64_t *v)
{
    int idx = cc_attr_index(node->op, name);
    const cc_attr_value *a = idx >= 0 ? &node->attrs[idx] : NULL;
    if (!a || !a->set || a->n == 0) {
        for (int i = 0; i < n; i++) v[i] = def;
        return 0;
    }
    if (a->n != n) return -1;
    for (int i = 0; i < n; i++) v[i] = a->ints[i];
    return 0;
}

int cc_backend_broadcast_strides(const cc_shape *s, const cc_shape *o, int64_t *st)
{
    int r = o->rank, off = r - s->rank;
    if (off < 0) return -1;
    int64_t run = 1;
    for (int i = r - 1; i >= 0; i--) {
        int64_t d = i >= off ? s->dims[i - off] : 1;
        if (d != 1 && d != o->dims[i]) return -1;
        st[i] = d == 1 ? 0 : run;
        run *= d;
    }
    return 0;
}

cc_status cc_backend_window_make(const cc_node *node, const cc_shape *x, const int64_t *k,
                                 const cc_shape *y, const char *backend, cc_backend_window *w,
                                 cc_err *err)
{
    const char *op = node->op->name;
    int nsp = x->rank - 2;
    if (nsp < 1 || nsp > CC_BACKEND_MAX_SPATIAL)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s handles 1 to %d spatial dims, got %d",
                          op, backend, CC_BACKEND_MAX_SPATIAL, nsp);
    if (y->rank != x->rank)
        return cc_err_set(err, CC_ERR_ARG, "%s: output rank %d differs from input rank %d", op,
                          y->rank, x->rank);
    cc_backend_window g;
    int64_t strides[CC_BACKEND_MAX_SPATIAL], dils[CC_BACKEND_MAX_SPATIAL];
    int64_t pads[2 * CC_BACKEND_MAX_SPATIAL];
    if (cc_backend_attr_ints(node, "strides", nsp, 1, strides) ||
        cc_backend_attr_ints(node, "dilations", nsp, 1, dils) ||
        cc_backend_attr_ints(node, "pads", 2 * nsp, 0, pads))
        return cc_err_set(err, CC_ERR_ARG, "%s: strides/dilations/pads do not match %d spatial dims",
                          op, nsp);
    const char *auto_pad = "NOTSET";
    int ai = cc_attr_index(node->op, "auto_pad");
    if (ai >= 0 && node->attrs[ai].set) auto_pad = node->attrs[ai].s;
    int lead = CC_BACKEND_MAX_SPATIAL - nsp;
    for (int a = 0; a < CC_BACKEND_MAX_SPATIAL; a++) {
        g.in[a] = g.out[a] = g.k[a] = g.stride[a] = g.dil[a] = 1;
        g.pad0[a] = g.pad1[a] = 0;
    }
    g.nsp = nsp;
    for (int i = 0; i < nsp; i++) {
        int a = lead + i;
        g.in[a] = x->dims[2 + i];
        g.out[a] = y->dims[2 + i];
        g.k[a] = k[i];
        g.stride[a] = strides[i];
        g.dil[a] = dils[i];
        if (g.stride[a] < 1 || g.dil[a] < 1 || g.k[a] < 1)
            return cc_err_set(err, CC_ERR_ARG, "%s: strides, dilations and kernel must be >= 1", op);
        int64_t span = (g.k[a] - 1) * g.dil[a] + 1;
        if (strcmp(auto_pad, "SAME_UPPER") == 0 || strcmp(auto_pad, "SAME_LOWER") == 0) {
            int64_t total = (g.out[a] - 1) * g.stride[a] + span - g.in[a];
            if (total < 0) total = 0;
            int64_t small = total / 2;
            g.pad0[a] = auto_pad[5] == 'U' ? small : total - small;
            g.pad1[a] = total - g.pad0[a];
        } else if (strcmp(auto_pad, "VALID") == 0) {
            g.pad0[a] = g.pad1[a] = 0;
        } else if (strcmp(auto_pad, "NOTSET") == 0 || auto_pad[0] == '\0') {
            g.pad0[a] = pads[i];
            g.pad1[a] = pads[nsp + i];
        } else {
            return cc_err_set(err, CC_ERR_ARG, "%s: unknown auto_pad '%s'", op, auto_pad);
        }
        if (g.pad0[a] < 0 || g.pad1[a] < 0)
            return cc_err_set(err, CC_ERR_ARG, "%s: pads must be >= 0", op);
    }
    *w = g;
    return CC_OK;
}

void cc_backend_describe_plan(const void *plan, int n_nodes, cc_backend_note_fn note_of, char *buf,
                              size_t n)
{
    if (!n) return;
    buf[0] = '\0';
    size_t len = 0;
    for (int i = 0; i < n_nodes && len < n; i++) {
        const cc_op_def *op;
        const char *note = note_of(plan, i, &op);
        int seen = 0, count = 0;
        for (int k = 0; k < n_nodes; k++) {
            const cc_op_def *other;
            const char *other_note = note_of(plan, k, &other);
            if (other != op || strcmp(other_note, note) != 0) continue;
            if (k < i) seen = 1;
            count++;
        }
        if (seen) continue;
        int w = snprintf(buf + len, n - len, "%s%s%s%s", len ? "; " : "", op->name,
                         note[0] ? ": " : "", note);
        if (w < 0) break;
        len += (size_t)w;
        if (count > 1 && len < n) {
            w = snprintf(buf + len, n - len, " x%d", count);
            if (w < 0) break;
            len += (size_t)w;
        }
    }
}

int cc_backend_node_wide(const cc_node *node, const cc_tensor *const *in, const cc_tensor *out, cc_dtype *d)
{
    for (int side = 0; side < 2; side++) {
        int n = side ? node->n_out : node->n_in;
        for (int i = 0; i < n; i++) {
            const cc_tensor *t = side ? &out[i] : in[i];
            if (!t || (unsigned)t->dtype >= CC_DTYPE_COUNT || (CC_DTYPE_BIT(t->dtype) & CC_DTYPES_ABI7)) continue;
            *d = t->dtype;
            return 1;
        }
    }
    return 0;
}
