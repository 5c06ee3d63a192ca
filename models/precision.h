/* precision.h — a model at another floating precision (FP16, BF16, back to FP32), and
 * the batch-norm fold that INT8 quantization starts from.
 *
 * FP16/BF16 policy: weights and activations are stored in the reduced type; the ops
 * accumulate in FP32 (the catalog's policy allows a target exactly that), so the model
 * is the same graph with every floating tensor retyped, and its golden evaluation rounds
 * every node's output to the reduced type as a target stores it. */
#ifndef CC_PRECISION_H
#define CC_PRECISION_H

#include "model.h"

/* A new model with m's graph in floating type dt (f32, f16 or bf16):
 *  - floating runtime inputs (and so every floating activation and output) in dt;
 *  - floating constants read as data inputs (weights, biases, BatchNormalization's
 *    scale/b/mean/var, Mul/Add operands, ...) and constants of inputs whose dtype follows
 *    the first input (Clip's min/max) rounded to dt (nearest even);
 *  - integer and shape constants (Reshape's shape, Slice's starts) and constants whose
 *    schema fixes their type (Resize's f32 scales, quantization scales) unchanged.
 * Every node goes through shape inference again; the model keeps m's name, task and
 * value names. dt not floating: CC_ERR_ARG. A node whose op does not accept dt (e.g.
 * QuantizeLinear in f16): CC_ERR_ARG naming the node. *out is a new model (free with
 * cc_model_free). */
cc_status cc_model_to_precision(const cc_model *m, cc_dtype dt, cc_model **out, cc_err *err);

/* A new model where every BatchNormalization that directly follows a Conv is folded into
 * that Conv: with a = scale / sqrt(var + epsilon) per output channel m,
 *     w'[m] = w[m] * a[m],   b'[m] = (b[m] - mean[m]) * a[m] + B[m]   (b = 0 if absent)
 * computed in double and rounded once to the weights' type. The fold applies when the
 * Conv's weights, bias and the BN's four parameters are constants, the Conv output is
 * read by the BN alone and is not a graph output; the folded Conv takes the BN's output
 * name. Other nodes are copied. *n_folded (may be NULL) receives the number of folds. */
cc_status cc_model_fold_bn(const cc_model *m, cc_model **out, int *n_folded, cc_err *err);

#endif
