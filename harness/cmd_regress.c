/* cmd_regress.c — the subcommands over stored runs: compare (the regression gate), history
 * (a case over runs with change points, or the runs grouped by machine), merge (shards and
 * machines into one database) and export (CSV). Every database is opened read-only except
 * the target of merge. Exit codes are in commands.h. */
#include "commands.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../reports/csv.h"
#include "../reports/regression.h"
#include "../reports/report.h"
#include "../results/merge.h"
#include "../results/shards.h"
#include "../results/store_query.h"
#include "cli.h"
#include "exit_codes.h"

#define EXIT_OK CC_EXIT_PASS
#define EXIT_REGRESSION CC_EXIT_FAIL
#define EXIT_USAGE CC_EXIT_USAGE
#define EXIT_INFRA CC_EXIT_INFRA
#define EXIT_NO_DATA CC_EXIT_NO_DATA

#define DEFAULT_DB "out/crosscheck.db"

static int complain(int code, const char *cmd, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int complain(int code, const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cc_cli_vsay(cmd, fmt, ap);
    va_end(ap);
    return code;
}

static int is_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* "FILE.db[:RUN]" or "RUN": the database and the run reference within it. */
static void split_ref(const char *spec, const char *default_db, char *db, size_t dbn, char *run,
                      size_t runn)
{
    if (is_file(spec)) {
        snprintf(db, dbn, "%s", spec);
        snprintf(run, runn, "latest");
        return;
    }
    const char *colon = strrchr(spec, ':');
    if (colon) {
        size_t len = (size_t)(colon - spec);
        char prefix[4096];
        snprintf(prefix, sizeof prefix, "%.*s", (int)len, spec);
        if (is_file(prefix) || (len > 3 && strcmp(prefix + len - 3, ".db") == 0)) {
            snprintf(db, dbn, "%s", prefix);
            snprintf(run, runn, "%s", colon[1] ? colon + 1 : "latest");
            return;
        }
    }
    snprintf(db, dbn, "%s", default_db);
    snprintf(run, runn, "%s", spec);
}

/* A database opened for reading: an older schema is read through an upgraded copy. */
typedef struct ro_db {
    cc_db *db;
    char snapshot[4096];
} ro_db;

/* Opens path read-only; 0 or the exit code after printing why. */
static int open_ro(const char *cmd, const char *path, ro_db *out)
{
    cc_err err = { 0 };
    out->db = NULL;
    out->snapshot[0] = '\0';
    if (!is_file(path)) return complain(EXIT_USAGE, cmd, "no results database at '%s'", path);
    if (cc_store_open_readonly(path, &out->db, out->snapshot, sizeof out->snapshot, &err) != CC_OK)
        return complain(EXIT_INFRA, cmd, "%s", err.msg);
    if (out->snapshot[0])
        fprintf(stderr, "crosscheck %s: '%s' has an older schema: reading an upgraded copy (the file is "
                        "left as it is)\n", cmd, path);
    return 0;
}

static void close_ro(ro_db *d)
{
    cc_store_close(d->db);
    cc_store_remove_snapshot(d->snapshot);
    d->db = NULL;
    d->snapshot[0] = '\0';
}

static int resolve(const char *cmd, cc_db *db, const char *path, const char *ref, int64_t *id)
{
    cc_err err = { 0 };
    cc_status st = cc_store_resolve_run(db, ref, id, &err);
    if (st == CC_ERR_ARG) return complain(EXIT_USAGE, cmd, "%s", err.msg);
    if (st != CC_OK) return complain(EXIT_INFRA, cmd, "%s", err.msg);
    if (*id == 0)
        return complain(EXIT_USAGE, cmd, "no run '%s' in '%s' (a run is an id, latest, latest~N, a tag, "
                                        "a uid or git commit prefix)", ref, path);
    return 0;
}

/* Parses a percentage "10" or "10%" (>= 0) into a fraction. */
static int parse_percent(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !(v >= 0) || isinf(v)) return -1;
    if (*end == '%') end++;
    if (*end) return -1;
    *out = v / 100;
    return 0;
}

static int parse_pos(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v > 0) || isinf(v)) return -1;
    *out = v;
    return 0;
}

static int parse_count(const char *s, int lo, int hi, int *out)
{
    uint64_t v;
    if (cc_cli_u64(s, &v) || v < (uint64_t)lo || v > (uint64_t)hi) return -1;
    *out = (int)v;
    return 0;
}

/* The folder of path with a trailing '/' ("" for the current folder) and the file name
 * without its extension (the chart prefix). */
static void path_parts(const char *path, char *dir, size_t dn, char *stem, size_t sn)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t len = (size_t)(base - path);
    if (len >= dn) len = dn - 1;
    memcpy(dir, path, len);
    dir[len] = '\0';
    const char *dot = strrchr(base, '.');
    len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    if (len >= sn) len = sn - 1;
    memcpy(stem, base, len);
    stem[len] = '\0';
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    int ok = fputs(text, f) >= 0;
    if (fclose(f)) ok = 0;
    return ok ? 0 : -1;
}

/* Writes a Markdown or HTML report with its charts: stdout ("-": Markdown without
 * charts, HTML with them inline), or a file with the charts beside it (Markdown) or
 * inline (HTML). 0, or the exit code after printing why. */
static int emit(const char *cmd, const char *out, const char *format, const char *md,
                const cc_charts *charts, const char *title)
{
    cc_err err = { 0 };
    char *html = NULL, *inl = NULL;
    const char *text = md;
    if (strcmp(format, "html") == 0) {
        if (cc_report_html(md, title, &html, &err) != CC_OK ||
            cc_report_inline_charts(html, charts, &inl, &err) != CC_OK) {
            free(html);
            return complain(EXIT_INFRA, cmd, "%s", err.msg);
        }
        text = inl;
    }
    int rc = 0;
    if (strcmp(out, "-") == 0) {
        fputs(text, stdout);
    } else if (write_file(out, text)) {
        rc = complain(EXIT_INFRA, cmd, "cannot write %s: %s", out, strerror(errno));
    } else if (strcmp(format, "md") == 0) {
        char dir[4096], stem[1024], path[8192];
        path_parts(out, dir, sizeof dir, stem, sizeof stem);
        for (int i = 0; i < charts->n && !rc; i++) {
            snprintf(path, sizeof path, "%s%s", dir, charts->c[i].name);
            if (write_file(path, charts->c[i].svg))
                rc = complain(EXIT_INFRA, cmd, "cannot write %s: %s", path, strerror(errno));
        }
    }
    free(html);
    free(inl);
    return rc;
}

static int check_format(const char *cmd, const char *format, int csv_ok)
{
    if (strcmp(format, "md") == 0 || strcmp(format, "html") == 0 || (csv_ok && strcmp(format, "csv") == 0))
        return 0;
    return complain(EXIT_USAGE, cmd, "unknown format '%s' (md, html%s)", format, csv_ok ? " or csv" : "");
}

static FILE *open_out(const char *cmd, const char *out, int *rc)
{
    if (strcmp(out, "-") == 0) return stdout;
    FILE *f = fopen(out, "w");
    if (!f) *rc = complain(EXIT_INFRA, cmd, "cannot write %s: %s", out, strerror(errno));
    return f;
}

static int close_out(const char *cmd, const char *out, FILE *f)
{
    if (f == stdout) return fflush(stdout) ? complain(EXIT_INFRA, cmd, "writing standard output failed") : 0;
    return fclose(f) ? complain(EXIT_INFRA, cmd, "cannot write %s: %s", out, strerror(errno)) : 0;
}

/* ---- compare -------------------------------------------------------------------------------- */

static const char compare_help[] =
    "crosscheck compare --baseline RUN [--candidate RUN] [options]\n"
    "  judges the candidate run against the baseline: verdict changes (passed -> failed,\n"
    "  crashed, ... is a regression whatever the timing), accuracy changes (bound ratio), and\n"
    "  timing changes: a result is slower (faster) when a two-sided Mann-Whitney U test on the\n"
    "  raw samples rejects, its median moved beyond --min-effect, AND its op family (the op's\n"
    "  timed results on that target) moved the same way: the family's median change beyond\n"
    "  the family threshold. A result that moves alone is unconfirmed (shown, not judged).\n"
    "  Only runs whose stable environment matches (CPU model, cores, libraries, devices) are\n"
    "  compared; load, governor and clocks are shown. Databases are opened read-only.\n"
    "  RUN: a run id, latest, latest~N, a tag, a uid or git commit prefix, or FILE.db[:RUN]\n"
    "  --db PATH           database of RUNs without a file (default out/crosscheck.db)\n"
    "  --candidate RUN     default: latest\n"
    "  --alpha A           significance level of the U test (default 0.01)\n"
    "  --min-effect PCT    minimum change of a result's median (default 10%)\n"
    "  --noise auto|off    auto (default): family threshold max(floor, factor x the spread of\n"
    "                      the family's level over the A/A runs in the baseline's database:\n"
    "                      same git commit and machine, started before the candidate); off, or\n"
    "                      no such run: the floor alone\n"
    "  --noise-factor K    default 2      --noise-floor PCT   family threshold floor, default 5%\n"
    "  --min-samples N     raw samples needed in each run to judge timing (default 5)\n"
    "  --no-timing         judge verdicts and accuracy only\n"
    "  --cross-env         compare even when the stable environment differs\n"
    "  --format md|html|csv  (default md)   --out PATH (default -: standard output; with a\n"
    "                      file, md charts are written beside it, html charts are inline)\n"
    "  --models            with --format csv: the model rows instead of the case rows\n"
    "  --max-rows N        rows listed per section (default 50)\n"
    "  exit: 0 no regression, 1 regression, 4 improvements only, 2 bad usage (no such database\n"
    "        or run), 3 database error, 5 nothing to judge (no results in common, environments differ)\n";

typedef struct compare_args {
    const char *db, *baseline, *candidate, *format, *out;
    int max_rows, models;
    cc_compare_options opt;
} compare_args;

static int parse_compare(int argc, char **argv, compare_args *a)
{
    cc_cli cli;
    cc_cli_init(&cli, "compare", compare_help);
    memset(a, 0, sizeof *a);
    a->db = DEFAULT_DB;
    a->candidate = "latest";
    a->format = "md";
    a->out = "-";
    cc_compare_options_default(&a->opt);
    for (int i = 0; i < argc; i++) {
        const char *v;
        int k;
        if ((k = cc_cli_value(&cli, argc, argv, &i, "--db", &v)) > 0) a->db = v;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--baseline", &v)) > 0) a->baseline = v;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--candidate", &v)) > 0) a->candidate = v;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--format", &v)) > 0) a->format = v;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--out", &v)) > 0) a->out = v;
        else if (!k && strcmp(argv[i], "--models") == 0) a->models = 1;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--alpha", &v)) > 0) {
            if (parse_pos(v, &a->opt.alpha) || a->opt.alpha >= 1)
                return complain(EXIT_USAGE, "compare", "--alpha takes a number in (0, 1), got '%s'", v);
        } else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--min-effect", &v)) > 0) {
            if (parse_percent(v, &a->opt.min_effect))
                return complain(EXIT_USAGE, "compare", "--min-effect takes a percentage, got '%s'", v);
        } else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--noise", &v)) > 0) {
            if (strcmp(v, "auto") == 0) a->opt.noise_auto = 1;
            else if (strcmp(v, "off") == 0) a->opt.noise_auto = 0;
            else return complain(EXIT_USAGE, "compare", "--noise is auto or off, got '%s'", v);
        } else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--noise-factor", &v)) > 0) {
            if (parse_pos(v, &a->opt.noise_factor))
                return complain(EXIT_USAGE, "compare", "--noise-factor takes a positive number, got '%s'", v);
        } else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--noise-floor", &v)) > 0) {
            if (parse_percent(v, &a->opt.noise_floor))
                return complain(EXIT_USAGE, "compare", "--noise-floor takes a percentage, got '%s'", v);
        } else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--min-samples", &v)) > 0) {
            if (parse_count(v, 1, 1000000, &a->opt.min_samples))
                return complain(EXIT_USAGE, "compare", "--min-samples takes a count >= 1, got '%s'", v);
        } else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--max-rows", &v)) > 0) {
            if (parse_count(v, 1, 1000000, &a->max_rows))
                return complain(EXIT_USAGE, "compare", "--max-rows takes a count >= 1, got '%s'", v);
        } else if (k < 0) return EXIT_USAGE;
        else if (strcmp(argv[i], "--no-timing") == 0) a->opt.timing = 0;
        else if (strcmp(argv[i], "--cross-env") == 0) a->opt.cross_env = 1;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return cc_cli_help(&cli);
        else return complain(EXIT_USAGE, "compare", "unknown option '%s'", argv[i]);
    }
    if (!a->baseline) return complain(EXIT_USAGE, "compare", "--baseline RUN is required (see --help)");
    if (check_format("compare", a->format, 1)) return EXIT_USAGE;
    return -1;
}

int cc_cmd_compare(int argc, char **argv)
{
    compare_args a;
    int rc = parse_compare(argc, argv, &a);
    if (rc >= 0) return rc;

    char base_path[4096], base_ref[1024], cand_path[4096], cand_ref[1024];
    split_ref(a.baseline, a.db, base_path, sizeof base_path, base_ref, sizeof base_ref);
    split_ref(a.candidate, a.db, cand_path, sizeof cand_path, cand_ref, sizeof cand_ref);
    ro_db base = { 0 }, cand = { 0 };
    cc_db *base_db = NULL, *cand_db = NULL;
    cc_comparison *c = NULL;
    char *md = NULL;
    cc_charts charts = { 0 };
    cc_err err = { 0 };
    int64_t base_id = 0, cand_id = 0;

    if ((rc = open_ro("compare", base_path, &base))) goto done;
    base_db = base.db;
    struct stat sa, sb;
    if (stat(base_path, &sa) == 0 && stat(cand_path, &sb) == 0 && sa.st_dev == sb.st_dev &&
        sa.st_ino == sb.st_ino)
        cand_db = base_db;
    else if ((rc = open_ro("compare", cand_path, &cand))) goto done;
    else cand_db = cand.db;
    if ((rc = resolve("compare", base_db, base_path, base_ref, &base_id))) goto done;
    if ((rc = resolve("compare", cand_db, cand_path, cand_ref, &cand_id))) goto done;

    if (cc_compare_runs(base_db, base_id, cand_db, cand_id, &a.opt, &c, &err) != CC_OK) {
        rc = complain(err.code == CC_ERR_ARG ? EXIT_USAGE : EXIT_INFRA, "compare", "%s", err.msg);
        goto done;
    }
    rc = cc_compare_exit_code(c->outcome);
    if (strcmp(a.format, "csv") == 0) {
        int orc = 0;
        FILE *f = open_out("compare", a.out, &orc);
        if (!f) {
            rc = orc;
            goto done;
        }
        cc_status st = a.models ? cc_csv_export_model_comparison(c, f, &err) : cc_csv_export_comparison(c, f, &err);
        int crc = close_out("compare", a.out, f);
        if (st != CC_OK) rc = complain(EXIT_INFRA, "compare", "%s", err.msg);
        else if (crc) rc = crc;
    } else {
        char dir[4096], stem[1024];
        path_parts(strcmp(a.out, "-") ? a.out : "compare.md", dir, sizeof dir, stem, sizeof stem);
        cc_regression_options ro;
        cc_regression_options_default(&ro);
        ro.max_rows = a.max_rows;
        ro.chart_prefix = strcmp(a.out, "-") || strcmp(a.format, "html") == 0 ? stem : NULL;
        ro.history_db = cand_db == base_db ? base_db : NULL;
        if (cc_report_regression(c, &ro, &md, &charts, &err) != CC_OK) {
            rc = complain(EXIT_INFRA, "compare", "%s", err.msg);
            goto done;
        }
        int erc = emit("compare", a.out, a.format, md, &charts, "crosscheck regression report");
        if (erc) {
            rc = erc;
            goto done;
        }
    }
    fprintf(stderr, "crosscheck compare: %s — %s (exit %d)\n", cc_outcome_name(c->outcome), c->reason,
            cc_compare_exit_code(c->outcome));
    if (strcmp(a.out, "-")) fprintf(stderr, "crosscheck compare: wrote %s\n", a.out);
done:
    free(md);
    cc_charts_free(&charts);
    cc_comparison_free(c);
    close_ro(&cand);
    close_ro(&base);
    return rc;
}

/* ---- history --------------------------------------------------------------------------------- */

static const char history_help[] =
    "crosscheck history [--case ID | --model NAME] [--target T] [options]\n"
    "  --case ID: the case's median time and verdict over the runs of the database, one series\n"
    "  per machine and target, with change points (a penalised piecewise-constant fit of the\n"
    "  log times: a step that persists is found, a one-run spike is not).\n"
    "  --model NAME: the model's latency p50 per target and precision, likewise.\n"
    "  Without either: the runs of the database grouped by machine.\n"
    "  --db PATH            (default out/crosscheck.db), opened read-only\n"
    "  --min-segment N      runs per level at least (default 3)\n"
    "  --penalty P          change-point penalty factor (default 3)\n"
    "  --format md|html|csv (default md)   --out PATH (default -: standard output)\n"
    "  exit: 0, 2 bad usage (no such database, a malformed case id), 3 database error,\n"
    "        5 no results for the case or model\n";

int cc_cmd_history(int argc, char **argv)
{
    cc_cli cli;
    cc_cli_init(&cli, "history", history_help);
    const char *db_path = DEFAULT_DB, *case_id = NULL, *target = NULL, *model = NULL;
    const char *format = "md", *out = "-";
    cc_changepoint_options cp;
    cc_changepoint_options_default(&cp);
    for (int i = 0; i < argc; i++) {
        const char *v;
        int k;
        if ((k = cc_cli_value(&cli, argc, argv, &i, "--db", &v)) > 0) db_path = v;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--case", &v)) > 0) case_id = v;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--target", &v)) > 0) target = v;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--model", &v)) > 0) model = v;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--format", &v)) > 0) format = v;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--out", &v)) > 0) out = v;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--min-segment", &v)) > 0) {
            if (parse_count(v, 1, 1000, &cp.min_segment))
                return complain(EXIT_USAGE, "history", "--min-segment takes a count >= 1, got '%s'", v);
        } else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--penalty", &v)) > 0) {
            if (parse_pos(v, &cp.penalty))
                return complain(EXIT_USAGE, "history", "--penalty takes a positive number, got '%s'", v);
        } else if (k < 0) return EXIT_USAGE;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return cc_cli_help(&cli);
        else return complain(EXIT_USAGE, "history", "unknown option '%s'", argv[i]);
    }
    if (case_id && model) return complain(EXIT_USAGE, "history", "give --case or --model, not both");
    if (target && !case_id && !model) return complain(EXIT_USAGE, "history", "--target goes with --case or --model");
    if (check_format("history", format, case_id || model)) return EXIT_USAGE;

    ro_db ro;
    int rc = open_ro("history", db_path, &ro);
    if (rc) return rc;
    cc_db *db = ro.db;
    cc_err err = { 0 };
    char *md = NULL;
    cc_charts charts = { 0 };
    cc_history *h = NULL;
    char dir[4096], stem[1024];
    path_parts(strcmp(out, "-") ? out : "history.md", dir, sizeof dir, stem, sizeof stem);
    const char *prefix = strcmp(out, "-") || strcmp(format, "html") == 0 ? stem : NULL;

    if (!case_id && !model) {
        if (cc_report_fleet(db, prefix, &md, &charts, &err) != CC_OK) {
            rc = complain(EXIT_INFRA, "history", "%s", err.msg);
            goto done;
        }
        rc = emit("history", out, format, md, &charts, "crosscheck runs by machine");
        goto done;
    }
    /* the canonical form of a case id when it parses (the database keys on it) */
    static cc_case parsed;
    const char *key = model;
    if (case_id) {
        if (cc_case_parse(case_id, &parsed, &err) != CC_OK) {
            rc = complain(EXIT_USAGE, "history", "--case: %s", err.msg);
            goto done;
        }
        key = parsed.id;
    }
    cc_status hs = case_id ? cc_history_case(db, key, target, &cp, &h, &err)
                           : cc_history_model(db, key, target, &cp, &h, &err);
    if (hs != CC_OK) {
        rc = complain(err.code == CC_ERR_ARG ? EXIT_USAGE : EXIT_INFRA, "history", "%s", err.msg);
        goto done;
    }
    if (h->n_series == 0) {
        rc = complain(EXIT_NO_DATA, "history", "no results for %s '%s'%s%s in '%s'", case_id ? "case" : "model",
                      key, target ? " on target " : "", target ? target : "", db_path);
        goto done;
    }
    if (strcmp(format, "csv") == 0) {
        int orc = 0;
        FILE *f = open_out("history", out, &orc);
        if (!f) {
            rc = orc;
            goto done;
        }
        cc_status st = cc_csv_export_history(h, f, &err);
        rc = close_out("history", out, f);
        if (st != CC_OK) rc = complain(EXIT_INFRA, "history", "%s", err.msg);
        goto done;
    }
    if (cc_report_history(h, prefix, &md, &charts, &err) != CC_OK) {
        rc = complain(EXIT_INFRA, "history", "%s", err.msg);
        goto done;
    }
    rc = emit("history", out, format, md, &charts, "crosscheck history");
done:
    free(md);
    cc_charts_free(&charts);
    cc_history_free(h);
    close_ro(&ro);
    if (!rc && strcmp(out, "-")) fprintf(stderr, "crosscheck history: wrote %s\n", out);
    return rc;
}

/* ---- merge ------------------------------------------------------------------------------------ */

/* After a merge: how many shard sets of `into` are complete, and a line per incomplete one
 * naming its missing and unfinished shards (results/shards.h). */
static int print_shard_sets(const char *into)
{
    cc_db *db = NULL;
    cc_shard_set *sets = NULL;
    int n = 0;
    cc_err err = { 0 };
    if (cc_store_open(into, 1, &db, &err) || cc_store_shard_sets(db, &sets, &n, &err)) {
        cc_store_close(db);
        return complain(EXIT_INFRA, "merge", "%s", err.msg);
    }
    cc_store_close(db);
    int complete = 0;
    for (int i = 0; i < n; i++) complete += sets[i].n_finished == sets[i].count;
    if (n) printf("shards: %d of %d shard set%s complete\n", complete, n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        const cc_shard_set *s = &sets[i];
        if (s->n_finished == s->count) continue;
        char missing[512], unfinished[512];
        cc_shard_set_list(s, 0, missing, sizeof missing);
        cc_shard_set_list(s, 2, unfinished, sizeof unfinished);
        printf("shards: incomplete: tag '%s', %d of %d finished; missing: %s; unfinished: %s (%s)\n", s->tag,
               s->n_finished, s->count, missing, unfinished, s->selection);
    }
    cc_shard_sets_free(sets, n);
    return EXIT_OK;
}

int cc_cmd_merge(int argc, char **argv)
{
    cc_cli cli;
    cc_cli_init(&cli, "merge",
                "crosscheck merge A.db [B.db ...] --into ALL.db\n"
                "  copies every run of the inputs (with its machine, targets, results and raw\n"
                "  samples) into ALL.db, created or upgraded as needed; a run already there (same\n"
                "  uid) is skipped, so merging a shard twice adds nothing, unless ALL.db holds it\n"
                "  unfinished and the input a later state (a shard resumed since): then it is\n"
                "  replaced. A run still running in its input is skipped. Inputs are opened\n"
                "  read-only. Merging a database into itself is refused. Then, when ALL.db holds\n"
                "  shards (run --shard, or a Slurm or Kubernetes array task), it says how many\n"
                "  shard sets are complete and names each incomplete one's missing and\n"
                "  unfinished shards (\"shards: incomplete: tag 'T', ...\").\n"
                "  exit: 0, 2 bad usage (no such input database), 3 database error\n");
    const char *into = NULL;
    const char **inputs = calloc((size_t)(argc ? argc : 1), sizeof *inputs);
    int n = 0, rc = -1;
    if (!inputs) return complain(EXIT_INFRA, "merge", "out of memory");
    for (int i = 0; i < argc && rc < 0; i++) {
        const char *v;
        int k;
        if ((k = cc_cli_value(&cli, argc, argv, &i, "--into", &v)) > 0) into = v;
        else if (k < 0) rc = EXIT_USAGE;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) rc = cc_cli_help(&cli);
        else if (argv[i][0] == '-') rc = complain(EXIT_USAGE, "merge", "unknown option '%s'", argv[i]);
        else inputs[n++] = argv[i];
    }
    if (rc < 0 && (!into || n == 0))
        rc = complain(EXIT_USAGE, "merge", "give the input databases and --into ALL.db (see --help)");
    if (rc < 0) {
        cc_merge_stats s;
        cc_err err = { 0 };
        cc_status st = cc_merge_databases(inputs, n, into, &s, &err);
        if (st != CC_OK) {
            rc = complain(st == CC_ERR_ARG ? EXIT_USAGE : EXIT_INFRA, "merge", "%s", err.msg);
        } else {
            printf("merged %d database%s into %s: %d run%s copied (%lld results, %lld samples, %lld model "
                   "results), %d already present, %d updated (resumed since), %d still running (skipped)\n",
                   n, n == 1 ? "" : "s", into, s.runs_copied, s.runs_copied == 1 ? "" : "s",
                   (long long)s.results, (long long)s.samples, (long long)s.model_results, s.runs_present,
                   s.runs_updated, s.runs_running);
            rc = print_shard_sets(into);
        }
    }
    free(inputs);
    return rc;
}

/* ---- export ------------------------------------------------------------------------------------- */

int cc_cmd_export(int argc, char **argv)
{
    cc_cli cli;
    cc_cli_init(&cli, "export",
                "crosscheck export --format csv [--run RUN|all] [--models] [--db PATH] [--out PATH]\n"
                "  every result of a run (default: latest) or of every run (all) as CSV, one row\n"
                "  per (case, target, regime) with its run, verdict, error metrics and timing;\n"
                "  with --models the model results instead, one row per (model, target, precision).\n"
                "  RUN: an id, latest, latest~N, a tag, a uid or git commit prefix, or FILE.db[:RUN]\n"
                "  exit: 0, 2 bad usage (no such database or run), 3 database error\n");
    const char *db_path = DEFAULT_DB, *run = "latest", *format = NULL, *out = "-";
    int models = 0;
    for (int i = 0; i < argc; i++) {
        const char *v;
        int k;
        if ((k = cc_cli_value(&cli, argc, argv, &i, "--db", &v)) > 0) db_path = v;
        else if (!k && strcmp(argv[i], "--models") == 0) models = 1;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--run", &v)) > 0) run = v;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--format", &v)) > 0) format = v;
        else if (!k && (k = cc_cli_value(&cli, argc, argv, &i, "--out", &v)) > 0) out = v;
        else if (k < 0) return EXIT_USAGE;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return cc_cli_help(&cli);
        else return complain(EXIT_USAGE, "export", "unknown option '%s'", argv[i]);
    }
    if (!format || strcmp(format, "csv") != 0)
        return complain(EXIT_USAGE, "export", "--format csv is required (the only export format)");
    char path[4096], ref[1024];
    split_ref(run, db_path, path, sizeof path, ref, sizeof ref);
    ro_db ro;
    int rc = open_ro("export", path, &ro);
    if (rc) return rc;
    cc_db *db = ro.db;
    int64_t id = 0;
    if (strcmp(ref, "all") != 0 && (rc = resolve("export", db, path, ref, &id))) {
        close_ro(&ro);
        return rc;
    }
    FILE *f = open_out("export", out, &rc);
    if (f) {
        cc_err err = { 0 };
        cc_status st = models ? cc_csv_export_model_results(db, id, f, &err) : cc_csv_export_results(db, id, f, &err);
        rc = close_out("export", out, f);
        if (st != CC_OK) rc = complain(EXIT_INFRA, "export", "%s", err.msg);
    }
    close_ro(&ro);
    if (!rc && strcmp(out, "-")) fprintf(stderr, "crosscheck export: wrote %s\n", out);
    return rc;
}
