/* util.c — helpers shared by the opencl backend's files: OpenCL error names, dtype
 * suffixes of the kernel templates, constant reads, and the collapsing of strided
 * iteration spaces (and the upload of their geometry). */
#include <stdio.h>
#include <string.h>

#include "ocl.h"

/* ---- errors ----------------------------------------------------------------------------- */

typedef struct err_name {
    cl_int code;
    const char *name;
} err_name;

static const err_name err_names[] = {
    { CL_SUCCESS, "CL_SUCCESS" },
    { CL_DEVICE_NOT_FOUND, "CL_DEVICE_NOT_FOUND" },
    { CL_DEVICE_NOT_AVAILABLE, "CL_DEVICE_NOT_AVAILABLE" },
    { CL_COMPILER_NOT_AVAILABLE, "CL_COMPILER_NOT_AVAILABLE" },
    { CL_MEM_OBJECT_ALLOCATION_FAILURE, "CL_MEM_OBJECT_ALLOCATION_FAILURE" },
    { CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES" },
    { CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY" },
    { CL_PROFILING_INFO_NOT_AVAILABLE, "CL_PROFILING_INFO_NOT_AVAILABLE" },
    { CL_MEM_COPY_OVERLAP, "CL_MEM_COPY_OVERLAP" },
    { CL_BUILD_PROGRAM_FAILURE, "CL_BUILD_PROGRAM_FAILURE" },
    { CL_MAP_FAILURE, "CL_MAP_FAILURE" },
    { CL_MISALIGNED_SUB_BUFFER_OFFSET, "CL_MISALIGNED_SUB_BUFFER_OFFSET" },
    { CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST" },
    { CL_COMPILE_PROGRAM_FAILURE, "CL_COMPILE_PROGRAM_FAILURE" },
    { CL_LINKER_NOT_AVAILABLE, "CL_LINKER_NOT_AVAILABLE" },
    { CL_LINK_PROGRAM_FAILURE, "CL_LINK_PROGRAM_FAILURE" },
    { CL_INVALID_VALUE, "CL_INVALID_VALUE" },
    { CL_INVALID_DEVICE_TYPE, "CL_INVALID_DEVICE_TYPE" },
    { CL_INVALID_PLATFORM, "CL_INVALID_PLATFORM" },
    { CL_INVALID_DEVICE, "CL_INVALID_DEVICE" },
    { CL_INVALID_CONTEXT, "CL_INVALID_CONTEXT" },
    { CL_INVALID_QUEUE_PROPERTIES, "CL_INVALID_QUEUE_PROPERTIES" },
    { CL_INVALID_COMMAND_QUEUE, "CL_INVALID_COMMAND_QUEUE" },
    { CL_INVALID_HOST_PTR, "CL_INVALID_HOST_PTR" },
    { CL_INVALID_MEM_OBJECT, "CL_INVALID_MEM_OBJECT" },
    { CL_INVALID_BINARY, "CL_INVALID_BINARY" },
    { CL_INVALID_BUILD_OPTIONS, "CL_INVALID_BUILD_OPTIONS" },
    { CL_INVALID_PROGRAM, "CL_INVALID_PROGRAM" },
    { CL_INVALID_PROGRAM_EXECUTABLE, "CL_INVALID_PROGRAM_EXECUTABLE" },
    { CL_INVALID_KERNEL_NAME, "CL_INVALID_KERNEL_NAME" },
    { CL_INVALID_KERNEL_DEFINITION, "CL_INVALID_KERNEL_DEFINITION" },
    { CL_INVALID_KERNEL, "CL_INVALID_KERNEL" },
    { CL_INVALID_ARG_INDEX, "CL_INVALID_ARG_INDEX" },
    { CL_INVALID_ARG_VALUE, "CL_INVALID_ARG_VALUE" },
    { CL_INVALID_ARG_SIZE, "CL_INVALID_ARG_SIZE" },
    { CL_INVALID_KERNEL_ARGS, "CL_INVALID_KERNEL_ARGS" },
    { CL_INVALID_WORK_DIMENSION, "CL_INVALID_WORK_DIMENSION" },
    { CL_INVALID_WORK_GROUP_SIZE, "CL_INVALID_WORK_GROUP_SIZE" },
    { CL_INVALID_WORK_ITEM_SIZE, "CL_INVALID_WORK_ITEM_SIZE" },
    { CL_INVALID_GLOBAL_OFFSET, "CL_INVALID_GLOBAL_OFFSET" },
    { CL_INVALID_EVENT_WAIT_LIST, "CL_INVALID_EVENT_WAIT_LIST" },
    { CL_INVALID_EVENT, "CL_INVALID_EVENT" },
    { CL_INVALID_OPERATION, "CL_INVALID_OPERATION" },
    { CL_INVALID_BUFFER_SIZE, "CL_INVALID_BUFFER_SIZE" },
    { CL_INVALID_GLOBAL_WORK_SIZE, "CL_INVALID_GLOBAL_WORK_SIZE" },
    { CL_INVALID_PROPERTY, "CL_INVALID_PROPERTY" },
    { CL_INVALID_COMPILER_OPTIONS, "CL_INVALID_COMPILER_OPTIONS" },
    { CL_INVALID_LINKER_OPTIONS, "CL_INVALID_LINKER_OPTIONS" },
    { -1001, "CL_PLATFORM_NOT_FOUND_KHR" },
};

const char *cc_ocl_error_name(cl_int e)
{
    for (size_t i = 0; i < sizeof err_names / sizeof err_names[0]; i++)
        if (err_names[i].code == e) return err_names[i].name;
    return "CL_UNKNOWN_ERROR";
}

cc_status cc_ocl_fail(cc_err *err, cl_int e, const char *what)
{
    cc_status s = (e == CL_OUT_OF_HOST_MEMORY || e == CL_MEM_OBJECT_ALLOCATION_FAILURE)
                      ? CC_ERR_NOMEM : CC_ERR_DEVICE;
    return cc_err_set(err, s, "opencl: %s: %s (%d)", what, cc_ocl_error_name(e), (int)e);
}

/* ---- dtypes and constants ------------------------------------------------------------- */

const char *cc_ocl_suffix(cc_dtype d)
{
    switch (d) {
    case CC_F32: return "f32";
    case CC_F16: return "f16";
    case CC_BF16: return "bf16";
    case CC_I8: return "i8";
    case CC_U8: return "u8";
    case CC_I32: return "i32";
    case CC_I64: return "i64";
    case CC_F64: return "f64";
    case CC_I16: return "i16";
    case CC_U16: return "u16";
    case CC_U32: return "u32";
    case CC_U64: return "u64";
    default: return NULL;
    }
}

const char *cc_ocl_word_suffix(cc_dtype d)
{
    switch (cc_dtype_size(d)) {
    case 1: return "u8";
    case 2: return "u16";
    case 4: return "u32";
    case 8: return "u64";
    default: return NULL;
    }
}

cc_support cc_ocl_fp64(const ocl_ctx *c, char *reason, size_t n)
{
    if (c->has_fp64) return CC_SUPPORT_YES;
    snprintf(reason, n, "opencl: %s has no fp64 (cl_khr_fp64)", c->device_name);
    return CC_SUPPORT_NOT_HERE;
}

const char *cc_ocl_storage_note(cc_dtype d)
{
    if (d == CC_F16) return " (f16 storage, f32 compute)";
    if (d == CC_BF16) return " (bf16 storage, f32 compute)";
    return "";
}

int cc_ocl_fits_int(const cc_tensor *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->shape.rank; i++) {
        if (t->shape.dims[i] < 0 || t->shape.dims[i] >= INT32_MAX) return 0;
        n *= t->shape.dims[i];
        if (n >= INT32_MAX) return 0;
    }
    return 1;
}

void cc_ocl_strides(const cc_shape *s, int64_t *strides)
{
    int64_t st = 1;
    for (int i = s->rank - 1; i >= 0; i--) {
        strides[i] = st;
        st *= s->dims[i];
    }
}

int64_t cc_ocl_const_int(const cc_tensor *t, int64_t i)
{
    switch (t->dtype) {
    case CC_I8: return ((const int8_t *)t->data)[i];
    case CC_U8: return ((const uint8_t *)t->data)[i];
    case CC_I32: return ((const int32_t *)t->data)[i];
    case CC_I64: return ((const int64_t *)t->data)[i];
    case CC_BOOL: return ((const uint8_t *)t->data)[i] != 0;
    default: return cc_load_i64(t->data, t->dtype, (size_t)i);
    }
}

double cc_ocl_const_float(const cc_tensor *t, int64_t i)
{
    return cc_load(t->data, t->dtype, (size_t)i);
}

/* ---- strided iteration spaces -------------------------------------------------------- */

void cc_ocl_collapse(int *rank, int64_t *dims, int n_ops, int64_t (*strides)[CC_MAX_RANK])
{
    int r = 0;
    for (int d = 0; d < *rank; d++) {
        if (dims[d] == 1) continue; /* contributes nothing to any offset */
        int merge = r > 0;
        for (int o = 0; o < n_ops && merge; o++)
            merge = strides[o][r - 1] == strides[o][d] * dims[d];
        if (merge) {
            dims[r - 1] *= dims[d];
            for (int o = 0; o < n_ops; o++) strides[o][r - 1] = strides[o][d];
        } else {
            dims[r] = dims[d];
            for (int o = 0; o < n_ops; o++) strides[o][r] = strides[o][d];
            r++;
        }
    }
    if (r == 0) {
        dims[0] = 1;
        for (int o = 0; o < n_ops; o++) strides[o][0] = 0;
        r = 1;
    }
    *rank = r;
}

cc_status cc_ocl_walk_const(ocl_build *b, int *rank, int64_t *dims, int64_t (*strides)[CC_MAX_RANK],
                            int *slot, cc_err *err)
{
    cc_ocl_collapse(rank, dims, 2, strides);
    int r = *rank, geom[3 * CC_MAX_RANK];
    for (int d = 0; d < r; d++) {
        geom[d] = (int)dims[d];
        geom[r + d] = (int)strides[0][d];
        geom[2 * r + d] = (int)strides[1][d];
    }
    return cc_ocl_const(b, geom, sizeof(int) * 3 * (size_t)r, slot, err);
}
