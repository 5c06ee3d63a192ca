/* eltwise_internal.h — shared between the two files of the eltwise family: the unary op
 * definitions live in eltwise_unary.c, the binary ones and the family table
 * (cc_family_eltwise) in eltwise_binary.c, which lists the unary ops through these
 * declarations. Not part of the catalog's public face. */
#ifndef CC_ELTWISE_INTERNAL_H
#define CC_ELTWISE_INTERNAL_H

#include "op.h"

extern const cc_op_def cc_eltwise_relu;
extern const cc_op_def cc_eltwise_leaky_relu;
extern const cc_op_def cc_eltwise_sigmoid;
extern const cc_op_def cc_eltwise_tanh;
extern const cc_op_def cc_eltwise_hard_sigmoid;
extern const cc_op_def cc_eltwise_hard_swish;
extern const cc_op_def cc_eltwise_clip;
extern const cc_op_def cc_eltwise_exp;
extern const cc_op_def cc_eltwise_sqrt;

#endif
