/* gemm_tiled.cl - template (S = f32, f16, bf16; TS = tile edge, WPT = outputs per
 * work-item along each axis): the same product as gemm_naive.cl (same arguments), with a
 * TS x TS tile of C per work-group of (TS/WPT) x (TS/WPT) work-items. Each step stages a
 * TS x TK slice of A and a TK x TS slice of B in local memory (converted to f32), then
 * every work-item updates its WPT x WPT register block from it. Tiles past the edges of
 * M, N and K are zero-filled, so any shape is valid. Loads run along whichever of m/k (A)
 * and k/n (B) is contiguous in memory. */

#define TK 16
#define RT (TS / WPT)

__attribute__((reqd_work_group_size(RT, RT, 1)))
kernel void KN(PASTE(gemm_t, TS))(int M, int N, int K,
                                  global const TY *A, int sam, int sak,
                                  global const TY *B, int sbk, int sbn,
                                  global TY *C, int scm,
                                  global const TY *bias, int sbm, int sbn2, int has_bias,
                                  float alpha, float beta, global const int *boff)
{
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int tid = ty * RT + tx;
    const int n0 = get_group_id(0) * TS, m0 = get_group_id(1) * TS;
    global const int *o = boff + 4 * get_global_id(2);
    global const TY *a = A + o[0];
    global const TY *b = B + o[1];
    local float As[TK][TS];
    local float Bs[TK][TS];
    float acc[WPT][WPT];
    for (int i = 0; i < WPT; i++)
        for (int j = 0; j < WPT; j++) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += TK) {
        STAGE_TILE(As, sak == 1, m0, k0, (gx < M && gk < K) ? LD(a, gx * sam + gk * sak) : 0.0f);
        STAGE_TILE(Bs, sbn != 1, n0, k0, (gx < N && gk < K) ? LD(b, gk * sbk + gx * sbn) : 0.0f);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TK; k++) {
            float ra[WPT], rb[WPT];
            for (int i = 0; i < WPT; i++) ra[i] = As[k][ty + i * RT];
            for (int j = 0; j < WPT; j++) rb[j] = Bs[k][tx + j * RT];
            for (int i = 0; i < WPT; i++)
                for (int j = 0; j < WPT; j++) acc[i][j] = fma(ra[i], rb[j], acc[i][j]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    for (int i = 0; i < WPT; i++) {
        int m = m0 + ty + i * RT;
        if (m >= M) continue;
        for (int j = 0; j < WPT; j++) {
            int n = n0 + tx + j * RT;
            if (n >= N) continue;
            float v = alpha * acc[i][j];
            if (has_bias) v += beta * LD(bias, o[3] + m * sbm + n * sbn2);
            ST(C, o[2] + m * scm + n, v);
        }
    }
}
