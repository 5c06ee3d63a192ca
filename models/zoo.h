/* zoo.h — the built-in reference models (ResNet50 v1.5, YOLOv5s v6.0): their registry
 * for `crosscheck list models` and `crosscheck model run <name>`, their builders, and the
 * synthetic input images the suite feeds them.
 *
 * A built model is a cc_model (model.h) whose weights are either synthetic (made from a
 * seed and BatchNormalization-calibrated, see weights.h) or read from a weights file.
 *
 * Constants whose value name starts with CC_ZOO_BUFFER_PREFIX ("buffer.") are derived by
 * the builder from the input size (YOLO's decode grid, anchors, strides and the scalars
 * 2 and 0.5): they are not parameters (PyTorch keeps them as buffers) and they are not in
 * weights files. */
#ifndef CC_ZOO_H
#define CC_ZOO_H

#include "model.h"

#define CC_ZOO_BUFFER_PREFIX "buffer."

typedef struct cc_zoo_options {
    int batch;                /* images per run; 0 means 1 */
    int image_size;           /* square input side in pixels; 0 means the model's default */
    uint64_t seed;            /* seed of the synthetic weights */
    const char *weights_path; /* NULL: synthetic weights; else a weights file (weights.h) */
} cc_zoo_options;

/* Builds a model. On error *out is untouched and nothing is allocated. */
typedef cc_status (*cc_zoo_build_fn)(const cc_zoo_options *opt, cc_model **out, cc_err *err);

typedef struct cc_zoo_entry {
    const char *name;          /* "resnet50", "yolov5s" */
    const char *description;   /* one line for listings */
    cc_model_task task;
    int n_classes;
    int default_image_size;
    int min_image_size;        /* smallest accepted image_size */
    int size_multiple;         /* image_size must be a multiple of this (1: any) */
    double published_params;   /* the figure papers and model cards quote */
    double published_macs;     /* multiply-accumulates at default_image_size, batch 1 */
    double macs_tolerance;     /* relative: |cc_model_macs - published| / published allowed */
    const char *macs_note;     /* what cc_model_macs counts beyond the published figure */
    cc_zoo_build_fn build;
} cc_zoo_entry;

/* Number of built-in models and the i-th (NULL when out of range), in listing order. */
int cc_zoo_count(void);
const cc_zoo_entry *cc_zoo_at(int i);
/* The entry named `name` (exact match), or NULL. */
const cc_zoo_entry *cc_zoo_find(const char *name);
/* Builds model `name` with options opt (NULL: all defaults). Unknown name: CC_ERR_ARG
 * listing the known ones. */
cc_status cc_zoo_build(const char *name, const cc_zoo_options *opt, cc_model **out, cc_err *err);

/* Resolves and validates opt against entry e (batch >= 1, size within limits); writes the
 * effective batch and size. One-line CC_ERR_ARG naming the model on a bad value. */
cc_status cc_zoo_resolve(const cc_zoo_entry *e, const cc_zoo_options *opt, int *batch, int *size,
                         cc_err *err);

/* Parameters of m as frameworks count them: cc_model_params, which leaves out buffer
 * constants (CC_ZOO_BUFFER_PREFIX). */
double cc_zoo_params(const cc_model *m);

/* The suite's synthetic photographs come from CC_ZOO_IMAGE_CLASSES scene classes, as a
 * real data set comes from object classes: a class is a fixed pattern of plane waves
 * (wavelengths 8 to 64 pixels, defined in pixels so that statistics do not depend on the
 * image size) with its own colours, colour cast and contrast; an image is its class's
 * scene shifted by a random offset, with contrast, cast and wave amplitudes jittered by
 * 15 %, plus pixel noise. Values are of order one, like normalised camera images.
 *
 * Why classes: a trained network's outputs have margins (its top-1 logit stands well
 * above the rest, a detector's objects well above its threshold) because its inputs come
 * from classes it has learnt. Random weights on white noise give features that barely
 * depend on the input, and any reduced-precision noise then reorders the logits.
 *
 * cc_zoo_images_of fills t (f32 [N, C, H, W], data allocated by the caller) from seed;
 * image b is of class classes[b] when classes is not NULL, else of a class drawn from
 * the seed; the classes used are written to drawn[0..N-1] when drawn is not NULL.
 * Deterministic in (seed, classes). CC_ERR_ARG when t is not such a tensor or a class is
 * outside 0..CC_ZOO_IMAGE_CLASSES-1. cc_zoo_images(t, seed) draws the classes. */
#define CC_ZOO_IMAGE_CLASSES 8
cc_status cc_zoo_images_of(cc_tensor *t, uint64_t seed, const int *classes, int *drawn, cc_err *err);
cc_status cc_zoo_images(cc_tensor *t, uint64_t seed, cc_err *err);

/* Detection scenes, the inputs of detectors: each image is a background of one scene
 * class at 10 % contrast with 1 to min(CC_ZOO_MAX_OBJECTS, 1 + H W / 160^2) objects on
 * it: non-overlapping rectangles of 64 to 128 pixels a side (fixed in pixels, as the
 * classes are; smaller when the image is), each showing another class at full contrast,
 * lighter than the background and tinted by its class. A detector tuned on them
 * (yolo.c) finds the objects with clear score margins, as a trained detector finds the
 * objects of its data set.
 *
 * Fills t (f32 [N, C, H, W], H and W >= 64, data allocated by the caller),
 * deterministic in seed. When objs is not NULL, image b's objects are written to
 * objs[b * CC_ZOO_MAX_OBJECTS ...] and their count to n_objs[b] (both caller-allocated;
 * n_objs may be given alone). Corners in pixels, x2 and y2 exclusive. CC_ERR_ARG when t
 * is not such a tensor. */
#define CC_ZOO_MAX_OBJECTS 6
typedef struct cc_zoo_object {
    float x1, y1, x2, y2;
    int cls; /* scene class 0..CC_ZOO_IMAGE_CLASSES-1 */
} cc_zoo_object;
cc_status cc_zoo_scenes(cc_tensor *t, uint64_t seed, cc_zoo_object *objs, int *n_objs, cc_err *err);

/* ---- the builders (also reachable through the registry) ---------------------------- */

/* ResNet50 v1.5 (torchvision layout and value names: conv1.weight, layer1.0.bn1.weight,
 * fc.bias, ...), input "input" [N, 3, S, S] f32 (default S = 224, any S >= 32), output
 * "logits" [N, 1000]. BatchNormalization nodes are kept. */
cc_status cc_model_resnet50(const cc_zoo_options *opt, cc_model **out, cc_err *err);

/* YOLOv5s v6.0 (ultralytics layout and value names: model.0.conv.weight, ...; 80 classes),
 * input "images" [N, 3, S, S] f32 (default S = 640, S a multiple of 32, >= 64), output
 * "output0" [N, 3 * (S/8)^2 * 21 / 16, 85]: per anchor cx, cy, w, h in input pixels,
 * objectness and 80 class scores after the sigmoid (25200 rows at 640, 6300 at 320). */
cc_status cc_model_yolov5s(const cc_zoo_options *opt, cc_model **out, cc_err *err);

#endif
