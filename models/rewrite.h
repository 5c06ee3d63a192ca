/* rewrite.h — what the model rewriters (precision conversion, batch-norm folding, INT8
 * quantization) share: a source model, a builder for the new one, and a map from the
 * source's values to the new model's, with use counts; copying constants and nodes
 * across, and adding new constants from double values.
 *
 * A rewrite builds a new model node by node with cc_mb_*, so every node of the result
 * went through its op's shape inference again. Value names carry over: a node copied
 * with cc_rewrite_copy_node names its outputs like the source's. */
#ifndef CC_REWRITE_H
#define CC_REWRITE_H

#include "model.h"

typedef struct cc_rewrite {
    const cc_model *src;
    cc_model_builder *b;
    int *map;        /* source value -> new value; -1 while absent */
    int *uses;       /* source value -> node inputs reading it, plus 1 if a graph output */
    int *consumer;   /* source value -> the first node reading it, -1 if none */
    unsigned char *is_output; /* source value is a graph output */
} cc_rewrite;

/* Starts rewriting src into a new model of the same name. Runtime inputs are added at
 * once, with src's names and shapes; floating ones get dtype float_inputs unless that is
 * CC_DTYPE_COUNT (keep). On error nothing is left allocated. */
cc_status cc_rewrite_begin(const cc_model *src, cc_dtype float_inputs, cc_rewrite *rw,
                           cc_err *err);
/* Frees an unfinished rewrite (the builder and the maps). Accepts a zeroed rw. */
void cc_rewrite_abort(cc_rewrite *rw);
/* Marks the new values of src's graph outputs (each must have been mapped, e.g. by
 * cc_rewrite_set) as outputs and finishes the model with src's task and class count.
 * rw is consumed whatever the result. */
cc_status cc_rewrite_finish(cc_rewrite *rw, cc_model **out, cc_err *err);

/* The new value of source value v: its mapping, or for a source constant a copy made on
 * first use. CC_ERR_INTERNAL for a runtime value nothing has produced yet. */
cc_status cc_rewrite_value(cc_rewrite *rw, int v, int *out, cc_err *err);
/* Maps source value v to new value nv. */
void cc_rewrite_set(cc_rewrite *rw, int v, int nv);

/* Adds a constant of dtype dt and shape s whose element i is vals[i] (stored with
 * cc_store: floats rounded to nearest even, integers rounded and saturated). */
cc_status cc_rewrite_add_const(cc_rewrite *rw, const char *name, cc_dtype dt, const cc_shape *s,
                               const double *vals, int *out, cc_err *err);
/* A scalar (rank 0) constant. */
cc_status cc_rewrite_add_scalar(cc_rewrite *rw, const char *name, cc_dtype dt, double v, int *out,
                                cc_err *err);

/* Copies source node k: inputs mapped with cc_rewrite_value (or taken from in[i] where in
 * is non-NULL and in[i] != -2; -1 stays absent), attributes as they are, outputs named as
 * in src and mapped. Shape inference failures name the node. */
cc_status cc_rewrite_copy_node(cc_rewrite *rw, int k, const int *in, cc_err *err);
/* The same with the attribute values attrs (indexed like the op's schema) instead of the
 * source node's. */
cc_status cc_rewrite_copy_node_attrs(cc_rewrite *rw, int k, const int *in, const cc_attr_value *attrs, cc_err *err);

/* Copies src into dst converted to dtype dt (cc_load/cc_store per element). On error dst
 * is untouched. */
cc_status cc_rewrite_convert_tensor(const cc_tensor *src, cc_dtype dt, cc_tensor *dst, cc_err *err);

#endif
