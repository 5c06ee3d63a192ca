/* cmd_scan.c — `crosscheck scan FILE.onnx|DIR`: which of a model's operators each target
 * would run, before porting (harness/lib/scan.h); rows stored in a run of their own or
 * joining one, a summary per model and target on stdout, the report's scan section. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "commands.h"
#include "lib/model_record.h"
#include "lib/scan.h"
#include "lib/stats.h"

typedef struct sink {
    cc_model_record *rec;
    /* per model: totals per target (index 0: the catalog) and the targets' declined ops */
    int n_targets;
    char labels[CC_RUN_MAX_TARGETS + 1][CC_NAME_MAX];
    long nodes[CC_RUN_MAX_TARGETS + 1], supported[CC_RUN_MAX_TARGETS + 1];
    char declines[CC_RUN_MAX_TARGETS + 1][512];
} sink;

static cc_status store(void *user, const cc_scan_result *r, cc_err *err)
{
    sink *s = user;
    cc_status st = cc_store_put_scan(s->rec->store, s->rec->run_id, r, err);
    if (st) return st;
    int k = 0;
    for (int i = 1; i <= s->n_targets && !k; i++)
        if (r->target[0] && !strcmp(s->labels[i], r->target)) k = i;
    s->nodes[k] += r->nodes;
    s->supported[k] += r->supported;
    if (r->supported < r->nodes) {
        size_t len = strlen(s->declines[k]);
        if (len < sizeof s->declines[k] - 1)
            snprintf(s->declines[k] + len, sizeof s->declines[k] - len, "%s%s x%d", len ? ", " : "", r->op,
                     r->nodes - r->supported);
    }
    return CC_OK;
}

int cc_cmd_scan(int argc, char **argv, const char *command_line, const char *libraries, const char *git_commit,
                const char *version)
{
    cc_cli cli;
    cc_cli_init(&cli, "scan",
                "crosscheck scan FILE.onnx|DIR [options]\n"
                "  before porting: a model's op types with node counts, whether the catalog has each, and\n"
                "  per target how many nodes of each op it would run (its supports() on the imported graph,\n"
                "  nothing is run), with the reason of what it declines; the op-support rate per target.\n"
                "  DIR: every *.onnx in it and every SUBFOLDER/model.onnx. Stored in the database; the\n"
                "  report's scan section shows them (`crosscheck report`)\n"
                "  --targets LIST       targets, NAME or NAME:DEVICE (default: every target that is not hidden)\n"
                "  --input-shape NAME=DIMS  bind an input's symbolic dims (repeatable), as `model run` does\n"
                "  --timeout S          per target and model (default 60)\n"
                "  --db PATH            results database (default out/crosscheck.db)\n"
                "  --run RUN            add the rows to run RUN instead of a run of their own\n"
                "  --tag TEXT           label stored with a run of their own\n"
                "exit: 0 scanned, 2 bad usage or input (no such file, a file that is not an ONNX model),\n"
                "      3 database or infrastructure");
    static cc_scan_options o;
    memset(&o, 0, sizeof o);
    o.timeout_s = 60;
    o.mem_limit_mb = 8192;
    const char *path = NULL, *db_path = "out/crosscheck.db", *join = NULL, *tag = NULL;
    for (int i = 0; i < argc; i++) {
        const char *v;
        int k;
        if (argv[i][0] != '-' && !path) {
            path = argv[i];
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--targets", &v)) != 0) {
            if (k < 0) return 2;
            int r = cc_cli_add_targets("scan", v, o.targets, o.devices, &o.n_targets);
            if (r >= 0) return r;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--input-shape", &v)) != 0) {
            if (k < 0) return 2;
            const char *eq = strchr(v, '=');
            cc_err se = { 0 };
            if (!eq || eq == v) return cc_cli_say("scan", "--input-shape takes NAME=DIMS, e.g. images=1x3x320x320"), 2;
            if (o.n_shapes == CC_MAX_IO) return cc_cli_say("scan", "--input-shape: at most %d inputs", CC_MAX_IO), 2;
            if (cc_shape_parse(eq + 1, &o.shapes[o.n_shapes], &se))
                return cc_cli_say("scan", "--input-shape %.*s: %s", (int)(eq - v), v, se.msg), 2;
            static char names[CC_MAX_IO][CC_VALUE_NAME_MAX];
            snprintf(names[o.n_shapes], sizeof names[0], "%.*s", (int)(eq - v), v);
            o.shape_names[o.n_shapes] = names[o.n_shapes];
            o.n_shapes++;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--timeout", &v)) != 0) {
            uint64_t s;
            if (k < 0 || cc_cli_u64(v, &s) || s < 1 || s > 86400)
                return cc_cli_say("scan", "--timeout takes 1..86400 seconds"), 2;
            o.timeout_s = (double)s;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--db", &v)) != 0) {
            if (k < 0) return 2;
            db_path = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--run", &v)) != 0) {
            if (k < 0) return 2;
            if (!v[0]) return cc_cli_say("scan", "--run takes a run (an id, latest, a tag)"), 2;
            join = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--tag", &v)) != 0) {
            if (k < 0) return 2;
            tag = v;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            return cc_cli_help(&cli);
        } else {
            return cc_cli_say("scan", "unknown option '%s'", argv[i]), 2;
        }
    }
    if (!path) return cc_cli_say("scan", "name an .onnx file or a folder of them"), 2;
    if (join && tag) return cc_cli_say("scan", "--tag labels a run of its own; a joined run keeps its tag"), 2;
    if (o.n_targets == 0) cc_cli_visible_targets(o.targets, o.devices, &o.n_targets);
    char **paths = NULL, **names = NULL;
    int n = 0;
    cc_err err = { 0 };
    cc_status st = cc_scan_models(path, &paths, &names, &n, &err);
    if (st) return cc_cli_say("scan", "%s", err.msg), st == CC_ERR_IO ? 2 : 3;
    if (n == 0) {
        cc_scan_models_free(paths, names, n);
        return cc_cli_say("scan", "no .onnx file and no SUBFOLDER/model.onnx in '%s'", path), 2;
    }

    static cc_model_run_options mo;
    static cc_model_record rec;
    cc_env_mark mark_start;
    cc_env_mark_take(&mark_start);
    char config[512];
    snprintf(config, sizeof config, "scan=%.400s;models=%d", path, n);
    st = cc_model_record_start(&mo, &rec, "scan", db_path, o.n_targets, o.targets, o.devices, join, tag, o.timeout_s,
                               config, command_line, libraries, git_commit, version, &err);
    if (st) {
        cc_scan_models_free(paths, names, n);
        cc_model_record_close(&rec);
        cc_cli_say(NULL, "%s", err.msg);
        return st == CC_ERR_ARG ? 2 : 3;
    }
    static sink s;
    int bad_files = 0;
    for (int mi = 0; mi < n && st == CC_OK; mi++) {
        memset(&s, 0, sizeof s);
        s.rec = &rec;
        s.n_targets = o.n_targets;
        for (int k = 0; k < o.n_targets; k++)
            cc_target_label(o.targets[k]->name, o.devices[k] ? o.devices[k] : "", s.labels[k + 1], sizeof s.labels[0]);
        char why[CC_REASON_MAX];
        cc_err me = { 0 };
        cc_status ms = cc_scan_model(&o, paths[mi], names[mi], store, &s, why, sizeof why, &me);
        if (ms == CC_ERR_ARG) {
            cc_cli_say("scan", "%s", me.msg);
            bad_files++;
            continue;
        }
        if (ms) {
            st = ms;
            err = me;
            break;
        }
        printf("model %s: %ld nodes; the catalog has %ld of them", names[mi], s.nodes[0], s.supported[0]);
        if (s.declines[0][0]) printf(" (outside it: %s)", s.declines[0]);
        printf("\n");
        if (why[0]) printf("  not imported, so not scanned on the targets: %s\n", why);
        for (int k = 1; k <= o.n_targets; k++) {
            printf("  %-12s %5.1f%% of nodes (%ld of %ld)", s.labels[k],
                   s.nodes[k] ? 100.0 * (double)s.supported[k] / (double)s.nodes[k] : 0.0, s.supported[k], s.nodes[k]);
            if (s.declines[k][0] && !why[0]) printf("; declines %s", s.declines[k]);
            printf("\n");
        }
    }
    cc_scan_models_free(paths, names, n);
    cc_err end_err = { 0 };
    cc_status end = cc_model_record_end(&rec, 0, &mark_start, &end_err);
    printf("run %lld: %d model%s scanned\n", (long long)rec.run_id, n - bad_files, n - bad_files == 1 ? "" : "s");
    cc_model_record_close(&rec);
    if (st || end) {
        cc_cli_say(NULL, "%s", st ? err.msg : end_err.msg);
        return 3;
    }
    return bad_files ? 2 : 0;
}
