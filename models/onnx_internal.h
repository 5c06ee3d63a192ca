/* onnx_internal.h — shared by the ONNX importer's files (onnx_import.c: the graph;
 * onnx_tensor.c: files, protobuf parsing with a diagnosis of where a file is broken,
 * TensorProto conversion; onnx_opset.c: which version of an op a model's opset means and
 * whether the catalog implements that version's semantics). Not part of the models
 * module's public face (onnx_import.h is). */
#ifndef CC_ONNX_INTERNAL_H
#define CC_ONNX_INTERNAL_H

#include "onnx.pb-c.h"
#include "onnx_import.h"

/* Largest file the importer reads: protobuf's own 2 GiB message limit. */
#define CC_ONNX_MAX_FILE ((size_t)2 << 30)

/* Reads the whole file at path into a malloc'ed buffer (*buf, *len). A missing or
 * unreadable file, a directory or a file over CC_ONNX_MAX_FILE is CC_ERR_IO; an empty file
 * is CC_ERR_ARG ("empty file"). Messages start with path. */
cc_status cc_onnx_read_file(const char *path, uint8_t **buf, size_t *len, cc_err *err);

/* Unpacks buf as a message of type desc (onnx__model_proto__descriptor, ...). On failure
 * the message says where the bytes stop being valid protobuf for that schema
 * ("protobuf parse failed at byte 812 of 1630: field graph.node.attribute runs past the
 * end"); `what` names the expected content ("ONNX model", "ONNX tensor"). The result is
 * freed with protobuf_c_message_free_unpacked(msg, NULL). */
cc_status cc_onnx_unpack(const char *path, const char *what, const ProtobufCMessageDescriptor *desc,
                         const uint8_t *buf, size_t len, ProtobufCMessage **out, cc_err *err);

/* Replaces control characters in err->msg (names from a file may hold any byte) so the
 * message stays one line; returns st. Accepts a NULL err. */
cc_status cc_onnx_one_line(cc_err *err, cc_status st);

/* The crosscheck dtype of an ONNX TensorProto.DataType; -1 where there is none. */
int cc_onnx_dtype(int32_t onnx_type, cc_dtype *out);
/* ONNX's name of a data type ("FLOAT", "DOUBLE", ...; "type 42" for an unknown value,
 * written into buf). */
const char *cc_onnx_type_name(int32_t onnx_type, char *buf, size_t n);

/* Converts a TensorProto (raw_data or the typed fields) into a new host tensor. `what`
 * names it in messages ("initializer 'w'", "Constant node 3"). External data and
 * segments are CC_ERR_UNSUPPORTED, a data type crosscheck lacks is CC_ERR_UNSUPPORTED,
 * data that does not fit the dims is CC_ERR_ARG. Messages start with path. */
cc_status cc_onnx_tensor(const char *path, const char *what, const Onnx__TensorProto *tp, cc_tensor *out,
                         cc_err *err);

/* ---- opsets (onnx_opset.c) ------------------------------------------------------------ */

/* What a node of op `op` means in a model of default-domain opset `opset`: *version is
 * the op's version in force (the newest one <= opset). Returns CC_OK where the catalog's
 * semantics (op->since_version) hold for that version, perhaps after the rewrites the
 * flags in *legacy ask for (see below); CC_ERR_UNSUPPORTED with a reason in err (without
 * any path or node prefix) otherwise. */
enum {
    CC_ONNX_LEGACY_ATTR_INPUTS = 1,   /* attributes that later became inputs (Clip-6 min/max,
                                         Split-2/11 split, Slice-1 starts/ends/axes) */
    CC_ONNX_LEGACY_SOFTMAX_AXIS = 2,  /* (Log)Softmax, Hardmax-1/11: coerced 2-D; same as -13 only when the
                                         axis is the last one; default axis 1 */
    CC_ONNX_LEGACY_ONE_OUTPUT = 4,    /* one output only: MaxPool-1 (no Indices yet); BatchNormalization-7/9,
                                         whose extra outputs meant training as they defined it */
    CC_ONNX_LEGACY_NO_SAME_PAD = 8,   /* Conv-1, AveragePool-7/10, MaxPool-8/10: auto_pad
                                         SAME_* defined differently before opset 11 */
    CC_ONNX_LEGACY_BN_SPATIAL = 16,   /* BatchNormalization-7: attribute spatial, 1 only */
    CC_ONNX_NEWER_AXES_INPUT = 32,    /* Reduce*-18 (a version newer than the catalog's -13):
                                         a constant axes input becomes the attribute;
                                         noop_with_empty_axes = 1 without axes is refused */
    CC_ONNX_NEWER_ADDS = 64,          /* a newer version that only adds what the catalog's
                                         infer() refuses anyway: element types
                                         (ConstantOfShape-20), attribute values (Scatter*-18's
                                         reductions max and min) */
    CC_ONNX_LEGACY_SET_ATTR = 128,    /* RoiAlign-10: an attribute the older version lacks, set
                                         to the value that means its behaviour
                                         (cc_onnx_legacy_attr); a node that gives it is refused */
    CC_ONNX_LEGACY_SCAN_BATCH = 512   /* Scan-8: a batch axis 0 on every input and output, a
                                         sequence_lens input first, directions for the scan
                                         inputs; run as Scan-16 between Squeeze and Unsqueeze
                                         for a batch of 1 without sequence_lens */
};
cc_status cc_onnx_op_version(const cc_op_def *op, int opset, int *version, unsigned *legacy, cc_err *err);
/* The attribute and the value (case-id syntax) a CC_ONNX_LEGACY_SET_ATTR version of op
 * sets; 0 when the version has none. */
int cc_onnx_legacy_attr(const cc_op_def *op, int version, const char **attr, const char **value);

/* A deprecated op the catalog runs as its successor (onnx_opset.c): for every node the
 * old definition can express, the catalog op with these inputs and attributes computes the
 * same thing. */
typedef struct cc_onnx_alias {
    const char *onnx;          /* the deprecated op type */
    int first, last;           /* the opsets in which that op type means this definition */
    const char *op;            /* the catalog op */
    int n_in, in_map[4];       /* its input i is the catalog op's input in_map[i] */
    const char *attr[2], *value[2]; /* attributes set before the node's own (case-id syntax) */
    const char *why;
} cc_onnx_alias;
/* The alias of op type `onnx` at opset (opset 0: at any opset it has one), or NULL. */
const cc_onnx_alias *cc_onnx_alias_of(const char *onnx, int opset);
/* CC_ERR_INTERNAL when a row of the importer's version table (onnx_opset.c) names a
 * version ops/ops.def does not list for its op, or rewrites or refuses an op's own version. */
cc_status cc_onnx_opset_check(cc_err *err);

#endif
