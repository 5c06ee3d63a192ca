/* main.c — the crosscheck command line: list, run, report, dump, bench. The only place
 * that prints to the terminal and decides exit codes (the table: exit_codes.h). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cblas.h>
#include <cmark-gfm.h>
#include <gsl/gsl_version.h>
#include <sqlite3.h>

#include "../reports/report.h"
#include "../reports/junit.h"
#include "../results/store_query.h"
#include "cli.h"
#include "exit_codes.h"
#include "commands.h"
#include "lib/exec.h"
#include "lib/npy.h"
#include "lib/runner.h"
#include "lib/stats.h"
#include "../ops/sweep.h"

#ifndef CC_VERSION
#define CC_VERSION "0.0.0"
#endif
#include "cc_version.h" /* CC_GIT_COMMIT, generated at build time */

#define EXIT_PASS CC_EXIT_PASS
#define EXIT_FAIL CC_EXIT_FAIL
#define EXIT_USAGE CC_EXIT_USAGE
#define EXIT_INFRA CC_EXIT_INFRA
#define EXIT_INTERRUPTED CC_EXIT_INTERRUPTED

#define DEFAULT_DB "out/crosscheck.db"

static volatile int interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static int exit_for_status(cc_status st) { return cc_exit_for_status(st); }

static int fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cc_cli_vsay(NULL, fmt, ap);
    va_end(ap);
    return code;
}

/* Creates the parent folder of path when it is the default out/ folder. */
static int ensure_out_dir(const char *path)
{
    if (strncmp(path, "out/", 4) != 0) return 0;
    if (mkdir("out", 0777) && errno != EEXIST) return -1;
    return 0;
}

static void library_versions(char *buf, size_t n)
{
    snprintf(buf, n, "SQLite %s; GSL %s; OpenBLAS %s; cmark-gfm %s", sqlite3_libversion(),
             GSL_VERSION, openblas_get_config(), cmark_version_string());
}

/* ---- list ----------------------------------------------------------------------- */

static int cmd_list(int argc, char **argv)
{
    cc_cli cli;
    cc_cli_init(&cli, "list", "crosscheck list targets|ops|cases|models [--ops LIST] [--dtypes LIST] [--case ID] [--quick]\n"
                "                    [--tags edge,model,quick]\n"
                "  targets: every registered backend, whether it opens here and its device\n"
                "  ops:     the operator catalog with case counts (quick, full, edge, model)\n"
                "  cases:   the case ids a run would execute (after filters)\n"
                "  models:  the built-in models with parameters and MACs (computed and published)\n");
    const char *what = NULL;
    cc_selection sel;
    memset(&sel, 0, sizeof sel);
    int r = cc_cli_parse_selection(&cli, argc, argv, &sel, &what);
    if (r >= 0) return r;
    if (!what) return fail(EXIT_USAGE, "list: say what to list: targets, ops or cases");
    if (strcmp(what, "targets") == 0) {
        static cc_worker_config cfg;
        const cc_target_iface *ts[CC_RUN_MAX_TARGETS];
        const char *devs[CC_RUN_MAX_TARGETS];
        int n = cc_target_count();
        for (int i = 0; i < n && i < CC_RUN_MAX_TARGETS; i++) {
            ts[i] = cc_target_at(i);
            devs[i] = "";
        }
        cfg.targets = ts;
        cfg.devices = devs;
        cfg.n_targets = n;
        cfg.params.max_samples = 1;
        cc_worker *w;
        cc_err err = { 0 };
        if (cc_worker_create(&cfg, &w, &err)) return fail(EXIT_INFRA, "%s", err.msg);
        printf("%-10s %-11s %s\n", "target", "status", "device / reason");
        for (int i = 0; i < n; i++) {
            int avail = 0;
            cc_device_desc d;
            char why[CC_REASON_MAX];
            if (cc_worker_probe(w, i, 60, &avail, &d, why, sizeof why, &err)) {
                cc_worker_destroy(w);
                return fail(EXIT_INFRA, "%s", err.msg);
            }
            printf("%-10s %-11s %s%s\n", ts[i]->name, avail ? "available" : "unavailable",
                   avail ? d.name : why, ts[i]->hidden ? "  (test-only; select explicitly)" : "");
            if (avail && d.library[0]) printf("%-10s %-11s %s\n", "", "", d.library);
            if (avail && d.peak_gflops > 0)
                printf("%-10s %-11s FP32 peak %.0f GFLOP/s (%s)\n", "", "", d.peak_gflops,
                       d.peak_source[0] ? d.peak_source : "source unknown");
        }
        cc_worker_destroy(w);
        return EXIT_PASS;
    }
    if (strcmp(what, "models") == 0) return cc_cmd_list_models();
    if (strcmp(what, "ops") == 0) {
        printf("%-20s %-8s %-6s %-27s %6s %6s %6s %6s\n", "op", "family", "opset", "dtypes", "quick",
               "full", "edge", "model");
        int n = cc_catalog_count();
        for (int i = 0; i < n; i++) {
            const cc_op_def *op = cc_catalog_at(i);
            char dts[64] = "";
            for (int d = 0; d < CC_DTYPE_COUNT; d++)
                if (op->dtypes & CC_DTYPE_BIT(d)) {
                    strcat(dts, dts[0] ? "," : "");
                    strcat(dts, cc_dtype_name((cc_dtype)d));
                }
            cc_case *cs;
            int nq = 0, nf = 0;
            cc_err err = { 0 };
            if (cc_case_enumerate(op, CC_DTYPE_COUNT, 1, &cs, &nq, &err)) return fail(EXIT_INFRA, "%s", err.msg);
            free(cs);
            if (cc_case_enumerate(op, CC_DTYPE_COUNT, 0, &cs, &nf, &err)) return fail(EXIT_INFRA, "%s", err.msg);
            int ne = 0, nm = 0;
            for (int j = 0; j < nf; j++) {
                ne += (cs[j].tags & CC_SWEEP_EDGE) != 0;
                nm += (cs[j].tags & CC_SWEEP_MODEL) != 0;
            }
            free(cs);
            printf("%-20s %-8s %-6d %-27s %6d %6d %6d %6d\n", op->name, op->family, op->since_version,
                   dts, nq, nf, ne, nm);
        }
        return EXIT_PASS;
    }
    if (strcmp(what, "cases") == 0) {
        cc_case *cs;
        int n;
        cc_err err = { 0 };
        cc_status st = cc_select_cases(&sel, &cs, &n, &err);
        if (st) return fail(exit_for_status(st), "%s", err.msg);
        for (int i = 0; i < n; i++) printf("%s\n", cs[i].id);
        free(cs);
        return EXIT_PASS;
    }
    return fail(EXIT_USAGE, "list: unknown list '%s' (targets, ops, cases or models)", what);
}

/* ---- run -------------------------------------------------------------------------- */

typedef struct progress_state {
    int tty;
    int last_decile;
    uint64_t seed;
} progress_state;

static void show_progress(void *user, const cc_progress *p)
{
    progress_state *ps = user;
    switch (p->event) {
    case CC_PROGRESS_START:
        fprintf(stderr, "crosscheck: run %lld%s: %d jobs\n", (long long)p->run_id,
                p->resumed ? " (resumed)" : "", p->total);
        return;
    case CC_PROGRESS_TARGET:
        if (p->available)
            fprintf(stderr, "crosscheck: target %-8s %s\n", p->target, p->desc->name);
        else
            fprintf(stderr, "crosscheck: target %-8s unavailable: %s\n", p->target, p->reason);
        return;
    case CC_PROGRESS_SKIPPED:
    case CC_PROGRESS_RESULT:
        break;
    }
    if (p->event == CC_PROGRESS_RESULT) {
        const cc_result *r = p->result;
        if (r->verdict == CC_FAILED || r->verdict == CC_ERROR || r->verdict == CC_CRASHED ||
            r->verdict == CC_TIMEOUT) {
            if (ps->tty) fputs("\r\033[K", stderr);
            if (p->shrunk_from)
                fprintf(stderr, "shrunk    %-8s %-6s %s\n          from %s\n", r->target,
                        cc_regime_name(r->regime), r->case_id, p->shrunk_from);
            fprintf(stderr, "%-9s %-8s %-6s %s\n          %s\n          repro: crosscheck run --case '%s' --targets %s --seed %llu\n",
                    cc_verdict_name(r->verdict), r->target, cc_regime_name(r->regime), r->case_id,
                    r->reason, r->case_id, r->target, (unsigned long long)ps->seed);
        }
    }
    double eta = p->done > 0 ? p->elapsed / p->done * (p->total - p->done) : 0;
    if (ps->tty) {
        fprintf(stderr, "\r\033[K[%d/%d] %d not passed, %.0f s elapsed, ETA %.0f s", p->done, p->total,
                p->not_passed, p->elapsed, eta);
        if (p->done == p->total) fputc('\n', stderr);
    } else {
        int decile = p->total ? p->done * 10 / p->total : 10;
        if (decile != ps->last_decile) {
            ps->last_decile = decile;
            fprintf(stderr, "crosscheck: %d/%d jobs, %d not passed, %.0f s\n", p->done, p->total,
                    p->not_passed, p->elapsed);
        }
    }
}

static int cmd_run(int argc, char **argv, const char *command_line)
{
    cc_cli cli;
    cc_cli_init(&cli, "run", "crosscheck run [options]\n"
                "  --targets LIST    targets to run (default: every non-test target)\n"
                "  --target-path DIRS  also load backend plugins (*.so) from these folders\n"
                "  --ops LIST        ops to run (default: the whole catalog)\n"
                "  --dtypes LIST     case dtypes (f32,f16,bf16,i8,u8,i32,i64,bool)\n"
                "  --case ID         run exactly this case id\n"
                "  --quick           the quick sweep (a few cases per op)\n"
                "  --tags LIST       only sweep cases with one of these tags: edge (edge cases),\n"
                "                    model (layers of the reference models), quick\n"
                "  --seed N          run seed (default 1); every input derives from it\n"
                "  --timeout S       per-job time limit in seconds (default 120)\n"
                "  --mem-limit MIB   memory a case may use (default 8192): a case\n"
                "                    that needs more is unsupported, judged from its shapes\n"
                "  --db PATH         results database (default out/crosscheck.db)\n"
                "  --resume          finish the latest interrupted (or killed) run with the same\n"
                "                    selection; with none to finish, a new run\n"
                "  --tag TEXT        label stored with the run\n"
                "  --min-time S      minimum sampled time per timed case (default 0.1; quick 0.02)\n"
                "  --min-samples N   minimum timing samples (default 5)\n"
                "  --max-samples N   maximum timing samples (default 1000)\n"
                "  --no-timing       correctness only\n"
                "  --shard I/N       run only shard I of N (1 <= I <= N): cases split by a hash of their id.\n"
                "                    Without it, a Slurm array task or a Kubernetes Indexed Job pod runs its\n"
                "                    own shard: SLURM_ARRAY_TASK_ID (shard ID - MIN + 1 of the array's\n"
                "                    SLURM_ARRAY_TASK_COUNT; with CROSSCHECK_SHARD_COUNT=N the id is the\n"
                "                    shard number 1..N), JOB_COMPLETION_INDEX (shard index + 1 of\n"
                "                    CROSSCHECK_SHARD_COUNT, required); --shard 1/1 runs everything there\n"
                "  --cases-file F    run the case ids listed in CSV file F (first column, or a column named\n"
                "                    case; bad rows are named by line on stderr and skipped)\n"
                "  --random N        N cases drawn at random (from --seed) over the selected ops, each\n"
                "                    valid by the op's own checks; every failure is then shrunk to\n"
                "                    the smallest case that fails the same way, recorded beside it\n");
    static cc_run_options o;
    memset(&o, 0, sizeof o);
    int r = cc_cli_parse_run(&cli, argc, argv, &o);
    if (r >= 0) return r;
    o.command_line = command_line;
    char libs[1024];
    library_versions(libs, sizeof libs);
    o.libraries = libs;
    o.git_commit = CC_GIT_COMMIT;
    o.version = CC_VERSION;
    o.interrupt = &interrupted;
    if (ensure_out_dir(o.db_path)) return fail(EXIT_INFRA, "cannot create out/: %s", strerror(errno));
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    if (o.shard_source && strcmp(o.shard_source, "option") != 0)
        fprintf(stderr, "crosscheck: shard %d of %d, from %s%s%s\n", o.sel.shard_i, o.sel.shard_n, o.shard_source,
                o.scheduler_job && o.scheduler_job[0] ? ": " : "", o.scheduler_job ? o.scheduler_job : "");
    progress_state ps = { .tty = isatty(2), .last_decile = -1, .seed = o.seed };
    cc_run_summary sum;
    cc_err err = { 0 };
    cc_status st = cc_run_suite(&o, show_progress, &ps, &sum, &err);
    if (st) return fail(exit_for_status(st), "%s", err.msg);
    if (ps.tty) fputs("\r\033[K", stderr);
    int bad = sum.counts[CC_FAILED] + sum.counts[CC_ERROR] + sum.counts[CC_CRASHED] + sum.counts[CC_TIMEOUT];
    printf("run %lld: ", (long long)sum.run_id);
    for (int v = 0; v < CC_VERDICT_COUNT; v++)
        printf("%s%d %s", v ? ", " : "", sum.counts[v], cc_verdict_name((cc_verdict)v));
    printf(" (%.1f s%s)\n", sum.wall_s, sum.skipped ? ", resumed" : "");
    if (sum.interrupted) {
        fprintf(stderr, "crosscheck: interrupted; `crosscheck run --resume` with the same options finishes run %lld\n",
                (long long)sum.run_id);
        return EXIT_INTERRUPTED;
    }
    return bad ? EXIT_FAIL : EXIT_PASS;
}

/* ---- report ----------------------------------------------------------------------- */

static int write_text(const char *path, const char *text)
{
    if (!path || strcmp(path, "-") == 0) {
        errno = 0;
        if (fputs(text, stdout) < 0 || fflush(stdout) != 0) {
            if (!errno) errno = EIO;
            return -1;
        }
        return 0;
    }
    if (ensure_out_dir(path)) return -1;
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    int ok = fputs(text, f) >= 0;
    if (fclose(f)) ok = 0;
    return ok ? 0 : -1;
}

static void report_close(cc_db *store, const char *snap)
{
    cc_store_close(store);
    cc_store_remove_snapshot(snap);
}

static int cmd_report(int argc, char **argv)
{
    cc_cli cli;
    cc_cli_init(&cli, "report", "crosscheck report [--db PATH] [--run RUN] [--format md|html|junit] [--out PATH]\n"
                "  renders a run (an id, latest, latest~N, a tag or a uid prefix; default: the latest)\n"
                "  as GitHub Markdown, one self-contained HTML file or JUnit XML;\n"
                "  --out - (default) writes to standard output\n");
    const char *db = DEFAULT_DB, *run = "latest", *format = "md", *out = "-";
    for (int i = 0; i < argc; i++) {
        const char *v;
        int k;
        if ((k = cc_cli_value(&cli, argc, argv, &i, "--db", &v)) > 0) db = v;
        else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--run", &v)) > 0) run = v;
        else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--format", &v)) > 0) format = v;
        else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--out", &v)) > 0) out = v;
        else if (k < 0) return EXIT_USAGE;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return cc_cli_help(&cli);
        else return fail(EXIT_USAGE, "report: unknown option '%s'", argv[i]);
    }
    if (strcmp(format, "md") && strcmp(format, "html") && strcmp(format, "junit"))
        return fail(EXIT_USAGE, "report: unknown format '%s' (md, html or junit)", format);
    cc_db *store;
    cc_err err = { 0 };
    struct stat sb;
    if (stat(db, &sb)) return fail(EXIT_USAGE, "report: no database at %s (run `crosscheck run` first)", db);
    /* read-only; an older schema is read through an upgraded temporary copy */
    char snap[4096] = "";
    if (cc_store_open_readonly(db, &store, snap, sizeof snap, &err)) return fail(EXIT_INFRA, "%s", err.msg);
    int64_t run_id = 0;
    cc_status rs = cc_store_resolve_run(store, run, &run_id, &err);
    if (rs || !run_id) {
        report_close(store, snap);
        if (rs) return fail(exit_for_status(rs), "report: --run %s: %s", run, err.msg);
        if (!strcmp(run, "latest")) return fail(EXIT_USAGE, "report: %s holds no run", db);
        return fail(EXIT_USAGE, "report: no run '%s' in %s (a run is an id, latest, latest~N, a tag, a uid prefix)", run,
                    db);
    }
    if (strcmp(format, "junit") == 0) {
        char *xml = NULL;
        cc_status js = cc_report_junit(store, run_id, &xml, &err);
        report_close(store, snap);
        if (js) return fail(exit_for_status(js), "%s", err.msg);
        int w = write_text(out, xml);
        free(xml);
        if (w) return fail(EXIT_INFRA, "cannot write %s: %s", strcmp(out, "-") ? out : "standard output", strerror(errno));
        return EXIT_PASS;
    }
    cc_report_options ro;
    cc_report_options_default(&ro);
    char *md = NULL, *html = NULL;
    cc_status st = cc_report_markdown(store, run_id, &ro, &md, &err);
    report_close(store, snap);
    if (st) return fail(exit_for_status(st), "%s", err.msg);
    const char *text = md;
    if (strcmp(format, "html") == 0) {
        st = cc_report_html(md, "crosscheck report", &html, &err);
        if (st) {
            free(md);
            return fail(exit_for_status(st), "%s", err.msg);
        }
        text = html;
    }
    int w = write_text(out, text);
    free(md);
    free(html);
    if (w) return fail(EXIT_INFRA, "cannot write %s: %s", strcmp(out, "-") ? out : "standard output", strerror(errno));
    if (strcmp(out, "-")) fprintf(stderr, "crosscheck: wrote %s\n", out);
    return EXIT_PASS;
}

/* ---- dump ------------------------------------------------------------------------- */

static int dump_in_child(const cc_case *c, const cc_target_iface *t, const char *dir, uint64_t seed,
                         cc_regime regime)
{
    cc_err err = { 0 };
    cc_exec_golden g;
    if (cc_exec_golden_make(c, seed, regime, &g, &err)) return fail(EXIT_INFRA, "golden: %s", err.msg);
    char path[4096];
    for (int i = 0; i < g.inst.n_in; i++) {
        if (!g.inst.present[i]) continue;
        snprintf(path, sizeof path, "%s/input_%d_%s.npy", dir, i, c->op->inputs[i].name);
        if (cc_npy_write(path, &g.inst.inputs[i], &err)) return fail(EXIT_INFRA, "%s", err.msg);
    }
    for (int j = 0; j < g.inst.n_out; j++) {
        snprintf(path, sizeof path, "%s/golden_%d.npy", dir, j);
        if (g.gold[j].exact) { /* 64-bit integers: in their dtype, exactly */
            cc_tensor t = { 0 };
            if (cc_tensor_alloc(&t, g.gold[j].dtype, &g.gold[j].shape, &err)) return fail(EXIT_INFRA, "%s", err.msg);
            for (int64_t i = 0; i < cc_shape_numel(&g.gold[j].shape); i++) cc_golden_store(&g.gold[j], t.data, i);
            cc_status st = cc_npy_write(path, &t, &err);
            cc_tensor_free(&t);
            if (st) return fail(EXIT_INFRA, "%s", err.msg);
        } else if (cc_npy_write_f64(path, g.gold[j].value, &g.gold[j].shape, &err)) {
            return fail(EXIT_INFRA, "%s", err.msg);
        }
        snprintf(path, sizeof path, "%s/golden_bound_magnitude_%d.npy", dir, j);
        if (cc_npy_write_f64(path, g.gold[j].mag, &g.gold[j].shape, &err)) return fail(EXIT_INFRA, "%s", err.msg);
    }
    void *ctx = NULL;
    cc_device_desc desc;
    cc_result res;
    cc_exec_result_init(&res, c, t->name, regime, seed);
    cc_tensor got[CC_MAX_IO];
    memset(got, 0, sizeof got);
    if (t->open("", &ctx, &desc, &err)) {
        res.verdict = CC_UNSUPPORTED;
        snprintf(res.reason, sizeof res.reason, "target unavailable: %.200s", err.msg);
    } else {
        double sample;
        int n = 0;
        cc_exec_params p = { 0 };
        p.max_samples = 1;
        cc_exec_target(&g, t, ctx, &p, &res, &sample, &n, got);
        for (int j = 0; j < g.inst.n_out; j++) {
            if (!got[j].data) continue;
            snprintf(path, sizeof path, "%s/%s_%d.npy", dir, t->name, j);
            if (cc_npy_write(path, &got[j], &err)) return fail(EXIT_INFRA, "%s", err.msg);
            cc_tensor_free(&got[j]);
        }
        t->close(ctx);
    }
    snprintf(path, sizeof path, "%s/case.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) return fail(EXIT_INFRA, "cannot write %s: %s", path, strerror(errno));
    const cc_tol *tol = cc_policy_lookup(c->op->name, cc_case_dtype(c));
    fprintf(f, "case: %s\ntarget: %s\nregime: %s\nseed: %llu\nverdict: %s\nreason: %s\n", c->id, t->name,
            cc_regime_name(regime), (unsigned long long)seed, cc_verdict_name(res.verdict), res.reason);
    fprintf(f, "policy: version %d, c=%g r=%g atol=%g gamma=%s, exact-in-exact-regime=%d\n", CC_POLICY_VERSION,
            tol->c, tol->r, tol->atol, tol->sqrt_gamma ? "sqrt(K)" : "K", tol->exact);
    for (int j = 0; j < g.inst.n_out; j++)
        fprintf(f, "output %d: %s, K=%g, u=%g, u_out=%g\n", j, cc_dtype_name(g.gold[j].dtype), g.gold[j].k,
                cc_dtype_unit_roundoff(cc_case_dtype(c)), cc_dtype_unit_roundoff(g.gold[j].dtype));
    fprintf(f, "bound: |y - golden| <= atol + c*gamma(K)*u*magnitude + r*u_out*|golden| + min_subnormal(out)/2\n");
    fprintf(f, "metrics: max_abs=%g max_rel=%g max_ulp=%g nmse=%g cosine=%g bound_ratio=%g\n", res.metrics.max_abs,
            res.metrics.max_rel, res.metrics.max_ulp, res.metrics.nmse, res.metrics.cosine, res.metrics.bound_ratio);
    fprintf(f, "files: input_<i>_<name>.npy (bf16 widened to float32), golden_<j>.npy (float64),\n"
               "       golden_bound_magnitude_<j>.npy, %s_<j>.npy (the target's output)\n", t->name);
    fclose(f);
    cc_exec_golden_release(&g);
    printf("%s: %s on %s (%s regime, seed %llu) -> %s\n", dir, c->id, t->name, cc_regime_name(regime),
           (unsigned long long)seed, cc_verdict_name(res.verdict));
    return res.verdict == CC_PASSED || res.verdict == CC_MISTRUSTED || res.verdict == CC_UNSUPPORTED ? EXIT_PASS
                                                                                                       : EXIT_FAIL;
}

static int cmd_dump(int argc, char **argv)
{
    cc_cli cli;
    cc_cli_init(&cli, "dump", "crosscheck dump --case ID --target T --out DIR [--seed N] [--regime exact|random]\n"
                "  writes the case's inputs, the golden output and the target's output as NumPy .npy\n"
                "  files and case.txt (case id, seed, tolerances) so a failure can be reproduced\n");
    const char *case_id = NULL, *target = NULL, *dir = NULL, *regime_s = "random";
    uint64_t seed = 1;
    for (int i = 0; i < argc; i++) {
        const char *v;
        int k;
        if ((k = cc_cli_value(&cli, argc, argv, &i, "--case", &v)) > 0) case_id = v;
        else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--target", &v)) > 0) target = v;
        else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--out", &v)) > 0) dir = v;
        else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--regime", &v)) > 0) regime_s = v;
        else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--seed", &v)) > 0) {
            if (cc_cli_u64(v, &seed)) return fail(EXIT_USAGE, "dump: --seed takes a non-negative integer, got '%s'", v);
        } else if (k < 0) return EXIT_USAGE;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return cc_cli_help(&cli);
        else return fail(EXIT_USAGE, "dump: unknown option '%s'", argv[i]);
    }
    if (!case_id || !target || !dir) return fail(EXIT_USAGE, "dump: --case, --target and --out are required");
    cc_regime regime;
    if (strcmp(regime_s, "exact") == 0) regime = CC_REGIME_EXACT;
    else if (strcmp(regime_s, "random") == 0) regime = CC_REGIME_RANDOM;
    else return fail(EXIT_USAGE, "dump: --regime is exact or random, got '%s'", regime_s);
    const cc_target_iface *t = cc_target_find(target);
    if (!t) return fail(EXIT_USAGE, "dump: unknown target '%s' (see `crosscheck list targets`)", target);
    cc_case c;
    cc_err err = { 0 };
    if (cc_case_parse(case_id, &c, &err)) return fail(EXIT_USAGE, "%s", err.msg);
    if (mkdir(dir, 0777) && errno != EEXIST) return fail(EXIT_INFRA, "cannot create %s: %s", dir, strerror(errno));
    uint64_t case_seed = cc_exec_case_seed(c.id, seed, regime);
    /* the target runs in a child: a crash there must not lose the golden files */
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return fail(EXIT_INFRA, "fork: %s", strerror(errno));
    if (pid == 0) _exit(dump_in_child(&c, t, dir, case_seed, regime));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (WIFSIGNALED(status))
        return fail(EXIT_FAIL, "dump: %s crashed on the case (signal %d, %s); the inputs written so far are in %s",
                    target, WTERMSIG(status), strsignal(WTERMSIG(status)), dir);
    return WEXITSTATUS(status);
}

/* ---- main ------------------------------------------------------------------------- */

static const char *usage =
    "crosscheck — cross-hardware operator compatibility and benchmarking\n"
    "\n"
    "usage: crosscheck <command> [options]   (crosscheck <command> --help for details)\n"
    "  list targets|ops|cases|models   what can run here\n"
    "  run                      run cases on targets, store results in the database\n"
    "  report                   render a run as Markdown or HTML\n"
    "  dump                     write one case's inputs and outputs as .npy files\n"
    "  model list|run           reference models and ONNX files on targets, in every precision\n"
    "  conformance              the official ONNX node tests on targets, against their expected outputs\n"
    "  scan FILE.onnx|DIR       a model's op support per target, before running it\n"
    "  bench overhead           the harness's timing overhead against a bare loop\n"
    "  compare                  judge a run against a baseline (the regression gate: exit 1 on regression)\n"
    "  history                  a case or model over the runs of a database, with change points\n"
    "  merge                    merge the databases of shards or machines into one\n"
    "  export                   results as CSV\n"
    "\n"
    "backend plugins (*.so) load from --target-path DIR[:DIR] (list, run, model, dump, bench),\n"
    "then $CROSSCHECK_TARGET_PATH, then the install's lib/crosscheck/targets\n"
    "\n"
    CC_EXIT_CODES_HELP;

int main(int argc, char **argv)
{
    /* OpenMP threads that spin while they wait (libgomp's default) collapse on a shared
     * machine: with any other load, a 1 ms convolution on two cores took 16 ms. libgomp
     * reads its wait policy when it loads, so the policy is set here and the program
     * re-executed once; a user's own OMP_WAIT_POLICY is kept. */
    if (!getenv("OMP_WAIT_POLICY") && setenv("OMP_WAIT_POLICY", "passive", 1) == 0) execv("/proc/self/exe", argv);
    if (argc < 2) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage, stdout);
        return EXIT_PASS;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("crosscheck %s (%s)\n", CC_VERSION, CC_GIT_COMMIT);
        return EXIT_PASS;
    }
    char command_line[2048];
    size_t len = 0;
    command_line[0] = '\0';
    for (int i = 0; i < argc && len < sizeof command_line; i++)
        len += (size_t)snprintf(command_line + len, sizeof command_line - len, "%s%s", i ? " " : "", argv[i]);
    if (!strcmp(cmd, "list") || !strcmp(cmd, "run") || !strcmp(cmd, "dump") || !strcmp(cmd, "bench") ||
        !strcmp(cmd, "model") || !strcmp(cmd, "conformance") || !strcmp(cmd, "scan")) {
        int sub_argc = argc - 2, r = cc_cli_load_plugins(cmd, &sub_argc, argv + 2);
        if (r >= 0) return r;
        argc = sub_argc + 2;
    }
    if (strcmp(cmd, "list") == 0) return cmd_list(argc - 2, argv + 2);
    if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2, command_line);
    if (strcmp(cmd, "report") == 0) return cmd_report(argc - 2, argv + 2);
    if (strcmp(cmd, "dump") == 0) return cmd_dump(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0) return cc_bench_main(argc - 2, argv + 2);
    if (strcmp(cmd, "compare") == 0) return cc_cmd_compare(argc - 2, argv + 2);
    if (strcmp(cmd, "history") == 0) return cc_cmd_history(argc - 2, argv + 2);
    if (strcmp(cmd, "merge") == 0) return cc_cmd_merge(argc - 2, argv + 2);
    if (strcmp(cmd, "export") == 0) return cc_cmd_export(argc - 2, argv + 2);
    if (strcmp(cmd, "scan") == 0) {
        char libs[1024];
        library_versions(libs, sizeof libs);
        return cc_cmd_scan(argc - 2, argv + 2, command_line, libs, CC_GIT_COMMIT, CC_VERSION);
    }
    if (strcmp(cmd, "conformance") == 0) {
        char libs[1024];
        library_versions(libs, sizeof libs);
        return cc_cmd_conformance(argc - 2, argv + 2, command_line, libs, CC_GIT_COMMIT, CC_VERSION);
    }
    if (strcmp(cmd, "model") == 0) {
        char libs[1024];
        library_versions(libs, sizeof libs);
        return cc_cmd_model(argc - 2, argv + 2, command_line, libs, CC_GIT_COMMIT, CC_VERSION);
    }
    return fail(EXIT_USAGE, "unknown command '%s' (list, run, report, dump, model, scan, conformance, bench; --help)", cmd);
}
