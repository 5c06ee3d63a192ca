/* zoo_internal.h — what the reference-model builders (resnet50.c, yolo.c) share, not part
 * of the models module's face: graph-building shorthands that name weights the way the
 * original frameworks do, and the common build path (graph, then weights from a file or
 * synthetic weights calibrated on a small copy of the model). */
#ifndef CC_ZOO_INTERNAL_H
#define CC_ZOO_INTERNAL_H

#include "weights.h"
#include "zoo.h"

/* Channel count (dim 1) of value v. */
int64_t cc_zoo_channels(const cc_model_builder *b, int v);

/* Adds a zero-filled f32 constant (a weight filled later) of the given shape. */
cc_status cc_zoo_weight(cc_model_builder *b, const char *name, int rank, const int64_t *dims, int *v,
                        cc_err *err);
/* Adds an f32 / i64 constant holding vals[0..numel-1] (rank 0 for a scalar). */
cc_status cc_zoo_const_f32(cc_model_builder *b, const char *name, int rank, const int64_t *dims,
                           const float *vals, int *v, cc_err *err);
cc_status cc_zoo_const_i64(cc_model_builder *b, const char *name, int n, const int64_t *vals, int *v,
                           cc_err *err);

/* Conv node `name` reading x, with weight "<name>.weight" [c_out, C, k, k] and, when
 * bias != 0, "<name>.bias"; square stride and symmetric padding. Output in *y. */
cc_status cc_zoo_conv(cc_model_builder *b, const char *name, int x, int64_t c_out, int k, int stride,
                      int pad, int bias, int *y, cc_err *err);
/* BatchNormalization node `name` with "<name>.weight", ".bias", ".running_mean",
 * ".running_var" (epsilon 1e-5, or eps when > 0). */
cc_status cc_zoo_bn(cc_model_builder *b, const char *name, int x, double eps, int *y, cc_err *err);
/* A node with one output named "<name>:0", inputs a (and c when c >= 0). */
cc_status cc_zoo_op(cc_model_builder *b, const char *op, const char *name, const char *attrs, int a, int c,
                    int *y, cc_err *err);

/* Builds the bare graph (weights zero, buffers filled) for a batch and an image size. */
typedef cc_status (*cc_zoo_graph_fn)(int batch, int size, cc_model **out, cc_err *err);
/* The calibration set a recipe's tune sees: the images, and what each shows. */
typedef struct cc_zoo_calib {
    const cc_tensor *images;   /* [calib_batch, C, calib_size, calib_size] */
    const int *classes;        /* scene class of each image (classification scenes), else NULL */
    const cc_zoo_object *objs; /* detection scenes: CC_ZOO_MAX_OBJECTS slots per image, else NULL */
    const int *n_objs;         /* objects in each image (detection scenes), else NULL */
} cc_zoo_calib;

/* Adjusts synthetic weights: `prepare` after cc_weights_init and before calibration,
 * `tune` after it with the calibrated model's values on the calibration images. */
typedef cc_status (*cc_zoo_prepare_fn)(cc_model *m, uint64_t seed, cc_err *err);
typedef cc_status (*cc_zoo_tune_fn)(cc_model *m, const cc_model_eval *ev, const cc_zoo_calib *cal, cc_err *err);

typedef struct cc_zoo_recipe {
    const cc_zoo_entry *entry;
    cc_zoo_graph_fn graph;
    cc_zoo_prepare_fn prepare;  /* optional */
    cc_zoo_tune_fn tune;        /* optional */
    int calib_size;             /* calibration image side, whatever the model's size */
    int calib_batch;            /* calibration images: image i is of scene class
                                 * i % CC_ZOO_IMAGE_CLASSES (cc_zoo_images_of), so that
                                 * tune knows which image shows which class */
    int scenes;                 /* calibrate on detection scenes (cc_zoo_scenes) instead */
} cc_zoo_recipe;

/* The common build: resolves opt (NULL: defaults), builds the graph, then loads
 * opt->weights_path or makes synthetic weights: init, prepare, BatchNormalization
 * calibration on the recipe's calibration set (cc_zoo_images_of with classes 0, 1, ...,
 * or cc_zoo_scenes) and tune, on a copy of the model at the calibration size and batch,
 * then copied by name, so the weights depend on the seed only. The calibrated copy of the
 * last model built is kept, and a build of the same model and seed copies its weights
 * instead of calibrating again (not thread-safe: builds are not concurrent here). */
cc_status cc_zoo_make(const cc_zoo_recipe *r, const cc_zoo_options *opt, cc_model **out, cc_err *err);

#endif
