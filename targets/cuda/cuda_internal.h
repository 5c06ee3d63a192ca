/* cuda_internal.h — internal contract of the cuda backend: the opened device context,
 * the per-op kernel tables the family files (conv.c, pool.c, matmul.c, eltwise.c,
 * reduce.c, normquant.c, shape.c, resize.c) export, and the helpers they share (cuda.c, common.c): error
 * mapping of CUDA, cuDNN and cuBLAS status codes into cc_status, device memory, walks,
 * constant inputs and windows; plan notes, attributes and broadcasting come from the
 * backends' shared helpers (../backend.h).
 *
 * Tensors handed to a kernel's prepare() are host descriptions: data is the host copy of
 * a constant (weights, Slice's starts, quantization scales) and NULL for everything
 * computed at run time. Tensors handed to run() carry device pointers, constants
 * included (the shared planner uploads every constant once, in prepare). */
#ifndef CC_CUDA_INTERNAL_H
#define CC_CUDA_INTERNAL_H

#include <cublasLt.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include "../backend.h"
#include "../plan.h"
#include "../target.h"
#include "kernels.h"

/* An opened device. tf32: FP32 GEMMs and convolutions may use TF32 tensor cores (the
 * device string "tf32"); otherwise FP32 work is restricted to FP32 arithmetic. */
typedef struct cc_cuda_ctx {
    int device;
    int tf32;
    int sm;                  /* compute capability, major * 10 + minor */
    cudaStream_t stream;     /* everything runs on this stream, in order */
    cudnnHandle_t dnn;
    cublasLtHandle_t lt;
    cudaEvent_t ev_start, ev_stop;
    /* Conv algorithms timed on this device, by shape (conv.c): a model's repeated layer
       shapes are timed once */
    struct cc_cuda_algo_memo {
        char key[160];
        int algo, math;
    } conv_memo[128];
    int n_conv_memo;
} cc_cuda_ctx;

/* Each family file exports its kernels (../plan.h's cc_kernel; ctx is the cc_cuda_ctx):
 * supports() and prepare() see host descriptions (data: a constant's host copy, else
 * NULL), run() device pointers, and enqueues on c->stream without waiting for the
 * device. */
extern const cc_kernel_list cc_cuda_family_conv;    /* Conv, ConvInteger, QLinearConv */
extern const cc_kernel_list cc_cuda_family_pool;    /* MaxPool, AveragePool, GlobalAveragePool */
extern const cc_kernel_list cc_cuda_family_matmul;  /* Gemm, MatMul, MatMulInteger, QLinearMatMul */
extern const cc_kernel_list cc_cuda_family_eltwise; /* unary activations, Add/Sub/Mul/Div */
extern const cc_kernel_list cc_cuda_family_reduce;  /* Softmax, ReduceMean, ReduceMax */
extern const cc_kernel_list cc_cuda_family_normquant; /* BatchNormalization, QuantizeLinear,
                                                         DequantizeLinear */
extern const cc_kernel_list cc_cuda_family_shape;   /* Flatten, Reshape, Transpose, Concat,
                                                       Split, Slice */
extern const cc_kernel_list cc_cuda_family_resize;  /* Resize, GridSample, RoiAlign */

/* ---- errors (common.c) ------------------------------------------------------------------ */

/* CC_OK for cudaSuccess; otherwise CC_ERR_DEVICE "CUDA: <what>: <error string>", and for an
 * allocation failure "CUDA: out of memory (<what>)". */
cc_status cc_cuda_check(cudaError_t e, const char *what, cc_err *err);
/* CC_OK for CUDNN_STATUS_SUCCESS; CC_ERR_UNSUPPORTED "cuDNN: <what>: <string>" for
 * NOT_SUPPORTED; "CUDA: out of memory" for ALLOC_FAILED; else CC_ERR_DEVICE. */
cc_status cc_cuda_dnn_check(cudnnStatus_t s, const char *what, cc_err *err);
/* The same for cuBLAS / cuBLASLt status codes. */
cc_status cc_cuda_blas_check(cublasStatus_t s, const char *what, cc_err *err);

/* ---- device memory (common.c) ----------------------------------------------------------- */

/* cudaMalloc of max(bytes, 1) bytes into *p; *p untouched on error. */
cc_status cc_cuda_alloc(size_t bytes, void **p, const char *what, cc_err *err);
/* cudaFree; accepts NULL. */
void cc_cuda_free(void *p);
/* Copies host src to device dst on c->stream and waits for it (prepare-time uploads). */
cc_status cc_cuda_put(cc_cuda_ctx *c, void *dst, const void *src, size_t bytes, const char *what,
                      cc_err *err);

/* Kernels record how they run ("cudnn IMPLICIT_GEMM, ws 0 B") with cc_backend_note
 * (../backend.h) in prepare(); describe_plan shows it. */

/* ---- walks and shapes (common.c) ---------------------------------------------------------- */

/* Row-major element strides of s. */
void cc_cuda_strides(const cc_shape *s, int64_t *st);
/* Drops dims of size 1 and merges adjacent dims that are contiguous in every one of the
 * first nops operands; a walk reduced to nothing becomes rank 1 of size 1. */
void cc_cuda_walk_simplify(cc_cuda_walk *w, int nops);
/* A device qparam view of tensor t (NULL t: absent, reads 0). */
cc_cuda_qparam cc_cuda_qp(const cc_tensor *t);
/* The cuDNN data type of a floating dtype; -1 for others. */
int cc_cuda_dnn_type(cc_dtype d);

/* Integer values of constant input idx (an int32/int64 tensor with host data), or else of
 * the schema's INTS attribute `name` filling that input (an op case). *present = 0 where
 * neither exists. CC_ERR_UNSUPPORTED when the input is given but not constant. */
cc_status cc_cuda_const_ints(const cc_node *node, const cc_tensor *const *in, int idx,
                             const char *name, int64_t *v, int *n, int *present, cc_err *err);
/* The same for float values (f32/f16/bf16 tensors, FLOATS attributes). */
cc_status cc_cuda_const_floats(const cc_node *node, const cc_tensor *const *in, int idx,
                               const char *name, double *v, int *n, int *present, cc_err *err);

/* Window geometry of a Conv/pool node for input x (N x C x 1..3 spatial dims), kernel
 * extents k and inferred output y, as three spatial axes (leading axes of size 1). Pads
 * from auto_pad (SAME_*: from the output size) or the pads attribute. CC_ERR_UNSUPPORTED
 * for more than 3 spatial dims; CC_ERR_ARG for inconsistent attributes. */
cc_status cc_cuda_window_make(const cc_node *node, const cc_shape *x, const int64_t *k,
                              const cc_shape *y, cc_cuda_window *w, cc_err *err);

#endif
