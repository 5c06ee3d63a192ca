/* junit.h — a run as JUnit XML for CI systems: one <testsuite> per target, one
 * <testcase> per (case, target) with classname "crosscheck.<target>.<op>" and the case id
 * as its name, and one per model result (model, target, precision) with classname
 * "crosscheck.<target>.model.<model>" and name "<model> <precision>". A case's verdict is
 * the worst over its regimes (the report's order): failed -> <failure type="failed"> with
 * the error figures (max abs/rel/ULP error, bound ratio, worst element; for a model its
 * accuracy against the FP32 golden model and conformance) and the repro line; error,
 * crashed, timeout -> <error type=...> with the reason and the repro line; unsupported ->
 * <skipped message=reason>; passed and mistrusted pass (mistrusted with a note in
 * <system-out>). time is the median time in seconds when the case was timed, for a model
 * its median latency at batch 1. A shard's run (run --shard, a Slurm or Kubernetes array
 * task) is rendered with every shard of its set (results/shards.h), and a <testsuite
 * name="crosscheck.shards"> holds a <testcase name="shard I of N"> per shard, with a
 * <failure> when the shard is missing or did not finish. Every text is XML-escaped. */
#ifndef CC_JUNIT_H
#define CC_JUNIT_H

#include "../results/store.h"

/* Renders run run_id (<= 0: the latest). On success *out is a malloc'd XML document
 * (caller frees with free()). CC_ERR_ARG for a run that does not exist, CC_ERR_DB,
 * CC_ERR_NOMEM. */
cc_status cc_report_junit(cc_db *store, int64_t run_id, char **out, cc_err *err);

#endif
