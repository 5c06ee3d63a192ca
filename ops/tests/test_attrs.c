/* test_attrs.c — attribute values in case-id syntax, every kind: what parses, what is
 * refused with a reason, the canonical form (format after parse is a fixed point), and
 * equality; the strings and tensor kinds through their accessors. */
#include <string.h>

#include "../../harness/cctest.h"
#include "../op.h"

/* text parses as kind and formats back as canon. */
static void round_trip(cc_attr_kind kind, const char *text, const char *canon)
{
    cc_attr_value v, w;
    cc_err e = { 0 };
    CHECK_OK(cc_attr_parse(kind, text, &v, &e));
    char buf[256];
    cc_attr_format(kind, &v, buf, sizeof buf);
    if (strcmp(buf, canon) != 0) fprintf(stderr, "'%s' formats as '%s', want '%s'\n", text, buf, canon);
    CHECK(strcmp(buf, canon) == 0);
    CHECK_OK(cc_attr_parse(kind, buf, &w, &e));
    CHECK(cc_attr_equal(kind, &v, &w));
}

static void refused(cc_attr_kind kind, const char *text)
{
    cc_attr_value v;
    cc_err e = { 0 };
    cc_status st = cc_attr_parse(kind, text, &v, &e);
    if (st != CC_ERR_ARG) fprintf(stderr, "'%s' was accepted\n", text);
    CHECK(st == CC_ERR_ARG);
    CHECK(e.msg[0] != '\0' && strchr(e.msg, '\n') == NULL);
}

static void scalars_and_lists(void)
{
    round_trip(CC_ATTR_INT, "-3", "-3");
    round_trip(CC_ATTR_FLOAT, "0.100000001", "0.1");
    round_trip(CC_ATTR_INTS, "[1,2,3]", "[1,2,3]");
    round_trip(CC_ATTR_INTS, "7", "[7]");
    round_trip(CC_ATTR_FLOATS, "[0.5,-inf]", "[0.5,-inf]");
    round_trip(CC_ATTR_STRING, "half_pixel", "half_pixel");
    refused(CC_ATTR_INT, "1.5");
    refused(CC_ATTR_INTS, "[1,]");
    refused(CC_ATTR_STRING, "two words");
    refused(CC_ATTR_STRING, "0123456789012345678901234567890123"); /* longer than CC_ATTR_STR */
}

static void strings(void)
{
    round_trip(CC_ATTR_STRINGS, "[Sigmoid,Tanh,Tanh]", "[Sigmoid,Tanh,Tanh]");
    round_trip(CC_ATTR_STRINGS, "Relu", "[Relu]");
    cc_attr_value a, b;
    cc_err e = { 0 };
    CHECK_OK(cc_attr_parse(CC_ATTR_STRINGS, "[Sigmoid,Tanh]", &a, &e));
    CHECK(a.n == 2 && strcmp(a.strs[0], "Sigmoid") == 0 && strcmp(a.strs[1], "Tanh") == 0);
    CHECK_OK(cc_attr_parse(CC_ATTR_STRINGS, "[Sigmoid,Relu]", &b, &e));
    CHECK(!cc_attr_equal(CC_ATTR_STRINGS, &a, &b));
    refused(CC_ATTR_STRINGS, "[Sigmoid,,Tanh]");
    refused(CC_ATTR_STRINGS, "[Sigmoid,Ta nh]");
    refused(CC_ATTR_STRINGS, "[a,b,c,d,e,f,g,h,i]"); /* more than CC_MAX_STRS */
}

static void tensors(void)
{
    round_trip(CC_ATTR_TENSOR, "f32:[0.5]", "f32:[0.5]");
    round_trip(CC_ATTR_TENSOR, "f32:0.5", "f32:0.5");
    round_trip(CC_ATTR_TENSOR, "i64:[3,-9223372036854775807]", "i64:[3,-9223372036854775807]");
    round_trip(CC_ATTR_TENSOR, "u8:[0,255]", "u8:[0,255]");
    round_trip(CC_ATTR_TENSOR, "bool:[1]", "bool:[1]");
    /* an f16 value is the nearest f16: 0.1 is 0.0999755859375 there */
    cc_attr_value v, w;
    cc_err e = { 0 };
    CHECK_OK(cc_attr_parse(CC_ATTR_TENSOR, "f16:[0.1]", &v, &e));
    CHECK(v.tdtype == CC_F16 && v.n == 1 && v.floats[0] == 0.0999755859375);
    CHECK(v.tshape.rank == 1 && v.tshape.dims[0] == 1);
    CHECK_OK(cc_attr_parse(CC_ATTR_TENSOR, "f32:[0.5]", &v, &e));
    CHECK_OK(cc_attr_parse(CC_ATTR_TENSOR, "f16:[0.5]", &w, &e));
    CHECK(!cc_attr_equal(CC_ATTR_TENSOR, &v, &w)); /* same value, other dtype */
    CHECK_OK(cc_attr_parse(CC_ATTR_TENSOR, "f32:0.5", &w, &e));
    CHECK(!cc_attr_equal(CC_ATTR_TENSOR, &v, &w)); /* same value, other rank */
    refused(CC_ATTR_TENSOR, "[0.5]");          /* no dtype */
    refused(CC_ATTR_TENSOR, "q7:[1]");         /* no such dtype */
    refused(CC_ATTR_TENSOR, "u8:[256]");       /* out of the dtype's range */
    refused(CC_ATTR_TENSOR, "i32:[1.5]");      /* not an integer */
    refused(CC_ATTR_TENSOR, "f32:1,2");        /* rank 0 holds one value */
    refused(CC_ATTR_TENSOR, "f32:[nan]");
}

/* The accessors on a node of a schema with the two new kinds. */
static void accessors(void)
{
    static const cc_op_def op = {
        .name = "Test", .family = "test", .n_attrs = 2,
        .attrs = {
            { .name = "activations", .kind = CC_ATTR_STRINGS, .def = "[Sigmoid,Tanh]", .input = -1 },
            { .name = "value", .kind = CC_ATTR_TENSOR, .def = NULL, .input = -1 },
        },
    };
    cc_node n;
    memset(&n, 0, sizeof n);
    n.op = &op;
    cc_err e = { 0 };
    CHECK_OK(cc_node_set_defaults(&n, &e));
    CHECK(strcmp(cc_attr_str_at(&n, "activations", 1), "Tanh") == 0);
    CHECK(cc_attr_str_at(&n, "activations", 2) == NULL);
    cc_tensor t;
    CHECK(cc_attr_tensor(&n, "value", &t, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "value is absent") != NULL);
    CHECK_OK(cc_attr_parse(CC_ATTR_TENSOR, "i32:[4,-5]", &n.attrs[1], &e));
    CHECK_OK(cc_attr_tensor(&n, "value", &t, &e));
    CHECK(t.dtype == CC_I32 && t.shape.rank == 1 && t.shape.dims[0] == 2);
    CHECK(((const int32_t *)t.data)[0] == 4 && ((const int32_t *)t.data)[1] == -5);
    cc_tensor_free(&t);
}

int main(void)
{
    scalars_and_lists();
    strings();
    tensors();
    accessors();
    return CC_TEST_RESULT();
}
