/* md_ast.h — what the report tests share: a report's Markdown parsed back with cmark-gfm
 * (tables on), and the few look-ups they make in the tree: a table by its header, a
 * cell's text, the table inside a collapsed block, code spans and paragraphs. */
#ifndef CC_MD_AST_H
#define CC_MD_AST_H

#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

/* Appends the text of n's inline children (code spans included, breaks as spaces). */
static inline void node_text(cmark_node *n, char *buf, size_t cap)
{
    for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
        cmark_node_type ty = cmark_node_get_type(c);
        const char *lit = NULL;
        if (ty == CMARK_NODE_TEXT || ty == CMARK_NODE_CODE) lit = cmark_node_get_literal(c);
        else if (ty == CMARK_NODE_SOFTBREAK || ty == CMARK_NODE_LINEBREAK) lit = " ";
        if (lit) strncat(buf, lit, cap - strlen(buf) - 1);
        else node_text(c, buf, cap);
    }
}

static inline const char *type_of(cmark_node *n)
{
    return cmark_node_get_type_string(n);
}

/* The text of cell col of a table row ("" when the row is shorter). */
static inline void cell_text(cmark_node *rowp, int col, char *buf, size_t cap)
{
    buf[0] = '\0';
    cmark_node *c = cmark_node_first_child(rowp);
    for (int i = 0; c && i < col; i++) c = cmark_node_next(c);
    if (c) node_text(c, buf, cap);
}

/* The first top-level table whose header cell 0 is h0 and whose header cell col starts
 * with prefix. */
static inline cmark_node *find_table_at(cmark_node *doc, const char *h0, int col, const char *prefix)
{
    for (cmark_node *n = cmark_node_first_child(doc); n; n = cmark_node_next(n)) {
        if (strcmp(type_of(n), "table") != 0) continue;
        char a[256], b[256];
        cmark_node *head = cmark_node_first_child(n);
        cell_text(head, 0, a, sizeof a);
        cell_text(head, col, b, sizeof b);
        if (strcmp(a, h0) == 0 && strncmp(b, prefix, strlen(prefix)) == 0) return n;
    }
    return NULL;
}

/* The first table whose header starts with cells h0 (and h1 as a prefix). */
static inline cmark_node *find_table(cmark_node *doc, const char *h0, const char *h1)
{
    return find_table_at(doc, h0, 1, h1);
}

/* The body row of table t whose first cells are c0 and (when not NULL) c1. */
static inline cmark_node *find_row(cmark_node *t, const char *c0, const char *c1)
{
    char buf[512];
    for (cmark_node *r = t ? cmark_node_first_child(t) : NULL; r; r = cmark_node_next(r)) {
        if (cmark_gfm_extensions_get_table_row_is_header(r)) continue;
        cell_text(r, 0, buf, sizeof buf);
        if (strcmp(buf, c0) != 0) continue;
        if (c1) {
            cell_text(r, 1, buf, sizeof buf);
            if (strcmp(buf, c1) != 0) continue;
        }
        return r;
    }
    return NULL;
}

/* The table right inside the top-level collapsed block whose opening line starts with
 * summary_prefix ("<details><summary>..."), when "</details>" follows that table. */
static inline cmark_node *details_table(cmark_node *doc, const char *summary_prefix)
{
    for (cmark_node *n = cmark_node_first_child(doc); n; n = cmark_node_next(n)) {
        if (cmark_node_get_type(n) != CMARK_NODE_HTML_BLOCK) continue;
        if (strncmp(cmark_node_get_literal(n), summary_prefix, strlen(summary_prefix)) != 0) continue;
        cmark_node *t = cmark_node_next(n), *close = t ? cmark_node_next(t) : NULL;
        if (!t || strcmp(type_of(t), "table") != 0 || !close ||
            cmark_node_get_type(close) != CMARK_NODE_HTML_BLOCK ||
            strncmp(cmark_node_get_literal(close), "</details>", 10) != 0)
            return NULL;
        return t;
    }
    return NULL;
}

static inline int count_type(cmark_node *root, const char *type)
{
    int n = 0;
    cmark_iter *it = cmark_iter_new(root);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE)
        if (ev == CMARK_EVENT_ENTER && strcmp(type_of(cmark_iter_get_node(it)), type) == 0) n++;
    cmark_iter_free(it);
    return n;
}

/* 1 when some code span in the document has exactly this text. */
static inline int has_code(cmark_node *root, const char *text)
{
    int found = 0;
    cmark_iter *it = cmark_iter_new(root);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        if (ev == CMARK_EVENT_ENTER && cmark_node_get_type(n) == CMARK_NODE_CODE &&
            strcmp(cmark_node_get_literal(n), text) == 0)
            found = 1;
    }
    cmark_iter_free(it);
    return found;
}

/* The text of the first top-level paragraph starting with prefix, in buf ("" if none). */
static inline void paragraph(cmark_node *doc, const char *prefix, char *buf, size_t cap)
{
    for (cmark_node *n = cmark_node_first_child(doc); n; n = cmark_node_next(n)) {
        if (cmark_node_get_type(n) != CMARK_NODE_PARAGRAPH) continue;
        buf[0] = '\0';
        node_text(n, buf, cap);
        if (strncmp(buf, prefix, strlen(prefix)) == 0) return;
    }
    buf[0] = '\0';
}

/* 1 when the document has a heading of this level and text. */
static inline int has_heading(cmark_node *doc, int level, const char *text)
{
    char buf[256];
    for (cmark_node *n = cmark_node_first_child(doc); n; n = cmark_node_next(n)) {
        if (cmark_node_get_type(n) != CMARK_NODE_HEADING || cmark_node_get_heading_level(n) != level)
            continue;
        buf[0] = '\0';
        node_text(n, buf, sizeof buf);
        if (strcmp(buf, text) == 0) return 1;
    }
    return 0;
}

static inline cmark_node *parse(const char *md, cmark_parser **pp)
{
    cmark_gfm_core_extensions_ensure_registered();
    cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
    cmark_parser_attach_syntax_extension(p, cmark_find_syntax_extension("table"));
    cmark_parser_feed(p, md, strlen(md));
    *pp = p;
    return cmark_parser_finish(p);
}

#endif
