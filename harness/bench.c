/* bench.c — `crosscheck bench`: measurements of the suite itself.
 *
 *   bench overhead [--case ID] [--target T] [--rounds N]
 *     Times one case on a target two ways in the same process, alternating: through the
 *     harness's timing path (cc_exec_target: a clock read around every run + sync, the
 *     median of the samples) and through a bare loop (N back-to-back runs, one clock
 *     read at each end, the mean). The ratio is the harness's overhead. It also times
 *     the golden model (`ref`) on the same case for the speedup of the target over it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
                fprintf(stderr, "crosscheck bench overhead: --rounds takes 1..1000\n");
                return 2;
            }
        } else if (k < 0) return 2;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return cc_cli_help(&cli);
        else {
            fprintf(stderr, "crosscheck bench overhead: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    const cc_target_iface *t = cc_target_find(target), *ref = cc_target_find("ref");
    if (!t) {
        fprintf(stderr, "crosscheck bench overhead: unknown target '%s'\n", target);
        return 2;
    }
    cc_case c;
    cc_err err = { 0 };
    if (cc_case_parse(case_id, &c, &err)) {
        fprintf(stderr, "crosscheck bench overhead: %s\n", err.msg);
        return 2;
    }
    cc_exec_golden g;
    if (cc_exec_golden_make(&c, 1, CC_REGIME_RANDOM, &g, &err)) {
        fprintf(stderr, "crosscheck bench overhead: %s\n", err.msg);
        return 3;
    }
    void *ctx = NULL, *plan = NULL;
    cc_device_desc desc;
    if (t->open("", &ctx, &desc, &err) || t->prepare(ctx, &g.inst.graph, &plan, &err)) {
        fprintf(stderr, "crosscheck bench overhead: %s: %s\n", target, err.msg);
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

int cc_bench_main(int argc, char **argv)
{
    if (argc >= 1 && strcmp(argv[0], "overhead") == 0) return overhead(argc - 1, argv + 1);
    fprintf(stderr, "crosscheck bench: say which benchmark: overhead\n");
    return 2;
}
