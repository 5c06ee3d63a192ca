/* fuzz_weights.c — libFuzzer target for the weights file reader (weights.h): each input,
 * as a file, is loaded by cc_weights_load into a small model built once (Conv with bias,
 * BatchNormalization, Relu, GlobalAveragePool, Flatten, Gemm: eight weights of three
 * ranks). Nothing may crash, leak or trip a sanitizer, every refusal must be one line,
 * and a refused file must leave the model's weights as they were.
 *
 * With CC_FUZZ_WEIGHTS_SEED=PATH in the environment it only writes the model's weights
 * file to PATH (cc_weights_save) and exits: the seed scripts/fuzz-corpus.sh commits to
 * models/fuzz/corpus/weights/. Run with scripts/fuzz.sh weights SECONDS. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/fuzz/fuzz_input.h"
#include "models/weights.h"

static cc_model *model;
static unsigned char *before;   /* the weights' bytes before each load, in value order */
static size_t before_size;

/* x [1,3,6,6] -> c1 (4, 3x3, pad 1, bias) -> bn1 -> Relu -> GlobalAveragePool -> Flatten
 *   -> fc (Gemm transB, 4 -> 3) */
static cc_model *build(cc_err *e)
{
    cc_model_builder *b;
    if (cc_mb_create("fuzz_weights", &b, e)) return NULL;
    int64_t xd[4] = { 1, 3, 6, 6 };
    cc_shape xs = cc_shape_make(4, xd);
    int x, y = -1, t = -1;
    cc_status st = cc_mb_input(b, "x", CC_F32, &xs, &x, e);
    struct { const char *name; int rank; int64_t d[4]; } ws[] = {
        { "c1.weight", 4, { 4, 3, 3, 3 } }, { "c1.bias", 1, { 4 } },
        { "bn1.weight", 1, { 4 } }, { "bn1.bias", 1, { 4 } },
        { "bn1.running_mean", 1, { 4 } }, { "bn1.running_var", 1, { 4 } },
        { "fc.weight", 2, { 3, 4 } }, { "fc.bias", 1, { 3 } },
    };
    int v[8];
    for (int i = 0; i < 8 && !st; i++) {
        cc_shape s = cc_shape_make(ws[i].rank, ws[i].d);
        cc_tensor w;
        st = cc_tensor_alloc(&w, CC_F32, &s, e);
        if (!st) st = cc_mb_const(b, ws[i].name, &w, &v[i], e);
    }
    int c1[3] = { x, v[0], v[1] };
    if (!st) st = cc_mb_node(b, "Conv", "c1", "pads=[1,1,1,1]", 3, c1, 1, &t, NULL, e);
    int bn1[5] = { t, v[2], v[3], v[4], v[5] };
    if (!st) st = cc_mb_node(b, "BatchNormalization", "bn1", NULL, 5, bn1, 1, &t, NULL, e);
    if (!st) st = cc_mb_node(b, "Relu", "relu", NULL, 1, &t, 1, &t, NULL, e);
    if (!st) st = cc_mb_node(b, "GlobalAveragePool", "gap", NULL, 1, &t, 1, &t, NULL, e);
    if (!st) st = cc_mb_node(b, "Flatten", "flatten", NULL, 1, &t, 1, &t, NULL, e);
    int fc[3] = { t, v[6], v[7] };
    if (!st) st = cc_mb_node(b, "Gemm", "fc", "transB=1", 3, fc, 1, &y, NULL, e);
    if (!st) st = cc_mb_output(b, y, e);
    if (st) {
        cc_mb_destroy(b);
        return NULL;
    }
    cc_model *m = NULL;
    if (cc_mb_finish(b, CC_TASK_CLASSIFY, 3, &m, e)) return NULL;
    if (cc_weights_init(m, 1, e)) {
        cc_model_free(m);
        return NULL;
    }
    return m;
}

/* Copies (or, with compare, compares) the model's weights with `before`. */
static int snapshot(int compare)
{
    size_t off = 0;
    for (int v = 0; v < model->graph.n_values; v++) {
        if (!cc_weights_is_weight(model, v)) continue;
        const cc_tensor *t = &model->graph.values[v];
        size_t n = cc_tensor_bytes(t);
        if (compare && memcmp(before + off, t->data, n) != 0) return 0;
        if (!compare) memcpy(before + off, t->data, n);
        off += n;
    }
    return 1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cc_err e = { 0 };
    model = build(&e);
    if (!model) {
        fprintf(stderr, "fuzz_weights: cannot build the model: %s\n", e.msg);
        exit(1);
    }
    for (int v = 0; v < model->graph.n_values; v++)
        if (cc_weights_is_weight(model, v)) before_size += cc_tensor_bytes(&model->graph.values[v]);
    before = malloc(before_size);
    if (!before) exit(1);
    const char *seed = getenv("CC_FUZZ_WEIGHTS_SEED");
    if (seed) {
        if (cc_weights_save(model, seed, &e)) {
            fprintf(stderr, "fuzz_weights: %s\n", e.msg);
            exit(1);
        }
        exit(0);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_path(data, size);
    snapshot(0);
    cc_err err = { 0 };
    cc_status st = cc_weights_load(model, path, &err);
    if (st != CC_OK) {
        fuzz_check_message("cc_weights_load", err.msg);
        if (!snapshot(1)) {
            fprintf(stderr, "fuzz: cc_weights_load refused the file (%s) but changed the model\n", err.msg);
            abort();
        }
    }
    return 0;
}
