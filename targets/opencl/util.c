/* util.c — helpers shared by the opencl backend's files: OpenCL error names, dtype
 * suffixes of the kernel templates, constant reads, window geometry of convolutions and
 * pools, and the collapsing of strided iteration spaces. */
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
    default: return NULL;
    }
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
    default: return (int64_t)cc_load(t->data, t->dtype, (size_t)i);
    }
}

double cc_ocl_const_float(const cc_tensor *t, int64_t i)
{
    return cc_load(t->data, t->dtype, (size_t)i);
}

/* ---- windows --------------------------------------------------------------------------- */

/* v[0..n-1] from ints attribute `name` when the op has it and it is set, else def. -1 when
 * a set list has another length. */
static int attr_ints(const cc_node *node, const char *name, int n, int64_t def, int64_t *v)
{
    for (int i = 0; i < n; i++) v[i] = def;
    if (cc_attr_index(node->op, name) < 0) return 0;
    const cc_attr_value *a = cc_attr_get(node, name);
    if (!a->set) return 0;
    if (a->n != n) return -1;
    for (int i = 0; i < n; i++) v[i] = a->ints[i];
    return 0;
}

cc_status cc_ocl_window(const cc_node *node, const cc_shape *x, const int64_t *k, const cc_shape *y,
                        ocl_window *w, cc_err *err)
{
    const char *op = node->op->name;
    int nsp = x->rank - 2;
    if (nsp < 1 || nsp > 3 || y->rank != x->rank)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: %s with %d spatial axes (1 to 3 supported)",
                          op, nsp);
    int64_t stride[3], dil[3], pads[6];
    if (attr_ints(node, "strides", nsp, 1, stride) || attr_ints(node, "dilations", nsp, 1, dil) ||
        attr_ints(node, "pads", 2 * nsp, 0, pads))
        return cc_err_set(err, CC_ERR_ARG, "%s: strides, dilations or pads have the wrong length", op);
    const char *ap = cc_attr_s(node, "auto_pad");
    int same_upper = strcmp(ap, "SAME_UPPER") == 0, same_lower = strcmp(ap, "SAME_LOWER") == 0;
    int valid = strcmp(ap, "VALID") == 0;
    if (!same_upper && !same_lower && !valid && strcmp(ap, "NOTSET") != 0)
        return cc_err_set(err, CC_ERR_ARG, "%s: unknown auto_pad '%s'", op, ap);
    ocl_window r;
    memset(&r, 0, sizeof r);
    r.nsp = nsp;
    for (int d = 0; d < 3; d++) {
        r.in[d] = r.out[d] = r.k[d] = r.stride[d] = r.dil[d] = 1;
    }
    for (int s = 0; s < nsp; s++) {
        int d = 3 - nsp + s;
        r.in[d] = x->dims[2 + s];
        r.out[d] = y->dims[2 + s];
        r.k[d] = k[s];
        r.stride[d] = stride[s];
        r.dil[d] = dil[s];
        if (stride[s] < 1 || dil[s] < 1 || k[s] < 1)
            return cc_err_set(err, CC_ERR_ARG, "%s: strides, dilations and kernel must be >= 1", op);
        if (same_upper || same_lower) {
            int64_t total = (r.out[d] - 1) * stride[s] + (k[s] - 1) * dil[s] + 1 - r.in[d];
            if (total < 0) total = 0;
            r.pad0[d] = same_upper ? total / 2 : total - total / 2;
            r.pad1[d] = total - r.pad0[d];
        } else if (!valid) {
            r.pad0[d] = pads[s];
            r.pad1[d] = pads[nsp + s];
        }
    }
    *w = r;
    return CC_OK;
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
