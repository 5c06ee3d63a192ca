/* model_variant.h — the models of a model job: the FP32 model (built-in zoo or ONNX file)
 * at a batch, its variant at a precision (f32, f16, bf16, int8: calibrated, or with the
 * batch-1 model's quantization parameters), and a variant's golden outputs over the job's
 * images. model_run.c drives them. */
#ifndef CC_MODEL_VARIANT_H
#define CC_MODEL_VARIANT_H

#include "../../models/model.h"
#include "../../models/testdata.h"
#include "../../models/quantize.h"
#include "model_run.h"

typedef struct cc_model_variant {
    char prec[8];
    cc_dtype dt;              /* CC_F32/F16/BF16, or CC_I8 for int8 */
    cc_model *m;              /* batch 1 */
    float **golden;           /* every output of each image, one after another, as float */
    int64_t *golden_n;        /* the values in golden[i]: out_n, or fewer where an output's
                                 shape follows the data */
    int64_t out_n;            /* elements of every output at the graph's shapes (bounds) */
    cc_model_eval eval0;      /* every value of image 0 (layers, divergence) */
    char note[256];           /* quantization report line */
    cc_quant_params *qp;      /* int8: the calibration of m, reused at batch B */
    double noise_db;          /* SQNR of this golden against the FP32 golden (inf for FP32) */
    char unmade[CC_REASON_MAX]; /* non-empty: why this precision's model could not be made
                                   (its results are unsupported with this reason) */
} cc_model_variant;

/* 1 when name ends in ".onnx" (a model file, not a built-in model). */
int cc_model_is_onnx(const char *name);
/* The import options of o's ONNX model at batch `batch` (its name: --name, else a test-data
 * folder's name, else the importer's default, the file's). */
void cc_model_onnx_options(const cc_model_run_options *o, int batch, cc_onnx_options *oo);
/* The FP32 model of o->model at batch `batch` (from a test-data folder: its non-data
 * inputs fixed by the first set, models/testdata.h). */
cc_status cc_model_build_f32(const cc_model_run_options *o, int batch, cc_model **out, cc_err *err);
/* The variant of f32 at precision prec into *out, a report line for int8 in note. int8:
 * with *qp NULL, calibrates f32 and keeps the parameters in *qp (the caller frees them);
 * else quantizes with *qp. */
cc_status cc_model_make_variant(const cc_model_run_options *o, const cc_model *f32, const char *prec,
                                cc_quant_params **qp, cc_model **out, char *note, size_t note_n, cc_err *err);
/* Golden output 0 of v for each of o->n_images images, and every value of image 0, on up
 * to `threads` threads (images are independent; each is evaluated whole on one thread). */
cc_status cc_model_golden_variant(const cc_model_run_options *o, cc_model_variant *v, int threads, cc_err *err);
/* Frees what a variant holds and zeroes it. */
void cc_model_variant_free(cc_model_variant *v, int n_images);
/* Frees n input tensors. */
void cc_model_free_inputs(cc_tensor *in, int n);

#endif
