/* quantize.h — INT8 post-training quantization of an FP32 model: calibration of
 * activation ranges with the golden model on synthetic (or given) inputs, and the
 * quantized graph written with catalog ops (QuantizeLinear, QLinearConv, MatMulInteger,
 * DequantizeLinear, ...), so that the golden model runs the same integer arithmetic as
 * an INT8 target.
 *
 * The scheme (cc_model_quantize):
 *  - BatchNormalization after Conv is folded into the Conv first (cc_model_fold_bn), and
 *    calibration runs on the folded FP32 model.
 *  - Weights: symmetric int8 per output channel, scale[m] = max|w[m]| / 127 (f32), zero
 *    point 0, q = round_half_even(w / scale[m]) in [-127, 127]. A channel of zeros gets
 *    scale 1.
 *  - Activations: per tensor, asymmetric u8 (i8 with signed_activations): from the
 *    calibrated range [lo, hi] widened to contain 0, scale = (hi - lo) / 255 (f32) and
 *    zero point = round(qmin - lo / scale) clamped to the type. Zero is exact, so zero
 *    padding stays exact.
 *  - Conv (+ folded BN) -> QLinearConv: x quantized, w per channel, bias int32
 *    round(b / (x_scale * w_scale[m])), output quantized with the range of the Conv's
 *    output; a Relu that is the Conv output's only reader is folded into the output
 *    range (zero point at qmin, range [0, max of the Relu's output]), so the
 *    requantization's saturation is the Relu.
 *  - Gemm (B constant, transA = 0) and MatMul (B constant 2-D) -> MatMulInteger on the
 *    quantized activation and per-column int8 weights (alpha folded into the weights),
 *    an int32 Add of the bias quantized with a_scale * w_scale[n] (beta folded in), and
 *    DequantizeLinear with the per-column scale a_scale * w_scale[n]: the logits keep the
 *    int32 accumulator's resolution instead of being requantized to 8 bits (the choice
 *    of deployments that keep the last layer's output wide; QLinearMatMul would round
 *    them to 256 levels).
 *  - MaxPool runs on the 8-bit tensor with the input's scale and zero point (max
 *    commutes with the monotone quantization map). Flatten, Reshape, Transpose, Slice,
 *    Split and nearest Resize move 8-bit data likewise.
 *  - Every other op (residual Add, GlobalAveragePool, Sigmoid and Mul of SiLU, Concat of
 *    tensors with different scales, linear Resize, Softmax, a Relu that could not be folded,
 *    ...) runs in float: DequantizeLinear of its 8-bit inputs, the FP32 op, and
 *    QuantizeLinear of its output.
 *  - Storage rule: every activation from which an integer op can still be reached is
 *    stored in 8 bits (all its readers read that copy), except the first output of a
 *    fused pair, read by the second op alone (Sigmoid->Mul of SiLU, Add->Relu of a
 *    residual block), as deployments fuse those. Activations after the last integer op
 *    (a detector's box decoding, the outputs) stay float: box coordinates in pixels
 *    would lose too much in 8 bits.
 *  - The graph input is quantized with QuantizeLinear (the same rule); the graph outputs
 *    are FP32 (DequantizeLinear where the producer was 8-bit).
 */
#ifndef CC_QUANTIZE_H
#define CC_QUANTIZE_H

#include "model.h"

typedef enum cc_calib_method {
    CC_CALIB_MINMAX = 0,      /* [min, max] of all calibration values */
    CC_CALIB_PERCENTILE,      /* [P(100 - p), P(p)] of the value distribution */
    CC_CALIB_PERCENTILE_ABS   /* [-P(p), P(p)] of |x|, clipped to [min, max] */
} cc_calib_method;

typedef struct cc_calib_options {
    cc_calib_method method;
    double percentile;        /* p for the percentile methods, in (50, 100]; 0: 99.99 */
    int n_images;             /* calibration inputs (>= 1) */
    uint64_t seed;            /* synthetic inputs: cc_model_synthetic_input(m, seed + i) */
    const cc_tensor *inputs;  /* optional: n_images * n_inputs given inputs, image-major */
    int signed_activations;   /* 0: u8 activations; 1: i8 */
} cc_calib_options;

/* Defaults: min-max, p = 99.99, 8 images, seed 1, synthetic inputs, u8 activations. */
cc_calib_options cc_calib_options_default(void);
/* Method name: "minmax", "percentile", "percentile-abs". */
const char *cc_calib_method_name(cc_calib_method m);
/* Parses a method name as printed by cc_calib_method_name; -1 if unknown. */
int cc_calib_method_parse(const char *name, cc_calib_method *out);

/* Synthetic inputs for m, deterministic in seed: rank-4 floating inputs are images
 * (cc_zoo_images: the suite's synthetic photographs of its scene classes; for detectors
 * cc_zoo_scenes, objects on a background, when the image is at least 64x64), made in f32
 * and rounded to the input's type; other inputs get values the ops reading them accept
 * (followed through Cast, Reshape, Unsqueeze and the like): the indices of a Gather within
 * the extent of the axis it indexes (token ids, positions), a mask (read by Equal, Not,
 * Where's condition or the logic ops, or an integer input named *mask*) 1s then 0s along its
 * last axis with at least one 1, positive values for a variance, Sqrt, Log or Reciprocal,
 * non-zero divisors; the rest standard normal (floating) or 1..4 (integer; bool 1).
 * in[0..n_inputs-1] are allocated (free each with cc_tensor_free). On error nothing is
 * allocated. */
cc_status cc_model_synthetic_input(const cc_model *m, uint64_t seed, cc_tensor *in, cc_err *err);

/* The calibrated range of one tensor. */
typedef struct cc_calib_range {
    int valid;          /* 1 for a floating activation seen in calibration */
    double min, max;    /* over all calibration values */
    double lo, hi;      /* the range the method chose (before widening to contain 0) */
    double clipped;     /* fraction of calibration values outside [lo, hi] */
    int64_t count;      /* values seen */
} cc_calib_range;

/* Evaluates m with the golden model on the calibration inputs and returns one range per
 * value of m's graph (*ranges: n_values entries, caller frees with free()); valid for
 * every non-constant f32 value. Percentiles come from a histogram of |x| per sign with 64
 * linear sub-bins per octave (relative resolution 1/64), interpolated within the bin and
 * clamped to [min, max]. n_images < 1: CC_ERR_ARG "calibration needs at least one input". */
cc_status cc_calib_collect(const cc_model *m, const cc_calib_options *opt, cc_calib_range **ranges,
                           cc_err *err);

/* What quantization did. */
typedef struct cc_quant_report {
    int n_qconv;          /* Conv -> QLinearConv */
    int n_qmatmul;        /* Gemm/MatMul -> MatMulInteger */
    int n_bn_folded;      /* BatchNormalization folded into Conv */
    int n_relu_folded;    /* Relu folded into a QLinearConv's output range */
    int n_int8_moves;     /* MaxPool and data-movement ops run on 8-bit tensors */
    int n_float_ops;      /* ops left in float */
    char float_ops[256];  /* those ops by type, e.g. "Add x16, GlobalAveragePool x1" */
    int n_quantize, n_dequantize;  /* QuantizeLinear / DequantizeLinear nodes inserted */
    cc_calib_method method;
    double percentile;
    int n_images;
    int n_ranges;         /* activation tensors given a scale */
    double scale_min, scale_max;   /* smallest and largest activation scale */
    double clipped_mean, clipped_max; /* fraction of calibration values clipped per range */
    double shrink_mean;   /* mean over ranges of chosen width / min-max width (1 for min-max) */
    char widest[CC_VALUE_NAME_MAX];   /* the tensor with the widest range */
    double widest_lo, widest_hi;
} cc_quant_report;

/* Quantizes the FP32 model m to INT8 as described at the top of this file. opt NULL:
 * defaults. *out is a new model with m's inputs and outputs (f32) and task; rep (may be
 * NULL) is filled. Errors: n_images < 1 (CC_ERR_ARG "calibration needs at least one
 * input"), a model that is not FP32 (CC_ERR_ARG), percentile outside (50, 100]
 * (CC_ERR_ARG), golden evaluation failures (passed through). */
cc_status cc_model_quantize(const cc_model *m, const cc_calib_options *opt, cc_model **out,
                            cc_quant_report *rep, cc_err *err);

/* Quantization parameters: the calibration options and the calibrated range of every
 * activation of the BN-folded model, by value name. The scales and zero points
 * follow from them (activations) and from the weights (per channel); neither depends on
 * the batch, so a model rebuilt at another batch with the same weights (cc_weights_copy)
 * and quantized with the parameters of the batch-1 model gets the same scales and zero
 * points, value by value, without a second calibration. */
typedef struct cc_quant_params cc_quant_params;

/* The calibration half of cc_model_quantize: folds m's BatchNormalizations, calibrates
 * the folded model with opt (NULL: defaults) and returns the parameters in *out (free
 * with cc_quant_params_free). Errors as cc_model_quantize's; on error *out is untouched. */
cc_status cc_quant_calibrate(const cc_model *m, const cc_calib_options *opt, cc_quant_params **out,
                             cc_err *err);

/* The rewrite half: quantizes the FP32 model m with p, as cc_model_quantize would with
 * the calibration p came from (cc_model_quantize(m, opt) is cc_model_quantize_with(m,
 * cc_quant_calibrate(m, opt))). m's folded graph must name its values as the one p was
 * calibrated on (the same builder, any batch); *out and rep as cc_model_quantize's, the
 * report's calibration figures being p's. Errors: a model that is not FP32, a floating
 * activation of m with no range in p (CC_ERR_ARG naming it); *out is untouched. */
cc_status cc_model_quantize_with(const cc_model *m, const cc_quant_params *p, cc_model **out,
                                 cc_quant_report *rep, cc_err *err);

/* Frees p (NULL allowed). */
void cc_quant_params_free(cc_quant_params *p);

#endif
