/* scan.h — `crosscheck scan`: before porting, which of a model's operators each target
 * would run, without running anything. Per model (an .onnx file): its op types with node
 * counts; whether the catalog has each (the catalog's row); and per target, for each op
 * type, how many of its nodes the target's supports() accepts on the imported graph (its
 * real shapes, dtypes and attributes), with the first declined node's reason. Nodes the
 * importer folds into constants (shape computations over static shapes, Constant nodes)
 * need no target and count as supported. A model that does not import (an op outside the
 * catalog, a symbolic dim not bound with --input-shape) still gets its op types and the
 * catalog's row; its targets' rows say why nothing was scanned. Each target is asked in a
 * forked child (a target that crashes or hangs costs its rows, with the reason). */
#ifndef CC_SCAN_H
#define CC_SCAN_H

#include "../../results/conformance.h"
#include "runner.h"

typedef struct cc_scan_options {
    int n_targets;
    const cc_target_iface *targets[CC_RUN_MAX_TARGETS];
    const char *devices[CC_RUN_MAX_TARGETS];
    int n_shapes;                       /* --input-shape bindings */
    const char *shape_names[CC_MAX_IO];
    cc_shape shapes[CC_MAX_IO];
    double timeout_s;                   /* per target and model */
    size_t mem_limit_mb;
} cc_scan_options;

/* The models path names: a file, or in a folder every *.onnx file and every
 * SUBFOLDER/model.onnx (an ONNX test-data folder), sorted; each named after its file
 * without .onnx, or its folder for model.onnx. *paths and *names hold n strings (free with
 * cc_scan_models_free). CC_ERR_IO when path cannot be read; CC_ERR_NOMEM. */
cc_status cc_scan_models(const char *path, char ***paths, char ***names, int *n, cc_err *err);
void cc_scan_models_free(char **paths, char **names, int n);

/* Called with each row: the catalog's rows, then each target's, in op order. */
typedef cc_status (*cc_scan_fn)(void *user, const cc_scan_result *r, cc_err *err);

/* Scans the model at path, named name. *import_why gets why the model does not import
 * ("" when it does). CC_ERR_ARG for a file that is not an ONNX model (nothing reported);
 * a callback's error stops the scan and is returned. */
cc_status cc_scan_model(const cc_scan_options *o, const char *path, const char *name, cc_scan_fn fn, void *user,
                        char *import_why, size_t why_n, cc_err *err);

#endif
