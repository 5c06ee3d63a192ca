/* test_zoo.c — the model registry (names, tasks, published figures, option checks) and
 * the synthetic images. Builds no model, so it is instant. */
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

    /* synthetic images: standard normal, deterministic in the seed */
    int64_t d[4] = { 2, 3, 64, 64 };
    cc_shape s = cc_shape_make(4, d);
    cc_tensor a, b;
    CHECK(cc_tensor_alloc(&a, CC_F32, &s, &e) == CC_OK);
    CHECK(cc_tensor_alloc(&b, CC_F32, &s, &e) == CC_OK);
    CHECK(cc_zoo_images(&a, 9, &e) == CC_OK);
    CHECK(cc_zoo_images(&b, 9, &e) == CC_OK);
    CHECK(memcmp(a.data, b.data, cc_tensor_bytes(&a)) == 0);
    CHECK(cc_zoo_images(&b, 10, &e) == CC_OK);
    CHECK(memcmp(a.data, b.data, cc_tensor_bytes(&a)) != 0);
    const float *p = a.data;
    double sum = 0, sum2 = 0;
    int64_t n = cc_tensor_numel(&a);
    for (int64_t i = 0; i < n; i++) sum += p[i], sum2 += (double)p[i] * p[i];
    CHECK(fabs(sum / (double)n) < 0.02);                /* 24576 samples: SE 0.0064 */
    CHECK(fabs(sqrt(sum2 / (double)n) - 1) < 0.03);
    cc_tensor c = { .dtype = CC_I32, .shape = s };
    CHECK(cc_zoo_images(&c, 1, &e) == CC_ERR_ARG);
    cc_tensor_free(&a);
    cc_tensor_free(&b);
    return CC_TEST_RESULT();
}
