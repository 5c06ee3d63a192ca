/* weights.h — a model's weights: synthetic initialisation from a seed, calibration of
 * BatchNormalization statistics on synthetic images, and the weights file format.
 *
 * The weights of a model are the constants some node reads as a data input (Conv and
 * Gemm weights and biases, BatchNormalization scale, bias, mean and variance, ...),
 * except buffers (value names starting with "buffer.", which builders derive from the
 * input size). Shape tensors and other attribute-like constant inputs are not weights.
 *
 * Weights file format (little-endian, version 1):
 *   magic   4 bytes "CCWT"
 *   version u32 (1)
 *   count   u32, the number of tensors
 *   then per tensor:
 *     name_len u16, name (name_len bytes, no NUL)
 *     dtype    u8 (0 f32, 1 f16, 2 bf16, 3 i8, 4 u8, 5 i32, 6 i64, 7 bool)
 *     rank     u8 (0..8)
 *     dims     rank x i64
 *     data     numel x element size bytes, row-major
 * A file holds exactly the model's weights, in the model's value order. */
#ifndef CC_WEIGHTS_H
#define CC_WEIGHTS_H

#include "model.h"

/* 1 when graph value v of m is a weight in the sense above. */
int cc_weights_is_weight(const cc_model *m, int v);

/* Fills every weight of m from seed, each tensor from its own generator seeded with
 * seed and its value name (so a tensor's values do not depend on the graph's other
 * tensors or on the input size):
 *   Conv weight: He normal, std sqrt(2 / fan_in); Conv bias: normal, std 0.01;
 *   Gemm weight: normal, std sqrt(1 / fan_in); Gemm bias: 0;
 *   BatchNormalization: scale uniform in [0.5, 1.5], bias normal std 0.05, mean 0, var 1.
 * Other weights are left as they are. */
cc_status cc_weights_init(cc_model *m, uint64_t seed, cc_err *err);

/* Calibrates every BatchNormalization of m on `images` (the graph's single runtime input,
 * with data): in topological order, each BatchNormalization's mean and variance are set to
 * the per-channel mean and (population) variance of its input over the batch and spatial
 * positions, as computed by the golden model with every earlier BatchNormalization
 * already calibrated. The graph is evaluated once, in segments that end at each
 * BatchNormalization, so the values of that pass are those of the calibrated model: when
 * `out` is non-NULL they are returned there (vals only; free with cc_model_eval_free).
 * On error the statistics of BatchNormalizations calibrated before the failure keep their
 * new values and *out is untouched. */
cc_status cc_weights_calibrate_bn(cc_model *m, const cc_tensor *images, cc_model_eval *out, cc_err *err);

/* Copies every weight of src to the weight of the same name in dst (models built by the
 * same builder at different input sizes or batches share their weights). Every weight of
 * dst must exist in src with the same dtype and shape: else CC_ERR_ARG naming it, with
 * dst possibly partly updated. */
cc_status cc_weights_copy(cc_model *dst, const cc_model *src, cc_err *err);

/* Writes m's weights to `path` in the format above. CC_ERR_IO naming the path on failure
 * (a partly written file is removed). */
cc_status cc_weights_save(const cc_model *m, const char *path, cc_err *err);

/* Reads a weights file into m. Every weight of m must be in the file with the same name,
 * dtype and shape, and the file must hold nothing else; the first mismatch is a one-line
 * CC_ERR_ARG ("weights file w.bin: tensor conv1.weight has 9408 elements, the model needs
 * 9472"), as are a bad magic, an unknown version and a truncated file; an unreadable file
 * is CC_ERR_IO. m is changed only on success. */
cc_status cc_weights_load(cc_model *m, const char *path, cc_err *err);

#endif
