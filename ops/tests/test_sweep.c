/* test_sweep.c — the sweep rows' expansion (ops/sweep.h), checked against ids written out
 * by hand: plain rows, cross products, spreads, absent values, shape classes with dropped
 * inputs and changed dtypes, the other-8-bit dtype, quick and dtype filters, tags, quoted
 * values holding separators, and malformed rows. Then the catalog: every op's quick sweep is exactly its full sweep's
 * quick-tagged cases, and every op has edge cases. */
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "ops/case.h"
#include "ops/sweep.h"

/* Expands rows for op and dtype; returns the list (caller frees) or an empty one with
 * *st set. */
static cc_case_list expand(const char *opname, const cc_sweep_row *rows, int n, cc_dtype dt, int quick,
                           cc_status *st, cc_err *err)
{
    cc_case_list l;
    cc_case_list_init(&l);
    const cc_op_def *op = cc_catalog_find(opname);
    CHECK(op != NULL);
    *st = op ? cc_sweep_expand_rows(op, rows, n, dt, quick, &l, err) : CC_ERR_ARG;
    return l;
}

static int has(const cc_case_list *l, const char *id)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->ids[i], id) == 0) return 1;
    return 0;
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void plain_and_products(void)
{
    cc_status st;
    cc_err err = { 0 };
    static const cc_sweep_row plain[] = { { CC_SWEEP_QUICK, "x=1x3x8x8,w=4x3x3x3", "pads=[1,1,1,1]" } };
    cc_case_list l = expand("Conv", plain, 1, CC_F32, 0, &st, &err);
    CHECK(st == CC_OK && l.n == 1);
    CHECK(l.n == 1 && strcmp(l.ids[0], "Conv(x=1x3x8x8:f32,w=4x3x3x3,pads=[1,1,1,1])") == 0);
    CHECK(l.n == 1 && l.tags[0] == CC_SWEEP_QUICK);
    cc_case_list_free(&l);

    /* a cross product: 2 x 3 cases, each combination once; '-' leaves one out */
    static const cc_sweep_row cross[] = {
        { CC_SWEEP_EDGE, "x=1x2x9x9,w=2x2x3x3", "strides=[1,1]|[2,2],dilations=-|[2,2]|[3,3]" },
    };
    l = expand("Conv", cross, 1, CC_F16, 0, &st, &err);
    CHECK(st == CC_OK && l.n == 6);
    CHECK(has(&l, "Conv(x=1x2x9x9:f16,w=2x2x3x3,strides=[1,1])"));
    CHECK(has(&l, "Conv(x=1x2x9x9:f16,w=2x2x3x3,strides=[2,2])"));
    CHECK(has(&l, "Conv(x=1x2x9x9:f16,w=2x2x3x3,strides=[1,1],dilations=[2,2])"));
    CHECK(has(&l, "Conv(x=1x2x9x9:f16,w=2x2x3x3,strides=[2,2],dilations=[3,3])"));
    for (int i = 0; i < l.n; i++) CHECK(l.tags[i] == CC_SWEEP_EDGE);
    cc_case_list_free(&l);

    /* not in the quick sweep, and a row for f16 only */
    l = expand("Conv", cross, 1, CC_F16, 1, &st, &err);
    CHECK(st == CC_OK && l.n == 0);
    cc_case_list_free(&l);
    static const cc_sweep_row f16_only[] = { { CC_SWEEP_QUICK, "x=1x1x3x3,w=1x1x1x1", NULL, CC_DTYPE_BIT(CC_F16) } };
    l = expand("Conv", f16_only, 1, CC_F32, 0, &st, &err);
    CHECK(st == CC_OK && l.n == 0);
    cc_case_list_free(&l);
    l = expand("Conv", f16_only, 1, CC_F16, 1, &st, &err);
    CHECK(st == CC_OK && l.n == 1 && has(&l, "Conv(x=1x1x3x3:f16,w=1x1x1x1)"));
    cc_case_list_free(&l);
}

static void classes_and_spreads(void)
{
    cc_status st;
    cc_err err = { 0 };
    const cc_shape_class *elt = cc_shape_class_find("eltwise");
    CHECK(elt != NULL && elt->n > 3);
    CHECK(cc_shape_class_find("nope") == NULL);
    if (!elt) return;

    /* $0 is the op's first input, whatever its name; quick keeps the quick entries only */
    static const cc_sweep_row all[] = { { CC_SWEEP_QUICK, "@eltwise" } };
    cc_case_list l = expand("Tanh", all, 1, CC_F32, 0, &st, &err);
    CHECK(st == CC_OK && l.n == elt->n);
    CHECK(has(&l, "Tanh(input=3x5x7:f32)"));
    cc_case_list_free(&l);
    int n_quick = 0;
    for (int i = 0; i < elt->n; i++) n_quick += (elt->entries[i].tags & CC_SWEEP_QUICK) != 0;
    l = expand("Relu", all, 1, CC_BF16, 1, &st, &err);
    CHECK(st == CC_OK && l.n == n_quick && n_quick < elt->n);
    CHECK(has(&l, "Relu(x=1x16x32x32:bf16)"));
    cc_case_list_free(&l);
    /* a row without the quick tag keeps no entry in the quick sweep; entry tags join the row's */
    static const cc_sweep_row full_only[] = { { 0, "@eltwise" } };
    l = expand("Relu", full_only, 1, CC_F32, 1, &st, &err);
    CHECK(st == CC_OK && l.n == 0);
    cc_case_list_free(&l);
    l = expand("Relu", full_only, 1, CC_F32, 0, &st, &err);
    CHECK(st == CC_OK && l.n == elt->n);
    for (int i = 0; i < l.n; i++) {
        CHECK(!(l.tags[i] & CC_SWEEP_QUICK));
        if (strcmp(l.ids[i], "Relu(x=scalar:f32)") == 0) CHECK(l.tags[i] == CC_SWEEP_EDGE);
    }
    cc_case_list_free(&l);

    /* the conv class without its bias and with int8 weights; zero points spread over the
     * shapes in turn */
    const cc_shape_class *conv = cc_shape_class_find("conv");
    CHECK(conv != NULL);
    if (!conv) return;
    static const cc_sweep_row plain_conv[] = { { 0, "@conv" } };
    l = expand("Conv", plain_conv, 1, CC_F32, 0, &st, &err);
    int n_conv = l.n; /* one case per entry, more where an entry crosses alternatives */
    CHECK(st == CC_OK && n_conv > conv->n);
    cc_case_list_free(&l);
    static const cc_sweep_row ci[] = { { 0, "@conv,-b,w:i8", "w_zp=-/1/2" } };
    l = expand("ConvInteger", ci, 1, CC_U8, 0, &st, &err);
    CHECK(st == CC_OK && l.n == n_conv);
    int with_zp[3] = { 0, 0, 0 };
    for (int i = 0; i < l.n; i++) {
        CHECK(strstr(l.ids[i], ",b=") == NULL);
        CHECK(strstr(l.ids[i], ":i8") != NULL);
        const char *zp = strstr(l.ids[i], "w_zp=");
        int k = zp ? atoi(zp + 5) : 0;
        CHECK(k == i % 3); /* case i takes value i mod 3 */
        if (k >= 0 && k < 3) with_zp[k]++;
    }
    CHECK(with_zp[0] > 0 && with_zp[1] > 0 && with_zp[2] > 0);
    CHECK(has(&l, "ConvInteger(x=1x3x8x8:u8,w=4x3x3x3:i8)"));
    cc_case_list_free(&l);

    /* a dtype for an input an entry does not give changes nothing */
    static const cc_sweep_row qc[] = { { 0, "@conv,b:i32,w:i8" } };
    l = expand("QLinearConv", qc, 1, CC_U8, 0, &st, &err);
    CHECK(st == CC_OK && l.n == n_conv);
    CHECK(has(&l, "QLinearConv(x=1x3x8x8:u8,w=4x3x3x3:i8)"));
    CHECK(has(&l, "QLinearConv(x=1x8x10x10:u8,w=8x8x3x3:i8,b=8:i32,pads=[1,1,1,1])"));
    cc_case_list_free(&l);

    /* other8: the other 8-bit type, as a dtype and as a value */
    static const cc_sweep_row mixed[] = { { 0, "a=4x8,b=8x2:other8", "to=other8" } };
    l = expand("QLinearMatMul", mixed, 1, CC_I8, 0, &st, &err);
    CHECK(st == CC_OK && l.n == 1 && has(&l, "QLinearMatMul(a=4x8:i8,b=8x2:u8,to=u8)"));
    cc_case_list_free(&l);
    l = expand("QLinearMatMul", mixed, 1, CC_U8, 0, &st, &err);
    CHECK(st == CC_OK && l.n == 1 && has(&l, "QLinearMatMul(a=4x8:u8,b=8x2:i8,to=i8)"));
    cc_case_list_free(&l);
}

/* Quoted strings: a comma, a bar or a slash inside the quotes belongs to the value. */
static void quoted_values(void)
{
    cc_status st;
    cc_err err = { 0 };
    static const cc_sweep_row crossed[] = { { 0, "x0=2x3,x1=3x2", "equation=\"ij,jk->ik\"|\"ij,ji->\"|\"a|b\"" } };
    cc_case_list l = expand("Einsum", crossed, 1, CC_F32, 0, &st, &err);
    CHECK(st == CC_OK && l.n == 3);
    CHECK(has(&l, "Einsum(x0=2x3:f32,x1=3x2,equation=\"ij,jk->ik\")"));
    CHECK(has(&l, "Einsum(x0=2x3:f32,x1=3x2,equation=\"ij,ji->\")"));
    CHECK(has(&l, "Einsum(x0=2x3:f32,x1=3x2,equation=\"a|b\")"));
    cc_case_list_free(&l);
    static const cc_sweep_row spread[] = { { 0, "x0=4,x1=4", "equation=\"i,i\"/\"i,i->i\"/\"a/b\"" } };
    l = expand("Einsum", spread, 1, CC_F32, 0, &st, &err);
    CHECK(st == CC_OK && l.n == 1 && has(&l, "Einsum(x0=4:f32,x1=4,equation=\"i,i\")"));
    cc_case_list_free(&l);
}

static void malformed(void)
{
    static const cc_sweep_row bad[][1] = {
        { { 0, "@nope" } },                                /* unknown class */
        { { 0, "x=1x3x8x8,zz=3" } },                       /* unknown input */
        { { 0, "x=1x3x8x8,w=1x3x1x1", "pads" } },          /* attribute without value */
        { { 0, "x=1x3x8x8,w=1x3x1x1", "group=1|2/3" } },   /* product and spread at once */
        { { 0, "x=1x3x8x8,w=1x3x1x1", "group=1||2" } },    /* an empty value */
        { { 0, "x=1x3x8x8,@conv" } },                      /* a class after an input */
    };
    for (int i = 0; i < N(bad); i++) {
        cc_status st;
        cc_err err = { 0 };
        cc_case_list l = expand("Conv", bad[i], 1, CC_F32, 0, &st, &err);
        CHECK(st == CC_ERR_INTERNAL);
        CHECK(strncmp(err.msg, "Conv: sweep row 0", 17) == 0);
        cc_case_list_free(&l);
    }
    /* a well-formed row whose id the op rejects is caught where the cases are parsed */
    static const cc_sweep_row rejected[] = { { 0, "x=1x3x8x8,w=1x2x1x1" } }; /* channels differ */
    cc_status st;
    cc_err err = { 0 };
    cc_case_list l = expand("Conv", rejected, 1, CC_F32, 0, &st, &err);
    CHECK(st == CC_OK && l.n == 1);
    cc_case c;
    CHECK(l.n == 1 && cc_case_parse(l.ids[0], &c, &err) != CC_OK);
    cc_case_list_free(&l);
}

/* Every op: the quick sweep is exactly the full sweep's quick-tagged cases, and the full
 * sweep has edge cases. */
static void catalog(void)
{
    for (int i = 0; i < cc_catalog_count(); i++) {
        const cc_op_def *op = cc_catalog_at(i);
        cc_case *q = NULL, *f = NULL;
        int nq = 0, nf = 0;
        cc_err err = { 0 };
        if (cc_op_has_trait(op, CC_TRAIT_SUBGRAPH)) { /* control flow: a case id cannot write a graph */
            CHECK(cc_case_enumerate(op, CC_DTYPE_COUNT, 0, &f, &nf, &err) == CC_OK && nf == 0);
            free(f);
            continue;
        }
        CHECK(cc_case_enumerate(op, CC_DTYPE_COUNT, 1, &q, &nq, &err) == CC_OK);
        CHECK(cc_case_enumerate(op, CC_DTYPE_COUNT, 0, &f, &nf, &err) == CC_OK);
        int tagged = 0, edge = 0;
        for (int j = 0; j < nf; j++) {
            tagged += (f[j].tags & CC_SWEEP_QUICK) != 0;
            edge += (f[j].tags & CC_SWEEP_EDGE) != 0;
        }
        for (int j = 0; j < nq; j++) {
            CHECK(q[j].tags & CC_SWEEP_QUICK);
            int found = 0;
            for (int k = 0; k < nf && !found; k++) found = strcmp(q[j].id, f[k].id) == 0;
            if (!found) fprintf(stderr, "%s: quick case %s is not in the full sweep\n", op->name, q[j].id);
            CHECK(found);
        }
        if (tagged != nq || edge == 0)
            fprintf(stderr, "%s: %d quick cases, %d quick-tagged in the full sweep, %d edge cases\n",
                    op->name, nq, tagged, edge);
        CHECK(tagged == nq);
        CHECK(edge > 0);
        free(q);
        free(f);
    }
}

int main(void)
{
    plain_and_products();
    classes_and_spreads();
    quoted_values();
    malformed();
    catalog();
    return cc_test_failures ? 1 : 0;
}
