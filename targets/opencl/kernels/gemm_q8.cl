/* gemm_q8.cl - template (S names the operand pair, TA/TB their 8-bit types; TS/WPT as in
 * gemm_tiled.cl, RM/VN as in gemm_vec.cl): the integer product of the 8-bit ops, sum_k (A - azp) (B - bzp) exactly
 * in int32, then either stored as int32 (mode 0: ConvInteger, MatMulInteger) or
 * requantized (mode 1: u8, mode 2: i8; QLinearConv, QLinearMatMul):
 *     y = saturate(rint((acc + bias) * rmul[m] * cmul[n]) + yzp)
 * rint rounds half to even. Zero points are int32 arrays indexed along m (azp, stride azs
 * 0 or 1) and n (bzp, stride bzs); the multipliers likewise (rms, cms).
 *
 * boff holds eight element offsets per batch z: A, B, C (in elements of C's type), bias,
 * azp, bzp, rmul, cmul. Three kernels: q8_naive (one work-item per output), q8_t<TS>
 * (local-memory tiles, (TS/WPT)^2 work-items per group) and q8_vec (explicit SIMD). */

#define TK 16
#define RT (TS / WPT)

int KN(q8_finish)(int acc, int m, int n, global uchar *C, int ci, int mode,
              global const int *bias, int qo, int sbm, int sbn2, int has_bias,
              global const float *rmul, int ro, int rms, global const float *cmul, int cmo,
              int cms, int yzp)
{
    int v = acc + (has_bias ? bias[qo + m * sbm + n * sbn2] : 0);
    if (mode == 0) {
        ((global int *)C)[ci] = v;
        return 0;
    }
    float q = rint((float)v * rmul[ro + m * rms] * cmul[cmo + n * cms]) + (float)yzp;
    if (mode == 1) C[ci] = convert_uchar_sat(q);
    else ((global char *)C)[ci] = convert_char_sat(q);
    return 0;
}

kernel void KN(q8_naive)(int M, int N, int K,
                         global const TA *A, int sam, int sak,
                         global const TB *B, int sbk, int sbn,
                         global uchar *C, int scm, int mode,
                         global const int *azp, int azs, global const int *bzp, int bzs,
                         global const int *bias, int sbm, int sbn2, int has_bias,
                         global const float *rmul, int rms, global const float *cmul, int cms,
                         int yzp, global const int *boff)
{
    int n = get_global_id(0), m = get_global_id(1), z = get_global_id(2);
    if (n >= N || m >= M) return;
    global const int *o = boff + 8 * z;
    global const TA *a = A + o[0] + m * sam;
    global const TB *b = B + o[1] + n * sbn;
    int za = azp[o[4] + m * azs], zb = bzp[o[5] + n * bzs];
    int acc = 0;
    for (int k = 0; k < K; k++) acc += ((int)a[k * sak] - za) * ((int)b[k * sbk] - zb);
    KN(q8_finish)(acc, m, n, C, o[2] + m * scm + n, mode, bias, o[3], sbm, sbn2, has_bias, rmul,
              o[6], rms, cmul, o[7], cms, yzp);
}

__attribute__((reqd_work_group_size(RT, RT, 1)))
kernel void KN(PASTE(q8_t, TS))(int M, int N, int K,
                                global const TA *A, int sam, int sak,
                                global const TB *B, int sbk, int sbn,
                                global uchar *C, int scm, int mode,
                                global const int *azp, int azs, global const int *bzp, int bzs,
                                global const int *bias, int sbm, int sbn2, int has_bias,
                                global const float *rmul, int rms, global const float *cmul,
                                int cms, int yzp, global const int *boff)
{
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int tid = ty * RT + tx;
    const int n0 = get_group_id(0) * TS, m0 = get_group_id(1) * TS;
    global const int *o = boff + 8 * get_global_id(2);
    global const TA *a = A + o[0];
    global const TB *b = B + o[1];
    local int As[TK][TS];
    local int Bs[TK][TS];
    int acc[WPT][WPT];
    for (int i = 0; i < WPT; i++)
        for (int j = 0; j < WPT; j++) acc[i][j] = 0;

    for (int k0 = 0; k0 < K; k0 += TK) {
        STAGE_TILE(As, sak == 1, m0, k0,
                   (gx < M && gk < K) ? (int)a[gx * sam + gk * sak] - azp[o[4] + gx * azs] : 0);
        STAGE_TILE(Bs, sbn != 1, n0, k0,
                   (gx < N && gk < K) ? (int)b[gk * sbk + gx * sbn] - bzp[o[5] + gx * bzs] : 0);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TK; k++) {
            int ra[WPT], rb[WPT];
            for (int i = 0; i < WPT; i++) ra[i] = As[k][ty + i * RT];
            for (int j = 0; j < WPT; j++) rb[j] = Bs[k][tx + j * RT];
            for (int i = 0; i < WPT; i++)
                for (int j = 0; j < WPT; j++) acc[i][j] += ra[i] * rb[j];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    for (int i = 0; i < WPT; i++) {
        int m = m0 + ty + i * RT;
        if (m >= M) continue;
        for (int j = 0; j < WPT; j++) {
            int n = n0 + tx + j * RT;
            if (n >= N) continue;
            KN(q8_finish)(acc[i][j], m, n, C, o[2] + m * scm + n, mode, bias, o[3], sbm, sbn2, has_bias,
                      rmul, o[6], rms, cmul, o[7], cms, yzp);
        }
    }
}

/* The same product with explicit SIMD for CPU devices (see gemm_vec.cl): each work-item
 * owns an RM x VN block, per k one VN-wide load of B's row (zero points subtracted as a
 * vector) times RM broadcast elements of A, accumulated in RM int vectors. */
#define QV PASTE(int, VN)

kernel void KN(q8_vec)(int M, int N, int K,
                       global const TA *A, int sam, int sak,
                       global const TB *B, int sbk, int sbn,
                       global uchar *C, int scm, int mode,
                       global const int *azp, int azs, global const int *bzp, int bzs,
                       global const int *bias, int sbm, int sbn2, int has_bias,
                       global const float *rmul, int rms, global const float *cmul, int cms,
                       int yzp, global const int *boff)
{
    const int n0 = get_global_id(0) * VN, m0 = get_global_id(1) * RM;
    if (n0 >= N || m0 >= M) return;
    global const int *o = boff + 8 * get_global_id(2);
    global const TA *a[RM];
    int za[RM];
    for (int i = 0; i < RM; i++) {
        int row = min(m0 + i, M - 1);
        a[i] = A + o[0] + row * sam;
        za[i] = azp[o[4] + row * azs];
    }
    global const TB *b = B + o[1] + n0 * sbn;
    const int nn = min(VN, N - n0);
    int zs[VN];
    for (int j = 0; j < VN; j++) zs[j] = bzp[o[5] + min(n0 + j, N - 1) * bzs];
    const QV zb = PASTE(vload, VN)(0, zs);
    QV acc[RM];
    for (int i = 0; i < RM; i++) acc[i] = (QV)(0);
    if (sbn == 1 && nn == VN) {
        int k = 0;
        for (; k + 4 <= K; k += 4) { /* unrolled by hand: four rows of B in flight */
            QV b0 = PASTE(convert_int, VN)(PASTE(vload, VN)(0, b + k * sbk)) - zb;
            QV b1 = PASTE(convert_int, VN)(PASTE(vload, VN)(0, b + (k + 1) * sbk)) - zb;
            QV b2 = PASTE(convert_int, VN)(PASTE(vload, VN)(0, b + (k + 2) * sbk)) - zb;
            QV b3 = PASTE(convert_int, VN)(PASTE(vload, VN)(0, b + (k + 3) * sbk)) - zb;
            for (int i = 0; i < RM; i++)
                acc[i] += (QV)((int)a[i][k * sak] - za[i]) * b0 + (QV)((int)a[i][(k + 1) * sak] - za[i]) * b1 +
                          (QV)((int)a[i][(k + 2) * sak] - za[i]) * b2 + (QV)((int)a[i][(k + 3) * sak] - za[i]) * b3;
        }
        for (; k < K; k++) {
            QV bv = PASTE(convert_int, VN)(PASTE(vload, VN)(0, b + k * sbk)) - zb;
            for (int i = 0; i < RM; i++) acc[i] += (QV)((int)a[i][k * sak] - za[i]) * bv;
        }
    } else {
        for (int k = 0; k < K; k++) {
            int bs[VN];
            for (int j = 0; j < VN; j++) bs[j] = j < nn ? (int)b[k * sbk + j * sbn] : 0;
            QV bv = PASTE(vload, VN)(0, bs) - zb;
            for (int i = 0; i < RM; i++) acc[i] += (QV)((int)a[i][k * sak] - za[i]) * bv;
        }
    }
    for (int i = 0; i < RM; i++) {
        int m = m0 + i;
        if (m >= M) break;
        int r[VN];
        PASTE(vstore, VN)(acc[i], 0, r);
        for (int j = 0; j < nn; j++)
            KN(q8_finish)(r[j], m, n0 + j, C, o[2] + m * scm + n0 + j, mode, bias, o[3], sbm, sbn2,
                          has_bias, rmul, o[6], rms, cmul, o[7], cms, yzp);
    }
}
