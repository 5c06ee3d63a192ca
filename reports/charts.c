/* charts.c — chart lists, the throughput bar chart (geometric mean GFLOP/s per series and
 * dtype), and putting charts inline into an HTML page. */
#include "charts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/core/dtype.h"
#include "text.h"

void cc_charts_free(cc_charts *s)
{
    if (!s) return;
    for (int i = 0; i < s->n; i++) free(s->c[i].svg);
    free(s->c);
    s->c = NULL;
    s->n = 0;
}

cc_status cc_charts_add(cc_charts *s, const char *name, char *svg, cc_err *err)
{
    cc_chart *p = realloc(s->c, sizeof *p * (size_t)(s->n + 1));
    if (!p) {
        free(svg);
        return cc_err_set(err, CC_ERR_NOMEM, "charts: out of memory");
    }
    s->c = p;
    snprintf(p[s->n].name, sizeof p[s->n].name, "%s", name);
    p[s->n].svg = svg;
    s->n++;
    return CC_OK;
}

void cc_tput_add(cc_tput_set *s, const char *series, const char *dtype, double gflops)
{
    if (!(gflops > 0) || isinf(gflops) || s->failed) return;
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->v[i].series, series) == 0 && strcmp(s->v[i].dtype, dtype) == 0) {
            s->v[i].log_sum += log(gflops);
            s->v[i].n++;
            return;
        }
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        cc_tput *p = realloc(s->v, sizeof *p * (size_t)cap);
        if (!p) {
            s->failed = 1;
            return;
        }
        s->v = p;
        s->cap = cap;
    }
    cc_tput *t = &s->v[s->n++];
    snprintf(t->series, sizeof t->series, "%s", series);
    snprintf(t->dtype, sizeof t->dtype, "%s", dtype);
    t->log_sum = log(gflops);
    t->n = 1;
}

void cc_tput_free(cc_tput_set *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

static int dtype_rank(const char *name)
{
    cc_dtype d;
    return cc_dtype_parse(name, &d) == 0 ? (int)d : CC_DTYPE_COUNT;
}

cc_status cc_tput_chart(const cc_tput_set *s, const char *title, char **svg, cc_err *err)
{
    if (s->failed) return cc_err_set(err, CC_ERR_NOMEM, "throughput chart: out of memory");
    *svg = NULL;
    if (s->n == 0) return CC_OK;
    const char **groups = malloc(sizeof *groups * (size_t)s->n);
    const char **series = malloc(sizeof *series * (size_t)s->n);
    double *values = NULL;
    int ng = 0, ns = 0;
    cc_status st = CC_OK;
    if (!groups || !series) goto nomem;
    for (int i = 0; i < s->n; i++) {
        int g = 0, k = 0;
        while (g < ng && strcmp(groups[g], s->v[i].dtype) != 0) g++;
        if (g == ng) groups[ng++] = s->v[i].dtype;
        while (k < ns && strcmp(series[k], s->v[i].series) != 0) k++;
        if (k == ns) series[ns++] = s->v[i].series;
    }
    for (int i = 1; i < ng; i++)
        for (int j = i; j > 0; j--) {
            int a = dtype_rank(groups[j - 1]), b = dtype_rank(groups[j]);
            if (a < b || (a == b && strcmp(groups[j - 1], groups[j]) <= 0)) break;
            const char *x = groups[j];
            groups[j] = groups[j - 1];
            groups[j - 1] = x;
        }
    values = malloc(sizeof *values * (size_t)(ng * ns));
    if (!values) goto nomem;
    for (int i = 0; i < ng * ns; i++) values[i] = NAN;
    for (int i = 0; i < s->n; i++) {
        int g = 0, k = 0;
        while (strcmp(groups[g], s->v[i].dtype) != 0) g++;
        while (strcmp(series[k], s->v[i].series) != 0) k++;
        values[g * ns + k] = exp(s->v[i].log_sum / s->v[i].n);
    }
    cc_svg_bars bars = { title, "GFLOP/s (geometric mean over timed cases)", ng, ns, groups, series,
                         values };
    st = cc_svg_bar_chart(&bars, svg, err);
    goto done;
nomem:
    st = cc_err_set(err, CC_ERR_NOMEM, "throughput chart: out of memory");
done:
    free(groups);
    free(series);
    free(values);
    return st;
}

cc_status cc_report_inline_charts(const char *html, const cc_charts *charts, char **out,
                                  cc_err *err)
{
    if (!html || !charts || !out) return cc_err_set(err, CC_ERR_ARG, "cc_report_inline_charts: NULL argument");
    cc_text t = { 0 };
    const char *p = html;
    for (;;) {
        const char *img = strstr(p, "<img src=\"");
        if (!img) break;
        const char *src = img + 10, *q = strchr(src, '"');
        const char *end = q ? strstr(q, "/>") : NULL;
        if (!q || !end) break;
        const cc_chart *hit = NULL;
        for (int i = 0; i < charts->n && !hit; i++)
            if ((size_t)(q - src) == strlen(charts->c[i].name) &&
                strncmp(src, charts->c[i].name, (size_t)(q - src)) == 0)
                hit = &charts->c[i];
        if (!hit) {
            cc_text_putn(&t, p, (size_t)(end + 2 - p));
            p = end + 2;
            continue;
        }
        cc_text_putn(&t, p, (size_t)(img - p));
        cc_text_put(&t, "<span class=\"chart\">");
        cc_text_put(&t, hit->svg);
        cc_text_put(&t, "</span>");
        p = end + 2;
    }
    cc_text_put(&t, p);
    if (t.failed) {
        cc_text_free(&t);
        return cc_err_set(err, CC_ERR_NOMEM, "cc_report_inline_charts: out of memory");
    }
    *out = t.s;
    return CC_OK;
}
