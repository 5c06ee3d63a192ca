/* text.c — growable text and the Markdown/HTML escaping shared by the report renderers. */
#include "text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cc_text_free(cc_text *t)
{
    free(t->s);
    t->s = NULL;
    t->len = t->cap = 0;
}

static int reserve(cc_text *t, size_t extra)
{
    if (t->failed) return -1;
    if (t->len + extra + 1 <= t->cap) return 0;
    size_t cap = t->cap ? t->cap : 4096;
    while (cap < t->len + extra + 1) cap *= 2;
    char *p = realloc(t->s, cap);
    if (!p) {
        t->failed = 1;
        return -1;
    }
    t->s = p;
    t->cap = cap;
    return 0;
}

void cc_text_putn(cc_text *t, const char *s, size_t n)
{
    if (reserve(t, n)) return;
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

void cc_text_put(cc_text *t, const char *s)
{
    cc_text_putn(t, s, strlen(s));
}

void cc_text_printf(cc_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || reserve(t, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

void cc_text_md(cc_text *t, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n' || *s == '\r' || *s == '\t') {
            cc_text_put(t, " ");
            continue;
        }
        /* Escape what can open or close inline syntax (emphasis, code, links, HTML,
         * entities, strikethrough, table cells); text never starts a line, so block
         * markers ('#', '-', '+', digits) need no escape, but '#' is escaped anyway. */
        if (strchr("\\`*_[]<>#!|~&", *s)) cc_text_put(t, "\\");
        cc_text_putn(t, s, 1);
    }
}

void cc_text_md_code(cc_text *t, const char *s, int in_table)
{
    if (!*s) return;
    if (in_table && strstr(s, "\\|")) {
        cc_text_md(t, s);
        return;
    }
    size_t run = 0, longest = 0;
    for (const char *p = s; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    size_t len = strlen(s);
    int pad = s[0] == '`' || s[len - 1] == '`' || (s[0] == ' ' && s[len - 1] == ' ');
    for (size_t i = 0; i <= longest; i++) cc_text_put(t, "`");
    if (pad) cc_text_put(t, " ");
    for (const char *p = s; *p; p++) {
        if (*p == '\n' || *p == '\r') cc_text_put(t, " ");
        else if (*p == '|' && in_table) cc_text_put(t, "\\|");
        else cc_text_putn(t, p, 1);
    }
    if (pad) cc_text_put(t, " ");
    for (size_t i = 0; i <= longest; i++) cc_text_put(t, "`");
}

void cc_text_html(cc_text *t, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': cc_text_put(t, "&amp;"); break;
        case '<': cc_text_put(t, "&lt;"); break;
        case '>': cc_text_put(t, "&gt;"); break;
        case '"': cc_text_put(t, "&quot;"); break;
        default: cc_text_putn(t, s, 1);
        }
    }
}

void cc_text_details_open(cc_text *t, const char *fmt, ...)
{
    cc_text summary = { 0 };
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || reserve(&summary, (size_t)n)) {
        t->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(summary.s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    for (char *p = summary.s; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t') *p = ' ';
    cc_text_put(t, "<details><summary>");
    cc_text_html(t, summary.s);
    cc_text_put(t, "</summary>\n\n");
    cc_text_free(&summary);
}

void cc_text_details_close(cc_text *t)
{
    cc_text_put(t, "\n</details>\n\n");
}

void cc_text_num(cc_text *t, double v)
{
    if (isnan(v)) cc_text_put(t, "—");
    else if (isinf(v)) cc_text_put(t, v > 0 ? "inf" : "-inf");
    else cc_text_printf(t, "%.3g", v);
}

void cc_text_seconds(cc_text *t, double s)
{
    if (isnan(s) || s <= 0) cc_text_put(t, "—");
    else if (s < 1e-6) cc_text_printf(t, "%.3g ns", s * 1e9);
    else if (s < 1e-3) cc_text_printf(t, "%.3g µs", s * 1e6);
    else if (s < 1) cc_text_printf(t, "%.3g ms", s * 1e3);
    else cc_text_printf(t, "%.3g s", s);
}

void cc_text_percent(cc_text *t, long num, long den)
{
    if (den <= 0) cc_text_put(t, "—");
    else cc_text_printf(t, "%.1f%% (%ld/%ld)", 100.0 * (double)num / (double)den, num, den);
}
