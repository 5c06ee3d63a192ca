/* model_run.c — models on targets: precision variants, golden references, isolated
 * jobs, metrics, timing, per-layer breakdown and the divergence search. */
#include "model_run.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../models/detect.h"
#include "../../models/judge.h"
#include "../../models/metrics.h"
#include "../../models/onnx_import.h"
#include "../../models/precision.h"
#include "../../models/quantize.h"
#include "../../models/weights.h"
#include "../../models/zoo.h"
#include "graph_exec.h"
#include "model_diag.h"
#include "model_variant.h"
#include "model_record.h"
#include "npy.h"
#include "stats.h"
#include "worker.h"

/* ---- one job --------------------------------------------------------------------------- */

static void set_reason(cc_model_result *r, cc_verdict v, const char *msg)
{
    r->verdict = v;
    snprintf(r->reason, sizeof r->reason, "%.250s", msg);
}

/* One precision's variant made (int8: calibrated and quantized) and its golden outputs. */
typedef struct {
    const cc_model_run_options *o;
    const cc_model *f32;
    cc_model_variant *v;
    int threads;
    cc_status st;
    cc_err err;
    double secs;
} variant_job;

static void *variant_main(void *arg)
{
    variant_job *j = arg;
    double t = cc_now();
    j->st = cc_model_make_variant(j->o, j->f32, j->v->prec, &j->v->qp, &j->v->m, j->v->note, sizeof j->v->note,
                                  &j->err);
    if (!j->st) j->st = cc_model_golden_variant(j->o, j->v, j->threads, &j->err);
    j->secs = cc_now() - t;
    return NULL;
}

/* Latency samples one job keeps (and sends to the parent) at most. */
#define MAX_LAT_SAMPLES 10000

/* Times runs of x on in: two warm-up runs, then until min_samples and min_time (at most
 * 30 s of host time and MAX_LAT_SAMPLES runs), each by the target's device timer where it
 * has one (tm->device_timer). Statistics to *tm; with keep, the raw samples to
 * keep[0..*n_kept-1] (capacity MAX_LAT_SAMPLES). */
static cc_status timed_runs(cc_graph_exec *x, const cc_tensor *in, double min_time, int min_samples, cc_timing *tm,
                            double *keep, int *n_kept, cc_err *err)
{
    cc_status st = cc_graph_exec_bind(x, in, err);
    for (int w = 0; w < 2 && !st; w++) st = cc_graph_exec_run_bound(x, err);
    int cap = MAX_LAT_SAMPLES, n = 0;
    double *s = malloc(sizeof(double) * (size_t)cap);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    double start = cc_now();
    int device = 0;
    while (!st && n < cap && (n < min_samples || cc_now() - start < min_time) && cc_now() - start < 30)
        st = cc_graph_exec_run_timed(x, &s[n++], &device, err);
    if (!st && keep) {
        memcpy(keep, s, sizeof(double) * (size_t)n);
        *n_kept = n;
    }
    if (!st) {
        cc_stats_compute(s, n, 0, 0, tm);
        tm->device_timer = device;
    }
    free(s);
    return st;
}

/* What a job sends back to the parent: the result, then n_lat latency samples. */
typedef struct job_out {
    cc_model_result r;
    int n_lat;
    double lat[MAX_LAT_SAMPLES];
} job_out;

/* 10 log10(signal / noise): inf when the noise is 0 (an exact match, all-zero outputs
 * included), -inf for any noise on all-zero recorded outputs. */
static double sqnr_db(double signal, double noise)
{
    if (noise == 0) return INFINITY;
    return 10 * log10(signal / noise);
}

/* The FP32 job's second oracle: every test data set of o->testdata run on the target
 * (x, the graph g) and its outputs compared with the recorded ones, as SQNR over all
 * sets and outputs, beside the golden model's own SQNR against them. Passed at
 * CC_CONF_CAP_DB or more (the bar a target meets against the FP32 golden model); below it,
 * mistrusted when the golden model is below it too (the recorded outputs disagree with the
 * law: another model semantics, TF32 on the original machine), else failed. */
/* A tensor file: an .npy file, else a serialized TensorProto (.pb). */
static cc_status read_tensor_file(const char *path, cc_tensor *t, cc_err *err)
{
    size_t n = strlen(path);
    if (n > 4 && !strcmp(path + n - 4, ".npy")) return cc_npy_read(path, t, err);
    return cc_onnx_read_tensor(path, t, NULL, 0, err);
}

/* The recorded set of o's loose files (--inputs, --expected) into td (its model left
 * NULL). */
static cc_status loose_set(const cc_model_run_options *o, cc_onnx_testdata *td, cc_err *err)
{
    memset(td, 0, sizeof *td);
    cc_status st = CC_OK;
    for (int i = 0; i < o->n_rec_inputs && !st; i++)
        if (!(st = read_tensor_file(o->rec_inputs[i], &td->inputs[i], err))) td->n_inputs++;
    for (int i = 0; i < o->n_rec_expected && !st; i++)
        if (!(st = read_tensor_file(o->rec_expected[i], &td->expected[i], err))) td->n_expected++;
    if (st) cc_onnx_testdata_free(td);
    return st;
}

/* Whether value v's shape follows the data: made by a node of data-dependent output shape,
 * or by one that reads such a value (cc_graph_dynamic_values). */
static int output_is_dynamic(const cc_graph *g, int v)
{
    unsigned char *dyn = malloc((size_t)g->n_values + 1);
    if (dyn) {
        cc_graph_dynamic_values(g, dyn);
        int d = dyn[v];
        free(dyn);
        return d;
    }
    for (int k = 0; k < g->n_nodes; k++)
        for (int j = 0; j < g->nodes[k].n_out; j++)
            if (g->nodes[k].out[j] == v) return cc_node_dynamic_shape(g, &g->nodes[k]);
    return 0;
}

/* One recorded set of a model whose outputs are post-NMS detections: the recorded
 * detections against the target's (ag) and the golden model's (gag). */
static void recorded_detections(const cc_model *m, const cc_onnx_testdata *td, const cc_tensor *out,
                                const cc_model_eval *ev, cc_detect_agree *ag, cc_detect_agree *gag, char *why,
                                size_t why_n)
{
    const cc_graph *g = &m->graph;
    const cc_tensor *rp[CC_MAX_IO], *tp[CC_MAX_IO], *gp[CC_MAX_IO];
    int64_t nr = 0, nt = 0, ng = 0, k = -1;
    for (int j = 0; j < g->n_outputs; j++) { /* the model's shapes but for the count k */
        const cc_shape *want = &g->values[g->outputs[j]].shape, *got = &td->expected[j].shape;
        int fits = got->rank == want->rank && got->rank >= 1 && (k < 0 || got->dims[0] == k);
        for (int d = 1; d < got->rank && fits; d++) fits = got->dims[d] == want->dims[d];
        if (!fits) {
            char a[64], b[64];
            snprintf(why, why_n, "recorded output %d is %s, the model's %s (detections: only their count may differ)",
                     j, cc_shape_format(got, a, sizeof a), cc_shape_format(want, b, sizeof b));
            return;
        }
        k = got->dims[0];
    }
    for (int j = 0; j < g->n_outputs; j++) {
        rp[j] = &td->expected[j];
        tp[j] = &out[j];
        gp[j] = ev->vals[g->outputs[j]].data ? &ev->vals[g->outputs[j]] : &g->values[g->outputs[j]];
        nr += cc_tensor_numel(rp[j]);
        nt += cc_tensor_numel(tp[j]);
        ng += cc_tensor_numel(gp[j]);
    }
    float *fr = cc_model_floats_concat(rp, g->n_outputs), *ft = cc_model_floats_concat(tp, g->n_outputs);
    float *fg = cc_model_floats_concat(gp, g->n_outputs);
    cc_detection *dr = NULL, *dt = NULL, *dg = NULL;
    int kr = 0, kt = 0, kg = 0;
    cc_err e = { 0 };
    double band = cc_detect_band(CC_CONF_CAP_DB);
    if (!fr || !ft || !fg) snprintf(why, why_n, "out of memory");
    else if (cc_detect_unpack(g, m->det_out, fr, nr, &dr, &kr, &e))
        snprintf(why, why_n, "the recorded outputs: %.200s", e.msg);
    else if (cc_detect_unpack(g, m->det_out, fg, ng, &dg, &kg, &e))
        snprintf(why, why_n, "golden model: %.200s", e.msg);
    else if (cc_detect_unpack(g, m->det_out, ft, nt, &dt, &kt, &e)) {
        /* the target's outputs are not detections: nothing of this set matches */
        if (!ag->first[0]) snprintf(ag->first, sizeof ag->first, "input %d: the target's outputs: %.150s", ag->n_images, e.msg);
        ag->n_images++;
        ag->n_gold += kr;
        ag->n_disagree += kr > 0 ? kr : 1;
    } else if (cc_detect_agree_add(ag, dr, kr, dt, kt, band, &e) || cc_detect_agree_add(gag, dr, kr, dg, kg, band, &e))
        snprintf(why, why_n, "%.250s", e.msg);
    free(fr);
    free(ft);
    free(fg);
    free(dr);
    free(dt);
    free(dg);
}

/* The recorded check's verdict for detections compared as sets: passed when the target's
 * matched detections reach CC_CONF_CAP_DB and none is unmatched beyond the near-ties; else
 * mistrusted when the golden model does not either, else failed. */
static void recorded_sets_verdict(const cc_detect_agree *ag, const cc_detect_agree *gag, cc_model_result *r)
{
    r->rec_sqnr_db = cc_detect_agree_sqnr(ag);
    r->rec_golden_sqnr_db = cc_detect_agree_sqnr(gag);
    r->rec_max_abs = fmax(ag->max_box_diff, ag->max_score_diff);
    int t_ok = r->rec_sqnr_db >= CC_CONF_CAP_DB && !ag->n_disagree;
    int g_ok = r->rec_golden_sqnr_db >= CC_CONF_CAP_DB && !gag->n_disagree;
    char what[CC_REASON_MAX];
    if (ag->n_disagree)
        snprintf(what, sizeof what, "%d of %d detections unmatched beyond near-ties (%.150s)", ag->n_disagree,
                 ag->n_gold + ag->n_cand, ag->first);
    else
        snprintf(what, sizeof what, "the matched detections at %.1f dB (needs %.0f), largest difference %.3g",
                 r->rec_sqnr_db, CC_CONF_CAP_DB, r->rec_max_abs);
    if (t_ok) {
        r->rec_verdict = CC_PASSED;
        snprintf(r->rec_reason, sizeof r->rec_reason, "%d of %d recorded detections matched, %d near-ties unmatched",
                 ag->n_matched, ag->n_gold, ag->n_tolerated);
    } else if (!g_ok) {
        r->rec_verdict = CC_MISTRUSTED;
        snprintf(r->rec_reason, sizeof r->rec_reason, "%.150s; the golden model disagrees with them too (%d unmatched, %.1f dB)",
                 what, gag->n_disagree, r->rec_golden_sqnr_db);
    } else {
        r->rec_verdict = CC_FAILED;
        snprintf(r->rec_reason, sizeof r->rec_reason, "%.200s; the golden model matches them", what);
    }
}

static void recorded_check(const cc_model_run_options *o, const cc_model *m, cc_graph_exec *x, cc_model_result *r)
{
    const cc_graph *g = &m->graph;
    int sets = m->task == CC_TASK_DETECTIONS;
    cc_detect_agree ag, gag;
    cc_detect_agree_init(&ag, "recorded");
    cc_detect_agree_init(&gag, "recorded");
    double sig = 0, noise_t = 0, noise_g = 0, max_abs = 0;
    char why[CC_REASON_MAX] = "";
    cc_onnx_options oo;
    cc_model_onnx_options(o, 1, &oo);
    for (int k = 0; !why[0]; k++) {
        char path[4096];
        struct stat sb;
        if (o->testdata) {
            snprintf(path, sizeof path, "%s/test_data_set_%d", o->testdata, k);
            if (stat(path, &sb) != 0) break;
        } else if (k > 0) {
            break;
        }
        cc_onnx_testdata td;
        cc_model_eval ev;
        memset(&ev, 0, sizeof ev);
        cc_tensor out[CC_MAX_IO];
        memset(out, 0, sizeof out);
        cc_err e = { 0 };
        if (o->testdata ? cc_onnx_testdata_load(o->testdata, k, &oo, &td, &e) : loose_set(o, &td, &e)) {
            snprintf(why, sizeof why, "%.250s", e.msg);
            break;
        }
        char set[32];
        if (o->testdata) snprintf(set, sizeof set, "test_data_set_%d", k);
        else snprintf(set, sizeof set, "the recorded files");
        for (int i = 0; i < g->n_inputs && !why[0]; i++) {
            const cc_tensor *want = &g->values[g->inputs[i]];
            char a[64], b[64];
            if (i >= td.n_inputs || td.inputs[i].dtype != want->dtype || !cc_shape_equal(&td.inputs[i].shape, &want->shape))
                snprintf(why, sizeof why, "%s: input %d is %s %s, the model takes %s %s", set, i,
                         i < td.n_inputs ? cc_dtype_name(td.inputs[i].dtype) : "absent",
                         i < td.n_inputs ? cc_shape_format(&td.inputs[i].shape, a, sizeof a) : "",
                         cc_dtype_name(want->dtype), cc_shape_format(&want->shape, b, sizeof b));
        }
        if (!why[0] && td.n_expected != g->n_outputs)
            snprintf(why, sizeof why, "%s: %d outputs recorded, the model has %d", set, td.n_expected, g->n_outputs);
        for (int j = 0; j < g->n_outputs && !why[0]; j++) {
            const cc_tensor *oj = &g->values[g->outputs[j]];
            /* an output of data-dependent shape has its bound here; its shape is checked after the run */
            int bounded = output_is_dynamic(g, g->outputs[j]);
            if ((!bounded && !cc_shape_equal(&td.expected[j].shape, &oj->shape)) ||
                cc_tensor_alloc(&out[j], oj->dtype, &oj->shape, &e))
                snprintf(why, sizeof why, "%s: output %d's shape differs from the model's%s%.150s", set, j,
                         e.msg[0] ? ": " : "", e.msg);
        }
        if (!why[0] && cc_graph_exec_run(x, td.inputs, out, &e)) snprintf(why, sizeof why, "%.250s", e.msg);
        for (int j = 0; j < g->n_outputs && !why[0] && !sets; j++)
            if (!cc_shape_equal(&td.expected[j].shape, &out[j].shape)) {
                char a[64], b[64];
                snprintf(why, sizeof why, "%s: output %d is %s, %s recorded", set, j,
                         cc_shape_format(&out[j].shape, a, sizeof a), cc_shape_format(&td.expected[j].shape, b, sizeof b));
            }
        if (!why[0] && cc_model_evaluate(g, td.inputs, 0, NULL, &ev, &e))
            snprintf(why, sizeof why, "golden model: %.230s", e.msg);
        if (!why[0] && sets) /* as sets of detections: counts and order may differ by near-ties */
            recorded_detections(m, &td, out, &ev, &ag, &gag, why, sizeof why);
        for (int j = 0; j < g->n_outputs && !why[0] && !sets; j++) {
            const cc_tensor *want = &td.expected[j], *gold = &ev.vals[g->outputs[j]];
            if (!gold->data) gold = &g->values[g->outputs[j]];
            for (int64_t i = 0; i < cc_tensor_numel(want); i++) {
                double w = cc_load(want->data, want->dtype, (size_t)i);
                double y = cc_load(out[j].data, out[j].dtype, (size_t)i);
                double gv = cc_load(gold->data, gold->dtype, (size_t)i);
                sig += w * w;
                noise_t += (y - w) * (y - w);
                noise_g += (gv - w) * (gv - w);
                if (fabs(y - w) > max_abs || isnan(y - w)) max_abs = fabs(y - w);
            }
        }
        if (!why[0]) r->rec_sets++;
        for (int j = 0; j < CC_MAX_IO; j++) cc_tensor_free(&out[j]);
        cc_model_eval_free(&ev);
        cc_onnx_testdata_free(&td);
    }
    if (why[0]) {
        r->rec_verdict = CC_ERROR;
        snprintf(r->rec_reason, sizeof r->rec_reason, "%s", why);
        return;
    }
    if (r->rec_sets == 0) return;
    if (sets) {
        recorded_sets_verdict(&ag, &gag, r);
        return;
    }
    r->rec_sqnr_db = sqnr_db(sig, noise_t);
    r->rec_golden_sqnr_db = sqnr_db(sig, noise_g);
    r->rec_max_abs = max_abs;
    if (r->rec_sqnr_db >= CC_CONF_CAP_DB) {
        r->rec_verdict = CC_PASSED;
    } else if (!(r->rec_golden_sqnr_db >= CC_CONF_CAP_DB)) {
        r->rec_verdict = CC_MISTRUSTED;
        snprintf(r->rec_reason, sizeof r->rec_reason,
                 "%.1f dB against the recorded outputs, and the golden model only %.1f dB: they disagree with it",
                 r->rec_sqnr_db, r->rec_golden_sqnr_db);
    } else {
        r->rec_verdict = CC_FAILED;
        snprintf(r->rec_reason, sizeof r->rec_reason,
                 "%.1f dB against the recorded outputs (needs %.0f; the golden model reaches %.1f), largest difference %.3g",
                 r->rec_sqnr_db, CC_CONF_CAP_DB, r->rec_golden_sqnr_db, max_abs);
    }
}

/* One input of a model whose outputs are post-NMS detections (models/detect.h): the
 * target's outputs y (n values) as a set against the golden model of its precision (ag,
 * within band), against FP32's (ag32: its SQNR; acc: mAP of the detections that are not
 * near-ties). A target output that is not a
 * list of detections: *bad holds why (a failed result), CC_OK. */
static cc_status detections_add(const cc_model_variant *v, const cc_model_variant *vf32, int i, const float *y,
                                int64_t n, double band, cc_detect_agree *ag, cc_detect_agree *ag32,
                                cc_detect_eval *acc, char *bad, size_t bad_n, cc_err *e)
{
    const cc_graph *g = &v->m->graph;
    cc_detection *gd = NULL, *fd = NULL, *cd = NULL;
    int ng = 0, nf = 0, nc = 0;
    cc_status st = cc_detect_unpack(g, v->m->det_out, v->golden[i], v->golden_n[i], &gd, &ng, e);
    if (!st) st = cc_detect_unpack(&vf32->m->graph, vf32->m->det_out, vf32->golden[i], vf32->golden_n[i], &fd, &nf, e);
    if (!st) {
        cc_err ce = { 0 };
        if (cc_detect_unpack(g, v->m->det_out, y, n, &cd, &nc, &ce)) snprintf(bad, bad_n, "input %d: %.200s", i, ce.msg);
        else if (!(st = cc_detect_agree_add(ag, gd, ng, cd, nc, band, e)) &&
                 !(st = cc_detect_agree_add(ag32, fd, nf, cd, nc, band, e))) {
            /* mAP without the near-ties at the cut */
            cc_detection *fk = malloc(sizeof *fk * (size_t)(nf + 1)), *ck = malloc(sizeof *ck * (size_t)(nc + 1));
            int nfk = 0, nck = 0;
            if (!fk || !ck) st = cc_err_set(e, CC_ERR_NOMEM, "out of memory");
            else if (!(st = cc_detect_determinate(fd, nf, cd, nc, band, fk, &nfk, ck, &nck, e)))
                st = cc_detect_eval_add(acc, fk, nfk, ck, nck, e);
            free(fk);
            free(ck);
        }
    }
    free(gd);
    free(fd);
    free(cd);
    return st;
}

static void job(const cc_model_run_options *o, const cc_model *f32, const cc_model_variant *vf32, const cc_model_variant *v,
                const cc_target_iface *t, const char *device, job_out *jo)
{
    cc_model_result *r = &jo->r;
    cc_err e = { 0 };
    void *ctx = NULL, *cpu_ctx = NULL;
    cc_device_desc desc, cpu_desc;
    const cc_target_iface *cpu = cc_target_find("cpu");
    cc_graph_exec *x = NULL;
    cc_tensor out[CC_MAX_IO];
    const cc_tensor *outp[CC_MAX_IO];
    memset(out, 0, sizeof out);
    cc_model *mb = NULL, *mb_f32 = NULL;
    const cc_graph *g = &v->m->graph;
    if (t->open(device, &ctx, &desc, &e)) {
        char msg[CC_REASON_MAX];
        snprintf(msg, sizeof msg, "target unavailable: %.200s", e.msg);
        set_reason(r, CC_UNSUPPORTED, msg);
        return;
    }
    if (cpu && cpu != t && cpu->open("", &cpu_ctx, &cpu_desc, &e)) cpu = NULL;
    if (cpu == t) cpu_ctx = ctx;
    cc_graph_exec_info info;
    cc_status st = cc_graph_exec_create(g, t, ctx, cpu, cpu_ctx, &x, &info, &e);
    r->n_nodes = g->n_nodes;
    if (st) {
        set_reason(r, st == CC_ERR_UNSUPPORTED ? CC_UNSUPPORTED : CC_ERROR, e.msg);
        goto done;
    }
    cc_graph_exec_describe(x, r->plan, sizeof r->plan);
    r->n_fallback = info.n_fallback;
    r->support_rate = g->n_nodes ? (double)(g->n_nodes - info.n_fallback) / g->n_nodes : 0;
    snprintf(r->fallback_ops, sizeof r->fallback_ops, "%s", info.fallback_ops);
    if (cpu && cpu != t && g->n_nodes > 0 && info.n_fallback == g->n_nodes) {
        /* every node would run on the fallback: a figure of the cpu, not of this target */
        char msg[CC_REASON_MAX];
        snprintf(msg, sizeof msg, "no node runs on the target (%.200s)", info.first_unsupported);
        set_reason(r, CC_UNSUPPORTED, msg);
        goto done;
    }
    const cc_tensor *o0 = &g->values[g->outputs[0]];
    for (int j = 0; j < g->n_outputs; j++) {
        const cc_tensor *oj = &g->values[g->outputs[j]];
        outp[j] = &out[j];
        if (cc_tensor_alloc(&out[j], oj->dtype, &oj->shape, &e)) {
            set_reason(r, CC_ERROR, e.msg);
            goto done;
        }
    }
    /* outputs of every image */
    cc_class_metrics conf, acc;
    cc_class_metrics_init(&conf);
    cc_class_metrics_init(&acc);
    cc_detect_eval *det = NULL;
    int detect = v->m->task == CC_TASK_DETECT, classify = v->m->task == CC_TASK_CLASSIFY;
    int sets = v->m->task == CC_TASK_DETECTIONS;
    int n_classes = classify ? (int)o0->shape.dims[o0->shape.rank - 1] : v->m->n_classes;
    if (detect && (cc_detect_eval_create(v->m->n_classes, 0.5, &det, &e) ||
                   cc_detect_eval_set_operating_point(det, CC_DETECT_SCORE, &e))) {
        set_reason(r, CC_ERROR, e.msg);
        goto done;
    }
    /* post-NMS detections: every detection counts (the model applied its own threshold) */
    if (sets && cc_detect_eval_create(CC_DETECT_MAX_LABEL + 1, 0.5, &det, &e)) {
        set_reason(r, CC_ERROR, e.msg);
        goto done;
    }
    cc_detect_agree agree, agree32;
    cc_detect_agree_init(&agree, "golden");
    cc_detect_agree_init(&agree32, "FP32 golden");
    double band = cc_detect_band(cc_model_conf_need(v->noise_db));
    double conf_cos_num = 0, conf_cos_min = 1;
    char shape_diff[CC_REASON_MAX] = "";
    for (int i = 0; i < o->n_images && !st; i++) {
        cc_tensor in[CC_MAX_IO];
        memset(in, 0, sizeof in);
        st = cc_model_synthetic_input(v->m, o->seed + (uint64_t)i, in, &e);
        if (!st) st = cc_graph_exec_run(x, in, out, &e);
        cc_model_free_inputs(in, g->n_inputs);
        if (st) break;
        float *y = cc_model_floats_concat(outp, g->n_outputs); /* every output, as the golden */
        if (!y) {
            st = cc_err_set(&e, CC_ERR_NOMEM, "out of memory");
            break;
        }
        /* outputs whose shape follows the data: compared where they hold as many values as
           the golden model's, else the result differs */
        int64_t y_n = 0;
        for (int j = 0; j < g->n_outputs; j++) y_n += cc_tensor_numel(&out[j]);
        if (sets) { /* as sets: the counts may differ by near-ties */
            st = detections_add(v, vf32, i, y, y_n, band, &agree, &agree32, det, shape_diff, sizeof shape_diff, &e);
            free(y);
            if (shape_diff[0]) break;
            continue;
        }
        if (y_n != v->golden_n[i]) {
            snprintf(shape_diff, sizeof shape_diff,
                     "input %d: the outputs hold %lld values, the golden model's %lld (a shape that follows the data "
                     "differs)", i, (long long)y_n, (long long)v->golden_n[i]);
            free(y);
            break;
        }
        int rows = classify ? (int)(v->out_n / n_classes) : 1;
        if (classify) {
            cc_class_metrics_add(&conf, v->golden[i], y, rows, n_classes, &e);
            cc_class_metrics_add(&acc, vf32->golden[i], y, rows, n_classes, &e);
        } else {
            double c1 = cc_cosine(v->golden[i], y, y_n);
            conf_cos_num += c1;
            if (c1 < conf_cos_min) conf_cos_min = c1;
            cc_class_metrics_add(&conf, v->golden[i], y, 1, (int)y_n, &e);
            if (vf32->golden_n[i] == y_n) cc_class_metrics_add(&acc, vf32->golden[i], y, 1, (int)y_n, &e);
            if (detect) {
                int nb, nc;
                cc_detect_output_layout(o0->shape.dims, &nb, &nc);
                st = cc_detect_eval_add_outputs(det, vf32->golden[i], y, nb, nc, &e);
            }
        }
        free(y);
    }
    if (st) {
        /* a changed guard byte is a wrong result, not a failure to run */
        set_reason(r, cc_graph_exec_overrun(x) ? CC_FAILED : CC_ERROR, e.msg);
        cc_detect_eval_destroy(det);
        goto done;
    }
    if (shape_diff[0]) {
        set_reason(r, CC_FAILED, shape_diff);
        cc_detect_eval_destroy(det);
        goto done;
    }
    r->n_images = o->n_images;
    if (classify) {
        r->conf_cosine = conf.cosine;
        r->conf_sqnr_db = conf.sqnr_db;
        r->conf_top1 = conf.top1;
        r->top1 = acc.top1;
        r->top5 = acc.top5;
    } else if (sets) {
        r->conf_cosine = NAN;
        r->conf_sqnr_db = cc_detect_agree_sqnr(&agree);
        r->conf_top1 = NAN;
        r->top1 = r->top5 = NAN;
    } else {
        r->conf_cosine = conf_cos_min;
        r->conf_sqnr_db = conf.sqnr_db;
        r->conf_top1 = NAN;
        r->top1 = r->top5 = NAN;
    }
    r->cosine = sets ? NAN : acc.cosine;
    r->sqnr_db = sets ? cc_detect_agree_sqnr(&agree32) : acc.sqnr_db;
    r->det_precision = r->det_recall = r->det_map50 = NAN;
    cc_budget budget = cc_budget_default(v->dt);
    if (o->budget) cc_budget_parse(o->budget, &budget, &e);
    cc_detect_metrics dm;
    int have_dm = (detect || sets) && !cc_detect_eval_result(det, &dm, &e);
    if (have_dm) {
        r->det_precision = dm.precision;
        r->det_recall = dm.recall;
        r->det_map50 = dm.map50;
    }
    cc_detect_eval_destroy(det);
    cc_model_measured meas = { .prec = v->prec,
                               .noise_db = v->noise_db,
                               .conf_sqnr_db = r->conf_sqnr_db,
                               .task = v->m->task,
                               .acc = &acc,
                               .det = have_dm ? &dm : NULL,
                               .agree = sets ? &agree : NULL,
                               .pass_note = v->note };
    int conforms = 1;
    char msg[CC_REASON_MAX];
    cc_verdict verdict = cc_model_judge(&meas, &budget, &conforms, msg, sizeof msg);
    if (verdict == CC_PASSED) {
        r->verdict = CC_PASSED;
        snprintf(r->reason, sizeof r->reason, "%s", msg);
    } else {
        set_reason(r, verdict, msg);
    }
    if (!conforms) {
        cc_model_divergence(v->m, &v->eval0, t, ctx, r);
        cc_model_propagated(v->m, &v->eval0, t, ctx, cpu, cpu_ctx, cc_model_conf_need(v->noise_db), r);
    }
    if ((o->testdata || o->n_rec_expected) && v->dt == CC_F32) recorded_check(o, v->m, x, r);
    /* latency at batch 1 */
    {
        cc_tensor in[CC_MAX_IO];
        memset(in, 0, sizeof in);
        cc_timing tm = { 0 };
        st = cc_model_synthetic_input(v->m, o->seed, in, &e);
        if (!st) st = timed_runs(x, in, o->min_time, o->min_samples, &tm, jo->lat, &jo->n_lat, &e);
        cc_model_free_inputs(in, g->n_inputs);
        if (!st) {
            r->lat_samples = tm.n_samples;
            r->lat_device_timer = tm.device_timer;
            r->lat_p50 = tm.median;
            r->lat_p90 = tm.p90;
            r->lat_p99 = tm.p99;
            double flops = 2 * cc_model_macs(v->m);
            r->gflops = tm.median > 0 ? flops / tm.median * 1e-9 : 0;
            r->peak_share = desc.peak_gflops > 0 ? r->gflops / desc.peak_gflops : 0;
            r->throughput = tm.median > 0 ? 1.0 / tm.median : 0;
            r->tp_batch = 1;
        }
    }
    /* throughput at a larger batch: the same weights, rebuilt at batch B; INT8 with the
     * batch-1 model's quantization parameters (no second calibration) */
    int batch = o->batch;
    for (int i = 0; i < o->n_targets; i++)
        if (o->targets[i] == t && o->batches[i] > 0) batch = o->batches[i];
    char tp_note[CC_REASON_MAX] = "";
    if (o->mem_limit_mb && cc_model_mem_need(f32, batch) > (double)o->mem_limit_mb * 1048576.0) {
        /* judged from the shapes, as the whole model was (model_run.h) */
        char need[32];
        cc_worker_format_bytes(cc_model_mem_need(f32, batch), need, sizeof need);
        snprintf(tp_note, sizeof tp_note, "throughput at batch %d not measured: needs %s, over --mem-limit %zu MiB",
                 batch, need, o->mem_limit_mb);
        batch = 1;
    }
    if (!st && batch > 1 && !cc_model_is_onnx(o->model)) {
        cc_graph_exec *xb = NULL;
        cc_graph_exec_info ib;
        cc_tensor in[CC_MAX_IO];
        memset(in, 0, sizeof in);
        cc_timing tm = { 0 };
        char note[256];
        cc_quant_params *qp = v->qp;
        cc_status s2 = cc_model_build_f32(o, batch, &mb_f32, &e);
        if (!s2) s2 = cc_weights_copy(mb_f32, f32, &e);
        if (!s2) s2 = cc_model_make_variant(o, mb_f32, v->prec, &qp, &mb, note, sizeof note, &e);
        if (qp != v->qp) cc_quant_params_free(qp);
        if (!s2) s2 = cc_graph_exec_create(&mb->graph, t, ctx, cpu, cpu_ctx, &xb, &ib, &e);
        if (!s2) s2 = cc_model_synthetic_input(mb, o->seed, in, &e);
        if (!s2) s2 = timed_runs(xb, in, o->min_time / 2, 3, &tm, NULL, NULL, &e);
        cc_model_free_inputs(in, mb ? mb->graph.n_inputs : 0);
        cc_graph_exec_destroy(xb);
        if (!s2 && tm.median > 0 && batch / tm.median > r->throughput) {
            r->throughput = batch / tm.median;
            r->tp_batch = batch;
        }
        if (s2) snprintf(tp_note, sizeof tp_note, "throughput at batch %d not measured: %.200s", batch, e.msg);
    }
    if (tp_note[0] && !st) {
        /* the batch-1 figure stands; the reason the larger batch is missing goes with it */
        size_t len = strlen(r->reason);
        snprintf(r->reason + len, sizeof r->reason - len, "%s%s", len ? "; " : "", tp_note);
        fprintf(stderr, "crosscheck: %s %s %s: %s\n", r->model, r->target, r->precision, tp_note);
    }
    if (o->layers) cc_model_layers(v->m, &v->eval0, t, ctx, r);
    if (st) set_reason(r, CC_ERROR, e.msg);
done:
    for (int j = 0; j < CC_MAX_IO; j++) cc_tensor_free(&out[j]);
    cc_graph_exec_destroy(x);
    cc_model_free(mb);
    cc_model_free(mb_f32);
    if (cpu && cpu != t && cpu_ctx) cpu->close(cpu_ctx);
    t->close(ctx);
}

cc_status cc_model_run_parse_batch(cc_model_run_options *o, const char *spec, cc_err *err)
{
    int batch = o->batch, batches[CC_RUN_MAX_TARGETS];
    memcpy(batches, o->batches, sizeof batches);
    char buf[512];
    if (snprintf(buf, sizeof buf, "%s", spec) >= (int)sizeof buf)
        return cc_err_set(err, CC_ERR_ARG, "--batch: list too long");
    char *save = NULL;
    int items = 0;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), items++) {
        char *eq = strchr(tok, '='), *num = eq ? eq + 1 : tok, *end;
        long b = strtol(num, &end, 10);
        if (!*num || *end || b < 1 || b > 4096)
            return cc_err_set(err, CC_ERR_ARG, "--batch: '%s' is not a batch of 1..4096 (B or TARGET=B)", tok);
        if (!eq) {
            batch = (int)b;
            continue;
        }
        *eq = '\0';
        int found = 0;
        /* TARGET=B: the target of that label (cuda:tf32), or every device of that backend (cuda) */
        for (int i = 0; i < o->n_targets; i++) {
            char label[64];
            cc_target_label(o->targets[i]->name, o->devices[i], label, sizeof label);
            if (!strcmp(label, tok) || (!strchr(tok, ':') && !strcmp(o->targets[i]->name, tok)))
                batches[i] = (int)b, found = 1;
        }
        if (!found) return cc_err_set(err, CC_ERR_ARG, "--batch: target '%s' is not one of the run's targets", tok);
    }
    if (!items) return cc_err_set(err, CC_ERR_ARG, "--batch: empty list");
    o->batch = batch;
    memcpy(o->batches, batches, sizeof batches);
    return CC_OK;
}

double cc_model_mem_need(const cc_model *m, int batch)
{
    const cc_graph *g = &m->graph;
    double need = 0;
    for (int i = 0; i < g->n_values; i++) {
        const cc_tensor *v = &g->values[i];
        int64_t n;
        cc_err e;
        if (cc_shape_numel_checked(&v->shape, &n, &e)) return INFINITY;
        double bytes = (double)n * (double)cc_dtype_size(v->dtype);
        if (v->data) need += 2 * bytes;                                       /* a weight */
        else need += bytes + 16.0 * (double)n + bytes * (batch > 1 ? batch : 1); /* a value */
    }
    return need;
}

/* Runs job() in a child with the isolation op cases have (worker.h: dies with its parent,
 * memory limit, deadline): a crash or a hang costs one result. The child sends the result
 * and its latency samples (jo->n_lat of them) back through a pipe. */
/* Runs one job in a forked child, its result in *jo. Returns 1 when the run was interrupted
 * while the job was in flight (the child is killed and *jo holds nothing to record), else 0. */
static int isolated_job(const cc_model_run_options *o, const cc_model *f32, const cc_model_variant *vf32,
                        const cc_model_variant *v, int ti, job_out *jo)
{
    const cc_target_iface *t = o->targets[ti];
    cc_model_result *r = &jo->r;
    jo->n_lat = 0;
    int p[2];
    if (pipe(p)) {
        set_reason(r, CC_ERROR, strerror(errno));
        return 0;
    }
    cc_err e;
    pid_t pid = cc_isolate_fork(o->mem_limit_mb, &e);
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        set_reason(r, CC_ERROR, e.msg);
        return 0;
    }
    if (pid == 0) {
        close(p[0]);
        job(o, f32, vf32, v, t, o->devices[ti] ? o->devices[ti] : "", jo);
        size_t n = offsetof(job_out, lat) + sizeof(double) * (size_t)jo->n_lat, done = 0;
        while (done < n) {
            ssize_t w = write(p[1], (const char *)jo + done, n - done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) _exit(3);
            done += (size_t)w;
        }
        _exit(0);
    }
    close(p[1]);
    double deadline = cc_now() + o->timeout_s;
    static job_out back;
    /* Ctrl-C (o->interrupt) stops the wait at once: a job can take minutes */
    int rc = cc_isolate_read(p[0], &back, offsetof(job_out, lat), deadline, o->interrupt);
    if (!rc && (back.n_lat < 0 || back.n_lat > MAX_LAT_SAMPLES)) rc = -1;
    if (!rc) rc = cc_isolate_read(p[0], back.lat, sizeof(double) * (size_t)back.n_lat, deadline, o->interrupt);
    close(p[0]);
    int status = 0;
    cc_isolate_reap(pid, rc == 1 || rc == 2 ? SIGKILL : 0, &status);
    if (rc == 2) return 1;
    if (!rc) {
        jo->r = back.r;
        jo->n_lat = back.n_lat;
        memcpy(jo->lat, back.lat, sizeof(double) * (size_t)back.n_lat);
        return 0;
    }
    char msg[CC_REASON_MAX];
    if (rc == 1) {
        snprintf(msg, sizeof msg, "no result within %.0f s; job killed", o->timeout_s);
        set_reason(r, CC_TIMEOUT, msg);
    } else {
        cc_isolate_describe(status, "job", msg, sizeof msg);
        set_reason(r, CC_CRASHED, msg);
    }
    return 0;
}

/* The SQNR of a variant's golden detections against FP32's (matched as sets, images whose
 * outputs are not detections left out). */
static double detections_noise(const cc_model_variant *f32, const cc_model_variant *v, int n_images)
{
    cc_detect_agree ag;
    cc_detect_agree_init(&ag, "FP32 golden");
    for (int k = 0; k < n_images; k++) {
        cc_detection *a = NULL, *b = NULL;
        int na = 0, nb = 0;
        cc_err e = { 0 };
        if (!cc_detect_unpack(&f32->m->graph, f32->m->det_out, f32->golden[k], f32->golden_n[k], &a, &na, &e) &&
            !cc_detect_unpack(&v->m->graph, v->m->det_out, v->golden[k], v->golden_n[k], &b, &nb, &e))
            cc_detect_agree_add(&ag, a, na, b, nb, 0, &e);
        free(a);
        free(b);
    }
    return cc_detect_agree_sqnr(&ag);
}

cc_status cc_model_run(const cc_model_run_options *o, cc_model_progress_fn fn, void *user, cc_model_summary *sum,
                       cc_err *err)
{
    cc_status st = CC_OK;
    cc_model *f32 = NULL;
    static cc_model_record rec;
    memset(&rec, 0, sizeof rec);
    rec.lock.fd = -1;
    cc_model_variant vars[CC_MODEL_MAX_PREC + 1];
    memset(vars, 0, sizeof vars);
    memset(sum, 0, sizeof *sum);
    double t0 = cc_now();
    char line[512];
    cc_env_mark mark_start;
    cc_env_mark_take(&mark_start);

    st = cc_model_record_open(o, &rec, err);
    if (!st) st = cc_model_build_f32(o, 1, &f32, err);
    if (st) goto done;
    if (fn) {
        char folded[48] = "";
        if (f32->n_folded) snprintf(folded, sizeof folded, " (%d more folded at import)", f32->n_folded);
        snprintf(line, sizeof line, "model %s: %d nodes%s, %.4g M parameters, %.4g GMAC per image", f32->name,
                 f32->graph.n_nodes, folded, cc_model_params(f32) / 1e6, cc_model_macs(f32) / 1e9);
        fn(user, line, NULL);
    }
    /* whether the model fits the limit, judged from its shapes before anything else is
       made; one that does not is recorded unsupported on every target and precision */
    char too_big[CC_REASON_MAX] = "";
    double need = cc_model_mem_need(f32, 1);
    if (o->mem_limit_mb && need > (double)o->mem_limit_mb * 1048576.0) {
        char a[32], b[32];
        cc_worker_format_bytes(need, a, sizeof a);
        cc_worker_format_bytes((double)o->mem_limit_mb * 1048576.0, b, sizeof b);
        cc_diag_put(too_big, sizeof too_big, "harness: needs %s, limit %s (--mem-limit)", a, b);
        if (fn) fn(user, too_big, NULL);
    }
    /* variants and their golden outputs; vars[0] is always FP32 (the accuracy reference) */
    int nv = 0;
    const char *wanted[CC_MODEL_MAX_PREC + 1];
    wanted[nv++] = "f32";
    for (int p = 0; p < o->n_prec; p++)
        if (strcmp(o->precisions[p], "f32")) wanted[nv++] = o->precisions[p];
    if (too_big[0]) nv = 0;
    /* the variants are made and evaluated side by side, each on its own thread with its
       share of the cores for its images: the golden model is single-threaded per image */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    variant_job jobs[CC_MODEL_MAX_PREC + 1];
    pthread_t tid[CC_MODEL_MAX_PREC + 1];
    int started[CC_MODEL_MAX_PREC + 1] = { 0 };
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < nv; i++) {
        cc_model_variant *v = &vars[i];
        snprintf(v->prec, sizeof v->prec, "%s", wanted[i]);
        v->dt = !strcmp(v->prec, "f16") ? CC_F16 : !strcmp(v->prec, "bf16") ? CC_BF16 : !strcmp(v->prec, "int8") ? CC_I8 : CC_F32;
        jobs[i] = (variant_job){ .o = o, .f32 = f32, .v = v,
                                 .threads = ncpu > nv ? (int)(ncpu / nv) : 1 };
        started[i] = pthread_create(&tid[i], NULL, variant_main, &jobs[i]) == 0;
    }
    for (int i = 0; i < nv; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        else variant_main(&jobs[i]);
    }
    for (int i = 0; i < nv; i++) {
        /* a lower precision the model cannot be turned into (an op without that type, a
           quantizer refusal) is that precision's unsupported verdict; the FP32 reference,
           memory and other failures stop the run */
        int refusal = jobs[i].st == CC_ERR_UNSUPPORTED || jobs[i].st == CC_ERR_ARG;
        if (jobs[i].st && i > 0 && refusal) {
            char prec[sizeof vars[i].prec];
            memcpy(prec, vars[i].prec, sizeof prec);
            snprintf(vars[i].unmade, sizeof vars[i].unmade, "no %.8s model: %.200s", prec, jobs[i].err.msg);
            if (fn) {
                cc_diag_put(line, sizeof line, "%s", vars[i].unmade);
                fn(user, line, NULL);
            }
        } else if (jobs[i].st) {
            st = jobs[i].st;
            *err = jobs[i].err;
            goto done;
        }
    }
    if (o->interrupt && *o->interrupt) { /* before any run was recorded */
        sum->interrupted = 1;
        goto done;
    }
    for (int i = 0; fn && i < nv; i++) {
        cc_model_variant *v = &vars[i];
        if (v->unmade[0]) continue;
        cc_diag_put(line, sizeof line, "golden %s: %d inputs in %.1f s%s%s", v->prec, o->n_images, jobs[i].secs,
                    v->note[0] ? "; " : "", v->note);
        fn(user, line, NULL);
    }
    for (int i = 0; i < nv; i++) {
        if (vars[i].unmade[0]) continue;
        if (f32->task == CC_TASK_DETECTIONS) { /* the matched detections' SQNR */
            vars[i].noise_db = i == 0 ? INFINITY : detections_noise(&vars[0], &vars[i], o->n_images);
            continue;
        }
        cc_class_metrics nm;
        cc_class_metrics_init(&nm);
        for (int k = 0; k < o->n_images; k++)
            if (vars[0].golden_n[k] == vars[i].golden_n[k]) /* else a count that follows the data differs */
                cc_class_metrics_add(&nm, vars[0].golden[k], vars[i].golden[k], 1, (int)vars[i].golden_n[k], err);
        vars[i].noise_db = i == 0 ? INFINITY : nm.sqnr_db;
    }
    static cc_run_info info;
    memset(&info, 0, sizeof info);
    cc_env_collect(&info);
    snprintf(info.tag, sizeof info.tag, "%s", o->tag ? o->tag : "");
    char batches[256];
    int bl = snprintf(batches, sizeof batches, "%d", o->batch);
    for (int i = 0; i < o->n_targets && bl < (int)sizeof batches; i++)
        if (o->batches[i] > 0)
            bl += snprintf(batches + bl, sizeof batches - (size_t)bl, ",%s%s%s=%d", o->targets[i]->name,
                           o->devices[i] && o->devices[i][0] ? ":" : "", o->devices[i] ? o->devices[i] : "",
                           o->batches[i]);
    snprintf(info.config, sizeof info.config, "model=%s;images=%d;batch=%s;size=%d;seed=%llu", o->model, o->n_images,
             batches, o->image_size, (unsigned long long)o->seed);
    info.seed = o->seed;
    snprintf(info.command, sizeof info.command, "%s", o->command_line ? o->command_line : "");
    snprintf(info.version, sizeof info.version, "%s", o->version ? o->version : "");
    snprintf(info.git_commit, sizeof info.git_commit, "%s", o->git_commit ? o->git_commit : "");
    snprintf(info.libraries, sizeof info.libraries, "%s", o->libraries ? o->libraries : "");
    st = cc_model_record_begin(o, &rec, &info, err);
    if (st) goto done;
    sum->run_id = rec.run_id;
    if (fn && rec.join_id) {
        cc_diag_put(line, sizeof line, "results join run %lld", (long long)rec.run_id);
        fn(user, line, NULL);
    }
    for (int p = 0; p < o->n_prec; p++) {
        const cc_model_variant *v = NULL;
        for (int i = 0; i < nv; i++)
            if (!strcmp(vars[i].prec, o->precisions[p])) v = &vars[i];
        for (int ti = 0; ti < o->n_targets; ti++) {
            if (o->interrupt && *o->interrupt) {
                sum->interrupted = 1;
                goto finish;
            }
            static job_out jo;
            cc_model_result *r = &jo.r;
            memset(r, 0, sizeof *r);
            jo.n_lat = 0;
            snprintf(r->model, sizeof r->model, "%s", f32->name);
            cc_target_label(o->targets[ti]->name, o->devices[ti], r->target, sizeof r->target);
            snprintf(r->precision, sizeof r->precision, "%s", o->precisions[p]);
            r->seed = o->seed;
            r->verdict = CC_ERROR;
            /* no figure until the job measures it (an unavailable target measures none) */
            r->conf_cosine = r->conf_sqnr_db = r->conf_top1 = r->top1 = r->top5 = NAN;
            r->cosine = r->sqnr_db = NAN;
            r->det_precision = r->det_recall = r->det_map50 = NAN;
            r->rec_verdict = -1;
            r->rec_sqnr_db = r->rec_golden_sqnr_db = r->rec_max_abs = NAN;
            if (too_big[0]) {
                set_reason(r, CC_UNSUPPORTED, too_big);
            } else if (v && v->unmade[0]) {
                set_reason(r, CC_UNSUPPORTED, v->unmade);
            } else if (rec.available[ti]) {
                if (isolated_job(o, f32, &vars[0], v, ti, &jo)) { /* the job in flight is not recorded */
                    sum->interrupted = 1;
                    goto finish;
                }
            } else {
                char msg[CC_REASON_MAX];
                snprintf(msg, sizeof msg, "target unavailable: %.200s", rec.why[ti]);
                set_reason(r, CC_UNSUPPORTED, msg);
            }
            snprintf(r->config, sizeof r->config, "%.500s", info.config);
            st = cc_store_put_model_result(rec.store, sum->run_id, r, jo.lat, jo.n_lat, err);
            if (st) goto done;
            sum->counts[r->verdict]++;
            sum->rec_bad += r->rec_verdict == CC_FAILED || r->rec_verdict == CC_ERROR;
            if (fn) fn(user, NULL, r);
        }
    }
finish:
    /* the conditions at the end, as op runs record them: every job's child has been
     * waited for, so its CPU time counts as the run's own */
    st = cc_model_record_end(&rec, sum->interrupted, &mark_start, err);
done:
    sum->wall_s = cc_now() - t0;
    for (int i = 0; i < CC_MODEL_MAX_PREC + 1; i++) cc_model_variant_free(&vars[i], o->n_images);
    cc_model_free(f32);
    cc_model_record_close(&rec);
    return st;
}
