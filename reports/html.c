/* html.c — renders a report's GFM Markdown to one self-contained HTML page through
 * cmark-gfm with its table extension (plain CommonMark would print pipe tables as text).
 * Raw HTML is dropped, except the collapsed blocks the report writes itself
 * (cc_text_details_open / cc_text_details_close), which pass through as they are. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include "text.h"

static const char style[] =
    "body{font:15px/1.5 -apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#1f2328;"
    "margin:0;background:#fff}\n"
    "main{max-width:1280px;margin:0 auto;padding:24px 32px}\n"
    "h1,h2,h3{line-height:1.25;margin:1.4em 0 .6em}\n"
    "h1{font-size:1.9em;border-bottom:1px solid #d1d9e0;padding-bottom:.3em}\n"
    "h2{font-size:1.45em;border-bottom:1px solid #d1d9e0;padding-bottom:.3em}\n"
    "code{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;"
    "background:#eff1f3;border-radius:4px;padding:.1em .35em;overflow-wrap:break-word}\n"
    "table{border-collapse:collapse;margin:0 0 1em;display:block;overflow-x:auto;max-width:100%}\n"
    "th,td{border:1px solid #d1d9e0;padding:4px 10px;vertical-align:top}\n"
    "th{background:#f6f8fa;font-weight:600}\n"
    "tr:nth-child(2n) td{background:#f9fafb}\n"
    "td[align=center],th[align=center]{text-align:center;white-space:nowrap}\n"
    "td[align=right],th[align=right]{text-align:right;white-space:nowrap}\n"
    "blockquote{margin:0 0 1em;padding:.2em 1em;border-left:4px solid #d4a72c;background:#fff8c5}\n"
    "ul{padding-left:1.5em}\n"
    "details{margin:0 0 1em}\n"
    "summary{cursor:pointer;font-weight:600;margin:.3em 0}\n";

/* 1 when an HTML block is exactly "<details><summary>TEXT</summary>" (TEXT holding no tag)
 * or "</details>", with nothing but line breaks after it. */
static int is_details(const char *lit)
{
    static const char open[] = "<details><summary>", close_summary[] = "</summary>", close[] = "</details>";
    const char *end;
    if (strncmp(lit, open, sizeof open - 1) == 0) {
        const char *text = lit + sizeof open - 1;
        end = strchr(text, '<');
        if (!end || strncmp(end, close_summary, sizeof close_summary - 1) != 0) return 0;
        if (strcspn(text, ">") < (size_t)(end - text)) return 0;
        end += sizeof close_summary - 1;
    } else if (strncmp(lit, close, sizeof close - 1) == 0) {
        end = lit + sizeof close - 1;
    } else {
        return 0;
    }
    return end[strspn(end, "\r\n")] == '\0';
}

/* Turns the report's own <details> blocks into custom blocks, which the renderer writes
 * as they are while it keeps dropping raw HTML. -1 when out of memory. */
static int pass_details(cmark_node *doc)
{
    for (cmark_node *n = cmark_node_first_child(doc); n;) {
        cmark_node *next = cmark_node_next(n);
        if (cmark_node_get_type(n) == CMARK_NODE_HTML_BLOCK && is_details(cmark_node_get_literal(n))) {
            cmark_node *c = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK);
            if (!c) return -1;
            if (!cmark_node_set_on_enter(c, cmark_node_get_literal(n)) || !cmark_node_replace(n, c)) {
                cmark_node_free(c);
                return -1;
            }
            cmark_node_free(n);
        }
        n = next;
    }
    return 0;
}

cc_status cc_report_html(const char *markdown, const char *title, char **out_html, cc_err *err)
{
    if (!markdown || !out_html) return cc_err_set(err, CC_ERR_ARG, "cc_report_html: NULL argument");
    if (!title) title = "crosscheck report";

    cmark_gfm_core_extensions_ensure_registered();
    cmark_syntax_extension *table = cmark_find_syntax_extension("table");
    if (!table)
        return cc_err_set(err, CC_ERR_INTERNAL, "cc_report_html: cmark-gfm has no table extension");

    cc_status s = CC_OK;
    char *body = NULL;
    cc_text t = {0};
    cmark_node *doc = NULL;
    cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
    if (!parser || !cmark_parser_attach_syntax_extension(parser, table)) {
        s = cc_err_set(err, CC_ERR_NOMEM, "cc_report_html: cannot set up the Markdown parser");
        goto done;
    }
    cmark_parser_feed(parser, markdown, strlen(markdown));
    doc = cmark_parser_finish(parser);
    if (doc && pass_details(doc)) {
        s = cc_err_set(err, CC_ERR_NOMEM, "cc_report_html: out of memory");
        goto done;
    }
    if (doc)
        body = cmark_render_html(doc, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(parser));
    if (!body) {
        s = cc_err_set(err, CC_ERR_NOMEM, "cc_report_html: rendering failed");
        goto done;
    }

    cc_text_put(&t, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<title>");
    cc_text_html(&t, title);
    cc_text_put(&t, "</title>\n<style>\n");
    cc_text_put(&t, style);
    cc_text_put(&t, "</style>\n</head>\n<body>\n<main>\n");
    cc_text_put(&t, body);
    cc_text_put(&t, "</main>\n</body>\n</html>\n");
    if (t.failed) {
        s = cc_err_set(err, CC_ERR_NOMEM, "cc_report_html: out of memory");
        goto done;
    }
    *out_html = t.s;
    t.s = NULL;

done:
    cc_text_free(&t);
    if (body) cmark_get_default_mem_allocator()->free(body);
    if (doc) cmark_node_free(doc);
    if (parser) cmark_parser_free(parser);
    return s;
}
