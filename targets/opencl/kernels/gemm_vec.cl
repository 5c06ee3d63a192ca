/* gemm_vec.cl - template (S = f32, f16, bf16; RM = rows, VN = columns per work-item, VN
 * 8 or 16): the product of gemm_naive.cl (same arguments) with explicit SIMD for CPU
 * devices, where an OpenCL driver runs work-items as loop iterations and a kernel's own
 * vector types map straight onto the vector unit. Each work-item computes an RM x VN
 * block of C: per k it loads VN consecutive elements of B's row (when B is contiguous
 * along n and the block is whole) and multiplies them by RM broadcast elements of A,
 * accumulating RM float vectors in registers. No local memory and no barriers. Blocks at
 * the right edge, or with B strided along n, load B element by element. */

#define VF PASTE(float, VN)

kernel void KN(PASTE(PASTE(gemm_v, RM), PASTE(x, VN)))(int M, int N, int K,
                                  global const TY *A, int sam, int sak,
                                  global const TY *B, int sbk, int sbn,
                                  global TY *C, int scm,
                                  global const TY *bias, int sbm, int sbn2, int has_bias,
                                  float alpha, float beta, global const int *boff)
{
    const int n0 = get_global_id(0) * VN, m0 = get_global_id(1) * RM;
    if (n0 >= N || m0 >= M) return;
    global const int *o = boff + 4 * get_global_id(2);
    global const TY *b = B + o[1] + n0 * sbn;
    global const TY *a[RM];
    for (int i = 0; i < RM; i++) a[i] = A + o[0] + min(m0 + i, M - 1) * sam;
    VF acc[RM];
    for (int i = 0; i < RM; i++) acc[i] = (VF)(0.0f);
    if (sbn == 1 && n0 + VN <= N) {
        int k = 0;
        for (; k + 4 <= K; k += 4) { /* unrolled by hand: four rows of B in flight */
            VF b0 = PASTE(VLD, VN)(b + k * sbk), b1 = PASTE(VLD, VN)(b + (k + 1) * sbk);
            VF b2 = PASTE(VLD, VN)(b + (k + 2) * sbk), b3 = PASTE(VLD, VN)(b + (k + 3) * sbk);
            for (int i = 0; i < RM; i++) {
                VF t = fma((VF)(LD(a[i], k * sak)), b0, acc[i]);
                t = fma((VF)(LD(a[i], (k + 1) * sak)), b1, t);
                t = fma((VF)(LD(a[i], (k + 2) * sak)), b2, t);
                acc[i] = fma((VF)(LD(a[i], (k + 3) * sak)), b3, t);
            }
        }
        for (; k < K; k++) {
            VF bv = PASTE(VLD, VN)(b + k * sbk);
            for (int i = 0; i < RM; i++) acc[i] = fma((VF)(LD(a[i], k * sak)), bv, acc[i]);
        }
    } else {
        int nn = min(VN, N - n0);
        for (int k = 0; k < K; k++) {
            float bs[VN];
            for (int j = 0; j < VN; j++) bs[j] = j < nn ? LD(b, k * sbk + j * sbn) : 0.0f;
            VF bv = PASTE(vload, VN)(0, bs);
            for (int i = 0; i < RM; i++) acc[i] = fma((VF)(LD(a[i], k * sak)), bv, acc[i]);
        }
    }
    for (int i = 0; i < RM; i++) {
        int m = m0 + i;
        if (m >= M) break;
        float r[VN];
        PASTE(vstore, VN)(acc[i], 0, r);
        for (int j = 0; j < VN && n0 + j < N; j++) {
            int n = n0 + j;
            float v = alpha * r[j];
            if (has_bias) v += beta * LD(bias, o[3] + m * sbm + n * sbn2);
            ST(C, o[2] + m * scm + n, v);
        }
    }
}
