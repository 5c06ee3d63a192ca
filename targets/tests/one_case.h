/* one_case.h — one op case through a backend's whole vtable (cc_target_supports, prepare,
 * upload, run, download, guard bytes after every output, output_shape), for the backend
 * tests that check kernels bit for bit on hand-worked values (test_cpu_wide,
 * test_opencl_wide). Include once per test program. */
#ifndef CC_TARGETS_TESTS_ONE_CASE_H
#define CC_TARGETS_TESTS_ONE_CASE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "ops/case.h"
#include "targets/target.h"

#define ONE_CASE_GUARD 64
#define ONE_CASE_GUARD_BYTE 0xA5

/* Parses and instantiates case `id` (seed 1, the exact regime) into *inst: 0, or -1 after
 * printing why (a failure counted). */
static int one_case_inst(const char *id, cc_case_inst *inst)
{
    cc_case c;
    cc_err e = { 0 };
    if (cc_case_parse(id, &c, &e) || cc_case_instantiate(&c, 1, 1, inst, &e)) {
        fprintf(stderr, "%s: %s\n", id, e.msg);
        CHECK(0);
        return -1;
    }
    return 0;
}

/* Runs case `id` on target t (context ctx) with node inputs 0..n_set-1 replaced by set[i] (NULL: the
 * generated data stays), and copies output `which` (its bytes, at most cap) into got and
 * its shape into *shape. Returns 0, or -1 after printing why (a failure counted). */
static int one_case_run(const cc_target_iface *t, void *ctx, const char *id, int n_set, const void *const *set, int which,
                        void *got, size_t cap, cc_shape *shape)
{
    cc_case_inst inst;
    cc_err e = { 0 };
    if (one_case_inst(id, &inst)) return -1;
    for (int i = 0; i < n_set; i++)
        if (set[i]) memcpy(inst.inputs[i].data, set[i], cc_tensor_bytes(&inst.inputs[i]));
    const cc_graph *g = &inst.graph;
    void *plan = NULL, *ibuf[CC_MAX_IO] = { 0 }, *obuf[CC_MAX_IO] = { 0 };
    unsigned char *host = NULL;
    int rc = -1;
    char reason[256] = "";
    if (cc_target_supports(t, ctx, g, &g->nodes[0], reason, sizeof reason) != CC_SUPPORT_YES) {
        snprintf(e.msg, sizeof e.msg, "declined: %.230s", reason);
        goto done;
    }
    if (t->prepare(ctx, g, &plan, &e)) goto done;
    for (int i = 0; i < g->n_inputs; i++) {
        const cc_tensor *src = &inst.inputs[g->inputs[i]];
        size_t bytes = cc_tensor_bytes(src);
        if (t->buffer_alloc(ctx, bytes ? bytes : 1, &ibuf[i], &e)) goto done;
        if (bytes && t->upload(ctx, ibuf[i], src->data, bytes, &e)) goto done;
    }
    size_t obytes[CC_MAX_IO];
    for (int j = 0; j < g->n_outputs; j++) {
        obytes[j] = cc_tensor_bytes(&g->values[g->outputs[j]]);
        free(host);
        if (!(host = malloc(obytes[j] + ONE_CASE_GUARD))) goto done;
        memset(host, ONE_CASE_GUARD_BYTE, obytes[j] + ONE_CASE_GUARD);
        if (t->buffer_alloc(ctx, obytes[j] + ONE_CASE_GUARD, &obuf[j], &e)) goto done;
        if (t->upload(ctx, obuf[j], host, obytes[j] + ONE_CASE_GUARD, &e)) goto done;
    }
    if (t->run(ctx, plan, ibuf, obuf, &e) || t->sync(ctx, &e)) goto done;
    for (int j = 0; j < g->n_outputs; j++) {
        free(host);
        if (!(host = malloc(obytes[j] + ONE_CASE_GUARD))) goto done;
        if (t->download(ctx, obuf[j], host, obytes[j] + ONE_CASE_GUARD, &e)) goto done;
        for (int k = 0; k < ONE_CASE_GUARD; k++)
            if (host[obytes[j] + k] != ONE_CASE_GUARD_BYTE) {
                snprintf(e.msg, sizeof e.msg, "output %d: guard bytes overwritten", j);
                goto done;
            }
        if (j != which) continue;
        if (obytes[j] > cap) {
            snprintf(e.msg, sizeof e.msg, "output %d has %zu bytes, room for %zu", j, obytes[j], cap);
            goto done;
        }
        memcpy(got, host, obytes[j]);
        if (t->output_shape(ctx, plan, j, shape, &e)) goto done;
    }
    rc = 0;
done:
    if (rc) {
        fprintf(stderr, "%s: %s\n", id, e.msg);
        CHECK(0);
    }
    for (int i = 0; i < CC_MAX_IO; i++) {
        t->buffer_free(ctx, ibuf[i]);
        t->buffer_free(ctx, obuf[i]);
    }
    free(host);
    t->release(ctx, plan);
    cc_case_inst_free(&inst);
    return rc;
}

#endif
