/* cmd_conformance.c — `crosscheck conformance`: the official ONNX node tests on targets
 * (harness/lib/conformance.h), each result stored as it arrives in a run of its own or
 * joining a run (the suite's), a summary line per target on stdout; the report renders
 * the run's conformance section. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "commands.h"
#include "lib/conformance.h"
#include "lib/model_record.h"
#include "lib/stats.h"

static volatile int interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct sink {
    cc_model_record *rec;
    int n_targets;
    char labels[CC_RUN_MAX_TARGETS][CC_NAME_MAX];
    long counts[CC_RUN_MAX_TARGETS][CC_VERDICT_COUNT];
    long total[CC_VERDICT_COUNT];
    int verbose;
} sink;

static cc_status store(void *user, const cc_conformance_result *r, cc_err *err)
{
    sink *s = user;
    cc_status st = cc_store_put_conformance(s->rec->store, s->rec->run_id, r, err);
    if (st) return st;
    for (int k = 0; k < s->n_targets; k++)
        if (!strcmp(s->labels[k], r->target)) s->counts[k][r->verdict]++;
    s->total[r->verdict]++;
    int bad = r->verdict == CC_FAILED || r->verdict == CC_CRASHED || r->verdict == CC_TIMEOUT || r->verdict == CC_ERROR;
    if (bad || (s->verbose && r->verdict != CC_UNSUPPORTED))
        cc_cli_say(NULL, "%-8s %-10s %s: %s", cc_verdict_name(r->verdict), r->target, r->test, r->reason);
    return CC_OK;
}

int cc_cmd_conformance(int argc, char **argv, const char *command_line, const char *libraries, const char *git_commit,
                       const char *version)
{
    cc_cli cli;
    cc_cli_init(&cli, "conformance",
                "crosscheck conformance [options]\n"
                "  the official ONNX node tests (Debian's libonnx-testdata) on each target, compared with\n"
                "  the tests' expected outputs; results stored in the database, one line per target here,\n"
                "  the run's report shows them per target and op (`crosscheck report`)\n"
                "  --targets LIST   targets, NAME or NAME:DEVICE (default: every target that is not hidden)\n"
                "  --ops LIST       only the tests about these ops (a test is about the op its name names)\n"
                "  --tests TEXT     only the tests whose name contains TEXT\n"
                "  --dir DIR        the node tests' folder (default: $CC_ONNX_NODE_DIR, else\n"
                "                   " CC_CONFORMANCE_DIR ")\n"
                "  --timeout S      per test and target (default 60)\n"
                "  --db PATH        results database (default out/crosscheck.db)\n"
                "  --run RUN        add the results to run RUN (an id, latest, a tag) instead of a run of\n"
                "                   their own: made by this build on this machine, finished or interrupted\n"
                "  --tag TEXT       label stored with a run of their own\n"
                "  --verbose        a line for every test a target ran, not only those that did not pass\n"
                "exit: 0 no test failed, crashed, timed out or errored (unsupported and mistrusted aside),\n"
                "      1 some did, 2 bad usage or input (no such folder, no test selected), 3 database or\n"
                "      infrastructure, 130 interrupted");
    cc_conformance_options o;
    memset(&o, 0, sizeof o);
    o.dir = getenv("CC_ONNX_NODE_DIR") ? getenv("CC_ONNX_NODE_DIR") : CC_CONFORMANCE_DIR;
    o.timeout_s = 60;
    o.mem_limit_mb = 8192;
    const char *db_path = "out/crosscheck.db", *join = NULL, *tag = NULL;
    static char ops_buf[1024];
    int verbose = 0;
    for (int i = 0; i < argc; i++) {
        const char *v;
        int k;
        if ((k = cc_cli_value(&cli, argc, argv, &i, "--targets", &v)) != 0) {
            if (k < 0) return 2;
            int r = cc_cli_add_targets("conformance", v, o.targets, o.devices, &o.n_targets);
            if (r >= 0) return r;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--ops", &v)) != 0) {
            if (k < 0) return 2;
            snprintf(ops_buf, sizeof ops_buf, "%s", v);
            char *save = NULL;
            for (char *tok = strtok_r(ops_buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                if (o.n_ops == 64) return cc_cli_say("conformance", "--ops: at most 64 ops"), 2;
                o.ops[o.n_ops++] = tok;
            }
            if (o.n_ops == 0) return cc_cli_say("conformance", "--ops needs at least one op"), 2;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--tests", &v)) != 0) {
            if (k < 0) return 2;
            o.match = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--dir", &v)) != 0) {
            if (k < 0) return 2;
            o.dir = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--timeout", &v)) != 0) {
            uint64_t s;
            if (k < 0 || cc_cli_u64(v, &s) || s < 1 || s > 86400)
                return cc_cli_say("conformance", "--timeout takes 1..86400 seconds"), 2;
            o.timeout_s = (double)s;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--db", &v)) != 0) {
            if (k < 0) return 2;
            db_path = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--run", &v)) != 0) {
            if (k < 0) return 2;
            if (!v[0]) return cc_cli_say("conformance", "--run takes a run (an id, latest, a tag)"), 2;
            join = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--tag", &v)) != 0) {
            if (k < 0) return 2;
            tag = v;
        } else if (!strcmp(argv[i], "--verbose")) {
            verbose = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            return cc_cli_help(&cli);
        } else {
            return cc_cli_say("conformance", "unknown option '%s'", argv[i]), 2;
        }
    }
    if (join && tag) return cc_cli_say("conformance", "--tag labels a run of its own; a joined run keeps its tag"), 2;
    if (o.n_targets == 0) cc_cli_visible_targets(o.targets, o.devices, &o.n_targets);
    for (int k = 0; k < o.n_ops; k++)
        if (!cc_catalog_find(o.ops[k]))
            return cc_cli_say("conformance", "--ops: '%s' is not an op of the catalog (see `crosscheck list ops`)",
                              o.ops[k]),
                   2;
    char **tests = NULL, **ops = NULL;
    int n = 0;
    cc_err err = { 0 };
    cc_status st = cc_conformance_tests(&o, &tests, &ops, &n, &err);
    if (st) return cc_cli_say("conformance", "%s", err.msg), st == CC_ERR_IO ? 2 : 3;
    if (n == 0) {
        cc_conformance_tests_free(tests, ops, n);
        return cc_cli_say("conformance", "no node test in %s matches the selection", o.dir), 2;
    }

    /* the run: the record of model runs, with the conformance settings as its config */
    static cc_model_run_options mo;
    static cc_model_record rec;
    cc_env_mark mark_start;
    cc_env_mark_take(&mark_start);
    double t0 = cc_now();
    char config[512];
    snprintf(config, sizeof config, "conformance=%.300s;tests=%d", o.dir, n);
    st = cc_model_record_start(&mo, &rec, "conformance", db_path, o.n_targets, o.targets, o.devices, join, tag,
                               o.timeout_s, config, command_line, libraries, git_commit, version, &err);
    if (st) {
        cc_conformance_tests_free(tests, ops, n);
        cc_model_record_close(&rec);
        cc_cli_say(NULL, "%s", err.msg);
        return st == CC_ERR_ARG ? 2 : 3;
    }
    static sink s;
    memset(&s, 0, sizeof s);
    s.rec = &rec;
    s.verbose = verbose;
    s.n_targets = o.n_targets;
    for (int k = 0; k < o.n_targets; k++)
        cc_target_label(o.targets[k]->name, o.devices[k] ? o.devices[k] : "", s.labels[k], sizeof s.labels[k]);
    cc_cli_say(NULL, "conformance: %d node tests of %s on %d target%s, run %lld", n, o.dir, o.n_targets,
               o.n_targets == 1 ? "" : "s", (long long)rec.run_id);
    o.interrupt = &interrupted;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    int was_interrupted = 0;
    st = cc_conformance_run(&o, tests, ops, n, store, &s, &was_interrupted, &err);
    cc_conformance_tests_free(tests, ops, n);
    cc_err end_err = { 0 };
    cc_status end = cc_model_record_end(&rec, was_interrupted, &mark_start, &end_err);
    cc_model_record_close(&rec);
    if (st || end) {
        cc_cli_say(NULL, "%s", st ? err.msg : end_err.msg);
        return 3;
    }
    for (int k = 0; k < o.n_targets; k++) {
        long all = 0;
        for (int v = 0; v < CC_VERDICT_COUNT; v++) all += s.counts[k][v];
        printf("%-12s %4ld of %ld node tests passed (%.1f%%)", s.labels[k], s.counts[k][CC_PASSED], all,
               all ? 100.0 * (double)s.counts[k][CC_PASSED] / (double)all : 0.0);
        for (int v = 0; v < CC_VERDICT_COUNT; v++)
            if (v != CC_PASSED && s.counts[k][v]) printf(", %ld %s", s.counts[k][v], cc_verdict_name((cc_verdict)v));
        printf("\n");
    }
    printf("run %lld: conformance of %d node tests (%.1f s)\n", (long long)rec.run_id, n, cc_now() - t0);
    if (was_interrupted) return 130;
    return s.total[CC_FAILED] + s.total[CC_ERROR] + s.total[CC_CRASHED] + s.total[CC_TIMEOUT] ? 1 : 0;
}
