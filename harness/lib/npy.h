/* npy.h — writes tensors as NumPy .npy files (format version 1.0), so a failing case can
 * be reproduced in NumPy or PyTorch. bf16 has no NumPy dtype: it is written as float32
 * (exactly, every bf16 value is a float32). */
#ifndef CC_NPY_H
#define CC_NPY_H

#include "../../ops/core/tensor.h"

/* Writes t to path. CC_ERR_IO with the path and errno text on failure. */
cc_status cc_npy_write(const char *path, const cc_tensor *t, cc_err *err);
/* Writes an array of doubles with the given shape as float64. */
cc_status cc_npy_write_f64(const char *path, const double *data, const cc_shape *shape, cc_err *err);

#endif
