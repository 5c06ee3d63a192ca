/* gemm_dot.cl - template (S = f32, f16, bf16): the product of gemm_naive.cl (same
 * arguments) for CPU devices when both operands run contiguously along k (A row-major,
 * B transposed: sak = sbk = 1), as in fully connected layers (Gemm with transB = 1) and
 * GEMV-like shapes. Each work-item computes four outputs of one row of C as dot products
 * over k, 16 elements at a time in float16 vectors, one load of A shared by the four
 * columns; the vector sums are reduced at the end and k's tail is added element-wise. */

#define DOT_COLS 4

float KN(hsum16)(float16 v)
{
    float8 a = v.lo + v.hi;
    float4 b = a.lo + a.hi;
    float2 c = b.lo + b.hi;
    return c.x + c.y;
}

kernel void KN(gemm_dot)(int M, int N, int K,
                         global const TY *A, int sam, int sak,
                         global const TY *B, int sbk, int sbn,
                         global TY *C, int scm,
                         global const TY *bias, int sbm, int sbn2, int has_bias,
                         float alpha, float beta, global const int *boff)
{
    const int n0 = get_global_id(0) * DOT_COLS, m = get_global_id(1);
    if (n0 >= N || m >= M) return;
    global const int *o = boff + 4 * get_global_id(2);
    global const TY *a = A + o[0] + m * sam;
    global const TY *b[DOT_COLS];
    for (int j = 0; j < DOT_COLS; j++) b[j] = B + o[1] + min(n0 + j, N - 1) * sbn;
    float16 acc[DOT_COLS];
    for (int j = 0; j < DOT_COLS; j++) acc[j] = (float16)(0.0f);
    int k = 0;
    for (; k + 16 <= K; k += 16) {
        float16 av = VLD16(a + k);
        for (int j = 0; j < DOT_COLS; j++) acc[j] = fma(av, VLD16(b[j] + k), acc[j]);
    }
    float r[DOT_COLS];
    for (int j = 0; j < DOT_COLS; j++) r[j] = KN(hsum16)(acc[j]);
    for (; k < K; k++) {
        float av = LD(a, k);
        for (int j = 0; j < DOT_COLS; j++) r[j] = fma(av, LD(b[j], k), r[j]);
    }
    for (int j = 0; j < DOT_COLS && n0 + j < N; j++) {
        int n = n0 + j;
        float v = alpha * r[j];
        if (has_bias) v += beta * LD(bias, o[3] + m * sbm + n * sbn2);
        ST(C, o[2] + m * scm + n, v);
    }
}
