/* trends.c — reports over the history of a database: a case's series per machine and
 * target with their change points and line charts, and the runs grouped by machine with a
 * throughput chart of each machine's latest run. */
#include "regression.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../results/fleet.h"
#include "../results/store_query.h"
#include "charts.h"
#include "report_data.h"
#include "text.h"

static void safe_name(char *buf, size_t n, const char *prefix, const char *suffix)
{
    snprintf(buf, n, "%s-%s", prefix, suffix);
    for (char *p = buf; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '_' || *p == '-'))
            *p = '_';
}

/* ---- a case's history --------------------------------------------------------------------- */

static cc_status series_chart(const cc_history *h, const cc_history_series *s, char **svg,
                              cc_err *err)
{
    int n = s->n;
    double *y = malloc(sizeof *y * (size_t)n);
    int *bad = malloc(sizeof *bad * (size_t)n);
    int *changes = malloc(sizeof *changes * (size_t)n);
    const char **labels = malloc(sizeof *labels * (size_t)n);
    cc_svg_level *levels = malloc(sizeof *levels * (size_t)(s->n_segs ? s->n_segs : 1));
    cc_status st;
    if (!y || !bad || !changes || !labels || !levels) {
        st = cc_err_set(err, CC_ERR_NOMEM, "history chart: out of memory");
        goto done;
    }
    int nc = 0;
    /* x labels: the runs' tags when they tell the runs apart, else "run <id>" */
    int tags_unique = 1;
    for (int i = 0; i < n && tags_unique; i++)
        for (int j = 0; j < i && tags_unique; j++)
            if (strcmp(h->runs[s->pts[i].run].tag, h->runs[s->pts[j].run].tag) == 0) tags_unique = 0;
    char(*ids)[32] = malloc(sizeof *ids * (size_t)n);
    if (!ids) {
        st = cc_err_set(err, CC_ERR_NOMEM, "history chart: out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        const cc_history_point *p = &s->pts[i];
        const cc_run_info *run = &h->runs[p->run];
        y[i] = p->p.n_samples > 0 && p->p.median > 0 ? p->p.median : NAN;
        bad[i] = p->p.verdict != CC_PASSED && p->p.verdict != CC_MISTRUSTED;
        snprintf(ids[i], sizeof ids[i], "run %lld", (long long)run->id);
        labels[i] = tags_unique && run->tag[0] ? run->tag : ids[i];
        if (p->change) changes[nc++] = i;
    }
    for (int k = 0; k < s->n_segs; k++)
        levels[k] = (cc_svg_level){ s->segs[k].first, s->segs[k].n, s->segs[k].level };
    char title[200];
    snprintf(title, sizeof title, "%.60s on %.40s: %s per run", h->name, s->target,
             h->is_model ? "latency p50" : "median time");
    cc_svg_line line = { title, h->is_model ? "latency p50 (s)" : "median time (s)", n, y, bad, labels, nc, changes, s->n_segs, levels, 1 };
    st = cc_svg_line_chart(&line, svg, err);
    free(ids);
done:
    free(y);
    free(bad);
    free(changes);
    free(labels);
    free(levels);
    return st;
}

static void history_table(cc_text *t, const cc_history *h, const cc_history_series *s)
{
    cc_text_put(t, "| run | started | tag | git commit | verdict | median | 95% CI | samples | level |\n"
                   "|--:|---|---|---|---|--:|---|--:|--:|\n");
    for (int i = 0; i < s->n; i++) {
        const cc_history_point *p = &s->pts[i];
        const cc_run_info *run = &h->runs[p->run];
        cc_text_printf(t, "| %s%lld | ", p->change ? "▶ " : "", (long long)run->id);
        cc_text_md(t, run->started_at);
        cc_text_put(t, " | ");
        if (run->tag[0]) cc_text_md_code(t, run->tag, 1);
        cc_text_put(t, " | ");
        if (run->git_commit[0]) cc_text_md_code(t, run->git_commit, 1);
        cc_text_printf(t, " | %s %s | ", cc_report_verdict_symbol(p->p.verdict), cc_verdict_name(p->p.verdict));
        cc_text_seconds(t, p->p.n_samples ? p->p.median : NAN);
        cc_text_put(t, " | ");
        if (p->p.n_samples) {
            cc_text_seconds(t, p->p.ci_lo);
            cc_text_put(t, " – ");
            cc_text_seconds(t, p->p.ci_hi);
        }
        cc_text_printf(t, " | %d | ", p->p.n_samples);
        if (p->segment >= 0) cc_text_seconds(t, s->segs[p->segment].level);
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n");
}

cc_status cc_report_history(const cc_history *h, const char *chart_prefix, char **md,
                            cc_charts *charts, cc_err *err)
{
    if (!h || !md || (chart_prefix && !charts))
        return cc_err_set(err, CC_ERR_ARG, "cc_report_history: NULL argument");
    cc_text t = { 0 };
    cc_charts made = { 0 };
    cc_status st = CC_OK;
    cc_text_put(&t, h->is_model ? "# History of model " : "# History of ");
    cc_text_md_code(&t, h->name, 0);
    cc_text_put(&t, "\n\n");
    if (h->n_series == 0) cc_text_put(&t, "The database holds no result for it.\n\n");
    else if (h->is_model)
        cc_text_put(&t, "The median is the latency p50 at batch 1. Change points come from a penalised "
                        "piecewise-constant fit of the log latencies (absolute-deviation cost, at least 3 runs "
                        "per level, steps under 5% merged): a one-run spike is not a change. ▶ marks the first "
                        "run of a new level.\n\n");
    else
        cc_text_put(&t, "Change points come from a penalised piecewise-constant fit of the log median times "
                        "(absolute-deviation cost, at least 3 runs per level, steps under 5% merged): a one-run "
                        "spike is not a change. ▶ marks the first run of a new level.\n\n");
    for (int k = 0; k < h->n_series; k++) {
        const cc_history_series *s = &h->series[k];
        cc_text_put(&t, "## ");
        cc_text_md(&t, s->target);
        cc_text_put(&t, " · ");
        cc_text_md(&t, h->machines[s->machine]);
        cc_text_printf(&t, "\n\n%d run%s, %d level%s", s->n, s->n == 1 ? "" : "s", s->n_segs,
                       s->n_segs == 1 ? "" : "s");
        for (int g = 1; g < s->n_segs; g++) {
            const cc_run_info *run = &h->runs[s->pts[s->segs[g].first].run];
            double a = s->segs[g - 1].level, b = s->segs[g].level;
            cc_text_printf(&t, "%s change at run %lld (", g == 1 ? ": " : "; ", (long long)run->id);
            cc_text_md(&t, run->started_at);
            cc_text_put(&t, "): ");
            cc_text_seconds(&t, a);
            cc_text_put(&t, " → ");
            cc_text_seconds(&t, b);
            cc_text_printf(&t, " (%+.1f%%)", 100 * (b / a - 1));
        }
        cc_text_put(&t, ".\n\n");
        if (chart_prefix && s->n_segs > 0) {
            char name[256], sub[32], *svg = NULL;
            snprintf(sub, sizeof sub, "%d.svg", k + 1);
            safe_name(name, sizeof name, chart_prefix, sub);
            st = series_chart(h, s, &svg, err);
            if (st == CC_OK) st = cc_charts_add(&made, name, svg, err);
            if (st != CC_OK) goto fail;
            cc_text_printf(&t, "![history of the median time](%s)\n\n", name);
        }
        history_table(&t, h, s);
    }
    if (t.failed) {
        st = cc_err_set(err, CC_ERR_NOMEM, "history report: out of memory");
        goto fail;
    }
    *md = t.s;
    if (charts) *charts = made;
    else cc_charts_free(&made);
    return CC_OK;
fail:
    cc_text_free(&t);
    cc_charts_free(&made);
    return st;
}

/* ---- runs grouped by machine --------------------------------------------------------------- */

static cc_status machine_section(cc_db *store, const cc_run_info *runs, const int *which, int n,
                                 int index, cc_text *t, cc_tput_set *tput, cc_err *err)
{
    const cc_run_info *last = &runs[which[n - 1]];
    cc_text_printf(t, "## Machine %d: ", index + 1);
    cc_text_md(t, last->cpu_model[0] ? last->cpu_model : "unknown CPU");
    cc_text_printf(t, " · %d cores\n\n- hosts: ", last->cores);
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++) seen |= strcmp(runs[which[j]].hostname, runs[which[i]].hostname) == 0;
        if (seen) continue;
        if (i) cc_text_put(t, ", ");
        cc_text_md(t, runs[which[i]].hostname);
    }
    cc_text_put(t, "\n- libraries: ");
    cc_text_md(t, last->libraries);
    cc_run_target *tg = NULL;
    int nt = 0;
    cc_status st = cc_store_load_targets(store, last->id, &tg, &nt, err);
    if (st != CC_OK) return st;
    for (int i = 0; i < nt; i++) {
        cc_text_put(t, "\n- target ");
        cc_text_md(t, tg[i].name);
        cc_text_put(t, ": ");
        cc_text_md(t, tg[i].available ? tg[i].desc.name : "unavailable");
    }
    free(tg);
    cc_text_put(t, "\n\n| run | started | status | tag | git commit | results | passed | not passed |\n"
                   "|--:|---|---|---|---|--:|--:|--:|\n");
    for (int i = 0; i < n; i++) {
        const cc_run_info *r = &runs[which[i]];
        int64_t total = 0, passed = 0, bad = 0;
        st = cc_store_count_results(store, r->id, -1, &total, err);
        if (st == CC_OK) st = cc_store_count_results(store, r->id, CC_PASSED, &passed, err);
        for (int v = CC_FAILED; st == CC_OK && v < CC_VERDICT_COUNT; v++) {
            int64_t k = 0;
            if (v == CC_MISTRUSTED || v == CC_UNSUPPORTED) continue;
            st = cc_store_count_results(store, r->id, v, &k, err);
            bad += k;
        }
        if (st != CC_OK) return st;
        cc_text_printf(t, "| %lld | ", (long long)r->id);
        cc_text_md(t, r->started_at);
        cc_text_put(t, " | ");
        cc_text_md(t, r->status);
        cc_text_put(t, " | ");
        if (r->tag[0]) cc_text_md_code(t, r->tag, 1);
        cc_text_put(t, " | ");
        if (r->git_commit[0]) cc_text_md_code(t, r->git_commit, 1);
        cc_text_printf(t, " | %lld | %lld | %lld |\n", (long long)total, (long long)passed, (long long)bad);
    }
    cc_text_put(t, "\n");
    if (tput) {
        cc_result *res = NULL;
        int nr = 0;
        st = cc_store_load_results(store, last->id, &res, &nr, err);
        if (st != CC_OK) return st;
        for (int i = 0; i < nr; i++) {
            if (res[i].verdict != CC_PASSED || res[i].timing.n_samples == 0) continue;
            char series[96];
            snprintf(series, sizeof series, "M%d %.40s", index + 1, res[i].target);
            cc_tput_add(tput, series, res[i].dtype, res[i].timing.gflops);
        }
        free(res);
    }
    return CC_OK;
}

cc_status cc_report_fleet(cc_db *store, const char *chart_prefix, char **md, cc_charts *charts,
                          cc_err *err)
{
    if (!store || !md || (chart_prefix && !charts))
        return cc_err_set(err, CC_ERR_ARG, "cc_report_fleet: NULL argument");
    cc_run_info *runs = NULL;
    int n = 0;
    cc_status st = cc_store_list_runs(store, &runs, &n, err);
    if (st != CC_OK) return st;
    int *machine = malloc(sizeof *machine * (size_t)(n ? n : 1));
    int *which = malloc(sizeof *which * (size_t)(n ? n : 1));
    cc_text t = { 0 };
    cc_charts made = { 0 };
    cc_tput_set tput = { 0 };
    int n_machines = 0;
    if (!machine || !which) {
        st = cc_err_set(err, CC_ERR_NOMEM, "fleet report: out of memory");
        goto fail;
    }
    st = cc_fleet_machines(store, runs, n, machine, &n_machines, err);
    if (st != CC_OK) goto fail;
    cc_text_put(&t, "# crosscheck runs by machine\n\n");
    cc_text_printf(&t, "%d run%s on %d machine%s (a machine is a CPU model, core count and library set, "
                       "and the devices its targets found; runs are compared only within one).\n\n",
                   n, n == 1 ? "" : "s", n_machines, n_machines == 1 ? "" : "s");
    for (int m = 0; m < n_machines && st == CC_OK; m++) {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (machine[i] == m) which[k++] = i;
        st = machine_section(store, runs, which, k, m, &t, chart_prefix ? &tput : NULL, err);
    }
    if (st == CC_OK) st = cc_report_machines(store, 2, "Support and throughput per machine", &t, err);
    if (st != CC_OK) goto fail;
    if (chart_prefix) {
        char *svg = NULL, name[256];
        st = cc_tput_chart(&tput, "Throughput of each machine's latest run", &svg, err);
        if (st != CC_OK) goto fail;
        if (svg) {
            safe_name(name, sizeof name, chart_prefix, "throughput.svg");
            st = cc_charts_add(&made, name, svg, err);
            if (st != CC_OK) goto fail;
            cc_text_printf(&t, "## Throughput\n\nGeometric mean GFLOP/s of the passed, timed results of each "
                               "machine's latest run.\n\n![Throughput per machine](%s)\n\n", name);
        }
    }
    if (t.failed) {
        st = cc_err_set(err, CC_ERR_NOMEM, "fleet report: out of memory");
        goto fail;
    }
    *md = t.s;
    t.s = NULL;
    if (charts) *charts = made;
    else cc_charts_free(&made);
    goto done;
fail:
    cc_charts_free(&made);
done:
    cc_text_free(&t);
    cc_tput_free(&tput);
    free(runs);
    free(machine);
    free(which);
    return st;
}
