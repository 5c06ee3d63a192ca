/* zoo.c — the registry of built-in reference models, the graph-building shorthands the
 * builders share, their common build path (weights from a file, or synthetic and
 * calibrated), and synthetic input images. */
#include "zoo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zoo_internal.h"

/* ---- registry ------------------------------------------------------------------------ */

static const cc_zoo_entry entries[] = {
    {
        .name = "resnet50",
        .description = "ResNet50 v1.5 image classifier (torchvision layout), 1000 classes",
        .task = CC_TASK_CLASSIFY,
        .n_classes = 1000,
        .default_image_size = 224,
        .min_image_size = 32,
        .size_multiple = 1,
        .published_params = 25557032,
        .published_macs = 4.09e9,
        /* cc_model_macs (FLOPs / 2 over every node) at 224: conv 4.0871e9 + fc 2.0e6 (the
         * published figure), plus BatchNormalization 11.2e6 (1 per element), Relu 4.8e6,
         * Add 2.8e6 (1/2 per element), MaxPool compares 0.9e6: 4.1089e9, +0.46% */
        .macs_tolerance = 0.01,
        .macs_note = "conv + fc 4.089e9, with BatchNormalization, Relu, Add and pooling 4.109e9 (+0.5%)",
        .build = cc_model_resnet50,
    },
    {
        .name = "yolov5s",
        .description = "YOLOv5s v6.0 object detector (ultralytics layout), 80 classes, decode in the graph",
        .task = CC_TASK_DETECT,
        .n_classes = 80,
        .default_image_size = 640,
        .min_image_size = 64,
        .size_multiple = 32,
        .published_params = 7235389,
        /* 16.5 GFLOPs as ultralytics reports it at 640: 2 x the MACs thop counts, convs
         * 8.2168e9 and BatchNormalization 23.7e6 (16.48e9 / 2 = 8.24e9). cc_model_macs
         * (FLOPs / 2 over every node) adds Detect bias adds 1.1e6, SiLU's Sigmoid 51.6e6
         * (4 FLOPs per element) and Mul 12.0e6, MaxPool compares 3.8e6, Add 1.2e6 and the
         * decode: 8.3101e9, +0.73% over 8.25e9; 2% tolerance. */
        .published_macs = 8.25e9,
        .macs_tolerance = 0.02,
        .macs_note = "convs + BN 8.24e9, with SiLU, pooling, Add and decode 8.31e9 (+0.7%)",
        .build = cc_model_yolov5s,
    },
};

#define N_ENTRIES ((int)(sizeof entries / sizeof entries[0]))

int cc_zoo_count(void) { return N_ENTRIES; }

const cc_zoo_entry *cc_zoo_at(int i) { return i >= 0 && i < N_ENTRIES ? &entries[i] : NULL; }

const cc_zoo_entry *cc_zoo_find(const char *name)
{
    for (int i = 0; i < N_ENTRIES; i++)
        if (strcmp(entries[i].name, name) == 0) return &entries[i];
    return NULL;
}

cc_status cc_zoo_build(const char *name, const cc_zoo_options *opt, cc_model **out, cc_err *err)
{
    const cc_zoo_entry *e = cc_zoo_find(name);
    if (!e) {
        char known[256] = "";
        size_t len = 0;
        for (int i = 0; i < N_ENTRIES && len < sizeof known; i++)
            len += (size_t)snprintf(known + len, sizeof known - len, "%s%s", i ? ", " : "", entries[i].name);
        return cc_err_set(err, CC_ERR_ARG, "unknown model '%s' (built-in models: %s)", name, known);
    }
    cc_zoo_options def = { 0 };
    return e->build(opt ? opt : &def, out, err);
}

cc_status cc_zoo_resolve(const cc_zoo_entry *e, const cc_zoo_options *opt, int *batch, int *size, cc_err *err)
{
    int n = opt && opt->batch ? opt->batch : 1;
    int s = opt && opt->image_size ? opt->image_size : e->default_image_size;
    if (n < 1 || n > 4096) return cc_err_set(err, CC_ERR_ARG, "%s: batch must be in 1..4096, got %d", e->name, n);
    if (s < e->min_image_size || s > 8192)
        return cc_err_set(err, CC_ERR_ARG, "%s: image size must be in %d..8192, got %d", e->name, e->min_image_size, s);
    if (s % e->size_multiple)
        return cc_err_set(err, CC_ERR_ARG, "%s: image size must be a multiple of %d, got %d", e->name,
                          e->size_multiple, s);
    *batch = n;
    *size = s;
    return CC_OK;
}

double cc_zoo_params(const cc_model *m)
{
    /* cc_model_params already leaves out constants named CC_ZOO_BUFFER_PREFIX */
    return cc_model_params(m);
}

/* ---- synthetic images ---------------------------------------------------------------- */

#define IMG_JITTER 0.05 /* relative jitter of an image around its class scene */
#define IMG_NOISE 0.1 /* pixel noise */


/* A scene class: IMG_WAVES plane waves (wavelength 8..64 pixels, any orientation), each
 * with its own colour, on a colour cast, at a contrast. Classes come from a fixed stream
 * (the suite's synthetic data set is the same for every seed and every model). */
#define IMG_WAVES 6
#define IMG_COLOURS 4 /* colour weights per wave: channel c uses colour c % IMG_COLOURS */
typedef struct scene {
    double kx[IMG_WAVES], ky[IMG_WAVES], phase[IMG_WAVES], colour[IMG_WAVES][IMG_COLOURS];
    double cast[IMG_COLOURS], contrast;
} scene;

static void scene_of_class(int k, scene *sc)
{
    const double pi = 3.14159265358979323846;
    cc_rng rng;
    cc_rng_seed(&rng, 0x7363656e65ull + (uint64_t)k * 0x9e3779b97f4a7c15ull);
    for (int w = 0; w < IMG_WAVES; w++) {
        double wl = 4 * pow(2, 2 * cc_rng_uniform(&rng)), th = 2 * pi * cc_rng_uniform(&rng);
        sc->kx[w] = 2 * pi / wl * cos(th);
        sc->ky[w] = 2 * pi / wl * sin(th);
        sc->phase[w] = 2 * pi * cc_rng_uniform(&rng);
        for (int c = 0; c < IMG_COLOURS; c++) sc->colour[w][c] = cc_rng_normal(&rng);
    }
    for (int c = 0; c < IMG_COLOURS; c++) sc->cast[c] = 0.4 * cc_rng_normal(&rng);
    sc->contrast = 1;
}

/* The jittered look of one rendering of a scene class: contrast, cast, wave amplitudes. */
typedef struct look {
    scene sc;
    double contrast, amp[IMG_WAVES], cast[IMG_COLOURS];
} look;

static void look_of(int k, double contrast, cc_rng *rng, look *lk)
{
    scene_of_class(k, &lk->sc);
    lk->contrast = contrast * lk->sc.contrast * exp(IMG_JITTER * cc_rng_normal(rng));
    for (int v = 0; v < IMG_WAVES; v++)
        lk->amp[v] = sqrt(2.0 / IMG_WAVES) * 0.9 * (1 + IMG_JITTER * cc_rng_normal(rng));
    for (int c = 0; c < IMG_COLOURS; c++) lk->cast[c] = lk->sc.cast[c] + IMG_JITTER * cc_rng_normal(rng);
}

/* Paints lk over the rectangle [x0, x1) x [y0, y1) of image d ([nc, h, w]) with pixel
 * noise; the pattern's origin is the rectangle's corner, so an object carries its
 * texture with it wherever it stands. */
static void paint(float *d, int64_t nc, int64_t h, int64_t w, const look *lk, int64_t x0, int64_t y0, int64_t x1,
                  int64_t y1, cc_rng *rng)
{
    for (int64_t c = 0; c < nc; c++) {
        float *p = d + c * h * w;
        for (int64_t y = y0; y < y1; y++)
            for (int64_t x = x0; x < x1; x++) {
                double f = 0;
                for (int v = 0; v < IMG_WAVES; v++)
                    f += lk->amp[v] * lk->sc.colour[v][c % IMG_COLOURS] *
                         cos(lk->sc.kx[v] * (double)(x - x0) + lk->sc.ky[v] * (double)(y - y0) + lk->sc.phase[v]);
                p[y * w + x] =
                    (float)(lk->cast[c % IMG_COLOURS] + lk->contrast * (f + IMG_NOISE * cc_rng_normal(rng)));
            }
    }
}

/* Renders scene class k as one whole image (d: [nc, h, w]). */
static void render(float *d, int64_t nc, int64_t h, int64_t w, int k, cc_rng *rng)
{
    look lk;
    look_of(k, 1, rng, &lk);
    paint(d, nc, h, w, &lk, 0, 0, w, h, rng);
}

cc_status cc_zoo_images_of(cc_tensor *t, uint64_t seed, const int *classes, int *drawn, cc_err *err)
{
    if (t->dtype != CC_F32 || !t->data)
        return cc_err_set(err, CC_ERR_ARG, "synthetic images: need an f32 tensor with data");
    if (t->shape.rank != 4)
        return cc_err_set(err, CC_ERR_ARG, "synthetic images: need a rank-4 [N, C, H, W] tensor, got rank %d",
                          t->shape.rank);
    int64_t nb = t->shape.dims[0], nc = t->shape.dims[1], h = t->shape.dims[2], w = t->shape.dims[3];
    for (int64_t b = 0; classes && b < nb; b++)
        if (classes[b] < 0 || classes[b] >= CC_ZOO_IMAGE_CLASSES)
            return cc_err_set(err, CC_ERR_ARG, "synthetic images: class %d outside 0..%d", classes[b],
                              CC_ZOO_IMAGE_CLASSES - 1);
    cc_rng rng;
    cc_rng_seed(&rng, seed ^ 0x696d616765735eull);
    for (int64_t b = 0; b < nb; b++) {
        int k = (int)cc_rng_int(&rng, 0, CC_ZOO_IMAGE_CLASSES - 1);
        if (classes) k = classes[b];
        if (drawn) drawn[b] = k;
        render((float *)t->data + b * nc * h * w, nc, h, w, k, &rng);
    }
    return CC_OK;
}

cc_status cc_zoo_images(cc_tensor *t, uint64_t seed, cc_err *err)
{
    return cc_zoo_images_of(t, seed, NULL, NULL, err);
}

/* Detection scenes: a background of one class at SCENE_BG_CONTRAST with objects of other
 * classes pasted at full contrast, sides drawn in [SCENE_OBJ_MIN, SCENE_OBJ_MAX] pixels,
 * not overlapping (a placement that would overlap is drawn again, SCENE_TRIES times).
 * An object's colour cast gains SCENE_OBJ_LIGHT on every channel and +-SCENE_OBJ_COLOUR
 * by the bits of its class. */
#define SCENE_BG_CONTRAST 0.1
#define SCENE_OBJ_MIN 64
#define SCENE_OBJ_MAX 128
#define SCENE_TRIES 20
#define SCENE_OBJ_LIGHT 1.0
#define SCENE_OBJ_COLOUR 0.6

static int overlaps(const cc_zoo_object *o, int n, double x1, double y1, double x2, double y2)
{
    for (int i = 0; i < n; i++)
        if (x1 < o[i].x2 && o[i].x1 < x2 && y1 < o[i].y2 && o[i].y1 < y2) return 1;
    return 0;
}

cc_status cc_zoo_scenes(cc_tensor *t, uint64_t seed, cc_zoo_object *objs, int *n_objs, cc_err *err)
{
    if (t->dtype != CC_F32 || !t->data || t->shape.rank != 4)
        return cc_err_set(err, CC_ERR_ARG, "synthetic scenes: need an f32 [N, C, H, W] tensor with data");
    int64_t nb = t->shape.dims[0], nc = t->shape.dims[1], h = t->shape.dims[2], w = t->shape.dims[3];
    if (h < SCENE_OBJ_MIN || w < SCENE_OBJ_MIN)
        return cc_err_set(err, CC_ERR_ARG, "synthetic scenes: images of at least %dx%d pixels, got %lldx%lld",
                          SCENE_OBJ_MIN, SCENE_OBJ_MIN, (long long)h, (long long)w);
    int64_t side = h < w ? h : w, omax = side < SCENE_OBJ_MAX ? side : SCENE_OBJ_MAX;
    cc_rng rng;
    cc_rng_seed(&rng, seed ^ 0x7363656e6573ull);
    int64_t most = 1 + h * w / (160 * 160);
    if (most > CC_ZOO_MAX_OBJECTS) most = CC_ZOO_MAX_OBJECTS;
    for (int64_t b = 0; b < nb; b++) {
        float *d = (float *)t->data + b * nc * h * w;
        cc_zoo_object o[CC_ZOO_MAX_OBJECTS];
        int bg = (int)cc_rng_int(&rng, 0, CC_ZOO_IMAGE_CLASSES - 1), n = 0;
        int64_t want = cc_rng_int(&rng, 1, most);
        look lk;
        look_of(bg, SCENE_BG_CONTRAST, &rng, &lk);
        paint(d, nc, h, w, &lk, 0, 0, w, h, &rng);
        for (int64_t i = 0; i < want; i++)
            for (int k = 0; k < SCENE_TRIES; k++) {
                int64_t ow = cc_rng_int(&rng, SCENE_OBJ_MIN, omax),
                        oh = cc_rng_int(&rng, SCENE_OBJ_MIN, omax);
                int64_t x0 = cc_rng_int(&rng, 0, w - ow), y0 = cc_rng_int(&rng, 0, h - oh);
                if (overlaps(o, n, (double)x0, (double)y0, (double)(x0 + ow), (double)(y0 + oh))) continue;
                int cls = (int)cc_rng_int(&rng, 0, CC_ZOO_IMAGE_CLASSES - 2);
                cls += cls >= bg; /* never the background's class */
                o[n] = (cc_zoo_object){ (float)x0, (float)y0, (float)(x0 + ow), (float)(y0 + oh), cls };
                look_of(cls, 1, &rng, &lk);
                for (int c = 0; c < IMG_COLOURS; c++)
                    lk.cast[c] += SCENE_OBJ_LIGHT + SCENE_OBJ_COLOUR * ((cls >> (c % 3)) & 1 ? 1 : -1);
                paint(d, nc, h, w, &lk, x0, y0, x0 + ow, y0 + oh, &rng);
                n++;
                break;
            }
        if (objs) memcpy(objs + b * CC_ZOO_MAX_OBJECTS, o, sizeof *o * (size_t)n);
        if (n_objs) n_objs[b] = n;
    }
    return CC_OK;
}

/* ---- graph-building shorthands ------------------------------------------------------- */

int64_t cc_zoo_channels(const cc_model_builder *b, int v)
{
    const cc_tensor *t = cc_mb_value(b, v);
    return t && t->shape.rank >= 2 ? t->shape.dims[1] : 0;
}

cc_status cc_zoo_weight(cc_model_builder *b, const char *name, int rank, const int64_t *dims, int *v, cc_err *err)
{
    cc_shape s = cc_shape_make(rank, dims);
    cc_tensor t;
    cc_status st = cc_tensor_alloc(&t, CC_F32, &s, err);
    if (st) return st;
    return cc_mb_const(b, name, &t, v, err);
}

cc_status cc_zoo_const_f32(cc_model_builder *b, const char *name, int rank, const int64_t *dims, const float *vals,
                           int *v, cc_err *err)
{
    cc_shape s = cc_shape_make(rank, dims);
    cc_tensor t;
    cc_status st = cc_tensor_alloc(&t, CC_F32, &s, err);
    if (st) return st;
    memcpy(t.data, vals, cc_tensor_bytes(&t));
    return cc_mb_const(b, name, &t, v, err);
}

cc_status cc_zoo_const_i64(cc_model_builder *b, const char *name, int n, const int64_t *vals, int *v, cc_err *err)
{
    int64_t dims[1] = { n };
    cc_shape s = cc_shape_make(1, dims);
    cc_tensor t;
    cc_status st = cc_tensor_alloc(&t, CC_I64, &s, err);
    if (st) return st;
    memcpy(t.data, vals, sizeof *vals * (size_t)n);
    return cc_mb_const(b, name, &t, v, err);
}

cc_status cc_zoo_conv(cc_model_builder *b, const char *name, int x, int64_t c_out, int k, int stride, int pad,
                      int bias, int *y, cc_err *err)
{
    char wn[CC_VALUE_NAME_MAX], attrs[160];
    int in[3] = { x, -1, -1 };
    int64_t wd[4] = { c_out, cc_zoo_channels(b, x), k, k };
    snprintf(wn, sizeof wn, "%s.weight", name);
    cc_status st = cc_zoo_weight(b, wn, 4, wd, &in[1], err);
    if (st) return st;
    if (bias) {
        snprintf(wn, sizeof wn, "%s.bias", name);
        st = cc_zoo_weight(b, wn, 1, wd, &in[2], err);
        if (st) return st;
    }
    snprintf(attrs, sizeof attrs, "kernel_shape=[%d,%d],pads=[%d,%d,%d,%d],strides=[%d,%d]", k, k, pad, pad, pad,
             pad, stride, stride);
    return cc_mb_node(b, "Conv", name, attrs, bias ? 3 : 2, in, 1, y, NULL, err);
}

cc_status cc_zoo_bn(cc_model_builder *b, const char *name, int x, double eps, int *y, cc_err *err)
{
    static const char *const parts[4] = { "weight", "bias", "running_mean", "running_var" };
    int in[5] = { x };
    int64_t c = cc_zoo_channels(b, x);
    for (int i = 0; i < 4; i++) {
        char wn[CC_VALUE_NAME_MAX];
        snprintf(wn, sizeof wn, "%s.%s", name, parts[i]);
        cc_status st = cc_zoo_weight(b, wn, 1, &c, &in[i + 1], err);
        if (st) return st;
    }
    char attrs[64] = "";
    if (eps > 0) snprintf(attrs, sizeof attrs, "epsilon=%.9g", eps);
    return cc_mb_node(b, "BatchNormalization", name, attrs, 5, in, 1, y, NULL, err);
}

cc_status cc_zoo_op(cc_model_builder *b, const char *op, const char *name, const char *attrs, int a, int c, int *y,
                    cc_err *err)
{
    int in[2] = { a, c };
    return cc_mb_node(b, op, name, attrs, c >= 0 ? 2 : 1, in, 1, y, NULL, err);
}

/* ---- the common build path ----------------------------------------------------------- */

/* The calibrated copy of the last synthetic model built, kept for the next build of the
 * same model and seed (a model run builds its model at batch 1 and again at the
 * throughput batch; calibration is the slow part of a build). One entry, replaced by the
 * next model or seed; it stays allocated until the process ends. */
static struct {
    const cc_zoo_entry *entry;
    uint64_t seed;
    cc_model *cal;
} last_calibrated;

cc_status cc_zoo_make(const cc_zoo_recipe *r, const cc_zoo_options *opt, cc_model **out, cc_err *err)
{
    const cc_zoo_options def = { 0 };
    if (!opt) opt = &def;
    int batch = 1, size = 0;
    cc_status st = cc_zoo_resolve(r->entry, opt, &batch, &size, err);
    if (st) return st;
    cc_model *m = NULL, *cal = NULL;
    cc_tensor images = { 0 };
    cc_model_eval ev = { 0 };
    int *classes = NULL, *n_objs = NULL;
    cc_zoo_object *objs = NULL;
    st = r->graph(batch, size, &m, err);
    if (st) return st;
    if (opt->weights_path) {
        st = cc_weights_load(m, opt->weights_path, err);
        if (st) goto fail;
        *out = m;
        return CC_OK;
    }
    if (last_calibrated.cal && last_calibrated.entry == r->entry && last_calibrated.seed == opt->seed) {
        st = cc_weights_copy(m, last_calibrated.cal, err);
        if (st) goto fail;
        *out = m;
        return CC_OK;
    }
    st = r->graph(r->calib_batch, r->calib_size, &cal, err);
    if (!st) st = cc_weights_init(cal, opt->seed, err);
    if (!st && r->prepare) st = r->prepare(cal, opt->seed, err);
    if (st) goto fail;
    const cc_tensor *in = &cal->graph.values[cal->graph.inputs[0]];
    st = cc_tensor_alloc(&images, in->dtype, &in->shape, err);
    size_t nb = (size_t)r->calib_batch;
    classes = st ? NULL : malloc(sizeof *classes * nb);
    n_objs = st ? NULL : malloc(sizeof *n_objs * nb);
    objs = st ? NULL : malloc(sizeof *objs * nb * CC_ZOO_MAX_OBJECTS);
    if (!st && (!classes || !n_objs || !objs)) st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    for (int i = 0; !st && i < r->calib_batch; i++) classes[i] = i % CC_ZOO_IMAGE_CLASSES;
    if (!st)
        st = r->scenes ? cc_zoo_scenes(&images, opt->seed, objs, n_objs, err)
                       : cc_zoo_images_of(&images, opt->seed, classes, NULL, err);
    cc_zoo_calib cs = { &images, r->scenes ? NULL : classes, r->scenes ? objs : NULL, r->scenes ? n_objs : NULL };
    if (!st) st = cc_weights_calibrate_bn(cal, &images, &ev, err);
    if (!st && r->tune) st = r->tune(cal, &ev, &cs, err);
    if (!st) st = cc_weights_copy(m, cal, err);
    if (st) goto fail;
    free(classes);
    free(n_objs);
    free(objs);
    cc_model_eval_free(&ev);
    cc_tensor_free(&images);
    cc_model_free(last_calibrated.cal);
    last_calibrated.entry = r->entry;
    last_calibrated.seed = opt->seed;
    last_calibrated.cal = cal;
    *out = m;
    return CC_OK;
fail:
    free(classes);
    free(n_objs);
    free(objs);
    cc_model_eval_free(&ev);
    cc_tensor_free(&images);
    cc_model_free(cal);
    cc_model_free(m);
    return st;
}
