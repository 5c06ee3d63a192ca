/* device.h — what a target says of the device it runs on: the description a backend's
 * open() fills (targets/target.h) and the results database stores per run and target
 * (results/store.h). Part of the target ABI. */
#ifndef CC_DEVICE_H
#define CC_DEVICE_H

typedef struct cc_device_desc {
    char name[128];         /* "AMD Ryzen 9 7950X (2 cores used)", "NVIDIA H100 80GB HBM3" */
    char driver[128];       /* driver or runtime version, "" where none */
    char library[256];      /* library versions: "OpenBLAS 0.3.21; OpenMP 4.5" */
    double peak_gflops;     /* FP32 peak where known, else 0 */
    double peak_gbps;       /* memory bandwidth where known, else 0 */
    char peak_source[96];   /* how peak_gflops was found, "" where unknown: "measured: ..."
                               (a probe run on this machine) or "estimate: ..." (counted
                               from the device's properties, e.g. SMs x lanes x clock) */
    int f32_contraction_bits; /* significand bits (the implicit one included) to which the
                               device rounds the inputs of FP32 contractions (Conv, MatMul,
                               Gemm: CC_TRAIT_CONTRACTION ops on f32 data); 0 for FP32's own
                               24; 11 for TF32 tensor cores (cuda:tf32). The checker bounds
                               such results with that precision's unit roundoff. */
} cc_device_desc;

#endif
