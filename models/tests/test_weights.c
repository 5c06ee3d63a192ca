/* test_weights.c — synthetic initialisation laws, BatchNormalization calibration (checked
 * against statistics recomputed here from a fresh golden run), copying, and the weights
 * file: round trip, a file written here by hand from the documented format, and every
 * kind of bad file. Uses a small model built here, so it runs in well under a second. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness/cctest.h"
#include "../weights.h"
#include "../zoo.h"

/* x [2,3,8,8] -> c1 (16, 3x3, pad 1, bias) -> bn1 -> Relu -> c2 (32, 3x3, pad 1) -> bn2
 *   -> GlobalAveragePool -> Flatten -> fc (Gemm transB, 32 -> 10); c1_out sets c1's width. */
static cc_model *tiny(int c1_out)
{
    cc_err e = { 0 };
    cc_model_builder *b;
    if (cc_mb_create("tiny", &b, &e)) return NULL;
    int64_t xd[4] = { 2, 3, 8, 8 };
    cc_shape xs = cc_shape_make(4, xd);
    int x, w, t;
    cc_status st = cc_mb_input(b, "x", CC_F32, &xs, &x, &e);
    struct { const char *name; int rank; int64_t d[4]; } ws[] = {
        { "c1.weight", 4, { c1_out, 3, 3, 3 } }, { "c1.bias", 1, { c1_out } },
        { "bn1.weight", 1, { c1_out } }, { "bn1.bias", 1, { c1_out } },
        { "bn1.running_mean", 1, { c1_out } }, { "bn1.running_var", 1, { c1_out } },
        { "c2.weight", 4, { 32, c1_out, 3, 3 } },
        { "bn2.weight", 1, { 32 } }, { "bn2.bias", 1, { 32 } },
        { "bn2.running_mean", 1, { 32 } }, { "bn2.running_var", 1, { 32 } },
        { "fc.weight", 2, { 10, 32 } }, { "fc.bias", 1, { 10 } },
    };
    int v[13];
    for (int i = 0; i < 13 && !st; i++) {
        cc_shape s = cc_shape_make(ws[i].rank, ws[i].d);
        cc_tensor tt;
        st = cc_tensor_alloc(&tt, CC_F32, &s, &e);
        if (!st) st = cc_mb_const(b, ws[i].name, &tt, &v[i], &e);
    }
    int in1[3] = { x, v[0], v[1] };
    if (!st) st = cc_mb_node(b, "Conv", "c1", "pads=[1,1,1,1]", 3, in1, 1, &t, NULL, &e);
    int bn1[5] = { t, v[2], v[3], v[4], v[5] };
    if (!st) st = cc_mb_node(b, "BatchNormalization", "bn1", NULL, 5, bn1, 1, &t, NULL, &e);
    if (!st) st = cc_mb_node(b, "Relu", "relu", NULL, 1, &t, 1, &t, NULL, &e);
    int in2[2] = { t, v[6] };
    if (!st) st = cc_mb_node(b, "Conv", "c2", "pads=[1,1,1,1]", 2, in2, 1, &t, NULL, &e);
    int bn2[5] = { t, v[7], v[8], v[9], v[10] };
    if (!st) st = cc_mb_node(b, "BatchNormalization", "bn2", NULL, 5, bn2, 1, &t, NULL, &e);
    if (!st) st = cc_mb_node(b, "GlobalAveragePool", "gap", NULL, 1, &t, 1, &t, NULL, &e);
    if (!st) st = cc_mb_node(b, "Flatten", "flatten", NULL, 1, &t, 1, &t, NULL, &e);
    int in3[3] = { t, v[11], v[12] };
    if (!st) st = cc_mb_node(b, "Gemm", "fc", "transB=1", 3, in3, 1, &w, NULL, &e);
    if (!st) st = cc_mb_output(b, w, &e);
    if (st) {
        fprintf(stderr, "tiny: %s\n", e.msg);
        cc_mb_destroy(b);
        return NULL;
    }
    cc_model *m = NULL;
    if (cc_mb_finish(b, CC_TASK_CLASSIFY, 10, &m, &e)) return NULL;
    return m;
}

static const cc_tensor *val(const cc_model *m, const char *name)
{
    int v = cc_model_find_value(m, name);
    return v >= 0 ? &m->graph.values[v] : NULL;
}

static double sample_std(const cc_tensor *t, double *mean_out)
{
    const float *d = t->data;
    int64_t n = cc_tensor_numel(t);
    double s = 0, s2 = 0;
    for (int64_t i = 0; i < n; i++) s += d[i];
    double mean = s / (double)n;
    for (int64_t i = 0; i < n; i++) s2 += (d[i] - mean) * (d[i] - mean);
    if (mean_out) *mean_out = mean;
    return sqrt(s2 / (double)n);
}

static int weights_equal(const cc_model *a, const cc_model *b)
{
    for (int v = 0; v < a->graph.n_values; v++) {
        if (!cc_weights_is_weight(a, v)) continue;
        const cc_tensor *t = val(b, a->value_names[v]);
        if (!t || memcmp(t->data, a->graph.values[v].data, cc_tensor_bytes(t)) != 0) return 0;
    }
    return 1;
}

static void test_init(void)
{
    cc_model *m = tiny(16), *m2 = tiny(16), *m3 = tiny(16);
    CHECK(m && m2 && m3);
    if (!m || !m2 || !m3) return;
    cc_err e = { 0 };
    CHECK(cc_weights_init(m, 7, &e) == CC_OK);
    CHECK(cc_weights_init(m2, 7, &e) == CC_OK);
    CHECK(cc_weights_init(m3, 8, &e) == CC_OK);
    CHECK(weights_equal(m, m2));
    CHECK(!weights_equal(m, m3));
    /* He normal: std sqrt(2 / fan_in), fan_in = 16 * 9 for c2 (4608 samples: 5% is > 4 SE) */
    double mean;
    double sd = sample_std(val(m, "c2.weight"), &mean);
    CHECK_NEAR(sd, sqrt(2.0 / 144), 0.05 * sqrt(2.0 / 144));
    CHECK(fabs(mean) < 0.05 * sqrt(2.0 / 144) * 3);
    sd = sample_std(val(m, "fc.weight"), NULL);
    CHECK_NEAR(sd, sqrt(1.0 / 32), 0.15 * sqrt(1.0 / 32)); /* 320 samples */
    const cc_tensor *sc = val(m, "bn2.weight"), *var = val(m, "bn2.running_var"), *fb = val(m, "fc.bias");
    int in_range = 1, ones = 1, zeros = 1;
    for (int i = 0; i < 32; i++) {
        float s = ((const float *)sc->data)[i];
        in_range &= s >= 0.5f && s < 1.5f;
        ones &= ((const float *)var->data)[i] == 1.0f;
    }
    for (int i = 0; i < 10; i++) zeros &= ((const float *)fb->data)[i] == 0.0f;
    CHECK(in_range && ones && zeros);
    /* the input and the buffers are not weights; the Gemm weight is */
    CHECK(!cc_weights_is_weight(m, m->graph.inputs[0]));
    CHECK(cc_weights_is_weight(m, cc_model_find_value(m, "fc.weight")));
    cc_model_free(m);
    cc_model_free(m2);
    cc_model_free(m3);
}

/* After calibration a fresh golden run on the calibration images gives, per channel of
 * each BN output, mean = bias and std = scale * sigma / sqrt(sigma^2 + eps) where sigma is
 * the std of that channel of the BN's input in the same run; bn2 can only pass when it
 * was calibrated after bn1. */
static void test_calibration(void)
{
    cc_model *m = tiny(16);
    CHECK(m != NULL);
    if (!m) return;
    cc_err e = { 0 };
    cc_tensor img;
    const cc_tensor *in = &m->graph.values[m->graph.inputs[0]];
    CHECK(cc_tensor_alloc(&img, CC_F32, &in->shape, &e) == CC_OK);
    CHECK(cc_zoo_images(&img, 3, &e) == CC_OK);
    CHECK(cc_weights_init(m, 5, &e) == CC_OK);
    cc_model_eval cal, ev;
    CHECK(cc_weights_calibrate_bn(m, &img, &cal, &e) == CC_OK);
    CHECK(cc_model_evaluate(&m->graph, &img, 0, NULL, &ev, &e) == CC_OK);
    /* the pass calibration returns is the calibrated model's */
    int out = m->graph.outputs[0];
    CHECK(memcmp(cal.vals[out].data, ev.vals[out].data, cc_tensor_bytes(&ev.vals[out])) == 0);
    const char *bns[2][3] = { { "c1:0", "bn1:0", "bn1" }, { "c2:0", "bn2:0", "bn2" } };
    for (int k = 0; k < 2; k++) {
        const cc_tensor *x = &ev.vals[cc_model_find_value(m, bns[k][0])];
        const cc_tensor *y = &ev.vals[cc_model_find_value(m, bns[k][1])];
        char name[64];
        snprintf(name, sizeof name, "%s.weight", bns[k][2]);
        const float *scale = val(m, name)->data;
        snprintf(name, sizeof name, "%s.bias", bns[k][2]);
        const float *bias = val(m, name)->data;
        int64_t c = x->shape.dims[1], hw = 64;
        double worst = 0;
        for (int64_t ch = 0; ch < c; ch++) {
            double sx = 0, sx2 = 0, sy = 0, sy2 = 0;
            for (int n = 0; n < 2; n++)
                for (int64_t i = 0; i < hw; i++) {
                    double a = ((const float *)x->data)[(n * c + ch) * hw + i];
                    double b = ((const float *)y->data)[(n * c + ch) * hw + i];
                    sx += a, sx2 += a * a, sy += b, sy2 += b * b;
                }
            double cnt = 2.0 * (double)hw, mx = sx / cnt, my = sy / cnt;
            double vx = sx2 / cnt - mx * mx, sdy = sqrt(fmax(sy2 / cnt - my * my, 0));
            double want_sd = scale[ch] * sqrt(vx / (vx + 1e-5));
            worst = fmax(worst, fabs(my - bias[ch]));
            worst = fmax(worst, fabs(sdy - want_sd));
        }
        if (worst > 1e-4) fprintf(stderr, "%s: worst deviation %g\n", bns[k][2], worst);
        CHECK(worst < 1e-4);
    }
    cc_model_eval_free(&cal);
    cc_model_eval_free(&ev);
    /* a wrong input is refused */
    cc_tensor bad;
    int64_t bd[4] = { 1, 3, 8, 8 };
    cc_shape bs = cc_shape_make(4, bd);
    CHECK(cc_tensor_alloc(&bad, CC_F32, &bs, &e) == CC_OK);
    CHECK(cc_weights_calibrate_bn(m, &bad, NULL, &e) == CC_ERR_ARG);
    cc_tensor_free(&bad);
    cc_tensor_free(&img);
    cc_model_free(m);
}

static void test_copy(void)
{
    cc_model *a = tiny(16), *b = tiny(16), *c = tiny(12);
    CHECK(a && b && c);
    if (!a || !b || !c) return;
    cc_err e = { 0 };
    CHECK(cc_weights_init(a, 11, &e) == CC_OK);
    CHECK(cc_weights_copy(b, a, &e) == CC_OK);
    CHECK(weights_equal(a, b));
    CHECK(cc_weights_copy(c, a, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "c1.weight") != NULL);
    cc_model_free(a);
    cc_model_free(b);
    cc_model_free(c);
}

/* ---- the file format ---------------------------------------------------------------- */

static char path[64];

static void write_bytes(const unsigned char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(p, 1, n, f) == n);
    fclose(f);
}

static unsigned char *read_bytes(size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = malloc((size_t)len + 1);
    *n = fread(p, 1, (size_t)len, f);
    fclose(f);
    return p;
}

/* Expects loading `path` into m to fail with CC_ERR_ARG and a message containing want. */
static void expect_error(cc_model *m, const char *want, int line)
{
    cc_err e = { 0 };
    cc_status st = cc_weights_load(m, path, &e);
    if (st != CC_ERR_ARG || !strstr(e.msg, want)) {
        fprintf(stderr, "line %d: status %d, message '%s', wanted '%s'\n", line, (int)st, e.msg, want);
        CHECK(st == CC_ERR_ARG && strstr(e.msg, want));
    }
}

/* A file written from the documented format: every tensor of model m in value order,
 * with the hand-written name list, dtypes and shapes of the tiny model. The record of
 * tensor `skip` is left out, `extra` (if non-NULL) is appended as a 1-element f32
 * tensor, and tensor `as_f16` is written as f16. */
static size_t handmade(const cc_model *m, unsigned char *buf, uint32_t version, const char *skip, const char *extra,
                       const char *as_f16)
{
    size_t n = 12;
    uint32_t count = 0;
    for (int v = 0; v < m->graph.n_values; v++) {
        if (!cc_weights_is_weight(m, v) || (skip && strcmp(skip, m->value_names[v]) == 0)) continue;
        const cc_tensor *t = &m->graph.values[v];
        int f16 = as_f16 && strcmp(as_f16, m->value_names[v]) == 0;
        size_t len = strlen(m->value_names[v]);
        buf[n++] = (unsigned char)len, buf[n++] = 0;
        memcpy(buf + n, m->value_names[v], len), n += len;
        buf[n++] = f16 ? 1 : 0;
        buf[n++] = (unsigned char)t->shape.rank;
        for (int d = 0; d < t->shape.rank; d++)
            for (int i = 0; i < 8; i++) buf[n++] = (unsigned char)((uint64_t)t->shape.dims[d] >> (8 * i));
        size_t bytes = (size_t)cc_tensor_numel(t) * (f16 ? 2 : 4);
        memcpy(buf + n, t->data, bytes), n += bytes;
        count++;
    }
    if (extra) {
        size_t len = strlen(extra);
        buf[n++] = (unsigned char)len, buf[n++] = 0;
        memcpy(buf + n, extra, len), n += len;
        buf[n++] = 0, buf[n++] = 1;
        unsigned char one[8] = { 1 }, data[4] = { 0 };
        memcpy(buf + n, one, 8), n += 8;
        memcpy(buf + n, data, 4), n += 4;
        count++;
    }
    memcpy(buf, "CCWT", 4);
    for (int i = 0; i < 4; i++) buf[4 + i] = (unsigned char)(version >> (8 * i));
    for (int i = 0; i < 4; i++) buf[8 + i] = (unsigned char)(count >> (8 * i));
    return n;
}

static void test_file(void)
{
    snprintf(path, sizeof path, "/tmp/cc_weights_test_%ld.ccwt", (long)getpid());
    cc_model *m = tiny(16), *fresh = tiny(16), *narrow = tiny(12);
    CHECK(m && fresh && narrow);
    if (!m || !fresh || !narrow) return;
    cc_err e = { 0 };
    CHECK(cc_weights_init(m, 21, &e) == CC_OK);

    /* round trip, and the size the format implies */
    CHECK(cc_weights_save(m, path, &e) == CC_OK);
    CHECK(cc_weights_load(fresh, path, &e) == CC_OK);
    CHECK(weights_equal(m, fresh));
    size_t size = 0, want = 12;
    for (int v = 0; v < m->graph.n_values; v++)
        if (cc_weights_is_weight(m, v))
            want += 2 + strlen(m->value_names[v]) + 2 + 8 * (size_t)m->graph.values[v].shape.rank +
                    cc_tensor_bytes(&m->graph.values[v]);
    unsigned char *good = read_bytes(&size);
    CHECK(good != NULL && size == want);
    if (!good) return;

    /* the documented format, written by hand, is what save writes */
    unsigned char *buf = malloc(size + 256);
    size_t n = handmade(m, buf, 1, NULL, NULL, NULL);
    CHECK(n == size && memcmp(buf, good, n) == 0);

    /* the model needs 432 elements (16x3x3x3) for c1.weight, a 12-wide file has 324 */
    CHECK(cc_weights_init(narrow, 21, &e) == CC_OK);
    CHECK(cc_weights_save(narrow, path, &e) == CC_OK);
    expect_error(m, "tensor c1.weight has 324 elements, the model needs 432", __LINE__);
    char full[256];
    snprintf(full, sizeof full, "weights file %s: tensor c1.weight has 324 elements, the model needs 432", path);
    cc_weights_load(m, path, &e);
    CHECK(strcmp(e.msg, full) == 0);

    /* same element count, other shape: c1.weight as 3x16x3x3 */
    memcpy(buf, good, size);
    size_t dims_at = 12 + 2 + strlen("c1.weight") + 2;
    buf[dims_at] = 3, buf[dims_at + 8] = 16;
    write_bytes(buf, size);
    expect_error(m, "tensor c1.weight has shape 3x16x3x3, the model needs 16x3x3x3", __LINE__);

    /* bad magic, unknown version, truncations at several points */
    memcpy(buf, good, size);
    memcpy(buf, "GGUF", 4);
    write_bytes(buf, size);
    expect_error(m, "bad magic", __LINE__);
    write_bytes((const unsigned char *)"CC", 2);
    expect_error(m, "truncated", __LINE__);
    n = handmade(m, buf, 2, NULL, NULL, NULL);
    write_bytes(buf, n);
    expect_error(m, "version 2, this build reads version 1", __LINE__);
    const size_t cuts[] = { 0, 7, 12, 13, 20, dims_at + 4, dims_at + 40, size / 2, size - 1 };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        write_bytes(good, cuts[i]);
        expect_error(m, "truncated", __LINE__);
    }
    /* trailing bytes, missing, extra and mistyped tensors, unknown dtype code */
    memcpy(buf, good, size);
    buf[size] = 0;
    write_bytes(buf, size + 1);
    expect_error(m, "1 bytes follow its last tensor", __LINE__);
    n = handmade(m, buf, 1, "bn2.running_var", NULL, NULL);
    write_bytes(buf, n);
    expect_error(m, "no tensor bn2.running_var (model tiny needs it)", __LINE__);
    n = handmade(m, buf, 1, NULL, "extra.weight", NULL);
    write_bytes(buf, n);
    expect_error(m, "tensor extra.weight is not a weight of model tiny", __LINE__);
    n = handmade(m, buf, 1, NULL, NULL, "bn1.bias");
    write_bytes(buf, n);
    expect_error(m, "tensor bn1.bias is f16, the model needs f32", __LINE__);
    memcpy(buf, good, size);
    buf[12 + 2 + strlen("c1.weight")] = 9;
    write_bytes(buf, size);
    expect_error(m, "tensor c1.weight has unknown dtype code 9", __LINE__);

    /* failed loads left m as it was; a missing file is an I/O error */
    CHECK(weights_equal(m, fresh));
    remove(path);
    CHECK(cc_weights_load(m, path, &e) == CC_ERR_IO);
    CHECK(cc_weights_save(m, "/nonexistent-dir/w.ccwt", &e) == CC_ERR_IO);
    free(buf);
    free(good);
    cc_model_free(m);
    cc_model_free(fresh);
    cc_model_free(narrow);
}

int main(void)
{
    test_init();
    test_calibration();
    test_copy();
    test_file();
    return CC_TEST_RESULT();
}
