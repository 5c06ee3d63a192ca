/* text.h — internal to reports/: a growable text buffer and the Markdown escaping every
 * renderer shares (text, code spans, table cells) plus number formatting. */
#ifndef CC_REPORT_TEXT_H
#define CC_REPORT_TEXT_H

#include <stddef.h>

/* A growable NUL-terminated string. An allocation failure sets failed and turns every
 * later append into a no-op, so callers check once at the end. */
typedef struct cc_text {
    char *s;
    size_t len, cap;
    int failed;
} cc_text;

void cc_text_free(cc_text *t);
void cc_text_put(cc_text *t, const char *s);
void cc_text_putn(cc_text *t, const char *s, size_t n);
void cc_text_printf(cc_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends s as Markdown inline text: every character Markdown (GFM) could read as syntax
 * is backslash-escaped, '|' included (so it is safe inside a table cell), and line breaks
 * become spaces. */
void cc_text_md(cc_text *t, const char *s);

/* Appends s as a Markdown code span (a fence longer than any backtick run inside).
 * in_table != 0 escapes '|' as "\|", which GFM tables turn back into '|' inside code.
 * Text that a code span in a table cannot carry (a backslash before '|') falls back to
 * escaped plain text. Line breaks become spaces. */
void cc_text_md_code(cc_text *t, const char *s, int in_table);

/* Appends s with HTML's special characters (&, <, >, ") escaped. */
void cc_text_html(cc_text *t, const char *s);

/* Opens a collapsed block: "<details><summary>S</summary>" on a line of its own, then a
 * blank line, where S is the printf-formatted text with HTML's special characters escaped
 * and line breaks turned into spaces (Markdown is not read inside it). GitHub renders the
 * Markdown that follows until cc_text_details_close; cc_report_html passes exactly this
 * form through and drops every other raw HTML. Call it at the start of a line after a
 * blank line. */
void cc_text_details_open(cc_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Closes it: "</details>" between blank lines. */
void cc_text_details_close(cc_text *t);

/* Number formats used in tables. NaN and (where noted) non-positive values print as "—". */
void cc_text_num(cc_text *t, double v);          /* %.3g */
void cc_text_seconds(cc_text *t, double s);      /* "12.3 µs"; "—" when s <= 0 */
void cc_text_percent(cc_text *t, long num, long den); /* "83.3% (10/12)"; "—" when den == 0 */

#endif
