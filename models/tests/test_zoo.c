/* test_zoo.c — the model registry (names, tasks, published figures, option checks) and
 * the synthetic images and detection scenes. Builds no model, so it is instant. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../harness/cctest.h"
#include "../zoo.h"

int main(void)
{
    cc_err e = { 0 };
    CHECK(cc_zoo_count() == 2);
    CHECK(cc_zoo_at(2) == NULL && cc_zoo_at(-1) == NULL);
    const cc_zoo_entry *r = cc_zoo_find("resnet50"), *y = cc_zoo_find("yolov5s");
    CHECK(r && y && cc_zoo_at(0) == r && cc_zoo_at(1) == y);
    if (!r || !y) return CC_TEST_RESULT();
    CHECK(r->task == CC_TASK_CLASSIFY && r->n_classes == 1000 && r->default_image_size == 224);
    CHECK(y->task == CC_TASK_DETECT && y->n_classes == 80 && y->default_image_size == 640);
    CHECK(r->published_params == 25557032 && y->published_params == 7235389);
    CHECK(r->published_macs == 4.09e9 && y->published_macs == 8.25e9);
    CHECK(r->build == cc_model_resnet50 && y->build == cc_model_yolov5s);
    CHECK(cc_zoo_find("ResNet50") == NULL);

    cc_model *m = NULL;
    CHECK(cc_zoo_build("vgg16", NULL, &m, &e) == CC_ERR_ARG && m == NULL);
    CHECK(strcmp(e.msg, "unknown model 'vgg16' (built-in models: resnet50, yolov5s)") == 0);

    int batch = 0, size = 0;
    CHECK(cc_zoo_resolve(y, NULL, &batch, &size, &e) == CC_OK && batch == 1 && size == 640);
    cc_zoo_options o = { .batch = 4, .image_size = 320 };
    CHECK(cc_zoo_resolve(y, &o, &batch, &size, &e) == CC_OK && batch == 4 && size == 320);
    o.image_size = 100;
    CHECK(cc_zoo_resolve(y, &o, &batch, &size, &e) == CC_ERR_ARG);
    CHECK(strcmp(e.msg, "yolov5s: image size must be a multiple of 32, got 100") == 0);
    CHECK(cc_zoo_resolve(r, &o, &batch, &size, &e) == CC_OK && size == 100);
    o.image_size = 31;
    CHECK(cc_zoo_resolve(r, &o, &batch, &size, &e) == CC_ERR_ARG);
    o.image_size = 0;
    o.batch = -2;
    CHECK(cc_zoo_resolve(r, &o, &batch, &size, &e) == CC_ERR_ARG);

    /* synthetic images: deterministic in the seed; classes drawn or given; values of
     * order one; two images of one scene class far more alike than images of two */
    int64_t d[4] = { 4, 3, 64, 64 };
    cc_shape s = cc_shape_make(4, d);
    cc_tensor a, b;
    CHECK(cc_tensor_alloc(&a, CC_F32, &s, &e) == CC_OK);
    CHECK(cc_tensor_alloc(&b, CC_F32, &s, &e) == CC_OK);
    CHECK(cc_zoo_images(&a, 9, &e) == CC_OK);
    CHECK(cc_zoo_images(&b, 9, &e) == CC_OK);
    CHECK(memcmp(a.data, b.data, cc_tensor_bytes(&a)) == 0);
    CHECK(cc_zoo_images(&b, 10, &e) == CC_OK);
    CHECK(memcmp(a.data, b.data, cc_tensor_bytes(&a)) != 0);
    int drawn[4], want[4] = { 3, 3, 5, CC_ZOO_IMAGE_CLASSES - 1 };
    CHECK(cc_zoo_images_of(&a, 9, NULL, drawn, &e) == CC_OK);
    CHECK(memcmp(a.data, b.data, cc_tensor_bytes(&a)) != 0);
    for (int i = 0; i < 4; i++) CHECK(drawn[i] >= 0 && drawn[i] < CC_ZOO_IMAGE_CLASSES);
    CHECK(cc_zoo_images_of(&a, 9, want, drawn, &e) == CC_OK);
    CHECK(memcmp(drawn, want, sizeof want) == 0);
    const float *p = a.data;
    int64_t per = 3 * 64 * 64;
    double mean[4] = { 0 }, sd[4] = { 0 };
    for (int i = 0; i < 4; i++) {
        for (int64_t k = 0; k < per; k++) mean[i] += p[i * per + k] / (double)per;
        for (int64_t k = 0; k < per; k++) sd[i] += (p[i * per + k] - mean[i]) * (p[i * per + k] - mean[i]) / (double)per;
        sd[i] = sqrt(sd[i]);
        CHECK(fabs(mean[i]) < 1.5 && sd[i] > 0.5 && sd[i] < 2);
    }
    double corr[3];
    for (int j = 1; j < 4; j++) {
        double c = 0;
        for (int64_t k = 0; k < per; k++) c += (p[k] - mean[0]) * (p[j * per + k] - mean[j]) / (double)per;
        corr[j - 1] = c / (sd[0] * sd[j]);
    }
    CHECK(corr[0] > 0.9);                                   /* same class: noise and 5 % jitter */
    CHECK(fabs(corr[1]) < 0.3 && fabs(corr[2]) < 0.3);      /* other classes */
    int bad_class[4] = { 0, 1, 2, CC_ZOO_IMAGE_CLASSES };
    CHECK(cc_zoo_images_of(&a, 9, bad_class, NULL, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "class 8") != NULL);
    cc_tensor c = { .dtype = CC_I32, .shape = s };
    CHECK(cc_zoo_images(&c, 1, &e) == CC_ERR_ARG);
    cc_tensor_free(&a);
    cc_tensor_free(&b);

    /* detection scenes at 320: deterministic; 1 to min(6, 1 + 320^2 / 160^2 = 5) objects
     * per image, 64 to 128 pixels a side, inside the image, not overlapping; an object's
     * pixels vary far more than the background's (contrast 1 against 0.1) */
    int64_t d2[4] = { 6, 3, 320, 320 };
    cc_shape s2 = cc_shape_make(4, d2);
    CHECK(cc_tensor_alloc(&a, CC_F32, &s2, &e) == CC_OK);
    CHECK(cc_tensor_alloc(&b, CC_F32, &s2, &e) == CC_OK);
    cc_zoo_object objs[6 * CC_ZOO_MAX_OBJECTS], objs2[6 * CC_ZOO_MAX_OBJECTS];
    int n_objs[6], n_objs2[6], total = 0;
    CHECK(cc_zoo_scenes(&a, 3, objs, n_objs, &e) == CC_OK);
    CHECK(cc_zoo_scenes(&b, 3, objs2, n_objs2, &e) == CC_OK);
    CHECK(memcmp(a.data, b.data, cc_tensor_bytes(&a)) == 0 && memcmp(n_objs, n_objs2, sizeof n_objs) == 0);
    const float *q = a.data;
    int64_t plane = 320 * 320;
    for (int i = 0; i < 6; i++) {
        CHECK(n_objs[i] >= 1 && n_objs[i] <= 5);
        total += n_objs[i];
        double bg = 0, bg2 = 0, nbg = 0;
        for (int64_t y = 0; y < 320; y++)
            for (int64_t x = 0; x < 320; x++) {
                int on = 0;
                for (int k = 0; k < n_objs[i]; k++) {
                    const cc_zoo_object *o = &objs[i * CC_ZOO_MAX_OBJECTS + k];
                    on |= x >= o->x1 && x < o->x2 && y >= o->y1 && y < o->y2;
                }
                if (on) continue;
                double v = q[i * 3 * plane + y * 320 + x];
                bg += v, bg2 += v * v, nbg += 1;
            }
        bg /= nbg;
        double bg_sd = sqrt(bg2 / nbg - bg * bg);
        for (int k = 0; k < n_objs[i]; k++) {
            const cc_zoo_object *o = &objs[i * CC_ZOO_MAX_OBJECTS + k];
            double w = o->x2 - o->x1, h = o->y2 - o->y1;
            CHECK(w >= 64 && w <= 128 && h >= 64 && h <= 128);
            CHECK(o->x1 >= 0 && o->y1 >= 0 && o->x2 <= 320 && o->y2 <= 320);
            CHECK(o->cls >= 0 && o->cls < CC_ZOO_IMAGE_CLASSES);
            for (int j = 0; j < k; j++) {
                const cc_zoo_object *u = &objs[i * CC_ZOO_MAX_OBJECTS + j];
                CHECK(o->x2 <= u->x1 || u->x2 <= o->x1 || o->y2 <= u->y1 || u->y2 <= o->y1);
            }
            double m = 0, m2 = 0, n = 0;
            for (int64_t y = (int64_t)o->y1; y < (int64_t)o->y2; y++)
                for (int64_t x = (int64_t)o->x1; x < (int64_t)o->x2; x++) {
                    double v = q[i * 3 * plane + y * 320 + x];
                    m += v, m2 += v * v, n += 1;
                }
            m /= n;
            CHECK(sqrt(m2 / n - m * m) > 4 * bg_sd); /* full contrast on 10 % */
        }
        CHECK(bg_sd > 0.02 && bg_sd < 0.3);
    }
    CHECK(total >= 10); /* not always the minimum */
    int64_t d3[4] = { 1, 3, 48, 48 };
    cc_shape s3 = cc_shape_make(4, d3);
    cc_tensor tiny;
    CHECK(cc_tensor_alloc(&tiny, CC_F32, &s3, &e) == CC_OK);
    CHECK(cc_zoo_scenes(&tiny, 1, NULL, NULL, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "at least 64x64") != NULL);
    cc_tensor_free(&tiny);
    cc_tensor_free(&a);
    cc_tensor_free(&b);
    return CC_TEST_RESULT();
}
