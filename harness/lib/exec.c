/* exec.c — one case on one target, in-process: the path every result takes. */
#include "exec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* Bytes of canary after every output buffer; a backend that writes past the end of its
 * output is caught here even where it does not crash. */
#define GUARD_BYTES 64
#define GUARD_BYTE 0xA5

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

static void fill_canary(void *p, size_t n, cc_dtype dt)
{
    /* floats: all-ones bytes are a NaN, which never equals a golden value */
    memset(p, cc_dtype_is_float(dt) ? 0xFF : GUARD_BYTE, n);
}

void cc_exec_target(const cc_exec_golden *g, const cc_target_iface *t, void *ctx,
                    const cc_exec_params *params, cc_result *res, double *samples, int *n_samples,
                    cc_tensor *got)
{
    const cc_case_inst *inst = &g->inst;
    const cc_graph *graph = &inst->graph;
    cc_err err = { 0 };
    void *plan = NULL;
    void *in_buf[CC_MAX_IO] = { 0 }, *out_buf[CC_MAX_IO] = { 0 };
    cc_tensor host[CC_MAX_IO];
    unsigned char *raw[CC_MAX_IO] = { 0 };
    memset(host, 0, sizeof host);
    *n_samples = 0;

    {
        const cc_tensor *in[CC_MAX_IO];
        cc_case_inst_inputs(inst, in);
        double flops = 0, bytes = 0;
        const cc_tensor *outs = &graph->values[graph->outputs[0]];
        if (inst->c.op->cost) inst->c.op->cost(&inst->node, in, inst->n_out, outs, &flops, &bytes);
        res->flops = flops;
        res->bytes = bytes;
    }

    for (int k = 0; k < graph->n_nodes; k++) {
        char why[CC_REASON_MAX] = "";
        cc_support s = t->supports(ctx, graph, &graph->nodes[k], why, sizeof why);
        if (s != CC_SUPPORT_YES) {
            set_reason(res, CC_UNSUPPORTED, "%s%s", s == CC_SUPPORT_NOT_HERE ? "not on this hardware: " : "",
                       why[0] ? why : "declared unsupported");
            return;
        }
    }
    cc_status st = t->prepare(ctx, graph, &plan, &err);
    if (st == CC_ERR_UNSUPPORTED) {
        set_reason(res, CC_UNSUPPORTED, "%s", err.msg);
        return;
    }
    if (st) {
        set_reason(res, CC_ERROR, "prepare failed (%s): %s", cc_status_name(st), err.msg);
        return;
    }
    for (int k = 0; k < graph->n_inputs; k++) {
        const cc_tensor *src = &inst->inputs[graph->inputs[k]];
        size_t bytes = cc_tensor_bytes(src);
        st = t->buffer_alloc(ctx, bytes ? bytes : 1, &in_buf[k], &err);
        if (!st) st = t->upload(ctx, in_buf[k], src->data, bytes, &err);
        if (st) {
            set_reason(res, CC_ERROR, "input buffer (%s): %s", cc_status_name(st), err.msg);
            goto done;
        }
    }
    for (int j = 0; j < graph->n_outputs; j++) {
        const cc_tensor *o = &graph->values[graph->outputs[j]];
        size_t bytes = (size_t)cc_tensor_numel(o) * cc_dtype_size(o->dtype);
        raw[j] = malloc(bytes + GUARD_BYTES);
        if (!raw[j]) {
            set_reason(res, CC_ERROR, "out of memory for outputs");
            goto done;
        }
        fill_canary(raw[j], bytes, o->dtype);
        memset(raw[j] + bytes, GUARD_BYTE, GUARD_BYTES);
        st = t->buffer_alloc(ctx, bytes + GUARD_BYTES, &out_buf[j], &err);
        if (!st) st = t->upload(ctx, out_buf[j], raw[j], bytes + GUARD_BYTES, &err);
        if (st) {
            set_reason(res, CC_ERROR, "output buffer (%s): %s", cc_status_name(st), err.msg);
            goto done;
        }
    }
    st = t->run(ctx, plan, in_buf, out_buf, &err);
    if (!st) st = t->sync(ctx, &err);
    if (st == CC_ERR_UNSUPPORTED) {
        set_reason(res, CC_UNSUPPORTED, "%s", err.msg);
        goto done;
    }
    if (st) {
        set_reason(res, CC_ERROR, "run failed (%s): %s", cc_status_name(st), err.msg);
        goto done;
    }
    for (int j = 0; j < graph->n_outputs; j++) {
        const cc_tensor *o = &graph->values[graph->outputs[j]];
        size_t bytes = (size_t)cc_tensor_numel(o) * cc_dtype_size(o->dtype);
        st = t->download(ctx, out_buf[j], raw[j], bytes + GUARD_BYTES, &err);
        if (st) {
            set_reason(res, CC_ERROR, "download failed (%s): %s", cc_status_name(st), err.msg);
            goto done;
        }
        for (size_t b = 0; b < GUARD_BYTES; b++)
            if (raw[j][bytes + b] != GUARD_BYTE) {
                res->verdict = CC_FAILED;
                snprintf(res->reason, sizeof res->reason,
                         "wrote past the end of output %d (guard byte %zu changed)", j, b);
                res->metrics.bound_ratio = INFINITY;
                goto done;
            }
        host[j].dtype = o->dtype;
        host[j].shape = o->shape;
        host[j].data = raw[j];
    }
    res->verdict = cc_check_outputs(&inst->c, inst->exact, inst->n_out, g->gold, host, &res->metrics,
                                    res->reason, sizeof res->reason);

    if (params->time_it) {
        cc_timing *tm = &res->timing;
        double start = cc_now();
        for (int i = 0; i < params->warmup || cc_now() - start < 0.01; i++) {
            st = t->run(ctx, plan, in_buf, out_buf, &err);
            if (!st) st = t->sync(ctx, &err);
            if (st) break;
            if (i > 1000) break;
        }
        double sampled = 0;
        int n = 0;
        while (!st && n < params->max_samples &&
               (n < params->min_samples || sampled < params->min_time) && sampled < params->max_time) {
            double dev = 0, t0 = cc_now();
            if (t->run_timed) {
                st = t->run_timed(ctx, plan, in_buf, out_buf, &dev, &err);
            } else {
                st = t->run(ctx, plan, in_buf, out_buf, &err);
                if (!st) st = t->sync(ctx, &err);
            }
            double dt = cc_now() - t0;
            samples[n++] = t->run_timed ? dev : dt;
            sampled += dt;
        }
        if (st) {
            set_reason(res, CC_ERROR, "run failed while timing (%s): %s", cc_status_name(st), err.msg);
        } else {
            tm->device_timer = t->run_timed != NULL;
            cc_stats_compute(samples, n, res->flops, res->bytes, tm);
            *n_samples = n;
        }
    }
    if (t->describe_plan) t->describe_plan(ctx, plan, res->plan, sizeof res->plan);
done:
    if (got) {
        for (int j = 0; j < graph->n_outputs; j++) {
            got[j] = host[j];
            if (!host[j].data) free(raw[j]);
            raw[j] = NULL;
        }
    }
    for (int j = 0; j < CC_MAX_IO; j++) {
        free(raw[j]);
        if (out_buf[j]) t->buffer_free(ctx, out_buf[j]);
        if (in_buf[j]) t->buffer_free(ctx, in_buf[j]);
    }
    t->release(ctx, plan);
}
