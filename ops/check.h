/* check.h — compares a target's outputs with the golden outputs under the policy and
 * computes the error metrics stored with every result. */
#ifndef CC_CHECK_H
#define CC_CHECK_H

#include "verdict.h"
#include "case.h"
#include "policy.h"

/* Compares got[0..n_out-1] (host tensors in the output dtypes) with golden[0..n_out-1].
 * Returns CC_PASSED, CC_FAILED or CC_MISTRUSTED, fills *m and a one-line reason naming
 * the worst element on failure (and why on mistrust). Shapes or dtypes that differ from
 * the golden outputs are CC_FAILED. exact != 0 (the exact regime) asks for the policy's
 * zero-tolerance check where it applies; it does not apply to a case with a float
 * attribute that is not a short dyadic fraction (Gemm's beta=1/6), whose products round
 * whatever the inputs. */
cc_verdict cc_check_outputs(const cc_case *c, int exact, int n_out, const cc_golden *golden,
                            const cc_tensor *got, cc_metrics *m, char *reason, size_t reason_size);
/* The same for a device whose FP32 contractions (CC_TRAIT_CONTRACTION ops on f32 data) round
 * their inputs to contraction_bits significand bits (cc_device_desc.f32_contraction_bits:
 * 11 for TF32; 0 for FP32's own): such an op's bound uses that precision's unit roundoff
 * 2^-bits, as an f16 case's does, and a failure says so. */
cc_verdict cc_check_outputs_on(const cc_case *c, int exact, int n_out, const cc_golden *golden,
                               const cc_tensor *got, int contraction_bits, cc_metrics *m, char *reason,
                               size_t reason_size);

#endif
