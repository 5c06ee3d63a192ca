/* bench.c — `crosscheck bench`: measurements of the suite itself and of targets per layer.
 *
 *   bench overhead [--case ID] [--target T] [--rounds N]
 *     Times one case on a target two ways in the same process, alternating: through the
 *     harness's timing path (cc_exec_target: a clock read around every run + sync, the
 *     median of the samples) and through a bare loop (N back-to-back runs, one clock
 *     read at each end, the mean). The ratio is the harness's overhead. It also times
 *     the golden model (`ref`) on the same case for the speedup of the target over it.
 *
 *   bench ops [--models LIST] [--targets LIST] [--baseline T] [--dtype D] [--ops LIST] ...
 *     Per-layer speedups: every distinct layer shape of the built-in models (each node's
 *     case id, cc_model_node_case_id, deduplicated) run as an op case on each target, in
 *     this process, one after the other; a table of median times, speedups over the
 *     baseline target and `unsupported` claims, then geometric means. See ops_help. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../models/zoo.h"
#include "cli.h"
#include "lib/exec.h"
#include "lib/stats.h"

#define DEFAULT_CASE "Conv(x=1x256x14x14:f32,w=256x256x3x3,pads=[1,1,1,1])"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Mean seconds per run over a bare loop of `iters` runs. */
static double bare_loop(const cc_target_iface *t, void *ctx, void *plan, void *const *in, void *const *out, int iters)
{
    cc_err err;
    double t0 = cc_now();
    for (int i = 0; i < iters; i++) {
        t->run(ctx, plan, in, out, &err);
        t->sync(ctx, &err);
    }
    return (cc_now() - t0) / iters;
}

static int overhead(int argc, char **argv)
{
    cc_cli cli;
    cc_cli_init(&cli, "bench overhead", "crosscheck bench overhead [--case ID] [--target T] [--rounds N]\n");
    const char *case_id = DEFAULT_CASE, *target = "cpu";
    uint64_t rounds = 7;
    for (int i = 0; i < argc; i++) {
        const char *v;
        int k;
        if ((k = cc_cli_value(&cli, argc, argv, &i, "--case", &v)) > 0) case_id = v;
        else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--target", &v)) > 0) target = v;
        else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--rounds", &v)) > 0) {
            if (cc_cli_u64(v, &rounds) || rounds < 1 || rounds > 1000) {
                cc_cli_say("bench overhead", "--rounds takes 1..1000");
                return 2;
            }
        } else if (k < 0) return 2;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return cc_cli_help(&cli);
        else {
            cc_cli_say("bench overhead", "unknown option '%s'", argv[i]);
            return 2;
        }
    }
    const cc_target_iface *t = cc_target_find(target), *ref = cc_target_find("ref");
    if (!t) {
        cc_cli_say("bench overhead", "unknown target '%s'", target);
        return 2;
    }
    cc_case c;
    cc_err err = { 0 };
    if (cc_case_parse(case_id, &c, &err)) {
        cc_cli_say("bench overhead", "%s", err.msg);
        return 2;
    }
    cc_exec_golden g;
    if (cc_exec_golden_make(&c, 1, CC_REGIME_RANDOM, &g, &err)) {
        cc_cli_say("bench overhead", "%s", err.msg);
        return 3;
    }
    void *ctx = NULL, *plan = NULL;
    cc_device_desc desc;
    if (t->open("", &ctx, &desc, &err) || t->prepare(ctx, &g.inst.graph, &plan, &err)) {
        cc_cli_say("bench overhead", "%s: %s", target, err.msg);
        return 3;
    }
    const cc_graph *graph = &g.inst.graph;
    void *in[CC_MAX_IO] = { 0 }, *out[CC_MAX_IO] = { 0 };
    for (int k = 0; k < graph->n_inputs; k++) {
        const cc_tensor *s = &g.inst.inputs[graph->inputs[k]];
        t->buffer_alloc(ctx, cc_tensor_bytes(s), &in[k], &err);
        t->upload(ctx, in[k], s->data, cc_tensor_bytes(s), &err);
    }
    for (int j = 0; j < graph->n_outputs; j++)
        t->buffer_alloc(ctx, cc_tensor_bytes(&graph->values[graph->outputs[j]]), &out[j], &err);

    cc_exec_params p = { .time_it = 1, .warmup = 3, .min_time = 0.3, .min_samples = 20, .max_samples = 100000, .max_time = 1.0 };
    double *samples = malloc(sizeof(double) * (size_t)p.max_samples);
    double harness[1000], bare[1000];
    cc_result res;
    double one = bare_loop(t, ctx, plan, in, out, 3);
    int iters = one > 0 ? (int)(0.3 / one) + 1 : 100;
    for (int r = 0; r < (int)rounds; r++) {
        int n;
        cc_exec_result_init(&res, &c, t->name, CC_REGIME_RANDOM, 1);
        cc_exec_target(&g, t, ctx, &p, &res, samples, &n, NULL);
        harness[r] = res.timing.median;
        bare[r] = bare_loop(t, ctx, plan, in, out, iters);
    }
    double h = median(harness, (int)rounds), b = median(bare, (int)rounds);
    printf("case:     %s\n", c.id);
    printf("target:   %s (%s)\n", t->name, desc.name);
    printf("verdict:  %s\n", cc_verdict_name(res.verdict));
    printf("harness:  median %.1f us per run (%d rounds; median of per-run samples)\n", h * 1e6, (int)rounds);
    printf("bare:     %.1f us per run (%d back-to-back runs per round)\n", b * 1e6, iters);
    printf("overhead: %+.2f%% (harness / bare - 1)\n", (h / b - 1) * 100);
    printf("rate:     %.1f GFLOP/s", res.flops / h * 1e-9);
    if (desc.peak_gflops > 0) printf(" = %.0f%% of the %.0f GFLOP/s FP32 peak", 100 * res.flops / h * 1e-9 / desc.peak_gflops, desc.peak_gflops);
    printf("\n");
    if (ref && ref != t) {
        void *rctx = NULL;
        cc_device_desc rd;
        if (!ref->open("", &rctx, &rd, &err)) {
            int n;
            cc_exec_params rp = { .time_it = 1, .warmup = 1, .min_time = 0.5, .min_samples = 3, .max_samples = 1000, .max_time = 10 };
            cc_exec_result_init(&res, &c, "ref", CC_REGIME_RANDOM, 1);
            cc_exec_target(&g, ref, rctx, &rp, &res, samples, &n, NULL);
            printf("ref:      median %.1f us per run; %s is %.1fx faster\n", res.timing.median * 1e6, t->name,
                   res.timing.median / h);
            ref->close(rctx);
        }
    }
    for (int k = 0; k < CC_MAX_IO; k++) {
        t->buffer_free(ctx, in[k]);
        t->buffer_free(ctx, out[k]);
    }
    t->release(ctx, plan);
    t->close(ctx);
    free(samples);
    cc_exec_golden_release(&g);
    return 0;
}

/* ---- bench ops ---------------------------------------------------------------------- */

#define OPS_MAX_CASES   512
#define OPS_MAX_TARGETS 6

static const char *const ops_help =
    "crosscheck bench ops [options]\n"
    "  Times every distinct layer shape of the built-in models (batch 1, or --batch) as an op case on\n"
    "  each target and prints a Markdown table: median ms per target, the speedup of each\n"
    "  target over the baseline, `unsupported` claims with their reasons, and geometric\n"
    "  means per op. Cases run in this process (no worker isolation): a target that\n"
    "  crashes ends the bench.\n"
    "  --models LIST     models whose layers are timed (default resnet50,yolov5s)\n"
    "  --size S          input size in pixels (default: each model's)\n"
    "  --case ID         time this case instead of model layers (repeatable)\n"
    "  --targets LIST    targets, NAME or NAME:DEVICE (default onednn,cpu,xnnpack: those registered)\n"
    "  --baseline T      the target speedups are relative to (default cpu)\n"
    "  --dtype D         f32 (default), bf16 or f16: float inputs in that type; int8: Conv\n"
    "                    as QLinearConv (u8 activations, s8 per-channel weights, s32 bias),\n"
    "                    other layers as the INT8 graphs compute them, in f32\n"
    "  --ops LIST        only these ops (e.g. Conv,MaxPool)\n"
    "  --min-time S      sampling time per case and target (default 0.05)\n"
    "  --batch N         the models' layers at batch N (default 1)\n"
    "  --no-check        timing only: no golden model (a large layer's takes minutes on one\n"
    "                    core), outputs not checked; the table adds GFLOP/s per target\n"
    "  --list            print the case ids and exit\n"
    "exit codes: 0 done, 1 some result failed its numerics check, 2 bad usage, 3 no case ran\n";

typedef struct ops_entry {
    char id[CC_CASE_ID_MAX];
    char op[CC_NAME_MAX];
    int layers;                      /* nodes of the models with this case id */
    cc_verdict verdict[OPS_MAX_TARGETS];
    double ms[OPS_MAX_TARGETS];      /* median; NAN when not timed */
    double flops;                    /* of one run, from the op's cost function */
    char reason[OPS_MAX_TARGETS][CC_REASON_MAX];
} ops_entry;

typedef struct ops_opts {
    const char *models, *cases[16], *ops, *baseline;
    int n_cases, size, list, batch, no_check;
    cc_dtype dtype;
    int int8;
    double min_time;
    const cc_target_iface *t[OPS_MAX_TARGETS];
    char label[OPS_MAX_TARGETS][64]; /* NAME or NAME:DEVICE */
    const char *device[OPS_MAX_TARGETS];
    int n_t, base; /* base: index of the baseline in t, -1 when not among them */
    int contraction_bits[OPS_MAX_TARGETS]; /* from each opened device (TF32: 11) */
} ops_opts;

/* 1 when `name` is an element of the comma-separated list (NULL: every name). */
static int in_csv(const char *list, const char *name)
{
    if (!list) return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

/* Rewrites a Conv case id as the QLinearConv case of the same geometry (u8 x, s8 w, s32
 * b, per-channel weight scales), into out. 0 on success, -1 when id is not a Conv. */
static int conv_as_qlinear(const char *id, char *out, size_t n)
{
    if (strncmp(id, "Conv(", 5) != 0) return -1;
    size_t len = (size_t)snprintf(out, n, "QLinearConv(");
    const char *p = id + 5;
    int depth = 0, first = 1;
    while (*p && len < n) {
        const char *start = p;
        while (*p && !(depth == 0 && (*p == ',' || *p == ')'))) {
            depth += *p == '[';
            depth -= *p == ']';
            p++;
        }
        char tok[CC_CASE_ID_MAX];
        snprintf(tok, sizeof tok, "%.*s", (int)(p - start), start);
        char *colon = strchr(tok, ':');
        if (!strncmp(tok, "x=", 2) || !strncmp(tok, "w=", 2) || !strncmp(tok, "b=", 2)) {
            if (colon) *colon = '\0';
            len += (size_t)snprintf(out + len, n - len, "%s%s:%s", first ? "" : ",", tok,
                                    tok[0] == 'x' ? "u8" : tok[0] == 'w' ? "i8" : "i32");
        } else if (tok[0]) {
            len += (size_t)snprintf(out + len, n - len, "%s%s", first ? "" : ",", tok);
        }
        first = 0;
        if (*p == ')' || !*p) break;
        p++;
    }
    if (len < n) snprintf(out + len, n - len, ",per_channel=1)");
    return 0;
}

/* The case id of layer id at the bench's precision (out of n bytes); 0, or -1 to skip. */
static int at_precision(const ops_opts *o, const char *id, char *out, size_t n)
{
    if (o->int8) {
        if (conv_as_qlinear(id, out, n) == 0) return 0;
        snprintf(out, n, "%s", id);
        return 0;
    }
    const char *want = cc_dtype_name(o->dtype);
    size_t len = 0;
    for (const char *p = id; *p && len + 1 < n;) {
        if (!strncmp(p, ":f32", 4) && o->dtype != CC_F32) {
            len += (size_t)snprintf(out + len, n - len, ":%s", want);
            p += 4;
        } else {
            out[len++] = *p++;
        }
    }
    out[len < n ? len : n - 1] = '\0';
    return 0;
}

/* Adds case id `text` (canonicalised) to the list, or counts one more layer of it. A
 * case id that does not parse is bad usage when the user gave it (strict), else skipped
 * with a line saying so. */
static int add_case(const ops_opts *o, ops_entry *e, int *n, const char *text, int strict)
{
    char id[CC_CASE_ID_MAX];
    cc_case c;
    cc_err err = { 0 };
    if (at_precision(o, text, id, sizeof id)) return 0;
    if (cc_case_parse(id, &c, &err)) {
        cc_cli_say("bench ops", "%s%s", err.msg, strict ? "" : " (skipped)");
        return strict ? 2 : 0;
    }
    if (!in_csv(o->ops, c.op->name)) return 0;
    for (int i = 0; i < *n; i++)
        if (!strcmp(e[i].id, c.id)) {
            e[i].layers++;
            return 0;
        }
    if (*n >= OPS_MAX_CASES) {
        cc_cli_say("bench ops", "more than %d distinct cases", OPS_MAX_CASES);
        return 3;
    }
    memset(&e[*n], 0, sizeof e[*n]);
    snprintf(e[*n].id, sizeof e[*n].id, "%s", c.id);
    snprintf(e[*n].op, sizeof e[*n].op, "%s", c.op->name);
    e[*n].layers = 1;
    (*n)++;
    return 0;
}

/* The distinct layer cases of o->models (nodes whose constant inputs a case id cannot
 * express are left out; their count goes to *skipped). */
static int collect(const ops_opts *o, ops_entry *e, int *n, int *skipped)
{
    for (int i = 0; i < o->n_cases; i++) {
        int r = add_case(o, e, n, o->cases[i], 1);
        if (r) return r;
    }
    if (o->n_cases) return 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", o->models);
    char *save = NULL;
    for (char *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        cc_zoo_options zo = { .batch = o->batch, .image_size = o->size, .seed = 1 };
        cc_model *m = NULL;
        cc_err err = { 0 };
        if (cc_zoo_build(name, &zo, &m, &err)) {
            cc_cli_say("bench ops", "%s", err.msg);
            return 2;
        }
        for (int k = 0; k < m->graph.n_nodes; k++) {
            char id[CC_CASE_ID_MAX];
            cc_err e2 = { 0 };
            if (cc_model_node_case_id(m, k, id, sizeof id, &e2)) {
                (*skipped)++;
                continue;
            }
            int r = add_case(o, e, n, id, 0);
            if (r) {
                cc_model_free(m);
                return r;
            }
        }
        cc_model_free(m);
    }
    return 0;
}

/* Runs entry x on every target (ctx[t] open, NULL when its open failed: why[t]). */
static void time_entry(const ops_opts *o, ops_entry *x, void *const *ctx, char (*why)[CC_REASON_MAX],
                       double *samples, int cap)
{
    cc_case c;
    cc_err err = { 0 };
    cc_exec_golden g;
    for (int t = 0; t < o->n_t; t++) {
        x->ms[t] = NAN;
        x->verdict[t] = CC_ERROR;
    }
    int any = 0;
    for (int t = 0; t < o->n_t; t++) any |= ctx[t] != NULL;
    if (!any) { /* no target opened: nothing to make inputs for */
        for (int t = 0; t < o->n_t; t++) {
            x->verdict[t] = CC_UNSUPPORTED;
            snprintf(x->reason[t], sizeof x->reason[t], "%s", why[t]);
        }
        return;
    }
    if (cc_case_parse(x->id, &c, &err) ||
        (o->no_check ? cc_exec_inputs_make(&c, 1, CC_REGIME_RANDOM, &g, &err)
                     : cc_exec_golden_make(&c, 1, CC_REGIME_RANDOM, &g, &err))) {
        for (int t = 0; t < o->n_t; t++) snprintf(x->reason[t], sizeof x->reason[t], "%s", err.msg);
        return;
    }
    cc_exec_params p = { .time_it = 1, .warmup = 2, .min_time = o->min_time, .min_samples = 3,
                         .max_samples = cap, .max_time = o->min_time * 4 + 0.2, .no_check = o->no_check };
    for (int t = 0; t < o->n_t; t++) {
        p.f32_contraction_bits = o->contraction_bits[t];
        if (!ctx[t]) {
            x->verdict[t] = CC_UNSUPPORTED;
            snprintf(x->reason[t], sizeof x->reason[t], "%s", why[t]);
            continue;
        }
        cc_result res;
        int ns = 0;
        cc_exec_result_init(&res, &c, o->label[t], CC_REGIME_RANDOM, 1);
        cc_exec_target(&g, o->t[t], ctx[t], &p, &res, samples, &ns, NULL);
        x->verdict[t] = res.verdict;
        if (res.flops > 0) x->flops = res.flops;
        snprintf(x->reason[t], sizeof x->reason[t], "%s", res.reason);
        if ((res.verdict == CC_PASSED || res.verdict == CC_FAILED || res.verdict == CC_MISTRUSTED) &&
            res.timing.n_samples > 0)
            x->ms[t] = res.timing.median * 1e3;
    }
    cc_exec_golden_release(&g);
}

/* Geometric mean of baseline / target over the entries of op `op` (NULL: all) that
 * both timed; writes the count to *n. */
static double geomean(const ops_opts *o, const ops_entry *e, int n, const char *op, int t, int *cnt)
{
    double s = 0;
    *cnt = 0;
    for (int i = 0; i < n; i++) {
        if (op && strcmp(e[i].op, op)) continue;
        double b = e[i].ms[o->base], x = e[i].ms[t];
        if (!(b > 0) || !(x > 0)) continue;
        s += log(b / x);
        (*cnt)++;
    }
    return *cnt ? exp(s / *cnt) : NAN;
}

static void print_table(const ops_opts *o, const ops_entry *e, int n)
{
    printf("| op | case | layers |");
    for (int t = 0; t < o->n_t; t++) printf(" %s ms |", o->label[t]);
    if (o->no_check)
        for (int t = 0; t < o->n_t; t++) printf(" %s GFLOP/s |", o->label[t]);
    for (int t = 0; t < o->n_t; t++)
        if (t != o->base && o->base >= 0) printf(" %s / %s |", o->label[t], o->label[o->base]);
    printf("\n|---|---|--:|");
    for (int t = 0; t < o->n_t; t++) printf("--:|");
    if (o->no_check)
        for (int t = 0; t < o->n_t; t++) printf("--:|");
    for (int t = 0; t < o->n_t; t++)
        if (t != o->base && o->base >= 0) printf("--:|");
    printf("\n");
    for (int i = 0; i < n; i++) {
        const ops_entry *x = &e[i];
        printf("| %s | `%s` | %d |", x->op, x->id, x->layers);
        for (int t = 0; t < o->n_t; t++) {
            if (x->verdict[t] == CC_UNSUPPORTED) printf(" unsupported |");
            else if (!(x->ms[t] >= 0)) printf(" %s |", cc_verdict_name(x->verdict[t]));
            else printf(x->ms[t] >= 0.1 ? " %.3f%s |" : " %.4f%s |", x->ms[t],
                        x->verdict[t] == CC_PASSED || o->no_check ? "" : " (!)");
        }
        for (int t = 0; o->no_check && t < o->n_t; t++) {
            if (x->ms[t] > 0 && x->flops > 0) printf(" %.0f |", x->flops / (x->ms[t] * 1e-3) * 1e-9);
            else printf(" - |");
        }
        for (int t = 0; t < o->n_t; t++) {
            if (t == o->base || o->base < 0) continue;
            double b = x->ms[o->base], y = x->ms[t];
            if (b > 0 && y > 0) printf(" %.2fx |", b / y);
            else printf(" - |");
        }
        printf("\n");
    }
}

static void print_summary(const ops_opts *o, const ops_entry *e, int n)
{
    if (o->base < 0) return;
    printf("\ngeometric mean speedup over %s (cases both timed):\n\n| op | cases |", o->label[o->base]);
    for (int t = 0; t < o->n_t; t++)
        if (t != o->base) printf(" %s |", o->label[t]);
    printf("\n|---|--:|");
    for (int t = 0; t < o->n_t; t++)
        if (t != o->base) printf("--:|");
    printf("\n");
    for (int i = 0; i <= n; i++) {
        const char *op = i < n ? e[i].op : NULL;
        int seen = 0;
        for (int k = 0; k < i && op; k++) seen |= !strcmp(e[k].op, op);
        if (seen) continue;
        int total = 0;
        for (int k = 0; k < n; k++) total += !op || !strcmp(e[k].op, op);
        printf("| %s | %d |", op ? op : "**all**", total);
        for (int t = 0; t < o->n_t; t++) {
            if (t == o->base) continue;
            int cnt;
            double gm = geomean(o, e, n, op, t, &cnt);
            if (cnt) printf(" %.2fx (%d) |", gm, cnt);
            else printf(" - |");
        }
        printf("\n");
    }
    /* layer-weighted: the sum over a model's layers, on the cases every target timed */
    double sum[OPS_MAX_TARGETS] = { 0 };
    int common = 0;
    for (int i = 0; i < n; i++) {
        int all = 1;
        for (int t = 0; t < o->n_t; t++) all &= e[i].ms[t] > 0;
        if (!all) continue;
        common++;
        for (int t = 0; t < o->n_t; t++) sum[t] += e[i].ms[t] * e[i].layers;
    }
    if (common) {
        printf("\nlayer-weighted sum over the %d cases every target timed:", common);
        for (int t = 0; t < o->n_t; t++)
            printf(" %s %.2f ms%s", o->label[t], sum[t], t + 1 < o->n_t ? "," : "");
        printf("\n");
    }
}

/* One line per distinct (target, reason) of the entries not timed. */
static void print_unsupported(const ops_opts *o, const ops_entry *e, int n)
{
    int first = 1;
    for (int i = 0; i < n; i++)
        for (int t = 0; t < o->n_t; t++) {
            if (e[i].ms[t] >= 0) continue;
            int seen = 0;
            for (int k = 0; k < i && !seen; k++)
                seen = !(e[k].ms[t] >= 0) && !strcmp(e[k].reason[t], e[i].reason[t]);
            if (seen) continue;
            if (first) printf("\nnot timed (target: verdict, reason, first case):\n");
            first = 0;
            printf("- %s: %s, %s; `%s`\n", o->label[t], cc_verdict_name(e[i].verdict[t]), e[i].reason[t], e[i].id);
        }
}

static int ops_parse(int argc, char **argv, ops_opts *o)
{
    cc_cli cli;
    cc_cli_init(&cli, "bench ops", ops_help);
    memset(o, 0, sizeof *o);
    o->models = "resnet50,yolov5s";
    o->baseline = "cpu";
    o->dtype = CC_F32;
    o->min_time = 0.05;
    o->batch = 1;
    const char *targets = NULL;
    for (int i = 0; i < argc; i++) {
        const char *v;
        int k;
        uint64_t u;
        if ((k = cc_cli_value(&cli, argc, argv, &i, "--models", &v)) > 0) o->models = v;
        else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--targets", &v)) > 0) targets = v;
        else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--baseline", &v)) > 0) o->baseline = v;
        else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--ops", &v)) > 0) o->ops = v;
        else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--case", &v)) > 0) {
            if (o->n_cases >= (int)(sizeof o->cases / sizeof o->cases[0])) {
                cc_cli_say("bench ops", "at most 16 --case");
                return 2;
            }
            o->cases[o->n_cases++] = v;
        } else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--size", &v)) > 0) {
            if (cc_cli_u64(v, &u) || u < 1 || u > 8192) {
                cc_cli_say("bench ops", "--size takes 1..8192");
                return 2;
            }
            o->size = (int)u;
        } else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--min-time", &v)) > 0) {
            char *end;
            o->min_time = strtod(v, &end);
            if (*end || !(o->min_time >= 0) || o->min_time > 60) {
                cc_cli_say("bench ops", "--min-time takes seconds (0..60)");
                return 2;
            }
        } else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--dtype", &v)) > 0) {
            if (!strcmp(v, "int8")) o->int8 = 1;
            else if (!strcmp(v, "f32")) o->dtype = CC_F32;
            else if (!strcmp(v, "bf16")) o->dtype = CC_BF16;
            else if (!strcmp(v, "f16")) o->dtype = CC_F16;
            else {
                cc_cli_say("bench ops", "--dtype takes f32, bf16, f16 or int8");
                return 2;
            }
        } else if (k == 0 && (k = cc_cli_value(&cli, argc, argv, &i, "--batch", &v)) > 0) {
            if (cc_cli_u64(v, &u) || u < 1 || u > 4096) {
                cc_cli_say("bench ops", "--batch takes 1..4096");
                return 2;
            }
            o->batch = (int)u;
        } else if (k < 0) return 2;
        else if (!strcmp(argv[i], "--list")) o->list = 1;
        else if (!strcmp(argv[i], "--no-check")) o->no_check = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return cc_cli_help(&cli);
        else {
            cc_cli_say("bench ops", "unknown option '%s'", argv[i]);
            return 2;
        }
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", targets ? targets : "onednn,cpu,xnnpack");
    char *save = NULL;
    for (char *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(name, ':');
        if (colon) *colon = '\0';
        const cc_target_iface *t = cc_target_find(name);
        if (!t) {
            if (!targets) continue; /* a default target that is not built or loaded */
            cc_cli_say("bench ops", "unknown target '%s' (see `crosscheck list targets`)", name);
            return 2;
        }
        if (o->n_t >= OPS_MAX_TARGETS) {
            cc_cli_say("bench ops", "at most %d targets", OPS_MAX_TARGETS);
            return 2;
        }
        o->device[o->n_t] = colon ? strdup(colon + 1) : "";
        cc_target_label(name, o->device[o->n_t], o->label[o->n_t], sizeof o->label[o->n_t]);
        o->t[o->n_t++] = t;
    }
    if (!o->n_t) {
        cc_cli_say("bench ops", "no target to run");
        return 2;
    }
    o->base = -1;
    for (int t = 0; t < o->n_t; t++)
        if (!strcmp(o->label[t], o->baseline)) o->base = t;
    return -1;
}

static int ops_main(int argc, char **argv)
{
    ops_opts o;
    int r = ops_parse(argc, argv, &o);
    if (r >= 0) return r;
    ops_entry *e = calloc(OPS_MAX_CASES, sizeof *e);
    double *samples = malloc(sizeof(double) * 100000);
    void *ctx[OPS_MAX_TARGETS] = { 0 };
    char why[OPS_MAX_TARGETS][CC_REASON_MAX];
    int n = 0, skipped = 0, failed = 0;
    if (!e || !samples) {
        cc_cli_say("bench ops", "out of memory");
        r = 3;
        goto done;
    }
    if ((r = collect(&o, e, &n, &skipped))) goto done;
    if (o.list) {
        for (int i = 0; i < n; i++) printf("%s\t%d\n", e[i].id, e[i].layers);
        goto done;
    }
    if (!n) {
        cc_cli_say("bench ops", "no case to run");
        r = 3;
        goto done;
    }
    if (o.n_cases) printf("bench ops: %d distinct cases from --case, %s", n, o.int8 ? "int8" : cc_dtype_name(o.dtype));
    else printf("bench ops: %d distinct cases from %s, %s, batch %d", n, o.models, o.int8 ? "int8" : cc_dtype_name(o.dtype),
                o.batch);
    if (o.no_check) printf(", timing only (outputs not checked)");
    if (skipped) printf(" (%d layers without a case id left out)", skipped);
    printf("\n");
    for (int t = 0; t < o.n_t; t++) {
        cc_device_desc d;
        cc_err err = { 0 };
        memset(&d, 0, sizeof d);
        if (o.t[t]->open(o.device[t], &ctx[t], &d, &err)) {
            ctx[t] = NULL;
            snprintf(why[t], sizeof why[t], "open failed: %.200s", err.msg);
            printf("- %s: %s\n", o.label[t], why[t]);
        } else {
            o.contraction_bits[t] = d.f32_contraction_bits;
            printf("- %s: %s; %s%s%s", o.label[t], d.name, d.library, d.driver[0] ? "; " : "", d.driver);
            if (d.peak_gflops > 0) printf("; FP32 peak %.0f GFLOP/s (%s)", d.peak_gflops, d.peak_source);
            printf("\n");
        }
    }
    printf("\n");
    fflush(stdout);
    int tty = isatty(STDERR_FILENO);
    for (int i = 0; i < n; i++) {
        time_entry(&o, &e[i], ctx, why, samples, 100000);
        for (int t = 0; t < o.n_t; t++) failed |= e[i].verdict[t] == CC_FAILED;
        if (tty) fprintf(stderr, "\rcrosscheck bench ops: %d/%d", i + 1, n);
    }
    if (tty) fprintf(stderr, "\n");
    print_table(&o, e, n);
    print_summary(&o, e, n);
    print_unsupported(&o, e, n);
    r = failed ? 1 : 0;
done:
    for (int t = 0; t < o.n_t; t++)
        if (ctx[t]) o.t[t]->close(ctx[t]);
    free(samples);
    free(e);
    return r;
}


int cc_bench_main(int argc, char **argv)
{
    if (argc >= 1 && strcmp(argv[0], "overhead") == 0) return overhead(argc - 1, argv + 1);
    if (argc >= 1 && strcmp(argv[0], "ops") == 0) return ops_main(argc - 1, argv + 1);
    fprintf(stderr, "crosscheck bench: say which benchmark: overhead, ops\n");
    return 2;
}
