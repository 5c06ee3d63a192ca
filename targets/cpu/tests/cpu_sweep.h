/* cpu_sweep.h — helpers shared by the cpu backend's family tests (included by each
 * test_cpu_*.c, never compiled on its own):
 *  - hand examples: host tensors with guard bytes after the data, and a call of one
 *    family kernel (supports, prepare, run, release) on a hand-built node;
 *  - the quick-case sweep: every quick case of an op, in both input regimes, run through
 *    the cpu target's vtable (open, supports, prepare, buffer_alloc, upload, run, sync,
 *    download) and checked against the golden model with cc_check_outputs. */
#ifndef CC_CPU_SWEEP_H
#define CC_CPU_SWEEP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "ops/case.h"
#include "ops/check.h"
#include "targets/cpu/cpu.h"

extern const cc_target_iface cc_target_cpu;

#define SWEEP_GUARD 64          /* guard bytes after every output buffer */
#define SWEEP_GUARD_BYTE 0xA5

/* ---- hand examples ------------------------------------------------------------------ */

/* A host tensor of dtype dt and the given dims whose data is followed by SWEEP_GUARD
 * guard bytes; data from vals (doubles stored with cc_store) when vals is non-NULL.
 * Free with free(t.data). */
static inline cc_tensor tensor_make(cc_dtype dt, int rank, const int64_t *dims, const double *vals)
{
    cc_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    t.shape = cc_shape_make(rank, dims);
    size_t bytes = cc_tensor_bytes(&t);
    t.data = malloc(bytes + SWEEP_GUARD);
    if (!t.data) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    memset(t.data, 0, bytes);
    memset((char *)t.data + bytes, SWEEP_GUARD_BYTE, SWEEP_GUARD);
    if (vals)
        for (int64_t i = 0; i < cc_tensor_numel(&t); i++) cc_store(t.data, dt, (size_t)i, vals[i]);
    return t;
}

/* 1 when the guard bytes after t's data are intact. */
static inline int guard_ok(const cc_tensor *t)
{
    const unsigned char *g = (const unsigned char *)t->data + cc_tensor_bytes(t);
    for (int i = 0; i < SWEEP_GUARD; i++)
        if (g[i] != SWEEP_GUARD_BYTE) return 0;
    return 1;
}

static inline const cc_kernel *kernel_find(const cc_kernel_list *f, const cc_op_def *op)
{
    for (int i = 0; i < f->n; i++)
        if (f->kernels[i].op == op->id) return &f->kernels[i];
    return NULL;
}

/* A node of catalog op `op` with schema defaults; n_in inputs and n_out outputs numbered
 * 0..n_in-1 and n_in..; exits the test when the op is not in the catalog. */
static inline cc_node node_make(const char *op, int n_in, int n_out)
{
    cc_node node;
    memset(&node, 0, sizeof node);
    node.op = cc_catalog_find(op);
    if (!node.op) {
        fprintf(stderr, "op %s is not in the catalog\n", op);
        exit(1);
    }
    cc_err e;
    if (cc_node_set_defaults(&node, &e) != CC_OK) {
        fprintf(stderr, "%s\n", e.msg);
        exit(1);
    }
    node.n_in = n_in;
    node.n_out = n_out;
    for (int i = 0; i < n_in; i++) node.in[i] = i;
    for (int j = 0; j < n_out; j++) node.out[j] = n_in + j;
    snprintf(node.name, sizeof node.name, "%s", op);
    return node;
}

static inline void node_set_i(cc_node *n, const char *name, int64_t v)
{
    int a = cc_attr_index(n->op, name);
    if (a < 0) { fprintf(stderr, "%s has no attribute %s\n", n->op->name, name); exit(1); }
    n->attrs[a].set = 1;
    n->attrs[a].i = v;
}

static inline void node_set_f(cc_node *n, const char *name, double v)
{
    int a = cc_attr_index(n->op, name);
    if (a < 0) { fprintf(stderr, "%s has no attribute %s\n", n->op->name, name); exit(1); }
    n->attrs[a].set = 1;
    n->attrs[a].f = v;
}

static inline void node_set_s(cc_node *n, const char *name, const char *v)
{
    int a = cc_attr_index(n->op, name);
    if (a < 0) { fprintf(stderr, "%s has no attribute %s\n", n->op->name, name); exit(1); }
    n->attrs[a].set = 1;
    snprintf(n->attrs[a].s, sizeof n->attrs[a].s, "%s", v);
}

static inline void node_set_ints(cc_node *n, const char *name, int cnt, const int64_t *v)
{
    int a = cc_attr_index(n->op, name);
    if (a < 0) { fprintf(stderr, "%s has no attribute %s\n", n->op->name, name); exit(1); }
    n->attrs[a].set = 1;
    n->attrs[a].n = cnt;
    for (int i = 0; i < cnt; i++) {
        n->attrs[a].ints[i] = v[i];
        n->attrs[a].floats[i] = (double)v[i];
    }
}

/* Runs node through the kernel of family f (supports, prepare, run, release). Output
 * tensors must carry shape, dtype and data. Returns the first failing status. */
static inline cc_status kernel_call(const cc_kernel_list *f, const cc_node *node,
                             const cc_tensor *const *in, int n_out, cc_tensor *out, cc_err *err)
{
    const cc_kernel *k = kernel_find(f, node->op);
    if (!k) return cc_err_set(err, CC_ERR_UNSUPPORTED, "no kernel for %s", node->op->name);
    char reason[256] = "";
    if (k->supports && k->supports(NULL, node, in, out, reason, sizeof reason) != CC_SUPPORT_YES)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s", reason);
    void *state = NULL;
    cc_status st = CC_OK;
    if (k->prepare) st = k->prepare(NULL, node, in, n_out, out, &state, err);
    if (st == CC_OK) st = k->run(NULL, node, in, n_out, out, state, err);
    if (k->release) k->release(state);
    return st;
}

/* ---- quick-case sweep through the vtable ------------------------------------------ */

/* Verdict names (the results library is not linked into backend tests). */
static inline const char *verdict_str(cc_verdict v)
{
    static const char *const names[] = {"passed", "failed", "mistrusted", "unsupported",
                                        "error", "crashed", "timeout"};
    return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : "?";
}

typedef struct sweep_stats {
    int cases, runs, passed, mistrusted, failed;
} sweep_stats;

/* Runs one instantiated case on the opened cpu target; returns the verdict (CC_ERROR on
 * any failing call, with the message in reason). Output buffers carry guard bytes that are
 * checked after download. */
static inline cc_verdict sweep_run_one(void *ctx, const cc_case_inst *inst, const cc_golden *gold,
                                char *reason, size_t rn)
{
    const cc_target_iface *t = &cc_target_cpu;
    const cc_graph *g = &inst->graph;
    void *plan = NULL, *ibuf[CC_MAX_IO] = {0}, *obuf[CC_MAX_IO] = {0};
    cc_tensor got[CC_MAX_IO];
    memset(got, 0, sizeof got);
    cc_err e = {0};
    cc_verdict v = CC_ERROR;
    unsigned char *pattern = NULL;
    cc_support sup = t->supports(ctx, g, &g->nodes[0], reason, rn);
    if (sup != CC_SUPPORT_YES) {
        v = CC_UNSUPPORTED;
        goto done;
    }
    if (t->prepare(ctx, g, &plan, &e)) goto fail;
    for (int i = 0; i < g->n_inputs; i++) {
        int vi = g->inputs[i];
        const cc_tensor *src = &inst->inputs[vi];
        size_t bytes = cc_tensor_bytes(src);
        if (t->buffer_alloc(ctx, bytes ? bytes : 1, &ibuf[i], &e)) goto fail;
        if (bytes && t->upload(ctx, ibuf[i], src->data, bytes, &e)) goto fail;
    }
    for (int j = 0; j < g->n_outputs; j++) {
        const cc_tensor *desc = &g->values[g->outputs[j]];
        size_t bytes = cc_tensor_bytes(desc);
        got[j].dtype = desc->dtype;
        got[j].shape = desc->shape;
        got[j].data = malloc(bytes + SWEEP_GUARD);
        pattern = realloc(pattern, bytes + SWEEP_GUARD);
        if (!got[j].data || !pattern) {
            snprintf(reason, rn, "out of memory");
            goto done;
        }
        memset(pattern, SWEEP_GUARD_BYTE, bytes + SWEEP_GUARD);
        if (t->buffer_alloc(ctx, bytes + SWEEP_GUARD, &obuf[j], &e)) goto fail;
        if (t->upload(ctx, obuf[j], pattern, bytes + SWEEP_GUARD, &e)) goto fail;
    }
    if (t->run(ctx, plan, ibuf, obuf, &e)) goto fail;
    if (t->sync(ctx, &e)) goto fail;
    for (int j = 0; j < g->n_outputs; j++) {
        size_t bytes = cc_tensor_bytes(&got[j]);
        if (t->download(ctx, obuf[j], got[j].data, bytes + SWEEP_GUARD, &e)) goto fail;
        if (!guard_ok(&got[j])) {
            snprintf(reason, rn, "output %d: guard bytes overwritten", j);
            v = CC_FAILED;
            goto done;
        }
    }
    cc_metrics m;
    v = cc_check_outputs(&inst->c, inst->exact, inst->n_out, gold, got, &m, reason, rn);
    goto done;
fail:
    snprintf(reason, rn, "%s", e.msg);
    v = CC_ERROR;
done:
    for (int i = 0; i < CC_MAX_IO; i++) {
        t->buffer_free(ctx, ibuf[i]);
        t->buffer_free(ctx, obuf[i]);
        free(got[i].data);
    }
    free(pattern);
    t->release(ctx, plan);
    return v;
}

/* Sweeps every quick case of op `name` (every case of the full sweep when the
 * environment sets CC_SWEEP_FULL=1) in both regimes; counts into *s and reports each case
 * that does not pass (a mistrusted case is printed and counted, not failed). Returns the
 * number of failures (an op missing from the catalog is one). */
static inline int sweep_op(const char *name, sweep_stats *s)
{
    const cc_op_def *op = cc_catalog_find(name);
    if (!op) {
        fprintf(stderr, "sweep: %s is not in the catalog\n", name);
        return 1;
    }
    cc_err e = {0};
    cc_case *cases = NULL;
    int n = 0, failures = 0;
    int quick = !(getenv("CC_SWEEP_FULL") && getenv("CC_SWEEP_FULL")[0] == '1');
    if (cc_case_enumerate(op, CC_DTYPE_COUNT, quick, &cases, &n, &e)) {
        fprintf(stderr, "sweep: %s: %s\n", name, e.msg);
        return 1;
    }
    void *ctx = NULL;
    cc_device_desc desc;
    if (cc_target_cpu.open("", &ctx, &desc, &e)) {
        fprintf(stderr, "sweep: cpu open: %s\n", e.msg);
        free(cases);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        s->cases++;
        for (int exact = 1; exact >= 0; exact--) {
            cc_case_inst inst;
            cc_golden gold[CC_MAX_IO];
            char reason[CC_REASON_MAX] = "";
            uint64_t seed = cc_hash_str(cases[i].id) + (uint64_t)exact;
            if (cc_case_instantiate(&cases[i], seed, exact, &inst, &e)) {
                fprintf(stderr, "FAIL %s [%s]: instantiate: %s\n", cases[i].id,
                        exact ? "exact" : "random", e.msg);
                failures++;
                continue;
            }
            if (cc_case_golden(&inst, gold, &e)) {
                fprintf(stderr, "FAIL %s [%s]: golden: %s\n", cases[i].id,
                        exact ? "exact" : "random", e.msg);
                cc_case_inst_free(&inst);
                failures++;
                continue;
            }
            cc_verdict v = sweep_run_one(ctx, &inst, gold, reason, sizeof reason);
            s->runs++;
            if (v == CC_PASSED) {
                s->passed++;
            } else if (v == CC_MISTRUSTED) {
                s->mistrusted++;
                printf("mistrusted %s [%s]: %s\n", cases[i].id, exact ? "exact" : "random", reason);
            } else {
                s->failed++;
                failures++;
                fprintf(stderr, "FAIL %s [%s] seed %llu: %s: %s\n", cases[i].id,
                        exact ? "exact" : "random", (unsigned long long)seed, verdict_str(v),
                        reason);
            }
            cc_golden_free(gold, inst.n_out);
            cc_case_inst_free(&inst);
        }
    }
    cc_target_cpu.close(ctx);
    free(cases);
    return failures;
}

/* Sweeps every op in names[0..n-1]; CHECKs that each op has cases and none fails. */
static inline void sweep_ops(const char *const *names, int n)
{
    for (int i = 0; i < n; i++) {
        sweep_stats s = {0};
        int f = sweep_op(names[i], &s);
        printf("sweep %-12s %3d cases, %3d runs: %d passed, %d mistrusted, %d failed\n", names[i],
               s.cases, s.runs, s.passed, s.mistrusted, s.failed);
        CHECK(s.cases > 0);
        CHECK(f == 0);
    }
}

#endif
