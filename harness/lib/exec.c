/* exec.c — one case on one target, in-process: the case's golden outputs, then the case
 * as a one-node graph on the executor models use (graph_exec.h: guard bytes, canaries,
 * device timers), the comparison and the timing loop. */
#include "exec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_exec.h"
#include "stats.h"

/* The reference loop timed after every sample: 256 steps over a small array (2 KiB, in
 * the nearest cache), each a load, four independent multiply-add chains and a store
 * (about a microsecond: both the core's latency and its throughput matter, as in real
 * kernels, so that a neighbour competing for the core slows it too). Its median says how
 * fast the machine ran while the case was sampled, so that compare can tell a machine that
 * slowed down for a while (a host's busy period, a clock change) from code that did. */
static double reference_data[256];
static volatile double reference_sink;

static double reference_seconds(void)
{
    double a0 = 1, a1 = 2, a2 = 3, a3 = 4, t0 = cc_now();
    for (int i = 0; i < 256; i++) {
        double v = reference_data[i];
        a0 = a0 * 0.9999999 + v;
        a1 = a1 * 0.9999998 + v;
        a2 = a2 * 0.9999997 + v;
        a3 = a3 * 0.9999996 + v;
        reference_data[(i * 7) & 255] = (a0 - a1) * 1e-9 + (a2 - a3) * 1e-9;
    }
    double t = cc_now() - t0;
    reference_sink = a0 + a1 + a2 + a3;
    return t;
}

uint64_t cc_exec_case_seed(const char *case_id, uint64_t run_seed, cc_regime regime)
{
    return cc_hash_str(case_id) ^ (run_seed * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)regime << 62);
}

cc_status cc_exec_golden_make(const cc_case *c, uint64_t seed, cc_regime regime, cc_exec_golden *g,
                              cc_err *err)
{
    memset(g, 0, sizeof *g);
    cc_status st = cc_case_instantiate(c, seed, regime == CC_REGIME_EXACT, &g->inst, err);
    if (st) return st;
    st = cc_case_golden(&g->inst, g->gold, err);
    if (st) {
        cc_case_inst_free(&g->inst);
        return st;
    }
    g->ready = 1;
    return CC_OK;
}

cc_status cc_exec_inputs_make(const cc_case *c, uint64_t seed, cc_regime regime, cc_exec_golden *g,
                              cc_err *err)
{
    memset(g, 0, sizeof *g);
    cc_status st = cc_case_instantiate(c, seed, regime == CC_REGIME_EXACT, &g->inst, err);
    if (!st) g->ready = 1;
    return st;
}

void cc_exec_golden_release(cc_exec_golden *g)
{
    if (!g || !g->ready) return;
    cc_golden_free(g->gold, g->inst.n_out);
    cc_case_inst_free(&g->inst);
    g->ready = 0;
}

void cc_exec_result_init(cc_result *res, const cc_case *c, const char *target, cc_regime regime,
                         uint64_t seed)
{
    memset(res, 0, sizeof *res);
    snprintf(res->case_id, sizeof res->case_id, "%s", c->id);
    snprintf(res->op, sizeof res->op, "%s", c->op->name);
    snprintf(res->dtype, sizeof res->dtype, "%s", cc_dtype_name(cc_case_dtype(c)));
    snprintf(res->target, sizeof res->target, "%s", target);
    res->regime = regime;
    res->seed = seed;
    res->verdict = CC_ERROR;
    res->metrics.cosine = NAN;
    const cc_tol *tol = cc_policy_lookup(c->op->name, cc_case_dtype(c));
    res->tol_c = tol->c;
    res->tol_r = tol->r;
    res->tol_atol = tol->atol;
    res->policy_version = CC_POLICY_VERSION;
}

/* Sets the verdict and a reason (printf format), truncated to the result's reason field. */
static void set_reason(cc_result *res, cc_verdict v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_reason(cc_result *res, cc_verdict v, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    res->verdict = v;
    size_t n = strlen(buf);
    if (n >= sizeof res->reason) n = sizeof res->reason - 1;
    memcpy(res->reason, buf, n);
    res->reason[n] = '\0';
}

void cc_exec_target(const cc_exec_golden *g, const cc_target_iface *t, void *ctx,
                    const cc_exec_params *params, cc_result *res, double *samples, int *n_samples,
                    cc_tensor *got)
{
    const cc_case_inst *inst = &g->inst;
    const cc_graph *graph = &inst->graph;
    cc_err err = { 0 };
    cc_graph_exec *x = NULL;
    cc_graph_exec_info info;
    cc_tensor ins[CC_MAX_IO], outs[CC_MAX_IO];
    memset(ins, 0, sizeof ins);
    memset(outs, 0, sizeof outs);
    int ran = 0;
    *n_samples = 0;

    {
        const cc_tensor *in[CC_MAX_IO];
        cc_case_inst_inputs(inst, in);
        double flops = 0, bytes = 0;
        const cc_tensor *o = &graph->values[graph->outputs[0]];
        if (inst->c.op->cost) inst->c.op->cost(&inst->node, in, inst->n_out, o, &flops, &bytes);
        res->flops = flops;
        res->bytes = bytes;
    }

    for (int k = 0; k < graph->n_nodes; k++) {
        char why[CC_REASON_MAX] = "";
        cc_support s = cc_target_supports(t, ctx, graph, &graph->nodes[k], why, sizeof why);
        if (s != CC_SUPPORT_YES) {
            set_reason(res, CC_UNSUPPORTED, "%s%s", s == CC_SUPPORT_NOT_HERE ? "not on this hardware: " : "",
                       why[0] ? why : "declared unsupported");
            return;
        }
    }
    /* the case is a one-node graph on the executor models use, without fallback */
    cc_status st = cc_graph_exec_create(graph, t, ctx, NULL, NULL, &x, &info, &err);
    if (st == CC_ERR_UNSUPPORTED) {
        set_reason(res, CC_UNSUPPORTED, "%s", err.msg);
        return;
    }
    if (st) {
        set_reason(res, CC_ERROR, "prepare failed (%s): %s", cc_status_name(st), err.msg);
        return;
    }
    for (int k = 0; k < graph->n_inputs; k++) ins[k] = inst->inputs[graph->inputs[k]];
    for (int j = 0; j < graph->n_outputs && !st; j++) {
        const cc_tensor *o = &graph->values[graph->outputs[j]];
        st = cc_tensor_alloc(&outs[j], o->dtype, &o->shape, &err);
    }
    if (st) {
        set_reason(res, CC_ERROR, "out of memory for outputs");
        goto done;
    }
    st = cc_graph_exec_run(x, ins, outs, &err);
    if (st && cc_graph_exec_overrun(x)) {
        set_reason(res, CC_FAILED, "%s", err.msg);
        res->metrics.bound_ratio = INFINITY;
        goto done;
    }
    if (st == CC_ERR_UNSUPPORTED) {
        set_reason(res, CC_UNSUPPORTED, "%s", err.msg);
        goto done;
    }
    if (st) {
        set_reason(res, CC_ERROR, "run failed (%s): %s", cc_status_name(st), err.msg);
        goto done;
    }
    ran = 1;
    if (params->no_check)
        set_reason(res, CC_MISTRUSTED, "not checked (timing only)");
    else
        res->verdict = cc_check_outputs_on(&inst->c, inst->exact, inst->n_out, g->gold, outs,
                                           params->f32_contraction_bits, &res->metrics, res->reason,
                                           sizeof res->reason);

    if (params->time_it) {
        cc_timing *tm = &res->timing;
        st = cc_graph_exec_bind(x, ins, &err);
        double start = cc_now();
        for (int i = 0; !st && (i < params->warmup || cc_now() - start < 0.01) && i <= 1000; i++)
            st = cc_graph_exec_run_bound(x, &err);
        double sampled = 0;
        int n = 0, device = 0;
        double *refs = malloc(sizeof(double) * (size_t)(params->max_samples > 0 ? params->max_samples : 1));
        while (!st && n < params->max_samples &&
               (n < params->min_samples || sampled < params->min_time) && sampled < params->max_time) {
            double sec = 0, t0 = cc_now();
            st = cc_graph_exec_run_timed(x, &sec, &device, &err);
            if (refs) refs[n] = reference_seconds();
            samples[n++] = sec;
            sampled += cc_now() - t0;
        }
        if (st) {
            set_reason(res, CC_ERROR, "run failed while timing (%s): %s", cc_status_name(st), err.msg);
        } else {
            tm->device_timer = device;
            cc_stats_compute(samples, n, res->flops, res->bytes, tm);
            if (refs && n > 0 && !device) {
                cc_timing rt;
                cc_stats_compute(refs, n, 0, 0, &rt);
                tm->ref = rt.median;
            }
            *n_samples = n;
        }
        free(refs);
    }
    cc_graph_exec_describe(x, res->plan, sizeof res->plan);
done:
    for (int j = 0; j < graph->n_outputs; j++) {
        if (got && ran) {
            got[j] = outs[j]; /* the caller frees them */
            continue;
        }
        cc_tensor_free(&outs[j]);
        if (got) memset(&got[j], 0, sizeof got[j]);
    }
    cc_graph_exec_destroy(x);
}
