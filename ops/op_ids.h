/* op_ids.h — op identities: the id of every op in ops/ops.def, the traits per-op code
 * asks about instead of comparing names, and the table of what ops.def says of each op.
 * op.h includes it; cc_op_has_trait (op.h) reads a cc_op_def's traits. */
#ifndef CC_OP_IDS_H
#define CC_OP_IDS_H

typedef enum cc_op_id {
#define CC_OP(symbol, name, domain, since, versions, family, traits, tol) CC_OP_ID_##symbol,
#include "ops.def"
#undef CC_OP
    CC_OP_ID_COUNT
} cc_op_id;

/* Traits: what code outside an op's family may rely on. */
/* y[i] = f(x[i]) or f(a[i], b[i]) under broadcasting: no neighbourhood, no reduction */
#define CC_TRAIT_ELTWISE 0x01u
/* an elementwise activation of a network (Relu, Sigmoid, Clip, ...); implies ELTWISE */
#define CC_TRAIT_ACTIVATION 0x02u
/* moves or copies values without computing on them (Reshape, Transpose, Concat, ...) */
#define CC_TRAIT_SHAPE_ONLY 0x04u
/* runs on 8-bit quantized values as they are, its outputs keeping the input's scale and
 * zero point (values only moved or selected; max commutes with the monotone quantization
 * map). An attribute may still rule a node out: MaxPool with Indices, Resize other than
 * nearest (models/quantize.c) */
#define CC_TRAIT_INT8_MOVER 0x08u
/* an activation a convolution primitive applies as a post-op (oneDNN's eltwise post-ops);
 * implies ACTIVATION */
#define CC_TRAIT_FUSABLE 0x10u
/* sums products over a reduction axis of length K: the convolutions and matrix products */
#define CC_TRAIT_CONTRACTION 0x20u
/* every output element is one value by definition (ConstantOfShape): a constant golden
 * output is what the op means, not a sign of an uninformative case */
#define CC_TRAIT_FILL 0x40u
/* the extent of its outputs depends on its input values (NonZero, Unique,
 * NonMaxSuppression): infer() gives an upper bound of each output's shape, and golden()
 * and a kernel's run() write the actual shape into their outputs' shape (each buffer is
 * allocated at the bound; the actual shape's elements come first, row-major). Within one
 * plan such an output must be a graph output that no node reads (the planners refuse a
 * graph where one feeds another node); the model executor ends a segment with such a node
 * and prepares what reads its outputs for their actual shapes at run time, and the golden
 * evaluation re-infers what follows (cc_graph_dynamic_values) */
#define CC_TRAIT_DYNAMIC_SHAPE 0x80u
/* control flow (If, Loop, Scan): runs sub-graphs (CC_ATTR_GRAPH attributes). Its outputs'
 * shapes come from the sub-graphs (cc_control_infer, ops/control.h) and its values from
 * evaluating them (models/model.c; the host executor runs their nodes on the target), so
 * its infer() and golden() only refuse a node outside a graph, and it has no op cases:
 * a case id cannot write a sub-graph. Loop's outputs stacked over iterations may end
 * shorter than their bound, as a DYNAMIC_SHAPE op's do */
#define CC_TRAIT_SUBGRAPH 0x100u
#define CC_TRAIT_ALL 0x1ffu

/* the most opset versions ops.def lists for one op */
#define CC_OP_MAX_VERSIONS 8

/* What ops.def says of one op. */
typedef struct cc_op_info {
    const char *name;        /* ONNX op type */
    const char *domain;      /* "" for ai.onnx */
    const char *family;      /* the ops/ family: "conv", "eltwise", ... */
    unsigned traits;         /* CC_TRAIT_* bits */
    int since;               /* opset version of the semantics implemented */
    int versions[CC_OP_MAX_VERSIONS]; /* opset versions up to since, ascending; 0 after */
} cc_op_info;

/* The ops.def entry of id; NULL for an id out of range. Static storage. */
const cc_op_info *cc_op_info_of(cc_op_id id);

#endif
