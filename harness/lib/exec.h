/* exec.h — runs one case on one target inside the current process: supports check,
 * prepare, buffers with guard bytes, run, download, comparison with the golden model,
 * and the timing loop. The worker process calls it; so do `dump` and `bench`. */
#ifndef CC_EXEC_H
#define CC_EXEC_H

#include "../../ops/case.h"
#include "../../ops/check.h"
#include "../../results/result.h"
#include "../../targets/target.h"

typedef struct cc_exec_params {
    int time_it;          /* 0: correctness only */
    int warmup;           /* warm-up executions before sampling (at least this many) */
    double min_time;      /* keep sampling until this much time was sampled ... */
    int min_samples;      /* ... and at least this many samples */
    int max_samples;      /* stop at this many samples ... */
    double max_time;      /* ... or after this much sampling time */
    int f32_contraction_bits; /* the target's cc_device_desc.f32_contraction_bits (0: FP32) */
    int no_check;         /* timing only (bench ops --no-check): g holds inputs and no golden
                             outputs; a case that runs is CC_MISTRUSTED "not checked" */
} cc_exec_params;

/* A case made concrete in one regime, with its golden outputs (shared across targets). */
typedef struct cc_exec_golden {
    cc_case_inst inst;
    cc_golden gold[CC_MAX_IO];
    int ready;
} cc_exec_golden;

/* Instantiates c with seed/regime and runs the golden model. Free with _release. */
/* cc_exec_inputs_make: the inputs alone, no golden outputs, for timing only (no_check). */
cc_status cc_exec_inputs_make(const cc_case *c, uint64_t seed, cc_regime regime, cc_exec_golden *g,
                              cc_err *err);
cc_status cc_exec_golden_make(const cc_case *c, uint64_t seed, cc_regime regime, cc_exec_golden *g,
                              cc_err *err);
void cc_exec_golden_release(cc_exec_golden *g);

/* The seed of a case in a run: a hash of its canonical id, the run seed and the regime. */
uint64_t cc_exec_case_seed(const char *case_id, uint64_t run_seed, cc_regime regime);

/* Runs the case on target t (opened: ctx) and fills *res completely (verdict, reason,
 * metrics, timing, cost, plan, policy). samples (capacity params->max_samples) receives
 * the raw timing samples and *n_samples their count. If got is non-NULL the target's
 * outputs are returned there (caller frees each with cc_tensor_free) when it ran. */
void cc_exec_target(const cc_exec_golden *g, const cc_target_iface *t, void *ctx,
                    const cc_exec_params *params, cc_result *res, double *samples, int *n_samples,
                    cc_tensor *got);

/* Fills the identifying fields of res (case, op, dtype, target, regime, seed, cost, policy). */
void cc_exec_result_init(cc_result *res, const cc_case *c, const char *target, cc_regime regime,
                         uint64_t seed);

#endif
