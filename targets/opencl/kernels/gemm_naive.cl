/* gemm_naive.cl - template (S = f32, f16, bf16; f64 with S_IS_F64): C = alpha * A @ B +
 * beta * bias for small or thin products, one work-item per element of C, accumulating in
 * the compute type CT with fma (f32; the f64 copy in double, where alpha and beta, float
 * attributes, widen exactly); Det (not in the f64 copy).
 *
 * Operand element (m, k) of A is A[ao + m*sam + k*sak], (k, n) of B is B[bo + k*sbk + n*sbn]
 * (strides give transposes for free), C's (m, n) is C[co + m*scm + n], and bias (m, n) is
 * bias[qo + m*sbm + n*sbn2] when has_bias. Work-item dimension 2 is the batch z; boff holds
 * four element offsets per batch: ao, bo, co, qo (matmul broadcasting, conv groups). */

kernel void KN(gemm_naive)(int M, int N, int K,
                           global const TY *A, int sam, int sak,
                           global const TY *B, int sbk, int sbn,
                           global TY *C, int scm,
                           global const TY *bias, int sbm, int sbn2, int has_bias,
                           float alpha, float beta, global const int *boff)
{
    int n = get_global_id(0), m = get_global_id(1), z = get_global_id(2);
    if (n >= N || m >= M) return;
    global const int *o = boff + 4 * z;
    global const TY *a = A + o[0] + m * sam;
    global const TY *b = B + o[1] + n * sbn;
    CT acc = 0;
    for (int k = 0; k < K; k++) acc = fma(LD(a, k * sak), LD(b, k * sbk), acc);
    CT v = alpha * acc;
    if (has_bias) v += beta * LD(bias, o[3] + m * sbm + n * sbn2);
    ST(C, o[2] + m * scm + n, v);
}

#if !defined(S_IS_F64)

/* Det: one work-item per n x n matrix of x, eliminated in float with partial pivoting in
 * its own n x n block of the float scratch w (rows swapped there); y gets the product of
 * the pivots with the swaps' sign. */
kernel void KN(det)(global const TY *x, global TY *y, global float *w, int n, int count)
{
    int b = get_global_id(0);
    if (b >= count) return;
    global float *a = w + (long)b * n * n;
    for (int i = 0; i < n * n; i++) a[i] = LD(x, (long)b * n * n + i);
    float det = 1.0f;
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (fabs(a[i * n + k]) > fabs(a[p * n + k])) p = i;
        if (p != k) {
            for (int j = k; j < n; j++) {
                float t = a[k * n + j];
                a[k * n + j] = a[p * n + j];
                a[p * n + j] = t;
            }
            det = -det;
        }
        float piv = a[k * n + k];
        det *= piv;
        if (piv == 0.0f) break;
        for (int i = k + 1; i < n; i++) {
            float f = a[i * n + k] / piv;
            for (int j = k + 1; j < n; j++) a[i * n + j] = fma(-f, a[k * n + j], a[i * n + j]);
        }
    }
    ST(y, b, det);
}

#endif /* !S_IS_F64 */
