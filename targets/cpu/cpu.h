/* cpu.h — internal contract of the cpu backend: each op family file (conv.c, eltwise.c,
 * ...) exports one kernel table; cpu.c holds the backend vtable, the plans and the
 * dispatch by op name.
 *
 * Kernels compute f32 (f16/bf16 tensors are converted to f32 and back: storage in the
 * case dtype, compute in f32) and the integer ops with int32 accumulation. They use both
 * cores through OpenMP, and OpenBLAS for GEMM-shaped work. */
#ifndef CC_CPU_H
#define CC_CPU_H

#include "../target.h"

typedef struct cc_cpu_kernel {
    const char *op;  /* ONNX op name */
    /* optional: may the kernel run this node? NO with a one-line reason otherwise.
     * in[i] are descriptions (data non-NULL only for constants). Default: yes. */
    cc_support (*supports)(const cc_node *node, const cc_tensor *const *in, char *reason,
                           size_t n);
    /* optional: per-node preparation outside the timed region (pack or convert
     * constant weights, size scratch buffers). Writes *state (freed by release). */
    cc_status (*prepare)(const cc_node *node, const cc_tensor *const *in, int n_out,
                         const cc_tensor *out, void **state, cc_err *err);
    void (*release)(void *state); /* optional; accepts NULL */
    /* Runs the node: in[i] have data (NULL for absent inputs); out[j] have shape, dtype
     * and data allocated by the backend. */
    cc_status (*run)(const cc_node *node, const cc_tensor *const *in, int n_out,
                     cc_tensor *out, void *state, cc_err *err);
} cc_cpu_kernel;

typedef struct cc_cpu_family {
    int n;
    const cc_cpu_kernel *kernels;
} cc_cpu_family;

extern const cc_cpu_family cc_cpu_family_conv;    /* Conv, ConvInteger, QLinearConv */
extern const cc_cpu_family cc_cpu_family_pool;    /* MaxPool, AveragePool, GlobalAveragePool */
extern const cc_cpu_family cc_cpu_family_norm;    /* BatchNormalization */
extern const cc_cpu_family cc_cpu_family_matmul;  /* Gemm, MatMul, MatMulInteger, QLinearMatMul */
extern const cc_cpu_family cc_cpu_family_quant;   /* QuantizeLinear, DequantizeLinear */
extern const cc_cpu_family cc_cpu_family_eltwise; /* unary activations, Add/Sub/Mul/Div, Clip, ... */
extern const cc_cpu_family cc_cpu_family_reduce;  /* Softmax, ReduceMean, ReduceMax */
extern const cc_cpu_family cc_cpu_family_shape;   /* Flatten, Reshape, Transpose, Concat, Split, Slice */
extern const cc_cpu_family cc_cpu_family_resize;  /* Resize */

/* Shared helpers (cpu.c). */
/* Converts n elements of src (dtype d) to f32 in dst. */
void cc_cpu_to_f32(const void *src, cc_dtype d, float *dst, int64_t n);
/* Converts n f32 values to dtype d (round to nearest even; integers saturate). */
void cc_cpu_from_f32(const float *src, void *dst, cc_dtype d, int64_t n);

#endif
