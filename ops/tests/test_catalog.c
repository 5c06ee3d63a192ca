/* test_catalog.c — checks every op definition of the catalog for consistency, that every
 * op the spine must have is there, that ops/ops.def and the catalog list the same ops (ids
 * unique, names, domains, families and versions equal, traits coherent), that every op
 * declares its tolerance row, that every generated case id parses and is canonical
 * (parsing the canonical form gives it back), and that every quick case instantiates in
 * both regimes and has a well-formed golden output (finite values, S >= 0, K >= 1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "ops/case.h"
#include "ops/policy.h"

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
    CHECK(op->infer && op->cost && op->golden);
    /* every op has cases but control flow, whose sub-graphs a case id cannot write */
    CHECK(cc_op_has_trait(op, CC_TRAIT_SUBGRAPH) ? !op->sweep && op->n_sweep == 0 : op->sweep && op->n_sweep > 0);
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
    /* n_attrs counts exactly the entries given (ONNX's from onnx_attrs.h, then the rest) */
    CHECK(op->n_attrs >= 0 && op->n_attrs <= CC_MAX_ATTRS);
    for (int a = 0; a < CC_MAX_ATTRS; a++)
        if ((op->attrs[a].name != NULL) != (a < op->n_attrs)) {
            fprintf(stderr, "%s: n_attrs is %d, attribute entry %d is %s\n", op->name, op->n_attrs, a,
                    op->attrs[a].name ? op->attrs[a].name : "empty");
            CHECK(0);
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

/* Fails, naming the op, unless cond holds. */
#define CHECK_OP(cond, name, ...)                       \
    do {                                                \
        if (!(cond)) {                                  \
            fprintf(stderr, "%s: ", name);              \
            fprintf(stderr, __VA_ARGS__);               \
            fputc('\n', stderr);                        \
        }                                               \
        CHECK(cond);                                    \
    } while (0)

/* Every ops.def entry is one catalog op with the same name, domain, family and since
 * version; its versions ascend to since; its traits are coherent with each other and with
 * the op's dtypes. */
static void check_op_list(void)
{
    CHECK(cc_op_info_of(CC_OP_ID_COUNT) == NULL && cc_catalog_by_id(CC_OP_ID_COUNT) == NULL);
    for (int id = 0; id < CC_OP_ID_COUNT; id++) {
        const cc_op_info *info = cc_op_info_of((cc_op_id)id);
        CHECK(info && info->name && info->domain && info->family);
        if (!info || !info->name || !info->domain || !info->family) continue;
        const char *name = info->name;
        const cc_op_def *op = cc_catalog_by_id((cc_op_id)id);
        CHECK_OP(op != NULL, name, "in ops.def (id %d) but no family defines it", id);
        if (!op) continue;
        CHECK_OP(op->id == (cc_op_id)id, name, "cc_catalog_by_id(%d) gives an op of id %d", id, op->id);
        CHECK_OP(strcmp(op->name, name) == 0, name, "the catalog op of this id is %s", op->name);
        CHECK_OP(strcmp(op->domain, info->domain) == 0, name, "domain '%s' in the catalog, '%s' in ops.def", op->domain,
                 info->domain);
        CHECK_OP(strcmp(op->family, info->family) == 0, name, "family %s in the catalog, %s in ops.def", op->family,
                 info->family);
        CHECK_OP(op->since_version == info->since, name, "since %d in the catalog, %d in ops.def", op->since_version,
                 info->since);
        CHECK_OP(cc_catalog_find(name) == op, name, "cc_catalog_find gives another op");

        int n = 0;
        while (n < CC_OP_MAX_VERSIONS && info->versions[n]) n++;
        int has_since = 0;
        for (int i = 0; i < n; i++) has_since |= info->versions[i] == info->since;
        CHECK_OP(n >= 1 && has_since, name, "versions must include since (%d)", info->since);
        CHECK_OP(n < 1 || info->versions[n - 1] <= 20, name, "versions go up to opset 20");
        for (int i = 0; i < n; i++)
            CHECK_OP(info->versions[i] >= 1 && (i == 0 || info->versions[i] > info->versions[i - 1]), name,
                     "versions must ascend from 1 on");

        unsigned t = info->traits;
        CHECK_OP((t & ~CC_TRAIT_ALL) == 0, name, "unknown trait bits 0x%x", t & ~CC_TRAIT_ALL);
        CHECK_OP(!(t & CC_TRAIT_ACTIVATION) || (t & CC_TRAIT_ELTWISE), name, "an activation is elementwise");
        CHECK_OP(!(t & CC_TRAIT_FUSABLE) || (t & CC_TRAIT_ACTIVATION), name, "a fusable op is an activation");
        CHECK_OP(!(t & CC_TRAIT_SHAPE_ONLY) || !(t & (CC_TRAIT_ELTWISE | CC_TRAIT_CONTRACTION)), name,
                 "a shape-only op computes nothing");
        CHECK_OP(!(t & CC_TRAIT_ELTWISE) || op->min_outputs == 1, name, "an elementwise op has one output");
        CHECK_OP(!(t & CC_TRAIT_INT8_MOVER) || (op->dtypes & (CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8))), name,
                 "an INT8 mover must have 8-bit cases");
        for (unsigned b = 1; b & CC_TRAIT_ALL; b <<= 1)
            CHECK_OP(cc_op_has_trait(op, b) == ((t & b) != 0), name, "cc_op_has_trait(0x%x) disagrees with ops.def", b);
    }

    /* cc_catalog_family lists each op once, in its own family */
    for (int id = 0; id < CC_OP_ID_COUNT; id++) {
        const char *f = cc_op_info_of((cc_op_id)id)->family;
        const cc_op_family *fam = cc_catalog_family(f);
        CHECK_OP(fam != NULL, cc_op_info_of((cc_op_id)id)->name, "family %s not found", f);
        if (!fam) continue;
        int in = 0;
        for (int k = 0; k < fam->n_ops; k++) in += fam->ops[k]->id == (cc_op_id)id;
        CHECK_OP(in == 1, cc_op_info_of((cc_op_id)id)->name, "listed %d times by its family %s", in, f);
    }
    CHECK(cc_catalog_family("no such family") == NULL);

    unsigned char seen[CC_OP_ID_COUNT] = { 0 };
    int n = cc_catalog_count();
    CHECK(n == CC_OP_ID_COUNT);
    for (int i = 0; i < n; i++) {
        const cc_op_def *op = cc_catalog_at(i);
        int ok = (unsigned)op->id < CC_OP_ID_COUNT;
        CHECK_OP(ok, op->name, "id %d is not an ops.def entry", op->id);
        if (!ok) continue;
        CHECK_OP(!seen[op->id], op->name, "id %d taken by two catalog ops", op->id);
        seen[op->id] = 1;
        CHECK_OP(strcmp(cc_op_info_of(op->id)->name, op->name) == 0, op->name, "its id names %s in ops.def",
                 cc_op_info_of(op->id)->name);
    }
}

/* Every op declares its tolerance row at every dtype: no default applies. */
static void check_policy(const cc_op_def *op)
{
    for (int d = 0; d < CC_DTYPE_COUNT; d++) {
        const cc_tol *tol = cc_policy_of(op, (cc_dtype)d);
        CHECK_OP(tol != NULL, op->name, "no tolerance row at %s (ops/policy.c)", cc_dtype_name((cc_dtype)d));
        if (!tol) continue;
        CHECK_OP(tol->why && tol->why[0], op->name, "tolerance row without a reason");
        CHECK_OP(tol->c >= 0 && tol->r >= 0 && tol->atol >= 0 && isfinite(tol->c + tol->r + tol->atol), op->name,
                 "tolerance constants must be finite and >= 0");
        CHECK_OP((tol->sqrt_gamma == 0 || tol->sqrt_gamma == 1) && (tol->exact == 0 || tol->exact == 1), op->name,
                 "sqrt_gamma and exact are 0 or 1");
        CHECK_OP(cc_policy_lookup(op->name, (cc_dtype)d) == tol, op->name, "cc_policy_lookup gives another row");
        if (cc_op_has_trait(op, CC_TRAIT_SHAPE_ONLY))
            CHECK_OP(tol->c == 0 && tol->r == 0 && tol->atol == 0 && tol->exact, op->name,
                     "an op that only moves values must be bit-exact");
    }
    CHECK(cc_policy_of(op, CC_DTYPE_COUNT) == NULL);
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
    check_op_list();
    CHECK(cc_policy_lookup("NoSuchOp", CC_F32) == NULL);
    int total_quick = 0, total_full = 0;
    for (int i = 0; i < n; i++) {
        const cc_op_def *op = cc_catalog_at(i);
        check_def(op);
        check_policy(op);
        CHECK(cc_catalog_find(op->name) == op);
        if (cc_op_has_trait(op, CC_TRAIT_SUBGRAPH)) {
            /* a lone node refuses, naming why, and parsing an id of it fails */
            cc_node nd;
            memset(&nd, 0, sizeof nd);
            nd.op = op;
            cc_err err = { 0 };
            cc_tensor outs[CC_MAX_IO];
            CHECK(cc_node_set_defaults(&nd, &err) == CC_OK);
            CHECK(op->infer(&nd, NULL, 1, outs, &err) == CC_ERR_UNSUPPORTED && strstr(err.msg, "inside a model"));
            cc_case c;
            char id[64];
            snprintf(id, sizeof id, "%s(cond=scalar:bool)", op->name);
            CHECK(cc_case_parse(id, &c, &err) != CC_OK);
            continue;
        }
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
