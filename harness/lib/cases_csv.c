/* cases_csv.c — reads case lists from CSV with libcsv's callback parser. The file is fed
 * one physical line at a time so that every record knows the line it ends on; its first
 * line is that minus the line breaks inside its quoted fields. */
#include "cases_csv.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <csv.h>

#define MAX_CELLS 64
#define CELL_MAX CC_CASE_ID_MAX
/* Bounds on what is buffered before a cell's own limit applies: a physical line, and a
 * record (a quoted field may span lines; an unclosed quote would otherwise swallow the
 * rest of the file). Far above any real case list's rows. */
#define LINE_MAX_BYTES 65536
#define RECORD_MAX_BYTES (4 * LINE_MAX_BYTES)

typedef struct reader {
    /* the record being read */
    char cells[MAX_CELLS][CELL_MAX];
    int n_cells;
    int too_long;              /* a cell did not fit */
    int nul;                   /* a cell held a NUL byte */
    size_t record_bytes;       /* bytes fed since the last record ended */
    int record_line;           /* the first line of the record being fed */
    long quotes;               /* '"' fed since the last record ended: odd inside a quote */
    int newlines;              /* line breaks inside its fields */
    int line;                  /* physical line being fed */
    /* the layout, decided by the first record */
    int decided;
    int case_col, enabled_col;
    /* output */
    cc_case *cases;
    int n, cap;
    int *lines;                /* first line of each kept case (for repeat messages) */
    cc_status status;
    cc_csv_bad_row_fn bad;
    void *user;
} reader;

static void on_field(void *data, size_t len, void *user)
{
    reader *r = user;
    const char *s = data ? data : "";
    for (size_t i = 0; i < len; i++) {
        r->newlines += s[i] == '\n';
        r->nul |= s[i] == '\0';
    }
    if (r->n_cells == MAX_CELLS) return;
    char *cell = r->cells[r->n_cells++];
    if (len >= CELL_MAX) {
        r->too_long = 1;
        len = CELL_MAX - 1;
    }
    memcpy(cell, s, len);
    cell[len] = '\0';
}

static const char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

static void report(reader *r, int line, const char *fmt, const char *arg)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, arg);
    if (r->bad) r->bad(r->user, line, msg);
}

static int header_cell(const char *s)
{
    return strcasecmp(s, "case") == 0 || strcasecmp(s, "case_id") == 0 || strcasecmp(s, "id") == 0;
}

static int disabled(const char *s)
{
    return strcmp(s, "0") == 0 || strcasecmp(s, "no") == 0 || strcasecmp(s, "false") == 0 ||
           strcasecmp(s, "off") == 0;
}

static void keep(reader *r, const cc_case *c, int line)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        cc_case *p = realloc(r->cases, sizeof *p * (size_t)cap);
        int *l = realloc(r->lines, sizeof *l * (size_t)cap);
        if (p) r->cases = p;
        if (l) r->lines = l;
        if (!p || !l) {
            r->status = CC_ERR_NOMEM;
            return;
        }
        r->cap = cap;
    }
    r->cases[r->n] = *c;
    r->lines[r->n++] = line;
}

static void on_record(int c, void *user)
{
    (void)c;
    reader *r = user;
    int line = r->line - r->newlines;
    int n_cells = r->n_cells;
    r->n_cells = 0;
    r->newlines = 0;
    int too_long = r->too_long, nul = r->nul;
    r->too_long = 0;
    r->nul = 0;
    r->record_bytes = 0;
    r->quotes = 0;
    if (r->status != CC_OK) return;
    if (nul) {
        report(r, line, "a NUL byte in the row%s", "");
        return;
    }

    int blank = 1;
    for (int i = 0; i < n_cells; i++)
        if (trim(r->cells[i])[0]) blank = 0;
    if (blank || trim(r->cells[0])[0] == '#') return;

    if (!r->decided) {
        r->decided = 1;
        r->case_col = -1;
        for (int i = 0; i < n_cells; i++) {
            const char *s = trim(r->cells[i]);
            if (header_cell(s) && r->case_col < 0) r->case_col = i;
            else if (strcasecmp(s, "enabled") == 0) r->enabled_col = i;
        }
        if (r->case_col >= 0) return; /* a header */
        r->case_col = 0;
        r->enabled_col = -1;
    }
    if (r->enabled_col >= 0 && r->enabled_col < n_cells && disabled(trim(r->cells[r->enabled_col])))
        return;
    if (r->case_col >= n_cells) {
        char col[16];
        snprintf(col, sizeof col, "%d", r->case_col + 1);
        report(r, line, "no case id (the row has no column %s)", col);
        return;
    }
    const char *id = trim(r->cells[r->case_col]);
    if (too_long) {
        report(r, line, "a cell is longer than %s bytes", "511");
        return;
    }
    if (!id[0]) {
        report(r, line, "empty case id%s", "");
        return;
    }
    cc_case kase;
    cc_err e = { 0 };
    if (cc_case_parse(id, &kase, &e) != CC_OK) {
        report(r, line, "%s", e.msg);
        return;
    }
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->cases[i].id, kase.id) == 0) {
            char msg[64];
            snprintf(msg, sizeof msg, "repeats the case of line %d", r->lines[i]);
            report(r, line, "%s", msg);
            return;
        }
    keep(r, &kase, line);
}

cc_status cc_cases_from_csv(const char *path, cc_case **out, int *n, cc_csv_bad_row_fn bad,
                            void *user, cc_err *err)
{
    if (!path || !out || !n) return cc_err_set(err, CC_ERR_ARG, "cc_cases_from_csv: NULL argument");
    FILE *f = fopen(path, "r");
    if (!f) return cc_err_set(err, CC_ERR_IO, "case list '%s': %s", path, strerror(errno));
    reader *r = calloc(1, sizeof *r);
    struct csv_parser p;
    char *buf = NULL;
    size_t cap = 0;
    int parser = 0;
    cc_status st = CC_OK;
    if (!r) {
        st = cc_err_set(err, CC_ERR_NOMEM, "case list: out of memory");
        goto done;
    }
    r->bad = bad;
    r->user = user;
    r->enabled_col = -1;
    if (csv_init(&p, CSV_APPEND_NULL) != 0) {
        st = cc_err_set(err, CC_ERR_NOMEM, "case list: cannot set up the CSV parser");
        goto done;
    }
    parser = 1;
    buf = malloc(LINE_MAX_BYTES);
    if (!buf) {
        st = cc_err_set(err, CC_ERR_NOMEM, "case list: out of memory");
        goto done;
    }
    (void)cap;
    int ended_line = 0;        /* the last line fed ended with its line break */
    for (;;) {
        /* one physical line, bounded (NUL bytes included: a row holding one is reported) */
        size_t len = 0;
        int ch = EOF;
        while (len < LINE_MAX_BYTES && (ch = getc(f)) != EOF) {
            buf[len++] = (char)ch;
            if (ch == '\n') break;
        }
        if (len == 0) break;
        r->line++;
        ended_line = ch == '\n';
        if (len == LINE_MAX_BYTES && ch != '\n') {
            st = cc_err_set(err, CC_ERR_ARG, "case list '%s', line %d: longer than %d bytes", path, r->line,
                            LINE_MAX_BYTES);
            goto done;
        }
        if (r->record_bytes == 0) r->record_line = r->line;
        r->record_bytes += len;
        for (size_t i = 0; i < len; i++) r->quotes += buf[i] == '"';
        if (csv_parse(&p, buf, len, on_field, on_record, r) != len) {
            st = cc_err_set(err, CC_ERR_ARG, "case list '%s', line %d: %s", path, r->line,
                            csv_strerror(csv_error(&p)));
            goto done;
        }
        if (r->record_bytes > RECORD_MAX_BYTES) {
            st = cc_err_set(err, CC_ERR_ARG,
                            "case list '%s', line %d: a row runs past %d bytes (an unclosed quote?)", path,
                            r->line, RECORD_MAX_BYTES);
            goto done;
        }
        if (r->status != CC_OK) break;
    }
    if (ferror(f)) {
        st = cc_err_set(err, CC_ERR_IO, "case list '%s': read error", path);
        goto done;
    }
    if (r->quotes % 2) {
        st = cc_err_set(err, CC_ERR_ARG, "case list '%s', line %d: a quote opened there is not closed by the end of the file",
                        path, r->record_line);
        goto done;
    }
    /* A record that only csv_fini ends is still inside a quote (one that libcsv, not being
     * strict, kept open past a stray '"'), and its fields hold the last line break: count
     * the line after it as reached, or the record's first line comes out one too low. */
    if (ended_line) r->line++;
    csv_fini(&p, on_field, on_record, r);
    if (r->status != CC_OK) {
        st = cc_err_set(err, CC_ERR_NOMEM, "case list: out of memory");
        goto done;
    }
    *out = r->cases;
    *n = r->n;
    r->cases = NULL;
done:
    if (parser) csv_free(&p);
    if (r) {
        free(r->cases);
        free(r->lines);
    }
    free(r);
    free(buf);
    fclose(f);
    return st;
}
