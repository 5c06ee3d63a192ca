/* svg.c — bar and line charts as SVG text: axes with round-number ticks (linear, or
 * decades on a log axis), a legend, escaped labels, and for lines the fitted levels and
 * change points. Sizes are fixed; the viewBox lets a page scale the chart. */
#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "xml.h"

#define W 760
#define H 380
#define LEFT 78
#define RIGHT 20
#define TOP 40
#define BOTTOM 70

static const char *const palette[] = {
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};
#define N_COLORS ((int)(sizeof palette / sizeof palette[0]))

static void header(cc_text *t, const char *title)
{
    cc_text_printf(t,
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\""
                   " viewBox=\"0 0 %d %d\" font-family=\"Helvetica,Arial,sans-serif\" font-size=\"12\">\n",
                   W, H, W, H);
    cc_text_put(t, "<title>");
    cc_xml_text(t, title ? title : "");
    cc_text_put(t, "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    cc_text_printf(t, "<text x=\"%d\" y=\"22\" font-size=\"%d\" font-weight=\"bold\">", LEFT,
                   title && strlen(title) > 70 ? 11 : 15);
    cc_xml_text(t, title ? title : "");
    cc_text_put(t, "</text>\n");
}

static void y_title(cc_text *t, const char *label)
{
    cc_text_printf(t, "<text transform=\"translate(16,%d) rotate(-90)\" text-anchor=\"middle\">",
                   TOP + (H - TOP - BOTTOM) / 2);
    cc_xml_text(t, label ? label : "");
    cc_text_put(t, "</text>\n");
}

/* A round step (1, 2 or 5 times a power of ten) giving about five ticks up to top. */
static double nice_step(double top)
{
    double raw = top / 5, p = pow(10, floor(log10(raw))), f = raw / p;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

static void tick_label(cc_text *t, double v)
{
    if (fabs(v) < 1e-300) cc_text_put(t, "0");
    else if (fabs(v) >= 1e4 || fabs(v) < 1e-2) cc_text_printf(t, "%.3g", v);
    else cc_text_printf(t, "%g", v);
}

static void frame(cc_text *t)
{
    cc_text_printf(t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", LEFT, TOP,
                   LEFT, H - BOTTOM);
    cc_text_printf(t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", LEFT,
                   H - BOTTOM, W - RIGHT, H - BOTTOM);
}

static void grid_line(cc_text *t, double y, double value)
{
    cc_text_printf(t, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e1e4e8\"/>\n", LEFT, y,
                   W - RIGHT, y);
    cc_text_printf(t, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LEFT - 6, y + 4);
    tick_label(t, value);
    cc_text_put(t, "</text>\n");
}

static cc_status finish(cc_text *t, char **out, cc_err *err)
{
    cc_text_put(t, "</svg>\n");
    if (t->failed) {
        cc_text_free(t);
        return cc_err_set(err, CC_ERR_NOMEM, "svg: out of memory");
    }
    *out = t->s;
    return CC_OK;
}

cc_status cc_svg_bar_chart(const cc_svg_bars *c, char **out, cc_err *err)
{
    if (!c || !out || c->n_groups < 1 || c->n_series < 1 || !c->groups || !c->series || !c->values)
        return cc_err_set(err, CC_ERR_ARG, "bar chart: needs at least one group and one series");
    double top = 0;
    for (int i = 0; i < c->n_groups * c->n_series; i++) {
        double v = c->values[i];
        if (v < 0 || isinf(v)) return cc_err_set(err, CC_ERR_ARG, "bar chart: value %d is %g", i, v);
        if (v > top) top = v;
    }
    if (top <= 0) top = 1;
    double step = nice_step(top);
    top = ceil(top / step) * step;

    cc_text t = { 0 };
    header(&t, c->title);
    y_title(&t, c->y_label);
    double plot_h = H - TOP - BOTTOM, plot_w = W - LEFT - RIGHT;
    for (double v = 0; v <= top + step / 2; v += step) grid_line(&t, H - BOTTOM - v / top * plot_h, v);
    frame(&t);

    double gw = plot_w / c->n_groups, bw = gw * 0.8 / c->n_series;
    for (int g = 0; g < c->n_groups; g++) {
        double x0 = LEFT + g * gw + gw * 0.1;
        for (int s = 0; s < c->n_series; s++) {
            double v = c->values[g * c->n_series + s];
            if (isnan(v)) continue;
            double h = v / top * plot_h;
            cc_text_printf(&t,
                           "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                           "<title>",
                           x0 + s * bw, H - BOTTOM - h, bw * 0.92, h, palette[s % N_COLORS]);
            cc_xml_text(&t, c->series[s]);
            cc_text_put(&t, " ");
            cc_xml_text(&t, c->groups[g]);
            cc_text_printf(&t, ": %.4g</title></rect>\n", v);
        }
        cc_text_printf(&t, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", LEFT + (g + 0.5) * gw,
                       H - BOTTOM + 16);
        cc_xml_text(&t, c->groups[g]);
        cc_text_put(&t, "</text>\n");
    }
    /* legend along the bottom */
    double lx = LEFT;
    for (int s = 0; s < c->n_series; s++) {
        cc_text_printf(&t, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", lx,
                       H - 30, palette[s % N_COLORS]);
        cc_text_printf(&t, "<text x=\"%.1f\" y=\"%d\">", lx + 16, H - 20);
        cc_xml_text(&t, c->series[s]);
        cc_text_put(&t, "</text>\n");
        lx += 30 + 7.0 * (double)strlen(c->series[s]);
    }
    return finish(&t, out, err);
}

cc_status cc_svg_line_chart(const cc_svg_line *c, char **out, cc_err *err)
{
    if (!c || !out || c->n < 1 || !c->y || (c->n_changes && !c->changes) ||
        (c->n_levels && !c->levels))
        return cc_err_set(err, CC_ERR_ARG, "line chart: needs at least one point");
    for (int i = 0; i < c->n_changes; i++)
        if (c->changes[i] < 0 || c->changes[i] >= c->n)
            return cc_err_set(err, CC_ERR_ARG, "line chart: change point %d outside the series", c->changes[i]);
    for (int i = 0; i < c->n_levels; i++)
        if (c->levels[i].first < 0 || c->levels[i].n < 1 || c->levels[i].first + c->levels[i].n > c->n)
            return cc_err_set(err, CC_ERR_ARG, "line chart: level %d outside the series", i);
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < c->n; i++) {
        if (isnan(c->y[i])) continue;
        if (isinf(c->y[i])) return cc_err_set(err, CC_ERR_ARG, "line chart: point %d is infinite", i);
        lo = fmin(lo, c->y[i]);
        hi = fmax(hi, c->y[i]);
    }
    if (isinf(lo)) lo = 0, hi = 1;
    /* a log axis only for a range over a decade; otherwise a linear axis around the data */
    int log_y = c->log_y && lo > 0 && hi / lo > 10;
    double a, b, step = 0;           /* axis range (in log10 units on a log axis) */
    if (log_y) {
        a = floor(log10(lo));
        b = ceil(log10(hi));
    } else {
        double span = hi - lo > 0 ? hi - lo : (hi > 0 ? hi : 1);
        step = nice_step(span);
        a = floor(lo / step - 0.5) * step;
        if (a < 0 || (c->log_y && a <= 0)) a = 0;
        b = ceil(hi / step + 0.5) * step;
    }
    double plot_h = H - TOP - BOTTOM, plot_w = W - LEFT - RIGHT;
#define YPOS(v) (H - BOTTOM - ((log_y ? log10(v) : (v)) - a) / (b - a) * plot_h)
#define XPOS(i) (LEFT + (c->n == 1 ? plot_w / 2 : (i) * plot_w / (c->n - 1)))

    cc_text t = { 0 };
    header(&t, c->title);
    y_title(&t, c->y_label);
    if (log_y) {
        for (double d = a; d <= b + 0.5; d += 1) grid_line(&t, YPOS(pow(10, d)), pow(10, d));
    } else {
        for (double v = a; v <= b + step / 2; v += step) grid_line(&t, YPOS(v), v);
    }
    frame(&t);

    for (int i = 0; i < c->n_changes; i++) {
        double x = XPOS(c->changes[i]) - (c->n > 1 ? plot_w / (c->n - 1) / 2 : 0);
        cc_text_printf(&t,
                       "<line class=\"change\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d73a49\""
                       " stroke-width=\"1.5\" stroke-dasharray=\"6,4\"/>\n",
                       x, TOP, x, H - BOTTOM);
    }
    for (int i = 0; i < c->n_levels; i++) {
        const cc_svg_level *l = &c->levels[i];
        if (!(l->value > 0) && log_y) continue;
        cc_text_printf(&t,
                       "<line class=\"level\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#f28e2b\""
                       " stroke-width=\"2\" opacity=\"0.8\"/>\n",
                       XPOS(l->first), YPOS(l->value), XPOS(l->first + l->n - 1), YPOS(l->value));
    }
    /* the series, broken at missing points */
    int open = 0;
    for (int i = 0; i < c->n; i++) {
        if (isnan(c->y[i])) {
            if (open) cc_text_put(&t, "\" fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"1.5\"/>\n");
            open = 0;
            continue;
        }
        cc_text_printf(&t, "%s%.1f,%.1f", open ? " " : "<polyline class=\"series\" points=\"", XPOS(i),
                       YPOS(c->y[i]));
        open = 1;
    }
    if (open) cc_text_put(&t, "\" fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"1.5\"/>\n");
    for (int i = 0; i < c->n; i++) {
        if (isnan(c->y[i])) continue;
        int bad = c->bad && c->bad[i];
        cc_text_printf(&t, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\"><title>",
                       bad ? "point bad" : "point", XPOS(i), YPOS(c->y[i]), bad ? 5 : 3,
                       bad ? "#d73a49" : "#4e79a7");
        if (c->x_labels && c->x_labels[i]) cc_xml_text(&t, c->x_labels[i]);
        cc_text_printf(&t, ": %.4g</title></circle>\n", c->y[i]);
    }
    if (c->x_labels) {
        int every = c->n > 12 ? (c->n + 11) / 12 : 1;
        for (int i = 0; i < c->n; i += every) {
            if (!c->x_labels[i]) continue;
            cc_text_printf(&t,
                           "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" font-size=\"10\""
                           " transform=\"rotate(-30 %.1f %d)\">",
                           XPOS(i), H - BOTTOM + 14, XPOS(i), H - BOTTOM + 14);
            cc_xml_text(&t, c->x_labels[i]);
            cc_text_put(&t, "</text>\n");
        }
    }
#undef YPOS
#undef XPOS
    return finish(&t, out, err);
}
