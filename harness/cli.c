/* cli.c — option parsing for the subcommands: names are validated against the catalog
 * and the target registry, numbers are checked, and every problem is one line. */
#include "cli.h"

#include "lib/cases_csv.h"
#include "lib/shard.h"
#include "../ops/sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../targets/loader.h"

static int usage_error(const cc_cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cc_cli_vsay(const char *cmd, const char *fmt, va_list ap)
{
    char raw[2048], line[4096];
    vsnprintf(raw, sizeof raw, fmt, ap);
    cc_escape_controls(line, sizeof line, raw);
    if (cmd && cmd[0]) fprintf(stderr, "crosscheck %s: %s\n", cmd, line);
    else fprintf(stderr, "crosscheck: %s\n", line);
}

void cc_cli_say(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cc_cli_vsay(cmd, fmt, ap);
    va_end(ap);
}

static int usage_error(const cc_cli *cli, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cc_cli_vsay(cli->cmd, fmt, ap);
    va_end(ap);
    return 2;
}

void cc_cli_init(cc_cli *cli, const char *cmd, const char *help)
{
    cli->cmd = cmd;
    cli->help = help;
}

int cc_cli_help(const cc_cli *cli)
{
    fputs(cli->help, stdout);
    return 0;
}

int cc_cli_value(const cc_cli *cli, int argc, char **argv, int *i, const char *flag, const char **v)
{
    size_t fl = strlen(flag);
    const char *a = argv[*i];
    if (strncmp(a, flag, fl) != 0) return 0;
    if (a[fl] == '=') {
        *v = a + fl + 1;
        return 1;
    }
    if (a[fl] != '\0') return 0;
    if (*i + 1 >= argc) {
        usage_error(cli, "%s needs a value", flag);
        return -1;
    }
    *v = argv[++*i];
    return 1;
}

int cc_cli_u64(const char *s, uint64_t *out)
{
    if (!s[0] || s[0] == '-') return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !s[0] || !(v >= 0)) return -1;
    *out = v;
    return 0;
}

/* Calls fn on each comma-separated item of list; stops at the first non-(-1) return. */
/* Calls fn on each item of a comma-separated list. An empty list or an empty item (",,",
 * a leading or trailing comma) is refused: an empty selection never means "everything". */
static int each_item(const cc_cli *cli, const char *opt, const char *list, int (*fn)(void *, const char *),
                     void *user)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", list) >= (int)sizeof buf)
        return usage_error(cli, "%s: list longer than %zu bytes", opt, sizeof buf - 1);
    if (!buf[0]) return usage_error(cli, "%s takes a comma-separated list, got an empty one", opt);
    for (char *tok = buf, *end;; tok = end + 1) {
        end = strchr(tok, ',');
        if (end) *end = '\0';
        if (!tok[0]) return usage_error(cli, "%s: empty item in '%s'", opt, list);
        int r = fn(user, tok);
        if (r >= 0) return r;
        if (!end) break;
    }
    return -1;
}

typedef struct sel_ctx {
    const cc_cli *cli;
    cc_selection *sel;
    cc_run_options *o;
} sel_ctx;

static int add_op(void *user, const char *name)
{
    sel_ctx *c = user;
    const cc_op_def *op = cc_catalog_find(name);
    if (!op) {
        int n = cc_catalog_count();
        for (int i = 0; i < n && !op; i++)
            if (strcasecmp(cc_catalog_at(i)->name, name) == 0) op = cc_catalog_at(i);
    }
    if (!op) return usage_error(c->cli, "unknown op '%s' (see `crosscheck list ops`)", name);
    for (int i = 0; i < c->sel->n_ops; i++)
        if (c->sel->ops[i] == op) return -1;
    if (c->sel->n_ops == CC_RUN_MAX_OPS) return usage_error(c->cli, "too many ops");
    c->sel->ops[c->sel->n_ops++] = op;
    return -1;
}

static int add_dtype(void *user, const char *name)
{
    sel_ctx *c = user;
    cc_dtype d;
    if (cc_dtype_parse(name, &d))
        return usage_error(c->cli, "unknown dtype '%s' (f32, f16, bf16, i8, u8, i32, i64, bool)", name);
    c->sel->dtypes |= CC_DTYPE_BIT(d);
    return -1;
}

static int add_tag(void *user, const char *name)
{
    sel_ctx *c = user;
    if (strcmp(name, "edge") == 0) c->sel->tags |= CC_SWEEP_EDGE;
    else if (strcmp(name, "model") == 0) c->sel->tags |= CC_SWEEP_MODEL;
    else if (strcmp(name, "quick") == 0) c->sel->tags |= CC_SWEEP_QUICK;
    else return usage_error(c->cli, "unknown tag '%s' (edge, model, quick)", name);
    return -1;
}

static int add_target(void *user, const char *spec)
{
    sel_ctx *c = user;
    cc_run_options *o = c->o;
    if (strcmp(spec, "all") == 0) {
        for (int i = 0; i < cc_target_count(); i++) {
            const cc_target_iface *t = cc_target_at(i);
            if (t->hidden) continue;
            int dup = 0;
            for (int k = 0; k < o->n_targets; k++) dup |= o->targets[k] == t;
            if (dup || o->n_targets == CC_RUN_MAX_TARGETS) continue;
            o->devices[o->n_targets] = "";
            o->targets[o->n_targets++] = t;
        }
        return -1;
    }
    char name[64];
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (len >= sizeof name) return usage_error(c->cli, "target name too long: '%s'", spec);
    memcpy(name, spec, len);
    name[len] = '\0';
    const cc_target_iface *t = cc_target_find(name);
    if (!t) return usage_error(c->cli, "unknown target '%s' (see `crosscheck list targets`)", name);
    for (int k = 0; k < o->n_targets; k++)
        if (o->targets[k] == t && strcmp(o->devices[k], colon ? colon + 1 : "") == 0) return -1;
    if (o->n_targets == CC_RUN_MAX_TARGETS) return usage_error(c->cli, "too many targets");
    o->devices[o->n_targets] = colon ? strdup(colon + 1) : "";
    o->targets[o->n_targets++] = t;
    return -1;
}

/* One selection option at argv[*i]: 1 consumed, 0 not a selection option, else exit code + 2. */
static int selection_option(const cc_cli *cli, int argc, char **argv, int *i, cc_selection *sel)
{
    const char *v;
    int k;
    sel_ctx c = { cli, sel, NULL };
    if ((k = cc_cli_value(cli, argc, argv, i, "--ops", &v)) != 0) {
        if (k < 0) return 4;
        int r = each_item(cli, "--ops", v, add_op, &c);
        return r >= 0 ? r + 2 : 1;
    }
    if ((k = cc_cli_value(cli, argc, argv, i, "--dtypes", &v)) != 0) {
        if (k < 0) return 4;
        int r = each_item(cli, "--dtypes", v, add_dtype, &c);
        return r >= 0 ? r + 2 : 1;
    }
    if ((k = cc_cli_value(cli, argc, argv, i, "--case", &v)) != 0) {
        if (k < 0) return 4;
        if (sel->case_id) {
            usage_error(cli, "--case is given twice (several cases: --cases-file FILE)");
            return 4;
        }
        cc_case tmp;
        cc_err err = { 0 };
        if (cc_case_parse(v, &tmp, &err)) {
            usage_error(cli, "%s", err.msg);
            return 4;
        }
        sel->case_id = v;
        return 1;
    }
    if ((k = cc_cli_value(cli, argc, argv, i, "--tags", &v)) != 0) {
        if (k < 0) return 4;
        int r = each_item(cli, "--tags", v, add_tag, &c);
        return r >= 0 ? r + 2 : 1;
    }
    if (strcmp(argv[*i], "--quick") == 0) {
        sel->quick = 1;
        return 1;
    }
    return 0;
}

int cc_cli_parse_selection(const cc_cli *cli, int argc, char **argv, cc_selection *sel,
                           const char **positional)
{
    for (int i = 0; i < argc; i++) {
        int r = selection_option(cli, argc, argv, &i, sel);
        if (r == 1) continue;
        if (r >= 2) return r - 2;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return cc_cli_help(cli);
        if (argv[i][0] != '-' && positional && !*positional) {
            *positional = argv[i];
            continue;
        }
        return usage_error(cli, "unknown option '%s'", argv[i]);
    }
    return -1;
}

static const char *process_env(const char *name, void *user)
{
    (void)user;
    return getenv(name);
}

static void bad_csv_row(void *user, int line, const char *message)
{
    fprintf(stderr, "crosscheck run: %s:%d: %s\n", (const char *)user, line, message);
}

int cc_cli_parse_run(const cc_cli *cli, int argc, char **argv, cc_run_options *o)
{
    memset(o, 0, sizeof *o);
    o->db_path = "out/crosscheck.db";
    o->seed = 1;
    o->timeout_s = 120;
    o->mem_limit_mb = 8192;
    o->params.time_it = 1;
    o->params.warmup = 2;
    o->params.min_time = -1;
    o->params.min_samples = 5;
    o->params.max_samples = 1000;
    o->params.max_time = 2.0;
    sel_ctx c = { cli, &o->sel, o };
    int max_given = 0;
    for (int i = 0; i < argc; i++) {
        const char *v;
        int k, r = selection_option(cli, argc, argv, &i, &o->sel);
        if (r == 1) continue;
        if (r >= 2) return r - 2;
        if ((k = cc_cli_value(cli, argc, argv, &i, "--targets", &v)) != 0) {
            if (k < 0) return 2;
            r = each_item(cli, "--targets", v, add_target, &c);
            if (r >= 0) return r;
        } else if ((k = cc_cli_value(cli, argc, argv, &i, "--db", &v)) != 0) {
            if (k < 0) return 2;
            o->db_path = v;
        } else if ((k = cc_cli_value(cli, argc, argv, &i, "--tag", &v)) != 0) {
            if (k < 0) return 2;
            o->tag = v;
        } else if ((k = cc_cli_value(cli, argc, argv, &i, "--seed", &v)) != 0) {
            if (k < 0) return 2;
            if (cc_cli_u64(v, &o->seed)) return usage_error(cli, "--seed takes a non-negative integer, got '%s'", v);
        } else if ((k = cc_cli_value(cli, argc, argv, &i, "--timeout", &v)) != 0) {
            if (k < 0) return 2;
            if (parse_double(v, &o->timeout_s) || !(o->timeout_s > 0 && o->timeout_s <= 604800))
                return usage_error(cli, "--timeout takes seconds, more than 0 and at most 604800 (a week), got '%s'", v);
        } else if ((k = cc_cli_value(cli, argc, argv, &i, "--mem-limit", &v)) != 0) {
            uint64_t mb;
            if (k < 0) return 2;
            if (cc_cli_u64(v, &mb) || mb < 1 || mb > ((uint64_t)1 << 30))
                return usage_error(cli, "--mem-limit takes MiB as an integer of at least 1, got '%s'", v);
            o->mem_limit_mb = (size_t)mb;
        } else if ((k = cc_cli_value(cli, argc, argv, &i, "--min-time", &v)) != 0) {
            if (k < 0) return 2;
            if (parse_double(v, &o->params.min_time) || !(o->params.min_time >= 0 && o->params.min_time <= 3600))
                return usage_error(cli, "--min-time takes seconds from 0 to 3600, got '%s'", v);
        } else if ((k = cc_cli_value(cli, argc, argv, &i, "--min-samples", &v)) != 0) {
            uint64_t n;
            if (k < 0) return 2;
            if (cc_cli_u64(v, &n) || n < 1 || n > 100000)
                return usage_error(cli, "--min-samples takes 1..100000, got '%s'", v);
            o->params.min_samples = (int)n;
        } else if ((k = cc_cli_value(cli, argc, argv, &i, "--max-samples", &v)) != 0) {
            uint64_t n;
            if (k < 0) return 2;
            if (cc_cli_u64(v, &n) || n < 1 || n > 100000)
                return usage_error(cli, "--max-samples takes 1..100000, got '%s'", v);
            o->params.max_samples = (int)n;
            max_given = 1;
        } else if ((k = cc_cli_value(cli, argc, argv, &i, "--shard", &v)) != 0) {
            cc_err err = { 0 };
            if (k < 0) return 2;
            if (cc_shard_parse(v, &o->sel.shard_i, &o->sel.shard_n, &err)) return usage_error(cli, "%s", err.msg);
            o->shard_source = CC_SHARD_SOURCE_OPTION;
        } else if ((k = cc_cli_value(cli, argc, argv, &i, "--cases-file", &v)) != 0) {
            cc_err err = { 0 };
            cc_case *cases = NULL;
            int n = 0;
            if (k < 0) return 2;
            if (cc_cases_from_csv(v, &cases, &n, bad_csv_row, (void *)v, &err)) return usage_error(cli, "%s", err.msg);
            if (n == 0) return usage_error(cli, "%s: no valid case id", v);
            o->sel.cases = cases;
            o->sel.n_cases = n;
            o->sel.cases_file = v;
        } else if ((k = cc_cli_value(cli, argc, argv, &i, "--random", &v)) != 0) {
            uint64_t n;
            if (k < 0) return 2;
            if (cc_cli_u64(v, &n) || n < 1 || n > 10000000)
                return usage_error(cli, "--random takes a number of cases from 1 to 10000000, got '%s'", v);
            o->sel.random_n = (int)n;
        } else if (strcmp(argv[i], "--resume") == 0) {
            o->resume = 1;
        } else if (strcmp(argv[i], "--no-timing") == 0) {
            o->params.time_it = 0;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            return cc_cli_help(cli);
        } else {
            return usage_error(cli, "unknown option '%s'", argv[i]);
        }
    }
    if (max_given && o->params.max_samples < o->params.min_samples)
        return usage_error(cli, "--max-samples %d is below --min-samples %d", o->params.max_samples,
                           o->params.min_samples);
    if (o->sel.random_n > 0 && (o->sel.case_id || o->sel.cases || o->sel.quick || o->sel.tags))
        return usage_error(cli, "--random draws its own cases: it does not go with --case, --cases-file, --quick or --tags");
    if (o->sel.tags && (o->sel.case_id || o->sel.cases))
        return usage_error(cli, "--tags picks cases of the sweep: it does not go with --case or --cases-file");
    o->sel.random_seed = o->seed;
    if (o->sel.shard_n == 0) {
        /* no --shard: a scheduler's array task takes its shard from the environment */
        static cc_shard_origin origin;
        cc_err err = { 0 };
        if (cc_shard_from_env(process_env, NULL, &origin, &err)) return usage_error(cli, "%s", err.msg);
        if (origin.count > 0) {
            o->sel.shard_i = origin.index;
            o->sel.shard_n = origin.count;
            o->shard_source = origin.source;
            o->scheduler_job = origin.job;
        }
    } else {
        /* --shard inside an array task: the shard is the option's, the task still named */
        static cc_shard_origin origin;
        cc_err err = { 0 };
        if (cc_shard_from_env(process_env, NULL, &origin, &err) == CC_OK && origin.job[0])
            o->scheduler_job = origin.job;
    }
    if (o->n_targets == 0) add_target(&c, "all");
    if (o->params.min_time < 0) o->params.min_time = o->sel.quick ? 0.02 : 0.1;
    if (o->params.max_samples < o->params.min_samples) o->params.max_samples = o->params.min_samples;
    return -1;
}

/* ---- plugins ---------------------------------------------------------------------- */

static void report_plugin(void *user, const cc_plugin_event *ev)
{
    const char *cmd = user;
    if (ev->loaded) return;
    if (ev->folder)
        fprintf(stderr, "crosscheck %s: plugin folder %s cannot be read: %s\n", cmd, ev->path, ev->reason);
    else if (ev->target[0])
        fprintf(stderr, "crosscheck %s: plugin %s (target '%s') skipped: %s\n", cmd, ev->path, ev->target,
                ev->reason);
    else
        fprintf(stderr, "crosscheck %s: plugin %s skipped: %s\n", cmd, ev->path, ev->reason);
}

/* The install's plugin folder: CC_PLUGIN_RELDIR (set by the build) relative to the folder
 * of the running executable, so that an installed tree can be moved. "" when unknown. */
static void install_plugin_dir(char *buf, size_t n)
{
    buf[0] = '\0';
#ifdef CC_PLUGIN_RELDIR
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return;
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return;
    *slash = '\0';
    char dir[4200], real[4096];
    snprintf(dir, sizeof dir, "%s/%s", exe, CC_PLUGIN_RELDIR);
    snprintf(buf, n, "%s", realpath(dir, real) ? real : dir);
#else
    (void)n;
#endif
}

int cc_cli_load_plugins(const char *cmd, int *argc, char **argv)
{
    cc_cli cli;
    cc_cli_init(&cli, cmd, "");
    cc_plugin_path path;
    cc_plugin_path_init(&path);
    cc_err err = { 0 };
    int code = -1, kept = 0;
    for (int i = 0; i < *argc; i++) {
        const char *v;
        int k = cc_cli_value(&cli, *argc, argv, &i, "--target-path", &v);
        if (k < 0) {
            code = 2;
            goto done;
        }
        if (k == 0) {
            argv[kept++] = argv[i];
            continue;
        }
        if (cc_plugin_path_add(&path, v, 1, &err)) {
            code = usage_error(&cli, "--target-path: %s", err.msg);
            goto done;
        }
    }
    for (int i = kept; i < *argc; i++) argv[i] = NULL;
    *argc = kept;
    char dir[4200];
    install_plugin_dir(dir, sizeof dir);
    if (cc_plugin_path_add(&path, getenv("CROSSCHECK_TARGET_PATH"), 0, &err) ||
        cc_plugin_path_add(&path, dir, 0, &err)) {
        code = usage_error(&cli, "CROSSCHECK_TARGET_PATH: %s", err.msg);
        goto done;
    }
    if (cc_plugin_load_path(&path, CC_PLUGIN_PROBE_TIMEOUT_S, report_plugin, (void *)cmd, &err)) {
        fprintf(stderr, "crosscheck %s: %s\n", cmd, err.msg);
        code = 3;
    }
done:
    cc_plugin_path_free(&path);
    return code;
}

int cc_cli_add_targets(const char *cmd, const char *v, const cc_target_iface **targets, const char **devices, int *n)
{
    if (!v[0] || v[0] == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,"))
        return cc_cli_say(cmd, "--targets: empty item in '%s'", v), 2;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", v);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        /* NAME or NAME:DEVICE (cuda:tf32), stored under that label as `run` does */
        char *colon = strchr(tok, ':');
        if (colon) *colon = '\0';
        const cc_target_iface *t = cc_target_find(tok);
        if (!t) {
            cc_cli_say(cmd, "unknown target '%s' (see `crosscheck list targets`)", tok);
            return 2;
        }
        const char *dev = colon ? colon + 1 : "";
        int dup = 0;
        for (int k = 0; k < *n; k++) dup |= targets[k] == t && !strcmp(devices[k], dev);
        if (!dup && *n < CC_RUN_MAX_TARGETS) {
            devices[*n] = dev[0] ? strdup(dev) : "";
            targets[(*n)++] = t;
        }
    }
    return -1;
}

void cc_cli_visible_targets(const cc_target_iface **targets, const char **devices, int *n)
{
    for (int i = 0; i < cc_target_count() && *n < CC_RUN_MAX_TARGETS; i++) {
        const cc_target_iface *t = cc_target_at(i);
        if (t->hidden) continue;
        devices[*n] = "";
        targets[(*n)++] = t;
    }
}
