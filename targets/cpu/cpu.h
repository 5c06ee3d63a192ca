/* cpu.h — internal contract of the cpu backend: each op family file (conv.c, eltwise.c,
 * ...) exports one kernel table; cpu.c holds the backend vtable and its kernel table
 * for the shared planner (../plan.h).
 *
 * Kernels compute f32 (f16/bf16 tensors are converted to f32 and back: storage in the
 * case dtype, compute in f32) and the integer ops with int32 accumulation. They use both
 * cores through OpenMP, and OpenBLAS for GEMM-shaped work. */
#ifndef CC_CPU_H
#define CC_CPU_H

#include "../plan.h"

/* Each family file exports its kernels (targets/plan.h's cc_kernel: ctx is the cpu
 * context, unused by the kernels); cpu.c assembles them into the table by op id that the
 * shared planner dispatches through. Kernels see host tensors: in run(), in[i]->data
 * (NULL for an absent input) and out[j].data point to host memory. */
extern const cc_kernel_list cc_cpu_family_conv;    /* Conv, ConvInteger, QLinearConv */
extern const cc_kernel_list cc_cpu_family_pool;    /* MaxPool, AveragePool, GlobalAveragePool */
extern const cc_kernel_list cc_cpu_family_norm;    /* BatchNormalization */
extern const cc_kernel_list cc_cpu_family_matmul;  /* Gemm, MatMul, MatMulInteger, QLinearMatMul */
extern const cc_kernel_list cc_cpu_family_quant;   /* QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear */
extern const cc_kernel_list cc_cpu_family_eltwise; /* unary activations, Add/Sub/Mul/Div, Clip, ... */
extern const cc_kernel_list cc_cpu_family_eltwise_logic; /* Equal, Greater, Less, ..., Where */
extern const cc_kernel_list cc_cpu_family_cast;          /* Cast, CastLike */
extern const cc_kernel_list cc_cpu_family_conv_transpose; /* ConvTranspose */
extern const cc_kernel_list cc_cpu_family_recurrent;     /* RNN, GRU, LSTM */
extern const cc_kernel_list cc_cpu_family_dynamic;       /* NonZero, Unique, NonMaxSuppression, Compress */
extern const cc_kernel_list cc_cpu_family_reduce;  /* Softmax, ReduceMean, ReduceMax */
extern const cc_kernel_list cc_cpu_family_shape;   /* Flatten, Reshape, Transpose, Concat, Split, Slice */
extern const cc_kernel_list cc_cpu_family_resize;  /* Resize, GridSample, RoiAlign */
/* The kernels of the ops whose ABI 7 kernels compute in f32 or as signed integers, for
 * nodes of the dtypes of target ABI 8 (f64, i16, u16, u32, u64): Min, Max, Sum, Mean, Pow,
 * PRelu, Mod, BitShift, CumSum (wide.c). cpu.c dispatches such a node to these, or to the
 * ABI 7 kernel where that one takes every dtype (cpu.c's list), or declines it. */
extern const cc_kernel_list cc_cpu_family_wide;

/* Shared helpers (cpu.c). */
/* Converts n elements of src (dtype d) to f32 in dst. */
void cc_cpu_to_f32(const void *src, cc_dtype d, float *dst, int64_t n);
/* Converts n f32 values to dtype d (round to nearest even; integers saturate). */
void cc_cpu_from_f32(const float *src, void *dst, cc_dtype d, int64_t n);

#endif
