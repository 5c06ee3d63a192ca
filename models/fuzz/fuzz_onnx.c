/* fuzz_onnx.c — libFuzzer target for the ONNX reader (onnx_import.h): each input, as a file,
 * goes through the model importer without options and with a batch for symbolic first
 * dims, through the op-type lister, and through the TensorProto reader. Every call must
 * return (no crash, leak or sanitizer report), and every refusal must be one line.
 * Seeds: models/fuzz/corpus/onnx/ (the official ONNX node tests' models and tensors,
 * scripts/fuzz-corpus.sh); run with scripts/fuzz.sh onnx SECONDS. */
#include <stddef.h>
#include <stdint.h>

#include "harness/fuzz/fuzz_input.h"
#include "models/onnx_import.h"

static void check(cc_status st, const cc_err *err, const char *who)
{
    if (st != CC_OK) fuzz_check_message(who, err->msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_path(data, size);
    cc_err err = { 0 };
    cc_model *m = NULL;
    check(cc_onnx_load(path, NULL, &m, &err), &err, "cc_onnx_load");
    cc_model_free(m);

    cc_onnx_options opt = { .batch = 2 };
    cc_err_clear(&err);
    m = NULL;
    check(cc_onnx_load(path, &opt, &m, &err), &err, "cc_onnx_load (batch 2)");
    cc_model_free(m);

    char names[16][64];
    int n = 0;
    cc_err_clear(&err);
    check(cc_onnx_op_types(path, names, 16, &n, &err), &err, "cc_onnx_op_types");

    cc_tensor t = { 0 };
    char name[64];
    cc_err_clear(&err);
    check(cc_onnx_read_tensor(path, &t, name, sizeof name, &err), &err, "cc_onnx_read_tensor");
    cc_tensor_free(&t);
    return 0;
}
