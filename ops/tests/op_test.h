/* op_test.h — what the op family tests in ops/tests/ share (included by each test_*.c,
 * never compiled on its own, so that its CHECKs count in the including test):
 *  - building blocks: an op of a family by name, a node with default attributes, attribute
 *    setters (typed, or parsed from case-id text), host tensors from values;
 *  - running an op as the runner does: infer(), then golden() into freshly allocated
 *    value/magnitude arrays (free with cc_golden_free);
 *  - infer() rejections: the status and the words of the message;
 *  - case ids and generated cases: canonical forms, enumeration of a sweep, and quick cases
 *    instantiated and run through the golden model with finite results. */
#ifndef CC_OP_TEST_H
#define CC_OP_TEST_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "ops/case.h"
#include "ops/op.h"

/* ---- building blocks ----------------------------------------------------------------- */

/* The op of family f called name; a missing op ends the test (exit 1) with its name. */
static inline const cc_op_def *family_op(const cc_op_family *f, const char *name)
{
    for (int i = 0; i < f->n_ops; i++)
        if (strcmp(f->ops[i]->name, name) == 0) return f->ops[i];
    fprintf(stderr, "no op %s in the %s family\n", name, f->name);
    exit(1);
}

/* A one-output node of op with its default attributes and n_in inputs (negative: every
 * input of the op's schema). */
static inline cc_node node_make(const cc_op_def *op, int n_in)
{
    cc_node n;
    memset(&n, 0, sizeof n);
    n.op = op;
    n.n_in = n_in < 0 ? op->n_inputs : n_in;
    n.n_out = 1;
    cc_err e = { 0 };
    if (cc_node_set_defaults(&n, &e)) {
        fprintf(stderr, "%s defaults: %s\n", op->name, e.msg);
        exit(1);
    }
    return n;
}

/* The attribute `name` of n, cleared and marked as set (the caller fills its value). */
static inline cc_attr_value *attr_set(cc_node *n, const char *name)
{
    int i = cc_attr_index(n->op, name);
    if (i < 0) {
        fprintf(stderr, "%s has no attribute %s\n", n->op->name, name);
        exit(1);
    }
    cc_attr_value *a = &n->attrs[i];
    memset(a, 0, sizeof *a);
    a->set = 1;
    return a;
}

static inline void attr_set_i(cc_node *n, const char *name, int64_t v) { attr_set(n, name)->i = v; }
static inline void attr_set_f(cc_node *n, const char *name, double v) { attr_set(n, name)->f = v; }

static inline void attr_set_s(cc_node *n, const char *name, const char *v)
{
    snprintf(attr_set(n, name)->s, CC_ATTR_STR, "%s", v);
}

static inline void attr_set_ints(cc_node *n, const char *name, const int64_t *v, int cnt)
{
    cc_attr_value *a = attr_set(n, name);
    a->n = cnt;
    for (int i = 0; i < cnt; i++) a->ints[i] = v[i];
}

static inline void attr_set_floats(cc_node *n, const char *name, const double *v, int cnt)
{
    cc_attr_value *a = attr_set(n, name);
    a->n = cnt;
    for (int i = 0; i < cnt; i++) a->floats[i] = v[i];
}

/* Sets attribute `name` from its case-id text ("2", "[1,1,2,2]", "linear"); CHECKs that
 * the op has it and that the text parses. */
static inline void attr_set_text(cc_node *n, const char *name, const char *text)
{
    int i = cc_attr_index(n->op, name);
    CHECK(i >= 0);
    if (i >= 0) CHECK(cc_attr_parse(n->op->attrs[i].kind, text, &n->attrs[i], NULL) == CC_OK);
}

/* A host tensor of dtype dt and the given dims holding vals (NULL: zeros); free with
 * cc_tensor_free. Out of memory ends the test (exit 1). */
static inline cc_tensor tensor_of(cc_dtype dt, int rank, const int64_t *dims, const double *vals)
{
    cc_tensor t;
    memset(&t, 0, sizeof t);
    cc_shape s = cc_shape_make(rank, dims);
    cc_err e = { 0 };
    if (cc_tensor_alloc(&t, dt, &s, &e)) {
        fprintf(stderr, "alloc: %s\n", e.msg);
        exit(1);
    }
    for (int64_t i = 0; vals && i < cc_shape_numel(&s); i++) cc_store(t.data, dt, (size_t)i, vals[i]);
    return t;
}

/* ---- running an op ------------------------------------------------------------------- */

/* infer() then golden() of n on in, with n_out outputs: out[] gets the output
 * descriptions, g[] the golden outputs (value and mag arrays allocated here, k left 0 for
 * golden() to set; free with cc_golden_free(g, n_out) once this returned CC_OK). Returns
 * the status of the first call that fails. */
static inline cc_status golden_run(const cc_node *n, const cc_tensor *const *in, int n_out,
                                   cc_tensor *out, cc_golden *g, cc_err *err)
{
    memset(out, 0, sizeof(cc_tensor) * (size_t)n_out);
    memset(g, 0, sizeof(cc_golden) * (size_t)n_out);
    cc_status st = n->op->infer(n, in, n_out, out, err);
    if (st) return st;
    for (int j = 0; j < n_out; j++) {
        if (cc_golden_alloc(&g[j], &out[j], err)) {
            fprintf(stderr, "out of memory for golden outputs\n");
            exit(1);
        }
        g[j].k = 0;
    }
    return n->op->golden(n, in, n_out, g, err);
}

/* g holds n values, each within tol of want[i]; the first one that is not is printed. */
static inline void expect_values(const cc_golden *g, const double *want, int n, double tol)
{
    int64_t have = cc_shape_numel(&g->shape);
    CHECK(have == n);
    int bad = -1;
    for (int i = 0; i < n && i < have && bad < 0; i++)
        if (!(fabs(g->value[i] - want[i]) <= tol)) bad = i;
    CHECK(bad < 0);
    if (bad >= 0) fprintf(stderr, "  element %d: got %.17g, want %.17g\n", bad, g->value[bad], want[bad]);
}

/* Runs the golden model of n on in (one output) and checks it: its dtype (unless want_dt is
 * CC_DTYPE_COUNT), cnt values within tol of want (a NaN wants a NaN, an infinity itself), S
 * within tol of want_s (when non-NULL) and K (when want_k >= 0). Names the op on a failure. */
static inline void golden_expect(const cc_node *n, const cc_tensor *const *in, cc_dtype want_dt, const double *want,
                                 const double *want_s, int cnt, double want_k, double tol)
{
    cc_tensor out;
    cc_golden g;
    cc_err e = { 0 };
    int before = cc_test_failures;
    cc_status st = golden_run(n, in, 1, &out, &g, &e);
    CHECK(st == CC_OK);
    if (st) {
        fprintf(stderr, "  %s: %s\n", n->op->name, e.msg);
        return;
    }
    if (want_dt < CC_DTYPE_COUNT) CHECK(out.dtype == want_dt && g.dtype == want_dt);
    CHECK(cc_shape_numel(&g.shape) == cnt);
    for (int i = 0; i < cnt && i < cc_shape_numel(&g.shape); i++) {
        if (isnan(want[i])) CHECK(isnan(g.value[i]));
        else if (isinf(want[i])) CHECK(g.value[i] == want[i]);
        else CHECK_NEAR(g.value[i], want[i], tol);
        if (want_s) CHECK_NEAR(g.mag[i], want_s[i], tol);
    }
    if (want_k >= 0) CHECK(g.k == want_k);
    if (cc_test_failures != before) fprintf(stderr, "  in %s\n", n->op->name);
    cc_golden_free(&g, 1);
}

/* infer() of n on in must fail with `code` and a message that names the op first and
 * contains `part`. */
static inline void expect_reject(const cc_node *n, const cc_tensor *const *in, int n_out,
                                 cc_status code, const char *part)
{
    cc_tensor out[CC_MAX_IO];
    cc_err e = { 0 };
    memset(out, 0, sizeof out);
    cc_status st = n->op->infer(n, in, n_out, out, &e);
    CHECK(st == code);
    CHECK(strstr(e.msg, part) != NULL);
    CHECK(strncmp(e.msg, n->op->name, strlen(n->op->name)) == 0);
    if (st != code || !strstr(e.msg, part))
        fprintf(stderr, "  expected %s '%s', got %s '%s'\n", cc_status_name(code), part,
                cc_status_name(st), e.msg);
}

/* ---- generated cases ----------------------------------------------------------------- */

/* The case id `id` parses and its canonical form is `canon`. */
static inline void expect_canonical(const char *id, const char *canon)
{
    cc_case c;
    cc_err err = { 0 };
    if (cc_case_parse(id, &c, &err)) {
        fprintf(stderr, "parse(%s): %s\n", id, err.msg);
        CHECK(0);
        return;
    }
    if (strcmp(c.id, canon)) fprintf(stderr, "canonical of %s is %s, expected %s\n", id, c.id, canon);
    CHECK(strcmp(c.id, canon) == 0);
}

/* The cases of op's quick (quick = 1) or full sweep over every dtype; CHECKs that every
 * id parses. Returns them (free()) with their count in *n, or NULL with *n = 0. */
static inline cc_case *sweep_cases(const cc_op_def *op, int quick, int *n)
{
    cc_case *cases = NULL;
    cc_err e = { 0 };
    *n = 0;
    cc_status st = cc_case_enumerate(op, CC_DTYPE_COUNT, quick, &cases, n, &e);
    CHECK(st == CC_OK);
    if (st) {
        fprintf(stderr, "  %s: %s\n", op->name, e.msg);
        *n = 0;
        return NULL;
    }
    return cases;
}

/* Parses id, instantiates it from seed in the given regime (exact: small integers) and runs
 * the golden model, CHECKing each step. Returns 1 with inst and g[0..inst->n_out) to free
 * (cc_golden_free, cc_case_inst_free), or 0 with nothing to free when a step failed. */
static inline int case_golden_of(const char *id, uint64_t seed, int exact, cc_case_inst *inst,
                                 cc_golden *g)
{
    cc_case c;
    cc_err e = { 0 };
    if (cc_case_parse(id, &c, &e) || cc_case_instantiate(&c, seed, exact, inst, &e)) {
        CHECK(!"case failed");
        fprintf(stderr, "  %s: %s\n", id, e.msg);
        return 0;
    }
    if (cc_case_golden(inst, g, &e)) {
        CHECK(!"case failed");
        fprintf(stderr, "  %s: %s\n", id, e.msg);
        cc_case_inst_free(inst);
        return 0;
    }
    return 1;
}

/* A case id that must be refused in one line, in both regimes, before anything is read or
 * written out of bounds (the sanitizer build runs this): it either does not parse, or
 * instantiating it fails with CC_ERR_ARG and a message containing needle. */
static inline void expect_case_refused(const char *id, const char *needle)
{
    cc_case c;
    cc_err e = { 0 };
    if (cc_case_parse(id, &c, &e)) {
        CHECK(strstr(e.msg, needle) != NULL && strchr(e.msg, '\n') == NULL);
        if (!strstr(e.msg, needle)) fprintf(stderr, "  %s: refused with '%s', expected '%s'\n", id, e.msg, needle);
        return;
    }
    for (int exact = 0; exact <= 1; exact++) {
        cc_case_inst inst;
        cc_status st = cc_case_instantiate(&c, 1, exact, &inst, &e);
        if (st == CC_OK) cc_case_inst_free(&inst);
        CHECK(st == CC_ERR_ARG && strstr(e.msg, needle) != NULL && strchr(e.msg, '\n') == NULL);
        if (st != CC_ERR_ARG || !strstr(e.msg, needle))
            fprintf(stderr, "  %s: status %d '%s', expected refusal with '%s'\n", id, (int)st, st ? e.msg : "", needle);
    }
}

/* Instantiates c from seed in the given regime (exact: small integers) and runs the golden
 * model: both must succeed and every output value and magnitude must be finite. */
static inline void case_golden_finite(const cc_case *c, uint64_t seed, int exact)
{
    cc_case_inst inst;
    cc_golden g[CC_MAX_IO];
    cc_err e = { 0 };
    if (cc_case_instantiate(c, seed, exact, &inst, &e)) {
        CHECK(!"case failed");
        fprintf(stderr, "  %s: %s\n", c->id, e.msg);
        return;
    }
    if (cc_case_golden(&inst, g, &e)) {
        CHECK(!"case failed");
        fprintf(stderr, "  %s: %s\n", c->id, e.msg);
        cc_case_inst_free(&inst);
        return;
    }
    int64_t nonfinite = 0;
    for (int j = 0; j < inst.n_out; j++)
        for (int64_t k = 0; k < cc_shape_numel(&g[j].shape); k++)
            nonfinite += !isfinite(g[j].value[k]) || !isfinite(g[j].mag[k]);
    CHECK(nonfinite == 0);
    if (nonfinite) fprintf(stderr, "  %s: %lld non-finite golden values\n", c->id, (long long)nonfinite);
    cc_golden_free(g, inst.n_out);
    cc_case_inst_free(&inst);
}

/* Every op of family f belongs to it by name, and both of its sweeps parse with at least
 * min_quick / min_full cases; every quick case runs through case_golden_finite from seed in
 * both regimes. Returns the number of cases of both sweeps. */
static inline int family_cases_check(const cc_op_family *f, uint64_t seed, int min_quick, int min_full)
{
    int total = 0;
    for (int i = 0; i < f->n_ops; i++) {
        const cc_op_def *op = f->ops[i];
        CHECK(strcmp(op->family, f->name) == 0);
        for (int quick = 1; quick >= 0; quick--) {
            int n;
            cc_case *cases = sweep_cases(op, quick, &n);
            if (!cases) continue;
            CHECK(n >= (quick ? min_quick : min_full));
            total += n;
            for (int c = 0; quick && c < n; c++)
                for (int exact = 0; exact < 2; exact++) case_golden_finite(&cases[c], seed, exact);
            free(cases);
        }
    }
    return total;
}

#endif
