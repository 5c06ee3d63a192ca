/* test_case.c — case-id parsing and canonical printing (quoted strings too: Einsum's
 * equations), and input generation, on real catalog ops (Relu, Conv, Clip, Reshape); ids
 * of tensors too large to allocate validate without allocating them. */
#include "op_test.h"

static void expect_bad(const char *id, const char *needle)
{
    cc_case c;
    cc_err err = {0};
    cc_status st = cc_case_parse(id, &c, &err);
    if (st != CC_ERR_ARG || !strstr(err.msg, needle)) {
        fprintf(stderr, "parse(%s): status %d, message '%s', expected one mentioning '%s'\n", id, st, err.msg, needle);
        CHECK(0);
    }
    CHECK(strchr(err.msg, '\n') == NULL);
}

/* Data of the dtypes of target ABI 8: a wide unsigned type draws from [0, 1000] in both
 * regimes (so sums stay exact and no value reaches 2^63), a 16-bit one its full range, f64
 * values that are not float32 ones. */
static void wide_dtypes(void)
{
    cc_case c;
    cc_err e = { 0 };
    CHECK(cc_case_parse("Max(data_0=256:u64,data_1=256:u64)", &c, &e) == CC_OK);
    for (int exact = 0; exact < 2; exact++) {
        cc_case_inst inst;
        CHECK(cc_case_instantiate(&c, 5, exact, &inst, &e) == CC_OK);
        const uint64_t *v = inst.inputs[0].data;
        uint64_t hi = 0;
        for (int i = 0; i < 256; i++) hi = v[i] > hi ? v[i] : hi;
        CHECK(hi <= 1000 && hi > 0);
        cc_case_inst_free(&inst);
    }
    CHECK(cc_case_parse("Min(data_0=512:i16,data_1=512:i16)", &c, &e) == CC_OK);
    cc_case_inst inst;
    CHECK(cc_case_instantiate(&c, 5, 1, &inst, &e) == CC_OK);
    int lo = 0;
    for (int i = 0; i < 512; i++) lo = ((const int16_t *)inst.inputs[0].data)[i] < lo ? ((const int16_t *)inst.inputs[0].data)[i] : lo;
    CHECK(lo < -1000); /* the full range */
    cc_case_inst_free(&inst);
    CHECK(cc_case_parse("Max(data_0=64:f64,data_1=64:f64)", &c, &e) == CC_OK);
    CHECK(cc_case_instantiate(&c, 5, 0, &inst, &e) == CC_OK);
    int wide = 0;
    for (int i = 0; i < 64; i++) wide += ((const double *)inst.inputs[0].data)[i] != (double)(float)((const double *)inst.inputs[0].data)[i];
    CHECK(wide > 0);
    cc_case_inst_free(&inst);
}

/* An f64 constant input written in a case id keeps its double: 16777217 and 0.1 are not
 * float32 values (they read as 16777216 and 0.100000001), and its canonical form is the
 * shortest decimal of the double. */
static void f64_constants(void)
{
    cc_case c;
    cc_err e = { 0 };
    CHECK(cc_case_parse("Range(start=f64:16777217,limit=f64:16777218,delta=f64:0.1)", &c, &e) == CC_OK);
    CHECK(strstr(c.id, "start=f64:16777217") && strstr(c.id, "delta=f64:0.1)"));
    cc_case_inst inst;
    CHECK(cc_case_instantiate(&c, 1, 0, &inst, &e) == CC_OK);
    const cc_graph *g = &inst.graph;
    int found = 0;
    for (int i = 0; i < g->n_values; i++) {
        const cc_tensor *t = &g->values[i];
        if (!t->data || t->dtype != CC_F64 || cc_tensor_numel(t) != 1) continue;
        double v = ((const double *)t->data)[0];
        found += v == 16777217.0 || v == 0.1;
    }
    CHECK(found == 2);
    /* ten elements: 16777217 + 0.1 k for k = 0..9 */
    CHECK(cc_shape_numel(&g->values[g->outputs[0]].shape) == 10);
    cc_case_inst_free(&inst);
    expect_canonical("Range(start=f64:1.5,limit=f64:3,delta=f64:0.25)", "Range(start=f64:1.5,limit=f64:3,delta=f64:0.25)");
    /* a float32 input still reads as float32 */
    expect_canonical("Range(start=f32:16777217,limit=f32:16777220,delta=f32:1)",
                     "Range(start=f32:16777216,limit=f32:1.677722e+07,delta=f32:1)");
}

int main(void)
{
    wide_dtypes();
    f64_constants();
    expect_canonical("Relu(x=2x3:f32)", "Relu(x=2x3:f32)");
    /* defaults dropped, attribute order from the schema, later inputs without their dtype */
    expect_canonical("Conv(w=4x3x3x3,x=1x3x8x8:f16,group=1,auto_pad=NOTSET)", "Conv(x=1x3x8x8:f16,w=4x3x3x3)");
    expect_canonical("Conv(x=1x3x8x8:f32,w=4x3x3x3:f32,pads=[1,1,1,1])", "Conv(x=1x3x8x8:f32,w=4x3x3x3,pads=[1,1,1,1])");
    /* a float attribute prints as its shortest float32 form */
    expect_canonical("LeakyRelu(x=4:f32,alpha=0.100000001)", "LeakyRelu(x=4:f32,alpha=0.1)");
    /* a rank-0 input */
    expect_canonical("Relu(x=scalar:f32)", "Relu(x=scalar:f32)");

    expect_bad("Relu", "malformed case id");
    expect_bad("Relu(x=2x3:f32", "malformed case id");
    expect_bad("Nope(x=2:f32)", "unknown op 'Nope'");
    expect_bad("Relu(x=2x3)", "needs a dtype");
    expect_bad("Relu(x=2x3:f33)", "unknown dtype 'f33'");
    expect_bad("Relu(x=2xx3:f32)", "malformed shape");
    expect_bad("Relu(x=2x3x:f32)", "malformed shape");
    expect_bad("Relu(x=-2x3:f32)", "malformed shape");
    expect_bad("Relu(x=2x3:f32,x=2:f32)", "given twice");
    expect_bad("Relu(x=2x3:f32,bogus=1)", "unknown input or attribute 'bogus'");
    expect_bad("Relu(y=2x3:f32)", "unknown input or attribute 'y'");
    expect_bad("Conv(x=1x3x8x8:f32)", "missing input 'w'");
    expect_bad("Conv(x=1x3x8x8:f32,w=4x3x3x3,group=two)", "not an integer");
    expect_bad("Conv(x=1x3x8x8:f32,w=4x3x3x3,pads=[1,1,1,])", "not a list of integers");
    expect_bad("Relu(x=4294967296x4294967296:f32)", "overflow");
    expect_bad("Relu(x=1x2x3x4x5x6x7x8x9:f32)", "more than 8 dimensions");
    expect_bad("Relu(x=2x3:f32,)", "a comma before ')'");
    /* a float past float32's range is refused, not taken for infinity; "inf" is accepted */
    expect_bad("LeakyRelu(x=4:f32,alpha=1e39)", "attribute alpha");
    expect_bad("LeakyRelu(x=4:f32,alpha=1e999)", "attribute alpha");
    expect_canonical("LeakyRelu(x=4:f32,alpha=-inf)", "LeakyRelu(x=4:f32,alpha=-inf)");
    /* a string attribute may be quoted, and a word is written bare; a comma inside the
     * quotes is part of the string, not a separator of the id */
    expect_canonical("Conv(x=1x3x8x8:f32,w=4x3x3x3,auto_pad=\"SAME_UPPER\")",
                     "Conv(x=1x3x8x8:f32,w=4x3x3x3,auto_pad=SAME_UPPER)");
    expect_bad("Conv(x=1x3x8x8:f32,auto_pad=\"SAME,UPPER\",w=4x3x3x3)", "unknown auto_pad 'SAME,UPPER'");
    expect_bad("Conv(x=1x3x8x8:f32,w=4x3x3x3,auto_pad=\"SAME_UPPER)", "not a word or a quoted string");
    expect_bad("Conv(x=1x3x8x8:f32,w=4x3x3x3,auto_pad=\"SAME,UPPER)", "not a word or a quoted string");
    expect_bad("Conv(x=1x3x8x8:f32,w=4x3x3x3,auto_pad=\"SAME\"_UPPER)", "not a word or a quoted string");
    /* Einsum's equations: commas, "->", dots and spaces kept inside the quotes; a word bare */
    expect_canonical("Einsum(x0=2x3:f32,x1=3x4,equation=\"ij,jk->ik\")", "Einsum(x0=2x3:f32,x1=3x4,equation=\"ij,jk->ik\")");
    expect_canonical("Einsum(equation=\"bij, bjk -> bik\",x1=5x3x4:f32,x0=5x2x3:f32)",
                     "Einsum(x0=5x2x3:f32,x1=5x3x4,equation=\"bij, bjk -> bik\")");
    expect_canonical("Einsum(x0=3x5x5:f64,equation=\"...ii ->...i\")", "Einsum(x0=3x5x5:f64,equation=\"...ii ->...i\")");
    expect_canonical("Einsum(x0=6x6:f32,equation=\"ii\")", "Einsum(x0=6x6:f32,equation=ii)");
    expect_bad("Einsum(x0=2x3:f32,x1=3x4,equation=ij,jk->ik)", "expected name=value, got 'jk->ik'");
    expect_bad("Einsum(x0=2x3:f32,x1=3x4,equation=\"ij,jk->ik)", "not a word or a quoted string");
    expect_bad("Einsum(x0=2x3:f32,x1=3x4,equation=\"ij,jk->ik\",)", "a comma before ')'");
    expect_bad("Einsum(x0=2x3:f32,x1=3x4,equation=\"ij,jk->ik,\")", "the output has a ','");
    expect_bad("Einsum(x0=2x3:f32,x1=3x4,equation=\"ij,jk->iz\")", "output letter 'z' is in no input");

    /* inputs: the same seed gives the same bits; the exact regime gives small integers */
    cc_case c;
    cc_err err = {0};
    CHECK(cc_case_parse("Relu(x=64:f32)", &c, &err) == CC_OK);
    cc_case_inst a, b;
    CHECK(cc_case_instantiate(&c, 7, 1, &a, &err) == CC_OK);
    CHECK(cc_case_instantiate(&c, 7, 1, &b, &err) == CC_OK);
    CHECK(memcmp(a.inputs[0].data, b.inputs[0].data, 64 * 4) == 0);
    int ints = 1, distinct = 0;
    for (int i = 0; i < 64; i++) {
        float v = ((float *)a.inputs[0].data)[i];
        ints &= v == (float)(int)v && v >= -4 && v <= 4;
        distinct += v != ((float *)a.inputs[0].data)[0];
    }
    CHECK(ints);
    CHECK(distinct > 0);
    cc_case_inst_free(&b);
    CHECK(cc_case_instantiate(&c, 8, 0, &b, &err) == CC_OK);
    CHECK(memcmp(a.inputs[0].data, b.inputs[0].data, 64 * 4) != 0);
    CHECK(a.graph.n_inputs == 1 && a.graph.n_outputs == 1 && a.graph.n_nodes == 1);
    cc_case_inst_free(&a);
    cc_case_inst_free(&b);

    /* Conv's weights are constants of the graph; x is its runtime input */
    CHECK(cc_case_parse("Conv(x=1x3x8x8:f32,w=4x3x3x3,b=4)", &c, &err) == CC_OK);
    CHECK(cc_case_instantiate(&c, 1, 0, &a, &err) == CC_OK);
    CHECK(a.graph.n_inputs == 1 && a.graph.inputs[0] == 0);
    CHECK(a.graph.values[1].data != NULL && a.graph.values[2].data != NULL);
    CHECK(a.graph.values[a.graph.outputs[0]].shape.dims[1] == 4);
    cc_case_inst_free(&a);

    /* validation reads shapes only: an id describing terabytes parses without allocating
     * or touching them (Div's gen writes every divisor, the integer ops' every element,
     * DequantizeLinear's every i32 input, QLinearMatMul's reads a and b), and what those
     * gens check is still checked */
    CHECK(cc_case_parse("Div(a=1:f32,b=1099511627775)", &c, &err) == CC_OK);
    CHECK(cc_case_parse("Add(a=1099511627775:i32,b=1)", &c, &err) == CC_OK);
    CHECK(cc_case_parse("DequantizeLinear(x=1099511627775:i32)", &c, &err) == CC_OK);
    CHECK(cc_case_parse("QLinearMatMul(a=1x1099511627775:u8,b=1099511627775x1)", &c, &err) == CC_OK);
    expect_bad("Add(a=2:i32,b=2:i64)", "integer input range");
    /* nor are the generated parameters made: per-channel scales and zero points of 2^40
     * filters or columns are described, not allocated */
    CHECK(cc_case_parse("QLinearConv(x=1x1x1x1:i8,w=1099511627775x1x1x1,per_channel=1)", &c, &err) == CC_OK);
    CHECK(cc_case_parse("ConvInteger(x=1x1x1x1:u8,w=1099511627775x1x1x1:i8,w_zp=2)", &c, &err) == CC_OK);
    CHECK(cc_case_parse("QuantizeLinear(x=1x1099511627775:f32,per_axis=1)", &c, &err) == CC_OK);
    CHECK(cc_case_parse("QLinearMatMul(a=1x1:u8,b=1099511627775x1x1,per_column=1)", &c, &err) == CC_OK);
    /* an output past the limit on sizes is refused like an input (case.c checks every
     * output after the op's inference) */
    expect_bad("MatMul(a=1048576x1:f32,b=1x2097152)", "element count overflows");

    /* the memory need, worked by hand (case.h: inputs twice, outputs twice, 16 bytes of
     * golden per output element). Relu 2x3 f32: 2*24 + 2*24 + 6*16 = 192 */
    CHECK(cc_case_parse("Relu(x=2x3:f32)", &c, &err) == CC_OK);
    CHECK(c.mem_need == 192);
    /* QuantizeLinear 1x4 f32 per axis 1, u8 out: x 16 + y_scale 4x4 + y_zero_point 4x1
     * = 36 bytes in, 4 out: 2*36 + 2*4 + 4*16 = 144 */
    CHECK(cc_case_parse("QuantizeLinear(x=1x4:f32,per_axis=1)", &c, &err) == CC_OK);
    CHECK(c.mem_need == 144);
    /* Conv 1x1024x4096x4096 f32 with 8 3x3 filters: 64 GiB in, 0.5 GiB out: far past any
     * default limit, yet it parses at once */
    CHECK(cc_case_parse("Conv(x=1x1024x4096x4096:f32,w=8x1024x3x3)", &c, &err) == CC_OK);
    CHECK(c.mem_need == 2.0 * (68719476736.0 + 8 * 1024 * 9 * 4) + 2.0 * 8 * 4094.0 * 4094 * 4 +
                            16.0 * 8 * 4094 * 4094);
    return CC_TEST_RESULT();
}
