/* test_catalog.c — checks every op definition of the catalog for consistency, that every
 * op the spine must have is there, that every generated case id parses and is canonical
 * (parsing the canonical form gives it back), and that every quick case instantiates in
 * both regimes and has a well-formed golden output (finite values, S >= 0, K >= 1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "ops/case.h"

static const char *const required[] = {
    "Conv", "BatchNormalization", "Relu", "LeakyRelu", "Sigmoid", "Tanh", "HardSigmoid",
    "HardSwish", "Clip", "Exp", "Sqrt", "Add", "Sub", "Mul", "Div", "MaxPool", "AveragePool",
    "GlobalAveragePool", "Gemm", "MatMul", "Flatten", "Reshape", "Transpose", "Concat", "Split",
    "Slice", "Resize", "Softmax", "ReduceMean", "ReduceMax", "QuantizeLinear", "DequantizeLinear",
    "QLinearConv", "QLinearMatMul", "ConvInteger", "MatMulInteger",
};

static void check_def(const cc_op_def *op)
{
    CHECK(op->name && op->name[0]);
    CHECK(op->family && op->family[0]);
    CHECK(op->since_version >= 1 && op->since_version <= 17);
    CHECK(op->infer && op->cost && op->cases && op->golden);
    CHECK(op->dtypes != 0);
    CHECK(op->min_outputs >= 1 && op->min_outputs <= op->max_outputs && op->max_outputs <= CC_MAX_IO);
    CHECK(op->n_inputs >= 1 && op->n_inputs <= CC_MAX_IO);
    CHECK(op->n_attrs >= 0 && op->n_attrs <= CC_MAX_ATTRS);
    for (int i = 0; i < op->n_inputs; i++) {
        for (int j = 0; j < i; j++)
            if (strcmp(op->inputs[i].name, op->inputs[j].name) == 0) {
                fprintf(stderr, "%s: input name '%s' twice\n", op->name, op->inputs[i].name);
                CHECK(0);
            }
        if (op->inputs[i].role == CC_IN_ATTR) {
            int n = 0;
            for (int a = 0; a < op->n_attrs; a++) n += op->attrs[a].input == i && !op->attrs[a].knob;
            if (n != 1) fprintf(stderr, "%s: input '%s' has %d attribute entries\n", op->name, op->inputs[i].name, n);
            CHECK(n == 1);
        }
        if (op->inputs[i].role == CC_IN_GEN) CHECK(op->gen != NULL);
    }
    for (int a = 0; a < op->n_attrs; a++) {
        const cc_attr_def *d = &op->attrs[a];
        CHECK(cc_attr_index(op, d->name) == a); /* unique */
        if (d->input >= 0) {
            CHECK(d->input < op->n_inputs);
            if (d->input < op->n_inputs && op->inputs[d->input].role != CC_IN_ATTR) {
                fprintf(stderr, "%s: attribute '%s' fills input %d which is not CC_IN_ATTR "
                        "(did you forget .input = -1?)\n", op->name, d->name, d->input);
                CHECK(0);
            }
        }
        if (d->knob) CHECK(d->input == -1);
        if (d->def) {
            cc_attr_value v;
            cc_err err = {0};
            if (cc_attr_parse(d->kind, d->def, &v, &err)) {
                fprintf(stderr, "%s: default of %s: %s\n", op->name, d->name, err.msg);
                CHECK(0);
            }
        }
    }
    cc_node node;
    memset(&node, 0, sizeof node);
    node.op = op;
    cc_err err = {0};
    CHECK(cc_node_set_defaults(&node, &err) == CC_OK);
}

static void check_golden(const cc_case *c, int exact)
{
    cc_case_inst inst;
    cc_err err = {0};
    if (cc_case_instantiate(c, 42, exact, &inst, &err)) {
        fprintf(stderr, "%s: instantiate: %s\n", c->id, err.msg);
        CHECK(0);
        return;
    }
    cc_golden g[CC_MAX_IO];
    if (cc_case_golden(&inst, g, &err)) {
        fprintf(stderr, "%s: golden: %s\n", c->id, err.msg);
        CHECK(0);
        cc_case_inst_free(&inst);
        return;
    }
    for (int j = 0; j < inst.n_out; j++) {
        int64_t n = cc_shape_numel(&g[j].shape);
        int bad = 0;
        for (int64_t i = 0; i < n; i++)
            if (!isfinite(g[j].value[i]) || !(g[j].mag[i] >= 0) || !isfinite(g[j].mag[i])) bad++;
        if (bad || !(g[j].k >= 1)) {
            fprintf(stderr, "%s (%s regime) output %d: %d non-finite values or bad magnitudes, K = %g\n", c->id,
                    exact ? "exact" : "random", j, bad, g[j].k);
            CHECK(0);
        }
    }
    cc_golden_free(g, inst.n_out);
    cc_case_inst_free(&inst);
}

int main(void)
{
    int n = cc_catalog_count();
    printf("%d ops in the catalog\n", n);
    for (size_t r = 0; r < sizeof required / sizeof required[0]; r++) {
        if (!cc_catalog_find(required[r])) fprintf(stderr, "missing op %s\n", required[r]);
        CHECK(cc_catalog_find(required[r]) != NULL);
    }
    int total_quick = 0, total_full = 0;
    for (int i = 0; i < n; i++) {
        const cc_op_def *op = cc_catalog_at(i);
        check_def(op);
        CHECK(cc_catalog_find(op->name) == op);
        for (int quick = 1; quick >= 0; quick--) {
            cc_case *cs = NULL;
            int k = 0;
            cc_err err = {0};
            if (cc_case_enumerate(op, CC_DTYPE_COUNT, quick, &cs, &k, &err)) {
                fprintf(stderr, "%s: %s\n", op->name, err.msg);
                CHECK(0);
                continue;
            }
            CHECK(k > 0);
            unsigned seen = 0;
            for (int j = 0; j < k; j++) {
                seen |= CC_DTYPE_BIT(cc_case_dtype(&cs[j]));
                cc_case again;
                if (cc_case_parse(cs[j].id, &again, &err) || strcmp(again.id, cs[j].id) != 0) {
                    fprintf(stderr, "not canonical: %s -> %s\n", cs[j].id, again.id);
                    CHECK(0);
                }
                if (quick) {
                    check_golden(&cs[j], 1);
                    check_golden(&cs[j], 0);
                }
            }
            if (seen != op->dtypes) fprintf(stderr, "%s: %s sweep misses dtypes of its mask\n", op->name, quick ? "quick" : "full");
            CHECK(seen == op->dtypes);
            if (quick) total_quick += k;
            else total_full += k;
            free(cs);
        }
    }
    printf("%d quick cases, %d full cases\n", total_quick, total_full);
    return CC_TEST_RESULT();
}
