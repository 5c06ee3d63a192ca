/* graph.c — structural validation of a cc_graph, shared by every backend's prepare(). */
#include "op.h"

static int in_list(const int *list, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (list[i] == v) return 1;
    return 0;
}

cc_status cc_graph_check(const cc_graph *g, const char *who, unsigned char *produced, cc_err *err)
{
    if (g->n_values < 0 || (g->n_values > 0 && !g->values) || g->n_nodes < 0 || (g->n_nodes > 0 && !g->nodes) ||
        g->n_inputs < 0 || g->n_inputs > CC_MAX_IO || g->n_outputs < 0 || g->n_outputs > CC_MAX_IO)
        return cc_err_set(err, CC_ERR_ARG, "%s: malformed graph", who);
    for (int i = 0; i < g->n_inputs; i++)
        if (g->inputs[i] < 0 || g->inputs[i] >= g->n_values)
            return cc_err_set(err, CC_ERR_ARG, "%s: graph input %d names no value", who, i);
    for (int i = 0; i < g->n_outputs; i++)
        if (g->outputs[i] < 0 || g->outputs[i] >= g->n_values)
            return cc_err_set(err, CC_ERR_ARG, "%s: graph output %d names no value", who, i);
    for (int n = 0; n < g->n_nodes; n++) {
        const cc_node *node = &g->nodes[n];
        if (!node->op || node->n_in < 0 || node->n_in > CC_MAX_IO || node->n_out < 1 || node->n_out > CC_MAX_IO)
            return cc_err_set(err, CC_ERR_ARG, "%s: node %d is malformed", who, n);
        for (int i = 0; i < node->n_in; i++) {
            int v = node->in[i];
            if (v < -1 || v >= g->n_values)
                return cc_err_set(err, CC_ERR_ARG, "%s: node %d (%s) input %d names no value", who, n,
                                  node->op->name, i);
            if (v >= 0 && !produced[v] && !g->values[v].data && !in_list(g->inputs, g->n_inputs, v))
                return cc_err_set(err, CC_ERR_ARG, "%s: node %d (%s) reads value %d before anything produces it",
                                  who, n, node->op->name, v);
        }
        for (int j = 0; j < node->n_out; j++) {
            int v = node->out[j];
            if (v < 0 || v >= g->n_values)
                return cc_err_set(err, CC_ERR_ARG, "%s: node %d (%s) output %d names no value", who, n,
                                  node->op->name, j);
            if (produced[v] || g->values[v].data || in_list(g->inputs, g->n_inputs, v))
                return cc_err_set(err, CC_ERR_ARG, "%s: value %d is assigned twice (node %d, %s)", who, v, n,
                                  node->op->name);
            produced[v] = 1;
        }
    }
    return CC_OK;
}
