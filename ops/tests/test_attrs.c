/* test_attrs.c — attribute values in case-id syntax, every kind: what parses, what is
 * refused with a reason, the canonical form (format after parse is a fixed point), and
 * equality; the strings and tensor kinds through their accessors. */
#include <stddef.h>
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

/* A string that is not a word is quoted in case-id syntax: what an Einsum equation needs
 * (commas, "->", spaces), and whatever bytes an imported model's string holds. A word is
 * never quoted in a canonical id, so the ids stored before quoting existed read the same. */
static void quoted_strings(void)
{
    round_trip(CC_ATTR_STRING, "\"ij,jk->ik\"", "\"ij,jk->ik\"");
    round_trip(CC_ATTR_STRING, "\"bij, bjk -> bik\"", "\"bij, bjk -> bik\"");
    round_trip(CC_ATTR_STRING, "\"...ii->...i\"", "\"...ii->...i\"");
    round_trip(CC_ATTR_STRING, "\"half_pixel\"", "half_pixel"); /* a word: written bare */
    round_trip(CC_ATTR_STRING, "\"...\"", "...");
    round_trip(CC_ATTR_STRING, "\"\"", "\"\"");          /* the empty string */
    round_trip(CC_ATTR_STRING, "\"a\\\"b\\\\c\"", "\"a\\\"b\\\\c\""); /* a"b\c */
    round_trip(CC_ATTR_STRING, "\"\\x41\\x0a\\xC3\\xa9\"", "\"A\\x0a\\xc3\\xa9\"");
    round_trip(CC_ATTR_STRING, "\"it's\"", "\"it\\x27s\"");      /* no apostrophe in a canonical id */
    cc_attr_value v;
    cc_err e = { 0 };
    CHECK_OK(cc_attr_parse(CC_ATTR_STRING, "\"i,i\"", &v, &e));
    CHECK(strcmp(v.s, "i,i") == 0);
    CHECK_OK(cc_attr_parse(CC_ATTR_STRING, "\"a\\\"b\\\\c\"", &v, &e));
    CHECK(strcmp(v.s, "a\"b\\c") == 0);
    CHECK_OK(cc_attr_parse(CC_ATTR_STRING, "\"\\x41\\x0a\\xC3\\xa9\"", &v, &e));
    CHECK(strcmp(v.s, "A\n\xc3\xa9") == 0);
    /* every byte but NUL formats to text that parses back to it */
    for (int c = 1; c < 256; c++) {
        cc_attr_value a, b;
        memset(&a, 0, sizeof a);
        a.set = 1;
        a.s[0] = (char)c;
        a.s[1] = 'x';
        char buf[64];
        cc_attr_format(CC_ATTR_STRING, &a, buf, sizeof buf);
        CHECK_OK(cc_attr_parse(CC_ATTR_STRING, buf, &b, &e));
        CHECK(cc_attr_equal(CC_ATTR_STRING, &a, &b));
    }
    /* the longest string fits quoted with every byte escaped */
    cc_attr_value a, b;
    memset(&a, 0, sizeof a);
    a.set = 1;
    memset(a.s, 0x01, CC_ATTR_STR - 1);
    char buf[4 * CC_ATTR_STR + 3];
    cc_attr_format(CC_ATTR_STRING, &a, buf, sizeof buf);
    CHECK(strlen(buf) == 4 * (CC_ATTR_STR - 1) + 2);
    CHECK_OK(cc_attr_parse(CC_ATTR_STRING, buf, &b, &e));
    CHECK(cc_attr_equal(CC_ATTR_STRING, &a, &b));
    refused(CC_ATTR_STRING, "\"ij,jk");                  /* not closed */
    refused(CC_ATTR_STRING, "\"");
    refused(CC_ATTR_STRING, "\"ij\\\"");                 /* the closing quote escaped */
    refused(CC_ATTR_STRING, "\"ij\"k\"");                /* a quote inside */
    refused(CC_ATTR_STRING, "\"ij\"x");                  /* text after the string */
    refused(CC_ATTR_STRING, "ij\"x\"");                  /* a quote inside a word */
    refused(CC_ATTR_STRING, "\"a\\qb\"");                /* no such escape */
    refused(CC_ATTR_STRING, "\"a\\x4\"");                /* one hex digit */
    refused(CC_ATTR_STRING, "\"a\\xg0\"");
    refused(CC_ATTR_STRING, "\"a\\x00\"");               /* NUL ends a C string */
    refused(CC_ATTR_STRING, "\"a\nb\"");                 /* a control byte unescaped */
    refused(CC_ATTR_STRING, "\"\xc3\xa9\"");             /* a byte past ASCII unescaped */
    refused(CC_ATTR_STRING, "\"0123456789012345678901234567890,\""); /* 32 bytes: one too many */
    refused(CC_ATTR_STRING, "ij,jk->ik");                /* unquoted */
    /* where a case id or a sweep row splits: at commas and bars outside quotes */
    const char *t = "equation=\"a,b->ab\",x=[1,2]|\"p|q\"";
    const char *end = t + strlen(t);
    const char *q = cc_attr_text_end(t, end, ",");
    CHECK(q - t == (ptrdiff_t)strlen("equation=\"a,b->ab\""));
    const char *r = cc_attr_text_end(q + 1, end, "|");
    CHECK(r - (q + 1) == (ptrdiff_t)strlen("x=[1,2]"));
    CHECK(cc_attr_text_end(r + 1, end, "|,") == end);
    CHECK(cc_attr_text_end(t, end, "|") == r);
    const char *open = "\"a,b";                        /* an unclosed string runs to the end */
    CHECK(cc_attr_text_end(open, open + 4, ",") == open + 4);
    const char *esc = "\"a\\\",b\",c";             /* "a\",b",c: the escaped quote stays inside */
    CHECK(cc_attr_text_end(esc, esc + strlen(esc), ",") == esc + 7);
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
    refused(CC_ATTR_STRINGS, "[a,b,c,d,e,f,g,h,i]");     /* more than CC_MAX_STRS */
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
    refused(CC_ATTR_TENSOR, "[0.5]");                    /* no dtype */
    refused(CC_ATTR_TENSOR, "q7:[1]");                   /* no such dtype */
    refused(CC_ATTR_TENSOR, "u8:[256]");                 /* out of the dtype's range */
    refused(CC_ATTR_TENSOR, "i32:[1.5]");                /* not an integer */
    refused(CC_ATTR_TENSOR, "f32:1,2");                  /* rank 0 holds one value */
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
    quoted_strings();
    strings();
    tensors();
    accessors();
    return CC_TEST_RESULT();
}
