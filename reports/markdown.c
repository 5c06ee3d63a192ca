/* markdown.c — the report of one run (op cases and models) as GitHub-flavoured Markdown:
 * the summary with the overall verdict over everything the run holds, the targets with
 * their peaks and where those came from, and verdict counts; then the order of all
 * sections. "At a glance" is written by glance.c, the models by models.c, the op-support
 * matrix by matrix.c, failures, unsupported reasons and performance by details.c. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_data.h"

/* CPU features worth naming in the machine line, in the order shown. */
static const char *const notable_flags[] = {
    "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512_bf16", "avx512_fp16",
    "avx512_vnni", "avx_vnni", "amx_tile", "amx_bf16", "amx_int8",
    "asimd", "asimdhp", "asimddp", "sve", "sve2", "bf16", "i8mm",
};

static int has_flag(const char *flags, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *p = flags; (p = strstr(p, flag)) != NULL; p += n)
        if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
}

/* "1 model result", "2 model results". */
static void count_of(cc_text *t, long n, const char *what)
{
    cc_text_printf(t, "%ld %s result%s", n, what, n == 1 ? "" : "s");
}

/* One kind of result (op or model): counts per verdict. */
typedef struct tally {
    const char *what;
    long n, count[CC_VERDICT_COUNT];
} tally;

static long supported(const tally *k)
{
    return k->n - k->count[CC_UNSUPPORTED];
}

static long not_passed(const tally *k)
{
    return supported(k) - k->count[CC_PASSED];
}

/* The verdicts of one kind, worst first: "💥 1 crashed · ❌ 6 failed · ✅ 120 passed". */
static void breakdown(cc_text *t, const tally *k)
{
    for (int i = CC_VERDICT_COUNT - 1; i >= 0; i--) {
        cc_verdict v = cc_report_verdict_order[i];
        if (v == CC_PASSED || v == CC_UNSUPPORTED || !k->count[v]) continue;
        cc_text_printf(t, "%s %ld %s · ", cc_report_verdict_symbol(v), k->count[v], cc_verdict_name(v));
    }
    cc_text_printf(t, "✅ %ld passed", k->count[CC_PASSED]);
}

/* The overall line: op results, model results and node test results (conformance), each
 * counted, so that a model failure
 * shows and a run holding only model results is not "no results". ✅ when nothing failed,
 * errored, crashed or timed out (mistrusted results are counted, not failures: the run
 * passes), ❌ with the count of results that did not pass otherwise. */
static void overall(const cc_rdata *d, cc_text *t)
{
    tally kinds[3] = { { "op", d->n_res, { 0 } }, { "model", d->n_models, { 0 } }, { "node test", d->n_conf, { 0 } } };
    for (int i = 0; i < d->n_res; i++) kinds[0].count[d->res[i].verdict]++;
    for (int i = 0; i < d->n_models; i++)
        if (d->models[i].verdict >= 0 && d->models[i].verdict < CC_VERDICT_COUNT)
            kinds[1].count[d->models[i].verdict]++;
    for (int i = 0; i < d->n_conf; i++) kinds[2].count[d->conf[i].verdict]++;
    const tally *k[3];
    int n = 0;
    for (int i = 0; i < 3; i++)
        if (kinds[i].n > 0) k[n++] = &kinds[i];
    if (n == 0) {
        cc_text_put(t, d->n_scans ? "**Overall: · model scans only (below): nothing was run.**\n\n"
                                  : "**Overall: · no results.**\n\n");
        return;
    }
    long bad = 0, unsupported = 0;
    for (int i = 0; i < n; i++) {
        bad += not_passed(k[i]);
        unsupported += k[i]->count[CC_UNSUPPORTED];
    }
    if (bad == 0) {
        cc_text_put(t, "**Overall: ✅ all ");
        for (int i = 0; i < n; i++) {
            if (i) cc_text_put(t, " and ");
            cc_text_printf(t, "%ld supported ", supported(k[i]));
            cc_text_printf(t, "%s result%s", k[i]->what, supported(k[i]) == 1 ? "" : "s");
        }
        cc_text_put(t, " passed** (");
        if (unsupported == 0) cc_text_put(t, "none unsupported");
        for (int i = 0, first = 1; i < n; i++) {
            if (!k[i]->count[CC_UNSUPPORTED]) continue;
            if (!first) cc_text_put(t, ", ");
            count_of(t, k[i]->count[CC_UNSUPPORTED], k[i]->what);
            first = 0;
        }
        cc_text_put(t, unsupported ? " unsupported).\n\n" : ").\n\n");
        return;
    }
    /* mistrusted results are not failures (the run passes): say so, with their count */
    long failing = bad;
    for (int i = 0; i < n; i++) failing -= k[i]->count[CC_MISTRUSTED];
    cc_text_put(t, failing == 0 ? "**Overall: ✅ no supported result failed** — " : "**Overall: ❌ ");
    for (int i = 0; failing && i < n; i++) {
        if (i) cc_text_put(t, " and ");
        cc_text_printf(t, "%ld of %ld supported %s result%s", not_passed(k[i]), supported(k[i]), k[i]->what,
                       supported(k[i]) == 1 ? "" : "s");
    }
    if (failing) cc_text_put(t, " did not pass** — ");
    for (int i = 0; i < n; i++) {
        if (i) cc_text_put(t, "; ");
        cc_text_printf(t, "%s results: ", k[i]->what);
        breakdown(t, k[i]);
        if (k[i]->count[CC_UNSUPPORTED])
            cc_text_printf(t, " · ⛔ %ld unsupported", k[i]->count[CC_UNSUPPORTED]);
    }
    cc_text_put(t, ".\n\n");
}

static void summary(const cc_rdata *d, cc_text *t)
{
    const cc_run_info *run = d->run;
    cc_text_put(t, "# ");
    cc_text_md(t, d->opt.title);
    cc_text_put(t, "\n\n- **Run** ");
    cc_text_md_code(t, run->uid, 0);
    cc_text_printf(t, " (id %lld) · started ", (long long)run->id);
    cc_text_md(t, run->started_at);
    if (run->finished_at[0]) {
        cc_text_put(t, " · finished ");
        cc_text_md(t, run->finished_at);
    }
    cc_text_put(t, " · status **");
    cc_text_md(t, run->status);
    cc_text_put(t, "**");
    if (run->tag[0]) {
        cc_text_put(t, " · tag ");
        cc_text_md_code(t, run->tag, 0);
    }

    cc_text_put(t, "\n- **Machine** ");
    cc_text_md(t, run->hostname[0] ? run->hostname : "unknown host");
    cc_text_put(t, " · ");
    cc_text_md(t, run->cpu_model[0] ? run->cpu_model : "unknown CPU");
    cc_text_printf(t, " · %d cores · %.1f GiB", run->cores,
                   (double)run->memory_bytes / (1024.0 * 1024.0 * 1024.0));
    if (run->os[0]) {
        cc_text_put(t, " · ");
        cc_text_md(t, run->os);
    }
    int any = 0;
    for (size_t i = 0; i < sizeof notable_flags / sizeof notable_flags[0]; i++) {
        if (!has_flag(run->cpu_flags, notable_flags[i])) continue;
        cc_text_put(t, any ? " " : " · ISA ");
        cc_text_md(t, notable_flags[i]);
        any = 1;
    }

    cc_text_put(t, "\n- **Build** crosscheck ");
    cc_text_md(t, run->version[0] ? run->version : "?");
    if (run->git_commit[0]) {
        cc_text_put(t, " (git ");
        cc_text_md_code(t, run->git_commit, 0);
        cc_text_put(t, ")");
    }
    if (run->compiler[0]) {
        cc_text_put(t, " · ");
        cc_text_md(t, run->compiler);
    }
    if (run->libraries[0]) {
        cc_text_put(t, " · ");
        cc_text_md(t, run->libraries);
    }
    cc_text_put(t, "\n- **Conditions** ");
    cc_report_conditions(t, run);
    if (d->n_res > 0 || d->n_models == 0)
        cc_text_printf(t, "\n- **Selection** seed %llu · %s sweep", (unsigned long long)run->seed,
                       run->quick ? "quick" : "full");
    else cc_text_put(t, "\n- **Selection** models only");
    if (run->config[0]) {
        cc_text_put(t, " · ");
        cc_text_md_code(t, run->config, 0);
    }
    /* the settings of the model jobs whose results the run holds, one per distinct text */
    int shown = 0;
    for (int i = 0; i < d->n_models; i++) {
        const char *c = d->models[i].config;
        int seen = !c[0] || strcmp(c, run->config) == 0;
        for (int j = 0; j < i && !seen; j++) seen = strcmp(d->models[j].config, c) == 0;
        if (seen) continue;
        cc_text_put(t, shown++ ? " · " : "\n- **Models** ");
        cc_text_md_code(t, c, 0);
    }
    if (d->shards.count > 0) {
        cc_text_printf(t, "\n- **Shards** this run is shard %d of %d", run->shard_index, run->shard_count);
        if (run->shard_source[0]) {
            cc_text_put(t, " (from ");
            cc_text_md(t, run->shard_source);
            cc_text_put(t, ")");
        }
        cc_text_printf(t, "; this report covers the %d shard%s of its set in this database (same selection, "
                          "tag and build): %d finished, %d unfinished, %d missing",
                       d->shards.count - d->shards.n_missing, d->shards.count - d->shards.n_missing == 1 ? "" : "s",
                       d->shards.n_finished, d->shards.n_unfinished, d->shards.n_missing);
    }
    if (run->scheduler_jobs[0]) {
        cc_text_put(t, "\n- **Scheduler** ");
        cc_text_md(t, run->scheduler_jobs);
    }
    if (run->command[0]) {
        cc_text_put(t, "\n- **Command** ");
        cc_text_md_code(t, run->command, 0);
    }
    cc_text_put(t, "\n\n");

    const cc_shard_set *sh = &d->shards;
    if (sh->count > 0 && sh->n_finished < sh->count) {
        char missing[256], unfinished[256];
        cc_shard_set_list(sh, 0, missing, sizeof missing);
        cc_shard_set_list(sh, 2, unfinished, sizeof unfinished);
        cc_text_printf(t, "> ⚠️ **%d of %d shards** did not finish:", sh->count - sh->n_finished, sh->count);
        if (sh->n_missing)
            cc_text_printf(t, " shard%s %s missing (no run in this database)%s", sh->n_missing == 1 ? "" : "s",
                           missing, sh->n_unfinished ? ";" : ".");
        if (sh->n_unfinished)
            cc_text_printf(t, " shard%s %s unfinished (interrupted, killed or still running: `crosscheck run "
                              "--resume` with the same options, as the same shard, finishes it).",
                           sh->n_unfinished == 1 ? "" : "s", unfinished);
        cc_text_put(t, " The results below are incomplete.\n\n");
    } else if (sh->count == 0 && strcmp(run->status, "finished") != 0) {
        cc_text_put(t, "> ⚠️ This run is **");
        cc_text_md(t, run->status);
        cc_text_put(t, "**: its results are incomplete.\n\n");
    }

    overall(d, t);
}

static void targets(const cc_rdata *d, cc_text *t)
{
    cc_text_put(t, "## Targets\n\nThe peak is the target's FP32 peak with how it was found: measured "
                   "by a probe on this machine, or estimated from the device's properties.\n\n"
                   "| target | status | device | driver | library | peak GFLOP/s | peak GB/s |\n"
                   "| --- | --- | --- | --- | --- | --- | ---: |\n");
    for (int i = 0; i < d->n_targets; i++) {
        const cc_run_target *g = &d->targets[i];
        cc_text_put(t, "| ");
        cc_text_md_code(t, g->name, 1);
        cc_text_put(t, " | ");
        cc_report_target_status(t, g);
        const char *cols[3] = { g->desc.name, g->desc.driver, g->desc.library };
        for (int c = 0; c < 3; c++) {
            cc_text_put(t, " | ");
            cc_text_md(t, cols[c][0] ? cols[c] : "—");
        }
        cc_text_put(t, " | ");
        cc_text_num(t, g->desc.peak_gflops > 0 ? g->desc.peak_gflops : (double)NAN);
        if (g->desc.peak_gflops > 0) {
            cc_text_put(t, " (");
            cc_text_md(t, g->desc.peak_source[0] ? g->desc.peak_source : "source unknown");
            cc_text_put(t, ")");
        }
        cc_text_put(t, " | ");
        cc_text_num(t, g->desc.peak_gbps > 0 ? g->desc.peak_gbps : (double)NAN);
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n");
}

/* One row of the verdict table: counts of the results of one kind on target g. */
static void verdict_row(cc_text *t, const cc_rdata *d, int g, const char *kind, const long *count)
{
    long total = 0;
    for (int k = 0; k < CC_VERDICT_COUNT; k++) total += count[k];
    cc_text_put(t, "| ");
    cc_text_md_code(t, d->targets[g].name, 1);
    cc_text_printf(t, " | %s", kind);
    for (int k = 0; k < CC_VERDICT_COUNT; k++) cc_text_printf(t, " | %ld", count[cc_report_verdict_order[k]]);
    cc_text_printf(t, " | %ld |\n", total);
}

/* Results per target and verdict: op results (one per case and input regime) when the run
 * has any, on every target but those that only ran models; model results (one per model
 * and precision) on the targets that ran a model. */
static void verdict_counts(const cc_rdata *d, cc_text *t)
{
    if (d->n_res == 0 && d->n_models == 0) return;
    cc_text_put(t, "## Verdicts\n\nResults per target: op results count one per case and input regime, "
                   "model results one per model and precision.\n\n| target | results |");
    for (int k = 0; k < CC_VERDICT_COUNT; k++)
        cc_text_printf(t, " %s %s |", cc_report_verdict_symbol(cc_report_verdict_order[k]),
                       cc_verdict_name(cc_report_verdict_order[k]));
    cc_text_put(t, " total |\n| --- | --- |");
    for (int k = 0; k <= CC_VERDICT_COUNT; k++) cc_text_put(t, " ---: |");
    cc_text_put(t, "\n");
    for (int g = 0; g < d->n_targets; g++) {
        long ops[CC_VERDICT_COUNT] = { 0 }, models[CC_VERDICT_COUNT] = { 0 }, n_ops = 0, n_models = 0;
        for (int i = 0; i < d->n_res; i++)
            if (d->res_target[i] == g) {
                ops[d->res[i].verdict]++;
                n_ops++;
            }
        for (int i = 0; i < d->n_models; i++)
            if (d->model_target[i] == g && d->models[i].verdict >= 0 && d->models[i].verdict < CC_VERDICT_COUNT) {
                models[d->models[i].verdict]++;
                n_models++;
            }
        /* a target only the model jobs used gets no row of op zeros */
        if (d->n_res > 0 && (n_ops > 0 || n_models == 0)) verdict_row(t, d, g, "op cases", ops);
        if (n_models > 0) verdict_row(t, d, g, "models", models);
    }
    cc_text_put(t, "\n");
}

/* The shards of a sharded run: per shard the run that stands for it, its status, host,
 * scheduler tasks and result count, or that it is missing. */
static cc_status shards_section(cc_db *store, const cc_rdata *d, cc_text *t, cc_err *err)
{
    const cc_shard_set *sh = &d->shards;
    if (sh->count == 0) return CC_OK;
    cc_run_info *r = malloc(sizeof *r);
    if (!r) return cc_err_set(err, CC_ERR_NOMEM, "report: out of memory");
    cc_text_put(t, "## Shards\n\nThe runs of this sharded run's set, one per shard (the latest finished run of "
                   "each shard, else its latest run).\n\n| shard | run | status | host | scheduler tasks | "
                   "results |\n| ---: | --- | --- | --- | --- | ---: |\n");
    cc_status s = CC_OK;
    for (int i = 0; i < sh->count && s == CC_OK; i++) {
        const cc_shard_member *m = &sh->members[i];
        if (m->run_id == 0) {
            cc_text_printf(t, "| %d | — | ❓ missing | | | |\n", i + 1);
            continue;
        }
        int64_t n = 0;
        s = cc_store_get_run(store, m->run_id, r, err);
        if (s == CC_OK) s = cc_store_count_results(store, m->run_id, -1, &n, err);
        if (s != CC_OK) break;
        cc_text_printf(t, "| %d | %lld · ", i + 1, (long long)m->run_id);
        cc_text_md_code(t, r->uid, 1);
        cc_text_put(t, strcmp(r->status, "finished") == 0 ? " | ✅ " : " | ⚠️ ");
        cc_text_md(t, r->status);
        if (m->n_runs > 1) cc_text_printf(t, " (%d runs)", m->n_runs);
        cc_text_put(t, " | ");
        cc_text_md(t, r->hostname);
        cc_text_put(t, " | ");
        cc_text_md(t, r->scheduler_jobs[0] ? r->scheduler_jobs : "—");
        cc_text_printf(t, " | %lld |\n", (long long)n);
    }
    cc_text_put(t, "\n");
    free(r);
    return s;
}

cc_status cc_report_markdown(cc_db *store, int64_t run_id, const cc_report_options *opt,
                             char **out_md, cc_err *err)
{
    if (!store || !out_md) return cc_err_set(err, CC_ERR_ARG, "cc_report_markdown: NULL argument");
    cc_rdata d;
    cc_status s = cc_rdata_load(store, run_id, opt, &d, err);
    if (s != CC_OK) return s;

    cc_text t = {0};
    summary(&d, &t);
    cc_report_glance(&d, &t);
    targets(&d, &t);
    verdict_counts(&d, &t);
    s = shards_section(store, &d, &t, err);
    if (s != CC_OK) goto done;
    cc_report_scans(&d, &t);
    cc_report_models(&d, &t);
    cc_report_conformance(&d, &t);
    if (d.n_res > 0) {
        cc_report_matrix(&d, &t);
        cc_report_failures(&d, &t);
        cc_report_unsupported(&d, &t);
        cc_report_performance(&d, &t);
    }
    if (d.opt.machines >= 0) {
        s = cc_report_machines(store, 2, "Machines in this database", &t, err);
        if (s != CC_OK) goto done;
    }
    if (t.failed || !t.s) {
        s = cc_err_set(err, CC_ERR_NOMEM, "report: out of memory");
        goto done;
    }
    *out_md = t.s;
    t.s = NULL;

done:
    cc_text_free(&t);
    cc_rdata_free(&d);
    return s;
}
