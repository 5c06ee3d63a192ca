/* machines.c — per-machine views of a results database: a run's volatile conditions as one
 * line, and, for a database merged from several machines (`crosscheck merge`), each
 * machine's support rate, op support, the machines that ran each op on each target, and
 * throughput side by side. A machine is a stable fingerprint (cc_env_machine_key: CPU
 * model, cores, libraries, the unit that `compare` matches runs on) split where a target
 * saw another device (results/fleet.h: an A100 node and an H100 node are two machines). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../results/compare.h"
#include "../results/fleet.h"
#include "../results/store_query.h"
#include "report_data.h"

/* ---- conditions ---------------------------------------------------------------------------- */

static void value(cc_text *t, double v, const char *fmt)
{
    if (isnan(v)) cc_text_put(t, "unknown");
    else cc_text_printf(t, fmt, v);
}

void cc_report_conditions(cc_text *t, const cc_run_info *r)
{
    const cc_env_state *a = &r->at_start, *b = &r->at_end;
    cc_text_put(t, "load ");
    value(t, a->load1, "%.2f");
    cc_text_put(t, " → ");
    value(t, b->load1, "%.2f");
    cc_text_put(t, " (1 min) · governor ");
    cc_text_md(t, a->governor[0] ? a->governor : "unknown");
    if (b->governor[0] && strcmp(a->governor, b->governor) != 0) {
        cc_text_put(t, " → ");
        cc_text_md(t, b->governor);
    }
    cc_text_put(t, " · clock ");
    if (isnan(a->mhz) && isnan(b->mhz)) {
        cc_text_put(t, "unknown");
    } else {
        value(t, a->mhz, "%.0f MHz");
        cc_text_put(t, " → ");
        value(t, b->mhz, "%.0f MHz");
    }
    double max = isnan(a->max_mhz) ? b->max_mhz : a->max_mhz;
    if (!isnan(max)) cc_text_printf(t, " (max %.0f MHz)", max);
    if (isnan(r->others_cpu)) cc_text_put(t, " · CPU used by other processes unknown");
    else cc_text_printf(t, " · other processes used %.0f%% of the CPU", 100 * r->others_cpu);
    if (r->busy == 1) cc_text_put(t, " · ⚠️ **busy**");
    else if (r->busy == 0) cc_text_put(t, " · quiet");
    else cc_text_put(t, " · busy unknown");
}

/* ---- machines ------------------------------------------------------------------------------- */

typedef struct machine {
    int latest;            /* index into runs: its latest finished run (else its latest run) */
    int n_runs, n_selected;
} machine;

typedef struct row {
    cc_result_brief b;
    int machine;
    int rank;              /* 0: from the machine's newest selected run */
} row;

typedef struct rows {
    row *v;
    int n, cap;
} rows;

static int by_machine(const void *pa, const void *pb)
{
    const row *a = pa, *b = pb;
    if (a->machine != b->machine) return a->machine - b->machine;
    if (a->b.case_ref != b->b.case_ref) return a->b.case_ref < b->b.case_ref ? -1 : 1;
    int k = strcmp(a->b.target, b->b.target);
    if (!k) k = (int)a->b.regime - (int)b->b.regime;
    if (!k) k = a->rank - b->rank;
    return k;
}

static int by_result(const void *pa, const void *pb)
{
    const row *a = pa, *b = pb;
    int k = strcmp(a->b.target, b->b.target);
    if (k) return k;
    if (a->b.case_ref != b->b.case_ref) return a->b.case_ref < b->b.case_ref ? -1 : 1;
    if (a->b.regime != b->b.regime) return (int)a->b.regime - (int)b->b.regime;
    return a->machine - b->machine;
}

static int same_result(const row *a, const row *b)
{
    return a->b.case_ref == b->b.case_ref && strcmp(a->b.target, b->b.target) == 0 && a->b.regime == b->b.regime;
}

/* Index of name in names[0..n-1] (names holds it). */
static int index_of(const char *const *names, int n, const char *name)
{
    int i = 0;
    while (i < n - 1 && strcmp(names[i], name) != 0) i++;
    return i;
}

/* A list of distinct names: copies in text, display order in p. */
#define MAX_NAMES 512
typedef struct name_list {
    char text[MAX_NAMES][CC_NAME_MAX];
    const char *p[MAX_NAMES];
    int n;
} name_list;

/* Adds name when absent; -1 when the list is full. */
static int intern(name_list *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->p[i], name) == 0) return 0;
    if (l->n == MAX_NAMES) return -1;
    memcpy(l->text[l->n], name, CC_NAME_MAX);
    l->text[l->n][CC_NAME_MAX - 1] = '\0';
    l->p[l->n] = l->text[l->n];
    l->n++;
    return 0;
}

static void sort_by(const char **names, int n, int (*order)(const char *))
{
    for (int i = 1; i < n; i++) {
        const char *x = names[i];
        int j = i - 1;
        while (j >= 0 && (order(names[j]) > order(x) || (order(names[j]) == order(x) && strcmp(names[j], x) > 0))) {
            names[j + 1] = names[j];
            j--;
        }
        names[j + 1] = x;
    }
}

/* Appends the briefs of the runs each machine contributes (see report_data.h). */
static cc_status select_runs(cc_db *store, const cc_run_info *runs, int n, const int *mof, machine *ms, int nm,
                             int *picked, rows *out, cc_err *err)
{
    for (int m = 0; m < nm; m++) {
        const cc_run_info *latest = &runs[ms[m].latest];
        int n_picked = 0;
        for (int i = n - 1; i >= 0; i--) {
            const cc_run_info *r = &runs[i];
            if (mof[i] != m || strcmp(r->git_commit, latest->git_commit) != 0) continue;
            if (i != ms[m].latest && strcmp(r->status, "finished") != 0) continue;
            int seen = 0;
            for (int k = 0; k < n_picked && !seen; k++) seen = strcmp(runs[picked[k]].config, r->config) == 0;
            if (seen) continue;
            picked[n_picked] = i;
            cc_result_brief *b = NULL;
            int nb = 0;
            cc_status st = cc_store_load_briefs(store, r->id, &b, &nb, err);
            if (st != CC_OK) return st;
            if (out->n + nb > out->cap) {
                int cap = out->cap ? out->cap : 1024;
                while (cap < out->n + nb) cap *= 2;
                row *v = realloc(out->v, sizeof *v * (size_t)cap);
                if (!v) {
                    free(b);
                    return cc_err_set(err, CC_ERR_NOMEM, "machines report: out of memory");
                }
                out->v = v;
                out->cap = cap;
            }
            for (int k = 0; k < nb; k++) out->v[out->n++] = (row){ b[k], m, n_picked };
            free(b);
            n_picked++;
        }
        ms[m].n_selected = n_picked;
    }
    return CC_OK;
}

static cc_status machines_table(cc_db *store, cc_text *t, const cc_run_info *runs, int n, const int *mof,
                                const machine *ms, int nm, cc_err *err)
{
    cc_text_put(t, "| | machine | devices of the latest run | libraries | hosts | runs | latest run | build | "
                   "conditions of the latest run |\n|---|---|---|---|---|--:|---|---|---|\n");
    for (int m = 0; m < nm; m++) {
        const cc_run_info *r = &runs[ms[m].latest];
        cc_text_printf(t, "| M%d | ", m + 1);
        cc_text_md(t, r->cpu_model[0] ? r->cpu_model : "unknown CPU");
        cc_text_printf(t, " · %d cores | ", r->cores);
        cc_run_target *tg = NULL;
        int nt = 0, shown = 0;
        cc_status st = cc_store_load_targets(store, r->id, &tg, &nt, err);
        if (st != CC_OK) return st;
        for (int k = 0; k < nt; k++) {
            if (tg[k].available <= 0) continue;
            cc_text_put(t, shown++ ? "; " : "");
            cc_text_md_code(t, tg[k].name, 1);
            cc_text_put(t, " ");
            cc_text_md(t, tg[k].desc.name[0] ? tg[k].desc.name : "?");
        }
        free(tg);
        cc_text_put(t, shown ? " | " : "— | ");
        cc_text_md(t, r->libraries);
        cc_text_put(t, " | ");
        int first = 1;
        for (int i = 0; i < n; i++) {
            if (mof[i] != m) continue;
            int seen = 0;
            for (int j = 0; j < i && !seen; j++) seen = mof[j] == m && strcmp(runs[j].hostname, runs[i].hostname) == 0;
            if (seen) continue;
            cc_text_put(t, first ? "" : ", ");
            cc_text_md(t, runs[i].hostname);
            first = 0;
        }
        cc_text_printf(t, " | %d | %lld · ", ms[m].n_runs, (long long)r->id);
        cc_text_md(t, r->started_at);
        if (r->tag[0]) {
            cc_text_put(t, " · ");
            cc_text_md_code(t, r->tag, 1);
        }
        cc_text_put(t, " | ");
        if (r->git_commit[0]) cc_text_md_code(t, r->git_commit, 1);
        cc_text_printf(t, " (%d run%s) | ", ms[m].n_selected, ms[m].n_selected == 1 ? "" : "s");
        cc_report_conditions(t, r);
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n");
    return CC_OK;
}

/* Support and op-support tables from the deduplicated rows (sorted by machine, case,
 * target, regime). */
static void support_tables(cc_text *t, const row *v, int nv, int nm, const char **targets, int nt,
                           const char **ops, int no, int *counts, int *cells)
{
    /* counts[(m * nt + tg) * 3 + {passed, claimed, all}]; cells[((o * nm + m) * nt + tg) * 3 + {n, passed, worst}] */
    for (int i = 0; i < nv;) {
        int j = i, worst = v[i].b.verdict;
        while (j < nv && v[j].machine == v[i].machine && v[j].b.case_ref == v[i].b.case_ref &&
               strcmp(v[j].b.target, v[i].b.target) == 0) {
            if (cc_report_verdict_rank(v[j].b.verdict) > cc_report_verdict_rank(worst)) worst = v[j].b.verdict;
            j++;
        }
        int m = v[i].machine, tg = index_of(targets, nt, v[i].b.target), o = index_of(ops, no, v[i].b.op);
        int *c = &counts[(m * nt + tg) * 3];
        c[0] += worst == CC_PASSED;
        c[1] += worst != CC_UNSUPPORTED;
        c[2]++;
        int *x = &cells[((o * nm + m) * nt + tg) * 3];
        if (x[0] == 0 || cc_report_verdict_rank(worst) > cc_report_verdict_rank(x[2])) x[2] = worst;
        x[0]++;
        x[1] += worst == CC_PASSED;
        i = j;
    }
    cc_text_put(t, "### Support rate per machine\n\nPassed / cases the target claims (not unsupported), then passed / "
                   "all cases; a case passes when every input regime passed.\n\n| target |");
    for (int m = 0; m < nm; m++) cc_text_printf(t, " M%d |", m + 1);
    cc_text_put(t, "\n|---|");
    for (int m = 0; m < nm; m++) cc_text_put(t, "--:|");
    cc_text_put(t, "\n");
    for (int tg = 0; tg < nt; tg++) {
        cc_text_put(t, "| ");
        cc_text_md_code(t, targets[tg], 1);
        for (int m = 0; m < nm; m++) {
            const int *c = &counts[(m * nt + tg) * 3];
            cc_text_put(t, " | ");
            if (c[2] == 0) {
                cc_text_put(t, "·");
                continue;
            }
            cc_text_percent(t, c[0], c[1]);
            cc_text_printf(t, " of %d", c[2]);
        }
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n### Op support per machine\n\nEach cell: the worst verdict over the op's cases, then passed / "
                   "cases.\n\n| op |");
    for (int m = 0; m < nm; m++)
        for (int tg = 0; tg < nt; tg++) {
            cc_text_printf(t, " M%d ", m + 1);
            cc_text_md(t, targets[tg]);
            cc_text_put(t, " |");
        }
    cc_text_put(t, "\n|---|");
    for (int i = 0; i < nm * nt; i++) cc_text_put(t, ":-:|");
    cc_text_put(t, "\n");
    for (int o = 0; o < no; o++) {
        cc_text_put(t, "| ");
        cc_text_md(t, ops[o]);
        for (int m = 0; m < nm; m++)
            for (int tg = 0; tg < nt; tg++) {
                const int *x = &cells[((o * nm + m) * nt + tg) * 3];
                if (x[0] == 0) cc_text_put(t, " | ·");
                else cc_text_printf(t, " | %s %d/%d", cc_report_verdict_symbol(x[2]), x[1], x[0]);
            }
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n");
    /* the same cells turned around: per op and target, the machines that ran it */
    cc_text_put(t, "### Machines per op and target\n\nEach cell: the machines that ran the op on the target, "
                   "each with the worst verdict over its cases there; · none did.\n\n| op |");
    for (int tg = 0; tg < nt; tg++) {
        cc_text_put(t, " ");
        cc_text_md_code(t, targets[tg], 1);
        cc_text_put(t, " |");
    }
    cc_text_put(t, "\n|---|");
    for (int tg = 0; tg < nt; tg++) cc_text_put(t, "---|");
    cc_text_put(t, "\n");
    for (int o = 0; o < no; o++) {
        cc_text_put(t, "| ");
        cc_text_md(t, ops[o]);
        for (int tg = 0; tg < nt; tg++) {
            int any = 0;
            cc_text_put(t, " |");
            for (int m = 0; m < nm; m++) {
                const int *x = &cells[((o * nm + m) * nt + tg) * 3];
                if (x[0] == 0) continue;
                cc_text_printf(t, "%s M%d%s%s", any ? " ·" : "", m + 1, CC_NBSP, cc_report_verdict_symbol(x[2]));
                any = 1;
            }
            if (!any) cc_text_put(t, " ·");
        }
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n");
}

/* Throughput per (target, dtype) and machine over the results every machine running the
 * target passed and timed. v is re-sorted. */
static cc_status performance_table(cc_text *t, row *v, int nv, int nm, const char **targets, int nt,
                                   name_list *dl, cc_err *err)
{
    for (int i = 0; i < nv; i++)
        if (intern(dl, v[i].b.dtype)) return cc_err_set(err, CC_ERR_UNSUPPORTED, "machines report: too many dtypes");
    sort_by(dl->p, dl->n, cc_report_dtype_order);
    const char **dtypes = dl->p;
    int nd = dl->n;
    int *has = calloc((size_t)nm * nt, sizeof *has);
    double *sum = calloc((size_t)nt * nd * nm, sizeof *sum);
    int *common = calloc((size_t)nt * nd, sizeof *common);
    if (!has || !sum || !common) {
        free(has);
        free(sum);
        free(common);
        return cc_err_set(err, CC_ERR_NOMEM, "machines report: out of memory");
    }
    for (int i = 0; i < nv; i++) has[v[i].machine * nt + index_of(targets, nt, v[i].b.target)] = 1;
    qsort(v, (size_t)nv, sizeof *v, by_result);
    for (int i = 0; i < nv;) {
        int j = i, timed = 0;
        while (j < nv && same_result(&v[j], &v[i])) {
            timed += v[j].b.verdict == CC_PASSED && v[j].b.n_samples > 0 && v[j].b.gflops > 0;
            j++;
        }
        int tg = index_of(targets, nt, v[i].b.target), d = index_of(dtypes, nd, v[i].b.dtype), need = 0;
        for (int m = 0; m < nm; m++) need += has[m * nt + tg];
        if (timed == need && timed == j - i) {
            common[tg * nd + d]++;
            for (int k = i; k < j; k++) sum[(tg * nd + d) * nm + v[k].machine] += log(v[k].b.gflops);
        }
        i = j;
    }
    cc_text_put(t, "### Throughput per machine\n\nGeometric mean GFLOP/s over the results that passed and were timed on "
                   "every machine running the target (like with like).\n\n| target | dtype | results |");
    for (int m = 0; m < nm; m++) cc_text_printf(t, " M%d |", m + 1);
    cc_text_put(t, "\n|---|---|--:|");
    for (int m = 0; m < nm; m++) cc_text_put(t, "--:|");
    cc_text_put(t, "\n");
    int rows_out = 0;
    for (int tg = 0; tg < nt; tg++)
        for (int d = 0; d < nd; d++) {
            int k = common[tg * nd + d];
            if (!k) continue;
            cc_text_put(t, "| ");
            cc_text_md_code(t, targets[tg], 1);
            cc_text_put(t, " | ");
            cc_text_md(t, dtypes[d]);
            cc_text_printf(t, " | %d", k);
            for (int m = 0; m < nm; m++) {
                cc_text_put(t, " | ");
                if (has[m * nt + tg]) cc_text_num(t, exp(sum[(tg * nd + d) * nm + m] / k));
                else cc_text_put(t, "·");
            }
            cc_text_put(t, " |\n");
            rows_out++;
        }
    if (!rows_out) cc_text_put(t, "| — | — | 0 |\n");
    cc_text_put(t, "\n");
    free(has);
    free(sum);
    free(common);
    return CC_OK;
}

cc_status cc_report_machines(cc_db *store, int min_machines, const char *heading, cc_text *t, cc_err *err)
{
    if (!store || !t) return cc_err_set(err, CC_ERR_ARG, "cc_report_machines: NULL argument");
    cc_run_info *runs = NULL;
    int n = 0, nm = 0;
    cc_status st = cc_store_list_runs(store, &runs, &n, err);
    if (st != CC_OK) return st;
    int *mof = malloc(sizeof *mof * (size_t)(n ? n : 1));
    int *picked = malloc(sizeof *picked * (size_t)(n ? n : 1));
    machine *ms = malloc(sizeof *ms * (size_t)(n ? n : 1));
    rows all = { 0 };
    int *counts = NULL, *cells = NULL;
    name_list *names = NULL;
    if (!mof || !picked || !ms) goto nomem;
    st = cc_fleet_machines(store, runs, n, mof, &nm, err);
    if (st != CC_OK) goto done;
    for (int m = 0; m < nm; m++) memset(&ms[m], 0, sizeof ms[m]);
    for (int i = 0; i < n; i++) {
        int m = mof[i];
        if (ms[m].n_runs == 0) ms[m].latest = i;
        ms[m].n_runs++;
        if (strcmp(runs[i].status, "finished") == 0 || strcmp(runs[ms[m].latest].status, "finished") != 0)
            ms[m].latest = i;
    }
    if (n == 0 || nm < min_machines) goto done;

    st = select_runs(store, runs, n, mof, ms, nm, picked, &all, err);
    if (st != CC_OK) goto done;
    qsort(all.v, (size_t)all.n, sizeof *all.v, by_machine);
    int nv = 0;
    for (int i = 0; i < all.n; i++)
        if (nv == 0 || all.v[i].machine != all.v[nv - 1].machine || !same_result(&all.v[i], &all.v[nv - 1]))
            all.v[nv++] = all.v[i];

    names = calloc(3, sizeof *names);   /* targets, ops, dtypes */
    if (!names) goto nomem;
    name_list *tl = &names[0], *ol = &names[1];
    for (int i = 0; i < nv; i++) {
        if (intern(tl, all.v[i].b.target) || intern(ol, all.v[i].b.op)) {
            st = cc_err_set(err, CC_ERR_UNSUPPORTED, "machines report: more than %d targets or ops", MAX_NAMES);
            goto done;
        }
    }
    sort_by(ol->p, ol->n, cc_report_op_order);
    const char **targets = tl->p, **ops = ol->p;
    int nt = tl->n, no = ol->n;
    counts = calloc((size_t)nm * nt * 3 + 1, sizeof *counts);
    cells = calloc((size_t)no * nm * nt * 3 + 1, sizeof *cells);
    if (!counts || !cells) goto nomem;

    cc_text_printf(t, "## %s\n\n", heading);
    cc_text_printf(t, "This database holds %d runs of %d machines (a machine is a CPU model, core count and library "
                      "set, the stable fingerprint `compare` matches runs on, and the devices its targets found). "
                      "Per machine, its latest build (git commit) is shown: the latest finished run of each "
                      "distinct selection, so that shards add up, each result taken from the newest of those "
                      "runs.\n\n",
                   n, nm);
    st = machines_table(store, t, runs, n, mof, ms, nm, err);
    if (st != CC_OK) goto done;
    if (nv == 0) {
        cc_text_put(t, "No results.\n\n");
        goto done;
    }
    support_tables(t, all.v, nv, nm, targets, nt, ops, no, counts, cells);
    st = performance_table(t, all.v, nv, nm, targets, nt, &names[2], err);
    goto done;

nomem:
    st = cc_err_set(err, CC_ERR_NOMEM, "machines report: out of memory");
done:
    free(runs);
    free(mof);
    free(picked);
    free(ms);
    free(all.v);
    free(counts);
    free(cells);
    free(names);
    return st;
}
