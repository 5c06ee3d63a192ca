/* model_diag.h — a model's diagnosis on one target, from the golden evaluation of image 0
 * (e0: every value of the graph): the slowest layers, the first node whose local error is
 * over its op's bound (with the case id that reruns it alone) and how the error
 * propagates. Each node runs alone on the executor (graph_exec.h). model_run.c calls them
 * for a job that does not conform. */
#ifndef CC_MODEL_DIAG_H
#define CC_MODEL_DIAG_H

#include "../../models/model.h"
#include "../../results/model_result.h"
#include "../../targets/target.h"

/* The five slowest nodes on t (run one by one), with their share of the total, into
 * r->layers ("name (Op) 31.2%; ..."). Nodes t does not run are left out. */
void cc_model_layers(const cc_model *m, const cc_model_eval *e0, const cc_target_iface *t, void *ctx,
                     cc_model_result *r);
/* The first node whose local error (run alone on t, fed the golden model's inputs) is out
 * of its op's bound, into r->divergent with its rerun line; or that no node is. */
void cc_model_divergence(const cc_model *m, const cc_model_eval *e0, const cc_target_iface *t, void *ctx,
                         cc_model_result *r);
/* The propagated error: t runs the nodes one by one, each fed with t's own outputs (a
 * fallback node on fb), and every output is compared with the golden model's. Appends to
 * r->divergent the first node whose output falls below need_db of SQNR, and the SQNR at
 * the graph output. */
void cc_model_propagated(const cc_model *m, const cc_model_eval *e0, const cc_target_iface *t, void *ctx,
                         const cc_target_iface *fb, void *fb_ctx, double need_db, cc_model_result *r);

/* t's elements as a malloc'd float array (NULL when out of memory). */
float *cc_model_float_copy(const cc_tensor *t);
/* The values of n tensors t[0..n-1] as floats, one after another (a model's outputs, every
 * one compared); NULL when out of memory. */
float *cc_model_floats_concat(const cc_tensor *const *t, int n);
/* The element count of g's outputs together. */
int64_t cc_model_outputs_numel(const cc_graph *g);
/* snprintf into dst that truncates silently (the texts are diagnostics). */
void cc_diag_put(char *dst, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
