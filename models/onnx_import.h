/* onnx_import.h — reads ONNX files: a ModelProto becomes a cc_model of catalog ops, a
 * TensorProto file (the format of the official test data sets, input_0.pb/output_0.pb)
 * becomes a host tensor.
 *
 * What is imported: nodes of the default domain ("" or "ai.onnx") whose op type is in the
 * catalog, with their attributes; Constant nodes (turned into constant values);
 * initializers (constants); graph inputs that are not initializers (runtime inputs, shapes
 * from their ValueInfo); graph outputs. Data types f32, f16, bf16, i8, u8, i32, i64, bool.
 * Default-domain opsets CC_ONNX_MIN_OPSET to CC_ONNX_MAX_OPSET are read; for each node the importer works
 * out which version of the op the model's opset means and refuses a node whose semantics
 * at that version differ from the catalog's (see onnx_opset.c). The sub-graphs of If,
 * Loop and Scan are imported as graphs of their own (cc_graph.subgraphs), their inputs
 * typed by what the node passes in, the values of enclosing graphs they read becoming
 * their trailing inputs (ops/control.h), at most CC_CONTROL_MAX_DEPTH deep. Everything
 * else (other domains, unknown ops or attributes, external data, sparse tensors,
 * unsupported data types) is reported in one line naming the node, attribute or tensor. */
#ifndef CC_ONNX_IMPORT_H
#define CC_ONNX_IMPORT_H

#include "model.h"

/* The newest default-domain opset whose operator changes the importer knows. */
#define CC_ONNX_MAX_OPSET 20
/* The oldest default-domain opset it reads. Older versions of an op are judged one by
 * one (onnx_opset.c): e.g. Add before opset 7 (legacy broadcasting) is refused, while
 * GlobalAveragePool-1 is the catalog's own version. */
#define CC_ONNX_MIN_OPSET 1

typedef struct cc_onnx_options {
    /* Value used for a symbolic or unknown FIRST dim of a graph input (the batch); 0: such
     * a dim is an error naming the input. Other symbolic dims are always an error. */
    int64_t batch;
    /* Graph inputs given values at import time (e.g. Reshape's target shape fed as a
     * graph input): each named input becomes a constant holding a copy of fixed[i], whose
     * dtype and shape must agree with the input's ValueInfo where it gives them. */
    int n_fixed;
    const char *const *fixed_names;
    const cc_tensor *fixed;
    /* The model's name; NULL: the file's name without its folder and ".onnx" (exporters
     * give every graph the same name: torch_jit, main_graph). */
    const char *name;
    /* Shapes bound to graph inputs (--input-shape NAME=1x3x320x320): input shape_names[i]
     * takes shapes[i], which must have its declared rank and agree with its fixed dims; its
     * symbolic and unknown dims take the bound values (a symbolic dim 0 takes batch where
     * batch > 0). A name no graph input has is an error. */
    int n_shapes;
    const char *const *shape_names;
    const cc_shape *shapes;
} cc_onnx_options;

/* Imports the ONNX model at path. opt may be NULL (batch 0, nothing fixed). On success
 * *out is a new model (free with cc_model_free) named opt->name or after the file, task
 * CC_TASK_DETECTIONS when its outputs are post-NMS detections (models/detect.h), else
 * CC_TASK_GENERIC; value names are the ONNX names. Errors, one line starting with path:
 * CC_ERR_IO (cannot read the file), CC_ERR_ARG (not a valid ONNX model, inconsistent
 * graph, shapes the ops reject, a symbolic dim without opt->batch),
 * CC_ERR_UNSUPPORTED (an op, domain, opset, attribute, data type or feature crosscheck
 * does not have), CC_ERR_NOMEM. *out is untouched on failure. */
cc_status cc_onnx_load(const char *path, const cc_onnx_options *opt, cc_model **out, cc_err *err);

/* Reads a serialized TensorProto from path into *out (allocated with cc_tensor_alloc;
 * the caller frees it with cc_tensor_free) and copies its name (possibly empty) into
 * name[name_size] when name is non-NULL. Same data types and errors as cc_onnx_load;
 * *out and name are untouched on failure. */
cc_status cc_onnx_read_tensor(const char *path, cc_tensor *out, char *name, size_t name_size,
                              cc_err *err);

/* Whether the importer takes ONNX op type `op_type` (default domain): a catalog op, or a
 * deprecated one it runs as its catalog successor (Scatter, Upsample: at the opsets that
 * define them that way). Constant is taken too. */
int cc_onnx_op_known(const char *op_type);

/* The distinct op types a model's graph (and the sub-graphs its nodes run) uses, in
 * first-use order, each written as
 * "Conv" for the default domain and "com.microsoft.QLinearAdd" for another; for reporting
 * which ops a model needs before importing it. Writes up to max names (of up to 64 bytes)
 * and the total count in *n. Errors as cc_onnx_load for an unreadable or malformed file. */
cc_status cc_onnx_op_types(const char *path, char (*names)[64], int max, int *n, cc_err *err);
/* The same with the number of nodes of each op type in counts[i] (beside names[i]). */
cc_status cc_onnx_op_counts(const char *path, char (*names)[64], int *counts, int max, int *n, cc_err *err);

#endif
