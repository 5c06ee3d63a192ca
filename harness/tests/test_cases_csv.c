/* test_cases_csv.c — case lists from CSV: a header naming the case column, quoted ids with
 * commas, a quoted cell spanning two lines, comments and blank rows, disabled rows, and
 * bad rows (an unknown op, an empty id, a repeat, a missing column) each named by its
 * line number while every good row is kept, in order; files without a header; a row that
 * a stray quote runs to the end of the file; a missing file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/cctest.h"
#include "harness/lib/cases_csv.h"

typedef struct bad_rows {
    int lines[32];
    char msgs[32][256];
    int n;
} bad_rows;

static void on_bad(void *user, int line, const char *message)
{
    bad_rows *b = user;
    if (b->n < 32) {
        b->lines[b->n] = line;
        snprintf(b->msgs[b->n], sizeof b->msgs[0], "%s", message);
        b->n++;
    }
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

int main(void)
{
    char path[] = "/tmp/cc-cases-XXXXXX.csv";
    int fd = mkstemps(path, 4);
    if (fd < 0) return 1;
    close(fd);
    write_file(path,
               "layer,case,enabled\n"                                   /* 1: header */
               "conv1,\"Conv(x=1x3x8x8:f32,w=4x3x3x3)\",1\n"             /* 2: good */
               "# a comment row\n"                                      /* 3 */
               "\n"                                                     /* 4: blank */
               "relu,\"Relu(x=2x3:f32)\",yes\n"                          /* 5: good */
               "bogus,\"Nope(x=1:f32)\",1\n"                             /* 6: bad: unknown op */
               "empty,,1\n"                                             /* 7: bad: empty id */
               "off,\"Relu(x=4:f32)\",0\n"                               /* 8: disabled */
               "\"two\nlines\",\"Add(a=2x2:f32,b=2x2)\",1\n"             /* 9-10: good, starts on 9 */
               "again,\"Relu(x=2x3:f32)\",1\n"                           /* 11: bad: repeat of 5 */
               "short\n"                                                /* 12: bad: no case column */
               "last,\"MaxPool(x=1x1x4x4:f32,kernel_shape=[2,2])\",1");  /* 13: good, no newline */
    cc_case *cases = NULL;
    int n = -1;
    bad_rows bad = { 0 };
    cc_err err = { 0 };
    CHECK_OK(cc_cases_from_csv(path, &cases, &n, on_bad, &bad, &err));
    CHECK(n == 4);
    if (n == 4) {
        CHECK(strcmp(cases[0].id, "Conv(x=1x3x8x8:f32,w=4x3x3x3)") == 0);
        CHECK(strcmp(cases[1].id, "Relu(x=2x3:f32)") == 0);
        CHECK(strcmp(cases[2].id, "Add(a=2x2:f32,b=2x2)") == 0);
        CHECK(strncmp(cases[3].id, "MaxPool(", 8) == 0);
    }
    CHECK(bad.n == 4);
    if (bad.n == 4) {
        CHECK(bad.lines[0] == 6 && strstr(bad.msgs[0], "Nope") != NULL);
        CHECK(bad.lines[1] == 7 && strstr(bad.msgs[1], "empty") != NULL);
        CHECK(bad.lines[2] == 11 && strstr(bad.msgs[2], "line 5") != NULL);
        CHECK(bad.lines[3] == 12 && strstr(bad.msgs[3], "column 2") != NULL);
    }
    free(cases);

    /* no header: the first column; CRLF line ends */
    write_file(path, "Relu(x=2x3:f32)\r\n\"Conv(x=1x3x8x8:f32,w=4x3x3x3)\",note\r\nbad one\r\n");
    bad.n = 0;
    CHECK_OK(cc_cases_from_csv(path, &cases, &n, on_bad, &bad, &err));
    CHECK(n == 2);
    CHECK(bad.n == 1 && bad.lines[0] == 3);
    free(cases);

    /* a stray quote keeps libcsv's quote open to the end of the file, so the file's last
     * line break lies inside the row, which still starts on its own line */
    write_file(path, "case\n\"Relu(x=2x3:f32)\"x\n");
    bad.n = 0;
    CHECK_OK(cc_cases_from_csv(path, &cases, &n, on_bad, &bad, &err));
    CHECK(n == 0 && bad.n == 1 && bad.lines[0] == 2);
    free(cases);

    /* nothing good: still OK, no cases */
    write_file(path, "case\nNope(x=1)\n");
    bad.n = 0;
    CHECK_OK(cc_cases_from_csv(path, &cases, &n, on_bad, &bad, &err));
    CHECK(n == 0 && cases == NULL && bad.n == 1 && bad.lines[0] == 2);

    unlink(path);
    n = -1;
    CHECK(cc_cases_from_csv(path, &cases, &n, on_bad, &bad, &err) == CC_ERR_IO);
    CHECK(n == -1);
    CHECK(strstr(err.msg, path) != NULL);
    return CC_TEST_RESULT();
}
