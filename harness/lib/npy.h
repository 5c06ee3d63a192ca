/* npy.h — NumPy .npy files: written (format version 1.0) so that a failing case can be
 * reproduced in NumPy or PyTorch, and read, so that a model run can take a framework's
 * recorded inputs and outputs saved with numpy.save. bf16 has no NumPy dtype: it is written
 * as float32 (exactly, every bf16 value is a float32). */
#ifndef CC_NPY_H
#define CC_NPY_H

#include "../../ops/core/tensor.h"

/* Writes t to path. CC_ERR_IO with the path and errno text on failure. */
cc_status cc_npy_write(const char *path, const cc_tensor *t, cc_err *err);
/* Writes an array of doubles with the given shape as float64. */
cc_status cc_npy_write_f64(const char *path, const double *data, const cc_shape *shape, cc_err *err);

/* Reads the .npy file at path (format versions 1.0, 2.0 and 3.0; C order, little-endian
 * or single-byte data) into *out (allocated; free with cc_tensor_free): dtypes f4, f2, i1,
 * u1, i4, i8 and b1 as crosscheck's; f8 (numpy's default float) becomes f32, rounded to
 * nearest. Errors, one line naming the file: CC_ERR_IO (cannot read), CC_ERR_ARG (not an
 * .npy file, a malformed header, data shorter than the shape says), CC_ERR_UNSUPPORTED
 * (Fortran order, big-endian data, another dtype, more than CC_MAX_RANK dims), CC_ERR_NOMEM.
 * *out is untouched on failure. */
cc_status cc_npy_read(const char *path, cc_tensor *out, cc_err *err);

#endif
