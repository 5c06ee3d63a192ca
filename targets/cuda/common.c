/* common.c — helpers shared by the cuda backend's files: CUDA, cuDNN and cuBLAS status
 * codes turned into cc_status with the library's own message, device memory, walk
 * simplification, constant-input access, and window geometry in the kernels' form. */
#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"

/* ---- errors --------------------------------------------------------------------------- */

cc_status cc_cuda_check(cudaError_t e, const char *what, cc_err *err)
{
    if (e == cudaSuccess) return CC_OK;
    if (e == cudaErrorMemoryAllocation)
        return cc_err_set(err, CC_ERR_DEVICE, "CUDA: out of memory (%s): %s", what,
                          cudaGetErrorString(e));
    return cc_err_set(err, CC_ERR_DEVICE, "CUDA: %s: %s (%s)", what, cudaGetErrorString(e),
                      cudaGetErrorName(e));
}

cc_status cc_cuda_dnn_check(cudnnStatus_t s, const char *what, cc_err *err)
{
    if (s == CUDNN_STATUS_SUCCESS) return CC_OK;
    char detail[160] = "";
#if CUDNN_MAJOR >= 9
    cudnnGetLastErrorString(detail, sizeof detail);
#endif
    const char *msg = cudnnGetErrorString(s);
    if (s == CUDNN_STATUS_ALLOC_FAILED)
        return cc_err_set(err, CC_ERR_DEVICE, "CUDA: out of memory (cuDNN %s): %s", what, msg);
    return cc_err_set(err, s == CUDNN_STATUS_NOT_SUPPORTED ? CC_ERR_UNSUPPORTED : CC_ERR_DEVICE,
                      "cuDNN: %s: %s%s%.160s", what, msg, detail[0] ? ": " : "", detail);
}

cc_status cc_cuda_blas_check(cublasStatus_t s, const char *what, cc_err *err)
{
    if (s == CUBLAS_STATUS_SUCCESS) return CC_OK;
    const char *msg = cublasGetStatusString(s);
    if (s == CUBLAS_STATUS_ALLOC_FAILED)
        return cc_err_set(err, CC_ERR_DEVICE, "CUDA: out of memory (cuBLAS %s): %s", what, msg);
    return cc_err_set(err, s == CUBLAS_STATUS_NOT_SUPPORTED ? CC_ERR_UNSUPPORTED : CC_ERR_DEVICE,
                      "cuBLAS: %s: %s", what, msg);
}

/* ---- device memory ---------------------------------------------------------------------- */

cc_status cc_cuda_alloc(size_t bytes, void **p, const char *what, cc_err *err)
{
    void *q = NULL;
    cudaError_t e = cudaMalloc(&q, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        cudaGetLastError(); /* an allocation failure is not sticky: clear it */
        return cc_cuda_check(e, what, err);
    }
    *p = q;
    return CC_OK;
}

void cc_cuda_free(void *p)
{
    if (p) cudaFree(p);
}

cc_status cc_cuda_put(cc_cuda_ctx *c, void *dst, const void *src, size_t bytes, const char *what,
                      cc_err *err)
{
    if (!bytes) return CC_OK;
    cc_status st = cc_cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, c->stream),
                                 what, err);
    if (st) return st;
    return cc_cuda_check(cudaStreamSynchronize(c->stream), what, err);
}

/* ---- walks -------------------------------------------------------------------------------- */

void cc_cuda_strides(const cc_shape *s, int64_t *st)
{
    int64_t run = 1;
    for (int i = s->rank - 1; i >= 0; i--) {
        st[i] = run;
        run *= s->dims[i];
    }
}

void cc_cuda_walk_simplify(cc_cuda_walk *w, int nops)
{
    cc_cuda_walk r;
    memset(&r, 0, sizeof r);
    int n = 0;
    for (int d = 0; d < w->rank; d++) {
        if (w->dims[d] == 1) continue;
        int merge = n > 0;
        for (int k = 0; k < nops && merge; k++)
            merge = r.st[k][n - 1] == w->st[k][d] * w->dims[d];
        if (merge) {
            r.dims[n - 1] *= w->dims[d];
            for (int k = 0; k < nops; k++) r.st[k][n - 1] = w->st[k][d];
            continue;
        }
        r.dims[n] = w->dims[d];
        for (int k = 0; k < 3; k++) r.st[k][n] = w->st[k][d];
        n++;
    }
    if (n == 0) {
        r.dims[0] = 1;
        n = 1;
    }
    r.rank = n;
    *w = r;
}

cc_cuda_qparam cc_cuda_qp(const cc_tensor *t)
{
    cc_cuda_qparam q = { NULL, CC_F32, 1 };
    if (!t) return q;
    q.p = t->data;
    q.dtype = t->dtype;
    q.n = cc_tensor_numel(t);
    return q;
}

int cc_cuda_dnn_type(cc_dtype d)
{
    switch (d) {
    case CC_F32: return CUDNN_DATA_FLOAT;
    case CC_F16: return CUDNN_DATA_HALF;
    case CC_BF16: return CUDNN_DATA_BFLOAT16;
    default: return -1;
    }
}

/* ---- constant inputs ------------------------------------------------------- */

/* The input tensor idx of node, or NULL where absent. */
static const cc_tensor *input_at(const cc_node *node, const cc_tensor *const *in, int idx)
{
    return idx < node->n_in ? in[idx] : NULL;
}

cc_status cc_cuda_const_ints(const cc_node *node, const cc_tensor *const *in, int idx,
                             const char *name, int64_t *v, int *n, int *present, cc_err *err)
{
    const cc_tensor *t = input_at(node, in, idx);
    *n = 0;
    *present = 0;
    if (t && t->data) {
        int64_t cnt = cc_tensor_numel(t);
        if (cnt > CC_MAX_INTS || (t->dtype != CC_I64 && t->dtype != CC_I32))
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "%s: %s must be int32/int64 with at most %d values",
                              node->op->name, name, CC_MAX_INTS);
        for (int64_t i = 0; i < cnt; i++) v[i] = cc_load_i64(t->data, t->dtype, (size_t)i);
        *n = (int)cnt;
        *present = 1;
        return CC_OK;
    }
    int a = cc_attr_index(node->op, name);
    if (a >= 0 && node->attrs[a].set) {
        for (int i = 0; i < node->attrs[a].n; i++) v[i] = node->attrs[a].ints[i];
        *n = node->attrs[a].n;
        *present = 1;
        return CC_OK;
    }
    if (t)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: cuda needs %s as a constant input",
                          node->op->name, name);
    return CC_OK;
}

cc_status cc_cuda_const_floats(const cc_node *node, const cc_tensor *const *in, int idx,
                               const char *name, double *v, int *n, int *present, cc_err *err)
{
    const cc_tensor *t = input_at(node, in, idx);
    *n = 0;
    *present = 0;
    if (t && t->data) {
        int64_t cnt = cc_tensor_numel(t);
        if (cnt > CC_MAX_INTS || !cc_dtype_is_float(t->dtype))
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "%s: %s must be a float tensor with at most %d values",
                              node->op->name, name, CC_MAX_INTS);
        for (int64_t i = 0; i < cnt; i++) v[i] = cc_load(t->data, t->dtype, (size_t)i);
        *n = (int)cnt;
        *present = 1;
        return CC_OK;
    }
    int a = cc_attr_index(node->op, name);
    if (a >= 0 && node->attrs[a].set) {
        for (int i = 0; i < node->attrs[a].n; i++) v[i] = node->attrs[a].floats[i];
        *n = node->attrs[a].n;
        *present = 1;
        return CC_OK;
    }
    if (t)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: cuda needs %s as a constant input",
                          node->op->name, name);
    return CC_OK;
}

/* ---- windows ------------------------------------------------------------------------------ */

cc_status cc_cuda_window_make(const cc_node *node, const cc_shape *x, const int64_t *k,
                              const cc_shape *y, cc_cuda_window *w, cc_err *err)
{
    cc_backend_window b;
    cc_status st = cc_backend_window_make(node, x, k, y, "cuda", &b, err);
    if (st) return st;
    cc_cuda_window g;
    memset(&g, 0, sizeof g);
    g.planes = x->dims[0] * x->dims[1];
    for (int a = 0; a < 3; a++) {
        g.in[a] = b.in[a];
        g.out[a] = b.out[a];
        g.k[a] = b.k[a];
        g.stride[a] = b.stride[a];
        g.dil[a] = b.dil[a];
        g.pad0[a] = b.pad0[a];
        g.pad1[a] = b.pad1[a];
    }
    *w = g;
    return CC_OK;
}
