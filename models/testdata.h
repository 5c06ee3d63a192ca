/* testdata.h — ONNX test-data folders, the layout of the official node tests and of the
 * exports frameworks ship with recorded outputs: FOLDER/model.onnx beside
 * FOLDER/test_data_set_N/input_K.pb and output_K.pb (serialized TensorProtos).
 *
 * Loading a set imports the model with the set's inputs: an input that some catalog op
 * reads in a role other than data (Reshape's shape, Clip's min, a scale) becomes a
 * constant holding the set's tensor, as the catalog needs such inputs constant; the
 * others stay runtime inputs, matched to the set's tensors by name, else by position,
 * whose shapes bind the inputs' symbolic and -1 dims (the batch included) unless the
 * caller's options bind them.
 *
 * Comparing with the recorded outputs. For an output element with golden value yhat,
 * magnitude S and reduction length K (from the node that computes it), policy row
 * (c, r, atol, gamma) of that node's op (ops/policy.h) at unit roundoff u of its case
 * dtype, the policy's bound is
 *     B = atol + c * gamma(K) * u * S + r * u_out * |yhat| + sub_out,
 * what it allows a target computing in float32. Recorded outputs (numpy for the node
 * tests, a framework on another machine for an export) are themselves such a computation,
 * within B of the exact value, so a value within B of exact differs from them by up to
 * 2 B: cc_onnx_testdata_compare allows factor * B with factor 2 for both the golden model
 * and a target. Exact ops (B = half the smallest subnormal) must match bit for bit;
 * integer outputs allow atol; non-finite values must match exactly (NaN by NaN). */
#ifndef CC_TESTDATA_H
#define CC_TESTDATA_H

#include "onnx_import.h"

typedef struct cc_onnx_testdata {
    cc_model *model;                   /* imported with the fixed inputs as constants */
    int n_inputs;                      /* runtime inputs, in the graph's input order */
    cc_tensor inputs[CC_MAX_IO];
    int n_expected;                    /* the set's recorded outputs, in order */
    cc_tensor expected[CC_MAX_IO];
} cc_onnx_testdata;

/* Loads test_data_set_<set> of folder (which holds model.onnx), importing the model with
 * opt (its fixed inputs are replaced by the set's; NULL: defaults). Errors, one line:
 * CC_ERR_IO (no model.onnx, no such set), CC_ERR_UNSUPPORTED (the importer refused the
 * model or a tensor's data type), CC_ERR_ARG (a malformed file, a graph input the set
 * gives no tensor for, a model whose runtime inputs the set does not match), CC_ERR_NOMEM.
 * *out is zeroed first and holds nothing to free on failure. */
cc_status cc_onnx_testdata_load(const char *folder, int set, const cc_onnx_options *opt, cc_onnx_testdata *out,
                                cc_err *err);
void cc_onnx_testdata_free(cc_onnx_testdata *t);

/* Compares output o of t's model with t->expected[o]: got holds the value computed (a
 * target's output; NULL: the golden values of ev), ev the golden evaluation of the model
 * on t's inputs (keep_golden), every element within factor * B (above). Returns 0 when all
 * are, else -1 with a one-line description in why (the dtype or shape differs, or how
 * many elements are out of bound and the worst). *ratio_max is raised to the largest
 * |difference| / (factor * B) seen (infinite for a difference where the bound is below the
 * smallest normal float32: exact and integer outputs). */
int cc_onnx_testdata_compare(const cc_onnx_testdata *t, const cc_model_eval *ev, int o, const cc_tensor *got,
                             double factor, double *ratio_max, char *why, size_t n);

#endif
