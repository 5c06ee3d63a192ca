/* fuzz_cases_csv.c — libFuzzer target for CSV case lists (harness/lib/cases_csv.h): each
 * input, as a file, is read by cc_cases_from_csv. Nothing may crash, leak or trip a
 * sanitizer; every bad row's message and every refusal must be one line, and a bad row's
 * line number must lie inside the file. Seeds: harness/fuzz/corpus/cases_csv/
 * (scripts/fuzz-corpus.sh); run with scripts/fuzz.sh cases_csv SECONDS. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/fuzz/fuzz_input.h"
#include "harness/lib/cases_csv.h"

typedef struct input_lines {
    int n;          /* physical lines of the input (a last line without '\n' counts) */
} input_lines;

static void on_bad(void *user, int line, const char *message)
{
    const input_lines *l = user;
    fuzz_check_message("cc_cases_from_csv's bad-row callback", message);
    if (line < 1 || line > l->n) {
        fprintf(stderr, "fuzz: bad row at line %d of a %d-line file: %s\n", line, l->n, message);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input_lines lines = { 0 };
    for (size_t i = 0; i < size; i++)
        if (data[i] == '\n' || i == size - 1) lines.n++;
    const char *path = fuzz_input_path(data, size);
    cc_case *cases = NULL;
    int n = 0;
    cc_err err = { 0 };
    cc_status st = cc_cases_from_csv(path, &cases, &n, on_bad, &lines, &err);
    if (st != CC_OK) fuzz_check_message("cc_cases_from_csv", err.msg);
    else if (n < 0 || (n > 0) != (cases != NULL)) {
        fprintf(stderr, "fuzz: cc_cases_from_csv returned %d cases at %p\n", n, (void *)cases);
        abort();
    }
    free(cases);
    return 0;
}
