/* fuzz_case.c — libFuzzer target for case ids (case.h): the input, cut at 511 bytes, is a
 * case id for cc_case_parse. A case that parses must print a canonical id that parses
 * again to itself (the id is the database key and the repro line), and a tiny one is also
 * instantiated in both input regimes and run through the golden model, then freed.
 * Nothing may crash, leak or trip a sanitizer, and every refusal must be one line.
 * Seeds: ops/fuzz/corpus/case/ (the catalog's ids, scripts/fuzz-corpus.sh); run with
 * scripts/fuzz.sh case SECONDS. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/fuzz/fuzz_input.h"
#include "ops/case.h"

/* What "tiny" means: inputs are counted from the parsed case before anything is
 * generated, outputs and work from the instantiated graph before the golden model runs.
 * The golden model is straight loops in double under the sanitizers: 2^22 flops take
 * milliseconds. */
#define TINY_INPUT_ELEMENTS 4096
#define TINY_OUTPUT_ELEMENTS 65536
#define TINY_FLOPS (1 << 22)

static void check(cc_status st, const cc_err *err, const char *who)
{
    if (st != CC_OK) fuzz_check_message(who, err->msg);
}

/* 1 when the parsed case's data inputs hold at most TINY_INPUT_ELEMENTS in all. */
static int tiny_inputs(const cc_case *c)
{
    int64_t total = 0;
    for (int i = 0; i < c->op->n_inputs; i++) {
        if (!c->present[i]) continue;
        int64_t n;
        cc_err e;
        if (cc_shape_numel_checked(&c->in_shape[i], &n, &e) || n > TINY_INPUT_ELEMENTS) return 0;
        total += n;
    }
    return total <= TINY_INPUT_ELEMENTS;
}

/* 1 when the instantiated case's outputs and the op's work are small enough to run. */
static int tiny_work(const cc_case_inst *inst)
{
    const cc_graph *g = &inst->graph;
    int64_t total = 0;
    cc_tensor out[CC_MAX_IO];
    for (int j = 0; j < inst->n_out; j++) {
        int64_t n;
        cc_err e;
        out[j] = g->values[g->outputs[j]];
        if (cc_shape_numel_checked(&out[j].shape, &n, &e) || n > TINY_OUTPUT_ELEMENTS) return 0;
        total += n;
    }
    if (total > TINY_OUTPUT_ELEMENTS) return 0;
    const cc_tensor *in[CC_MAX_IO];
    cc_case_inst_inputs(inst, in);
    double flops = 0, bytes = 0;
    inst->c.op->cost(&inst->node, in, inst->n_out, out, &flops, &bytes);
    return flops <= TINY_FLOPS;
}

static void run(const cc_case *c, int exact)
{
    cc_case_inst *inst = malloc(sizeof *inst);
    if (!inst) return;
    cc_err err = { 0 };
    cc_status st = cc_case_instantiate(c, 7, exact, inst, &err);
    check(st, &err, exact ? "cc_case_instantiate (exact)" : "cc_case_instantiate");
    if (st == CC_OK) {
        if (tiny_work(inst)) {
            cc_golden g[CC_MAX_IO];
            cc_err_clear(&err);
            st = cc_case_golden(inst, g, &err);
            check(st, &err, "cc_case_golden");
            if (st == CC_OK) cc_golden_free(g, inst->n_out);
        }
        cc_case_inst_free(inst);
    }
    free(inst);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[CC_CASE_ID_MAX];
    if (size > sizeof text - 1) size = sizeof text - 1;
    memcpy(text, data, size);
    text[size] = '\0';

    cc_case *c = malloc(2 * sizeof *c);
    if (!c) return 0;
    cc_err err = { 0 };
    cc_status st = cc_case_parse(text, &c[0], &err);
    check(st, &err, "cc_case_parse");
    if (st == CC_OK) {
        /* the canonical id is itself a case id, and canonical */
        cc_err_clear(&err);
        st = cc_case_parse(c[0].id, &c[1], &err);
        if (st != CC_OK) {
            fprintf(stderr, "fuzz: the canonical id '%s' of '%s' does not parse: %s\n", c[0].id, text, err.msg);
            abort();
        }
        if (strcmp(c[0].id, c[1].id) != 0) {
            fprintf(stderr, "fuzz: the canonical id '%s' of '%s' reparses as '%s'\n", c[0].id, text, c[1].id);
            abort();
        }
        if (tiny_inputs(&c[0])) {
            run(&c[0], 0);
            run(&c[0], 1);
        }
    }
    free(c);
    return 0;
}
