/* model_variant.c — a model job's models (model_variant.h): the FP32 model from the zoo or
 * an ONNX file, its variant at each precision (INT8 calibrated and quantized), and the
 * golden outputs of a variant. */
#include "model_variant.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../models/onnx_import.h"
#include "../../models/precision.h"
#include "../../models/zoo.h"
#include "model_diag.h"

int cc_model_is_onnx(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".onnx") == 0;
}

void cc_model_onnx_options(const cc_model_run_options *o, int batch, cc_onnx_options *oo)
{
    memset(oo, 0, sizeof *oo);
    oo->batch = batch;
    oo->name = o->name;
    oo->n_shapes = o->n_shapes;
    oo->shape_names = o->shape_names;
    oo->shapes = o->shapes;
    if (!oo->name && o->testdata) {
        /* a test-data folder's model is named after the folder */
        static char name[CC_NAME_MAX];
        size_t n = strlen(o->testdata);
        while (n > 1 && o->testdata[n - 1] == '/') n--;
        size_t b = n;
        while (b > 0 && o->testdata[b - 1] != '/') b--;
        snprintf(name, sizeof name, "%.*s", (int)(n - b), o->testdata + b);
        oo->name = name;
    }
}

cc_status cc_model_build_f32(const cc_model_run_options *o, int batch, cc_model **out, cc_err *err)
{
    if (cc_model_is_onnx(o->model)) {
        cc_onnx_options oo;
        cc_model_onnx_options(o, batch, &oo);
        if (!o->testdata) return cc_onnx_load(o->model, &oo, out, err);
        /* the inputs a catalog op needs as constants come from the first test data set */
        cc_onnx_testdata td;
        cc_status st = cc_onnx_testdata_load(o->testdata, 0, &oo, &td, err);
        if (st) return st;
        *out = td.model;
        td.model = NULL;
        cc_onnx_testdata_free(&td);
        return CC_OK;
    }
    cc_zoo_options zo = { .batch = batch, .image_size = o->image_size, .seed = o->seed, .weights_path = o->weights_path };
    return cc_zoo_build(o->model, &zo, out, err);
}

/* The variant of f32 at precision prec. int8: with *qp NULL, calibrates f32 and keeps the
 * parameters in *qp (the caller frees them); else quantizes with *qp, the calibration of
 * the batch-1 model, as the quantization parameters do not depend on the batch. */
cc_status cc_model_make_variant(const cc_model_run_options *o, const cc_model *f32, const char *prec,
                               cc_quant_params **qp, cc_model **out, char *note, size_t note_n, cc_err *err)
{
    note[0] = '\0';
    if (!strcmp(prec, "f32")) return cc_model_to_precision(f32, CC_F32, out, err);
    if (!strcmp(prec, "f16")) return cc_model_to_precision(f32, CC_F16, out, err);
    if (!strcmp(prec, "bf16")) return cc_model_to_precision(f32, CC_BF16, out, err);
    cc_status st = CC_OK;
    if (!*qp) {
        cc_calib_options co;
        memset(&co, 0, sizeof co);
        co.n_images = o->calib_images;
        co.seed = o->seed ^ 0xca1bull;
        if (cc_calib_method_parse(o->calib_method ? o->calib_method : "minmax", &co.method))
            return cc_err_set(err, CC_ERR_ARG, "unknown calibration method '%s' (minmax or percentile)", o->calib_method);
        if ((st = cc_quant_calibrate(f32, &co, qp, err))) return st;
    }
    cc_quant_report rep;
    st = cc_model_quantize_with(f32, *qp, out, &rep, err);
    if (!st)
        cc_diag_put(note, note_n, "int8: %d QLinearConv, %d integer matmuls, %d ops in float (%s), %s calibration on %d inputs",
                 rep.n_qconv, rep.n_qmatmul, rep.n_float_ops, rep.float_ops[0] ? rep.float_ops : "none",
                 cc_calib_method_name(rep.method), rep.n_images);
    return st;
}

void cc_model_free_inputs(cc_tensor *in, int n)
{
    for (int i = 0; i < n; i++) cc_tensor_free(&in[i]);
}

/* Golden outputs of v for every image, and every value of image 0. */
/* One golden thread: images first, first + step, ... of the variant. */
/* golden threads of one variant at most */
#define CC_GOLDEN_MAX_THREADS 64

typedef struct {
    const cc_model_run_options *o;
    cc_model_variant *v;
    int first, step;
    cc_status st;
    cc_err err;
} golden_part;

static void *golden_main(void *arg)
{
    golden_part *p = arg;
    const cc_graph *g = &p->v->m->graph;
    for (int i = p->first; i < p->o->n_images; i += p->step) {
        if (p->o->interrupt && *p->o->interrupt) return NULL; /* the caller sees it and stops */
        cc_tensor in[CC_MAX_IO];
        memset(in, 0, sizeof in);
        cc_status st = cc_model_synthetic_input(p->v->m, p->o->seed + (uint64_t)i, in, &p->err);
        cc_model_eval ev;
        if (!st) st = cc_model_evaluate(g, in, 0, NULL, &ev, &p->err);
        cc_model_free_inputs(in, g->n_inputs);
        if (st) {
            p->st = st;
            return NULL;
        }
        const cc_tensor *outs[CC_MAX_IO];
        for (int j = 0; j < g->n_outputs; j++) outs[j] = &ev.vals[g->outputs[j]];
        p->v->golden[i] = cc_model_floats_concat(outs, g->n_outputs);
        p->v->golden_n[i] = 0;
        for (int j = 0; j < g->n_outputs; j++) p->v->golden_n[i] += cc_tensor_numel(outs[j]);
        if (i == 0) p->v->eval0 = ev;
        else cc_model_eval_free(&ev);
        if (!p->v->golden[i]) {
            p->st = cc_err_set(&p->err, CC_ERR_NOMEM, "out of memory");
            return NULL;
        }
    }
    return NULL;
}

cc_status cc_model_golden_variant(const cc_model_run_options *o, cc_model_variant *v, int threads, cc_err *err)
{
    const cc_graph *g = &v->m->graph;
    v->golden = calloc((size_t)o->n_images, sizeof(float *));
    v->golden_n = calloc((size_t)o->n_images, sizeof(int64_t));
    if (!v->golden || !v->golden_n) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    v->out_n = cc_model_outputs_numel(g); /* every output, one after another */
    if (threads > o->n_images) threads = o->n_images;
    if (threads > CC_GOLDEN_MAX_THREADS) threads = CC_GOLDEN_MAX_THREADS;
    if (threads < 1) threads = 1;
    golden_part parts[CC_GOLDEN_MAX_THREADS];
    pthread_t tid[CC_GOLDEN_MAX_THREADS];
    int started[CC_GOLDEN_MAX_THREADS] = { 0 };
    memset(parts, 0, sizeof parts);
    for (int k = 0; k < threads; k++) {
        parts[k] = (golden_part){ .o = o, .v = v, .first = k, .step = threads };
        started[k] = k > 0 && pthread_create(&tid[k], NULL, golden_main, &parts[k]) == 0;
    }
    /* part 0 runs here, and so does a part whose thread could not start */
    for (int k = 0; k < threads; k++)
        if (!started[k]) golden_main(&parts[k]);
    for (int k = 1; k < threads; k++)
        if (started[k]) pthread_join(tid[k], NULL);
    for (int k = 0; k < threads; k++)
        if (parts[k].st) {
            *err = parts[k].err;
            return parts[k].st;
        }
    return CC_OK;
}

void cc_model_variant_free(cc_model_variant *v, int n_images)
{
    if (v->golden)
        for (int i = 0; i < n_images; i++) free(v->golden[i]);
    free(v->golden);
    free(v->golden_n);
    cc_model_eval_free(&v->eval0);
    cc_model_free(v->m);
    cc_quant_params_free(v->qp);
    memset(v, 0, sizeof *v);
}
