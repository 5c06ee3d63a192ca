/* cmd_model.c — `crosscheck model run|list` and `crosscheck list models`. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../models/quantize.h"
#include "../models/metrics.h"
#include "../models/zoo.h"
#include "cli.h"
#include "commands.h"
#include "lib/model_run.h"
#include "lib/model_variant.h"

static volatile int interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

int cc_cmd_list_models(void)
{
    printf("%-10s %-9s %-6s %12s %12s %10s %10s  %s\n", "model", "task", "input", "params", "published", "GMAC",
           "published", "description");
    for (int i = 0; i < cc_zoo_count(); i++) {
        const cc_zoo_entry *e = cc_zoo_at(i);
        cc_model *m = NULL;
        cc_err err = { 0 };
        cc_zoo_options zo = { .batch = 1 };
        if (cc_zoo_build(e->name, &zo, &m, &err)) {
            cc_cli_say(NULL, "%s", err.msg);
            return 3;
        }
        printf("%-10s %-9s %-6d %12.0f %12.0f %10.3f %10.3f  %s\n", e->name,
               e->task == CC_TASK_CLASSIFY ? "classify" : e->task == CC_TASK_DETECT ? "detect" : "generic",
               e->default_image_size, cc_zoo_params(m), e->published_params, cc_model_macs(m) / 1e9,
               e->published_macs / 1e9, e->description);
        cc_model_free(m);
    }
    return 0;
}

static int add_precisions(cc_model_run_options *o, const char *list)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    o->n_prec = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "f32") && strcmp(tok, "f16") && strcmp(tok, "bf16") && strcmp(tok, "int8")) {
            cc_cli_say("model run", "unknown precision '%s' (f32, f16, bf16, int8)", tok);
            return 2;
        }
        int dup = 0;
        for (int p = 0; p < o->n_prec; p++) dup |= !strcmp(o->precisions[p], tok);
        if (dup) continue;
        if (o->n_prec == CC_MODEL_MAX_PREC) return 2;
        snprintf(o->precisions[o->n_prec++], sizeof o->precisions[0], "%s", tok);
    }
    if (o->n_prec == 0) {
        cc_cli_say("model run", "--precisions needs at least one precision");
        return 2;
    }
    return -1;
}

static void show(void *user, const char *line, const cc_model_result *r)
{
    (void)user;
    if (line) {
        cc_cli_say(NULL, "%s", line);
        return;
    }
    fprintf(stderr, "%-10s %-8s %-5s %-8s", r->model, r->target, r->precision, cc_verdict_name(r->verdict));
    if (r->lat_p50 > 0) fprintf(stderr, " p50 %.2f ms, %.3g images/s (batch %d)", r->lat_p50 * 1e3, r->throughput, r->tp_batch);
    if (r->top1 == r->top1) fprintf(stderr, ", top-1 %.1f%%", 100 * r->top1);
    if (r->det_map50 == r->det_map50) fprintf(stderr, ", mAP@0.5 %.3f", r->det_map50);
    if (r->n_fallback) fprintf(stderr, ", %d fallbacks", r->n_fallback);
    if (r->rec_verdict >= 0) {
        fprintf(stderr, "; vs recorded outputs: %s", cc_verdict_name((cc_verdict)r->rec_verdict));
        if (r->rec_sets > 0 && r->rec_verdict != CC_ERROR) fprintf(stderr, " (%d set%s, SQNR %.1f dB)", r->rec_sets, r->rec_sets == 1 ? "" : "s", r->rec_sqnr_db);
    }
    fputc('\n', stderr);
    if (r->verdict != CC_PASSED && r->reason[0]) fprintf(stderr, "          %s\n", r->reason);
    if (r->divergent[0]) fprintf(stderr, "          first divergent: %s\n", r->divergent);
    if (r->rec_reason[0] && r->rec_verdict != CC_PASSED) fprintf(stderr, "          recorded outputs: %s\n", r->rec_reason);
}

static int parse_int(const char *v, int lo, int hi, int *out)
{
    uint64_t n;
    if (cc_cli_u64(v, &n) || n < (uint64_t)lo || n > (uint64_t)hi) return -1;
    *out = (int)n;
    return 0;
}

int cc_cmd_model(int argc, char **argv, const char *command_line, const char *libraries, const char *git_commit,
                 const char *version)
{
    if (argc < 1 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
        printf("crosscheck model list | run MODEL [options]   (crosscheck model run --help)\n");
        return argc < 1 ? 2 : 0;
    }
    if (!strcmp(argv[0], "list")) return cc_cmd_list_models();
    if (strcmp(argv[0], "run")) {
        cc_cli_say("model", "unknown subcommand '%s' (list, run)", argv[0]);
        return 2;
    }
    cc_cli cli;
    cc_cli_init(&cli, "model run",
                "crosscheck model run MODEL|FILE.onnx|DIR [options]\n"
                "  DIR: an ONNX test-data folder (model.onnx, test_data_set_N/input_K.pb and output_K.pb):\n"
                "  the FP32 jobs also compare each target with the recorded outputs (exit 1 when one does\n"
                "  not match them); the model is named after the folder\n"
                "  --inputs FILE, --expected FILE  one recorded set from loose files for an .onnx model\n"
                "                      (.pb TensorProtos or .npy; repeat in input / output order), compared\n"
                "                      like a test-data folder's\n"
                "  --targets LIST      targets, NAME or NAME:DEVICE (cuda:tf32: FP32 on TF32 tensor cores,\n"
                "                      stored as its own target; default: every non-test target but ref)\n"
                "  --precisions LIST   f32,f16,bf16,int8 (default: all four)\n"
                "  --images N          inputs compared with the golden model (default 8)\n"
                "  --batch B[,T=B...]  batch for the throughput figure (default 8; 1: none), per target\n"
                "                      with TARGET=B items, e.g. 8,cuda=64\n"
                "  --size S            input size in pixels (default: the model's)\n"
                "  --seed N            weights and inputs seed (default 1)\n"
                "  --weights FILE      read weights from a file instead of synthesising them\n"
                "  --name NAME         the name an ONNX model's results are stored under (default:\n"
                "                      its file's name without .onnx)\n"
                "  --input-shape NAME=DIMS  bind an ONNX input's symbolic dims, e.g. images=1x3x320x320\n"
                "                      (repeatable; a symbolic dim 0 still follows --batch)\n"
                "  --budget TEXT       accuracy budget overrides: top1=0.99,top5=0.99,cosine=0.99,sqnr=20,map50=0.9\n"
                "  --calib N           INT8 calibration inputs (default 8)\n"
                "  --calib-method M    minmax (default) or percentile\n"
                "  --layers            per-layer time breakdown (runs every layer alone)\n"
                "  --timeout S         per (target, precision) job (default 1800)\n"
                "  --mem-limit MIB     memory the model may need (default 8192): a model that needs\n"
                "                      more is unsupported everywhere, judged from its shapes\n"
                "  --min-time S        latency sampling time (default 1)\n"
                "  --db PATH           results database (default out/crosscheck.db)\n"
                "  --run RUN           add the results to run RUN of the database (an id, latest, a tag,\n"
                "                      a uid prefix) instead of a run of their own: the suite's op cases\n"
                "                      and models then form one run; RUN must be made by this build on\n"
                "                      this machine and not be executing (a killed run is joined, and\n"
                "                      ends interrupted)\n"
                "  --tag TEXT          label stored with the run\n");
    static cc_model_run_options o;
    memset(&o, 0, sizeof o);
    o.db_path = "out/crosscheck.db";
    o.n_images = 8;
    o.batch = 8;
    o.seed = 1;
    o.calib_images = 8;
    o.timeout_s = 1800;
    o.mem_limit_mb = 8192;
    o.min_time = 1;
    o.min_samples = 10;
    add_precisions(&o, "f32,f16,bf16,int8");
    int have_targets = 0;
    const char *batch_spec = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v;
        int k;
        if (argv[i][0] != '-' && !o.model) {
            o.model = argv[i];
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--targets", &v)) != 0) {
            if (k < 0) return 2;
            int r = cc_cli_add_targets("model run", v, o.targets, o.devices, &o.n_targets);
            if (r >= 0) return r;
            have_targets = 1;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--precisions", &v)) != 0) {
            if (k < 0) return 2;
            int r = add_precisions(&o, v);
            if (r >= 0) return r;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--images", &v)) != 0) {
            if (k < 0 || parse_int(v, 1, 100000, &o.n_images)) return cc_cli_say("model run", "--images takes 1..100000"), 2;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--batch", &v)) != 0) {
            if (k < 0) return 2;
            batch_spec = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--size", &v)) != 0) {
            if (k < 0 || parse_int(v, 1, 8192, &o.image_size)) return cc_cli_say("model run", "--size takes 1..8192"), 2;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--calib", &v)) != 0) {
            if (k < 0 || parse_int(v, 0, 100000, &o.calib_images)) return cc_cli_say("model run", "--calib takes a count"), 2;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--calib-method", &v)) != 0) {
            if (k < 0) return 2;
            o.calib_method = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--seed", &v)) != 0) {
            if (k < 0 || cc_cli_u64(v, &o.seed)) return cc_cli_say("model run", "--seed takes an integer"), 2;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--name", &v)) != 0) {
            if (k < 0) return 2;
            if (!v[0] || strlen(v) > 63) return cc_cli_say("model run", "--name takes 1..63 characters"), 2;
            o.name = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--input-shape", &v)) != 0) {
            if (k < 0) return 2;
            const char *eq = strchr(v, '=');
            cc_err se = { 0 };
            if (!eq || eq == v || (size_t)(eq - v) >= CC_VALUE_NAME_MAX)
                return cc_cli_say("model run", "--input-shape takes NAME=DIMS, e.g. images=1x3x320x320"), 2;
            if (o.n_shapes == CC_MAX_IO)
                return cc_cli_say("model run", "--input-shape: at most %d inputs", CC_MAX_IO), 2;
            if (cc_shape_parse(eq + 1, &o.shapes[o.n_shapes], &se))
                return cc_cli_say("model run", "--input-shape %.*s: %s", (int)(eq - v), v, se.msg), 2;
            static char names[CC_MAX_IO][CC_VALUE_NAME_MAX];
            snprintf(names[o.n_shapes], sizeof names[0], "%.*s", (int)(eq - v), v);
            for (int q = 0; q < o.n_shapes; q++)
                if (strcmp(o.shape_names[q], names[o.n_shapes]) == 0)
                    return cc_cli_say("model run", "--input-shape names '%s' twice", names[o.n_shapes]), 2;
            o.shape_names[o.n_shapes] = names[o.n_shapes];
            o.n_shapes++;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--inputs", &v)) != 0) {
            if (k < 0) return 2;
            if (o.n_rec_inputs == CC_MAX_IO) return cc_cli_say("model run", "--inputs: at most %d files", CC_MAX_IO), 2;
            o.rec_inputs[o.n_rec_inputs++] = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--expected", &v)) != 0) {
            if (k < 0) return 2;
            if (o.n_rec_expected == CC_MAX_IO) return cc_cli_say("model run", "--expected: at most %d files", CC_MAX_IO), 2;
            o.rec_expected[o.n_rec_expected++] = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--weights", &v)) != 0) {
            if (k < 0) return 2;
            o.weights_path = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--budget", &v)) != 0) {
            if (k < 0) return 2;
            o.budget = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--timeout", &v)) != 0) {
            int s;
            if (k < 0 || parse_int(v, 1, 86400, &s)) return cc_cli_say("model run", "--timeout takes seconds"), 2;
            o.timeout_s = s;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--mem-limit", &v)) != 0) {
            uint64_t mb;
            if (k < 0 || cc_cli_u64(v, &mb) || mb < 1 || mb > ((uint64_t)1 << 30))
                return cc_cli_say("model run", "--mem-limit takes MiB as an integer of at least 1, got '%s'",
                               k < 0 ? "" : v), 2;
            o.mem_limit_mb = (size_t)mb;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--min-time", &v)) != 0) {
            char *end;
            if (k < 0) return 2;
            o.min_time = strtod(v, &end);
            if (*end || !(o.min_time >= 0)) return cc_cli_say("model run", "--min-time takes seconds"), 2;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--db", &v)) != 0) {
            if (k < 0) return 2;
            o.db_path = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--tag", &v)) != 0) {
            if (k < 0) return 2;
            o.tag = v;
        } else if ((k = cc_cli_value(&cli, argc, argv, &i, "--run", &v)) != 0) {
            if (k < 0) return 2;
            if (!v[0]) return cc_cli_say("model run", "--run takes a run (an id, latest, a tag)"), 2;
            o.join_run = v;
        } else if (!strcmp(argv[i], "--layers")) {
            o.layers = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            return cc_cli_help(&cli);
        } else {
            cc_cli_say("model run", "unknown option '%s'", argv[i]);
            return 2;
        }
    }
    /* input files are the user's: a missing one is bad input (2), like a missing case list */
    struct stat sb;
    size_t ml = o.model ? strlen(o.model) : 0;
    static char inner[4096];
    if (o.model && !stat(o.model, &sb) && S_ISDIR(sb.st_mode)) {
        /* an ONNX test-data folder: model.onnx and test_data_set_N with recorded outputs */
        snprintf(inner, sizeof inner, "%s/model.onnx", o.model);
        if (stat(inner, &sb) || !S_ISREG(sb.st_mode))
            return cc_cli_say("model run", "folder '%s' holds no model.onnx (an ONNX test-data folder does)", o.model), 2;
        o.testdata = o.model;
        o.model = inner;
        ml = strlen(o.model);
    }
    if (o.model && ((ml > 5 && !strcmp(o.model + ml - 5, ".onnx")) || strchr(o.model, '/'))) {
        if (stat(o.model, &sb))
            return cc_cli_say("model run", "cannot read model file '%s': %s", o.model, strerror(errno)), 2;
        if (!S_ISREG(sb.st_mode))
            return cc_cli_say("model run", "model file '%s' is not a regular file", o.model), 2;
    }
    if (o.n_rec_inputs + o.n_rec_expected > 0) {
        if (!o.n_rec_expected)
            return cc_cli_say("model run", "--inputs needs the outputs they gave (--expected FILE, one per output)"), 2;
        if (o.testdata || !o.model || !cc_model_is_onnx(o.model))
            return cc_cli_say("model run", "--inputs/--expected go with an .onnx file (a test-data folder has its own sets)"),
                   2;
        for (int q = 0; q < o.n_rec_inputs + o.n_rec_expected; q++) {
            const char *f = q < o.n_rec_inputs ? o.rec_inputs[q] : o.rec_expected[q - o.n_rec_inputs];
            if (stat(f, &sb) || !S_ISREG(sb.st_mode))
                return cc_cli_say("model run", "cannot read tensor file '%s'", f), 2;
        }
    }
    if (o.weights_path && stat(o.weights_path, &sb))
        return cc_cli_say("model run", "cannot read weights file '%s': %s", o.weights_path,
                          strerror(errno)), 2;
    if (o.weights_path && !S_ISREG(sb.st_mode))
        return cc_cli_say("model run", "weights file '%s' is not a regular file", o.weights_path), 2;
    if (o.join_run && o.tag) {
        cc_cli_say("model run", "--tag labels a run of its own; a joined run (--run) keeps its tag");
        return 2;
    }
    if (!o.model) {
        cc_cli_say("model run", "name a model (see `crosscheck list models`) or an .onnx file");
        return 2;
    }
    if (!have_targets)
        for (int i = 0; i < cc_target_count(); i++) {
            const cc_target_iface *t = cc_target_at(i);
            if (t->hidden || !strcmp(t->name, "ref") || o.n_targets == CC_RUN_MAX_TARGETS) continue;
            o.devices[o.n_targets] = "";
            o.targets[o.n_targets++] = t;
        }
    if (o.budget) {
        cc_err be = { 0 };
        cc_budget b = cc_budget_default(CC_F32);
        if (cc_budget_parse(o.budget, &b, &be)) return cc_cli_say("model run", "--%s", be.msg), 2;
    }
    cc_calib_method cm;
    if (o.calib_method && cc_calib_method_parse(o.calib_method, &cm))
        return cc_cli_say("model run", "--calib-method: unknown method '%s' (minmax or percentile)",
                       o.calib_method), 2;
    if (batch_spec) {
        cc_err be = { 0 };
        if (cc_model_run_parse_batch(&o, batch_spec, &be)) return cc_cli_say("model run", "%s", be.msg), 2;
    }
    for (int p = 0; p < o.n_prec; p++)
        if (!strcmp(o.precisions[p], "int8") && o.calib_images < 1) {
            cc_cli_say("model run", "INT8 calibration needs at least one input (--calib %d)", o.calib_images);
            return 2;
        }
    if (!strncmp(o.db_path, "out/", 4)) mkdir("out", 0777);
    o.command_line = command_line;
    o.libraries = libraries;
    o.git_commit = git_commit;
    o.version = version;
    o.interrupt = &interrupted;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    cc_model_summary sum;
    cc_err err = { 0 };
    cc_status st = cc_model_run(&o, show, NULL, &sum, &err);
    if (st) {
        cc_cli_say(NULL, "%s", err.msg);
        return st == CC_ERR_ARG || st == CC_ERR_UNSUPPORTED ? 2 : 3;
    }
    if (sum.interrupted && !sum.run_id) {
        cc_cli_say("model run", "interrupted before any result was recorded");
        return 130;
    }
    printf("run %lld: ", (long long)sum.run_id);
    for (int v = 0; v < CC_VERDICT_COUNT; v++) printf("%s%d %s", v ? ", " : "", sum.counts[v], cc_verdict_name((cc_verdict)v));
    printf(" (%.1f s)\n", sum.wall_s);
    if (sum.interrupted) return 130;
    return sum.counts[CC_FAILED] + sum.counts[CC_ERROR] + sum.counts[CC_CRASHED] + sum.counts[CC_TIMEOUT] + sum.rec_bad
               ? 1
               : 0;
}
