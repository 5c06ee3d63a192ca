/* conv_direct.cl - template (S = f32, f16, bf16): a convolution computed directly, one
 * work-item per output element, for grouped and depthwise layers whose per-output
 * reduction is short (im2col + GEMM would mostly move data there). Accumulates in f32
 * with fma; padding contributes nothing; bias optional.
 * g: N, C, D, H, W, M, OD, OH, OW, KD, KH, KW, stride D/H/W, dilation D/H/W,
 *    pad-begin D/H/W, group. */

kernel void KN(conv_direct)(global const TY *restrict x, global const TY *restrict w,
                            global const TY *restrict bias, int has_bias, global TY *restrict y, int n,
                            global const int *restrict g)
{
    int i = get_global_id(0);
    if (i >= n) return;
    const int C = g[1], D = g[2], H = g[3], W = g[4], M = g[5];
    const int OD = g[6], OH = g[7], OW = g[8];
    const int KD = g[9], KH = g[10], KW = g[11];
    const int DD = g[15], DH = g[16], DW = g[17];
    const int group = g[21];
    int ow = i % OW, t = i / OW;
    int oh = t % OH;
    t /= OH;
    int od = t % OD;
    t /= OD;
    int m = t % M, img = t / M;
    int cg = C / group, mg = M / group;
    int c0 = (m / mg) * cg;
    int id0 = od * g[12] - g[18], ih0 = oh * g[13] - g[19], iw0 = ow * g[14] - g[20];
    float acc = 0.0f;
    for (int c = 0; c < cg; c++) {
        global const TY *xc = x + (img * C + c0 + c) * D * H * W;
        global const TY *wc = w + (m * cg + c) * KD * KH * KW;
        for (int kd = 0; kd < KD; kd++) {
            int id = id0 + kd * DD;
            if (id < 0 || id >= D) continue;
            for (int kh = 0; kh < KH; kh++) {
                int ih = ih0 + kh * DH;
                if (ih < 0 || ih >= H) continue;
                for (int kw = 0; kw < KW; kw++) {
                    int iw = iw0 + kw * DW;
                    if (iw < 0 || iw >= W) continue;
                    acc = fma(LD(xc, (id * H + ih) * W + iw), LD(wc, (kd * KH + kh) * KW + kw), acc);
                }
            }
        }
    }
    if (has_bias) acc += LD(bias, m);
    ST(y, i, acc);
}

/* ConvTranspose, one work-item per output element: the sum over the channels of the
 * output's group and the taps whose input position i = (o + pad0 - k * dilation) / stride
 * is whole and inside the input. w is C x M/group x taps.
 * g: N, C, D, H, W, M, OD, OH, OW, KD, KH, KW, stride D/H/W, dilation D/H/W,
 *    pad-begin D/H/W (negative: output beyond the full size), group. */
kernel void KN(conv_transpose)(global const TY *restrict x, global const TY *restrict w,
                               global const TY *restrict bias, int has_bias, global TY *restrict y, int n,
                               global const int *restrict g)
{
    int i = get_global_id(0);
    if (i >= n) return;
    const int C = g[1], D = g[2], H = g[3], W = g[4], M = g[5];
    const int OD = g[6], OH = g[7], OW = g[8];
    const int KD = g[9], KH = g[10], KW = g[11];
    const int SD = g[12], SH = g[13], SW = g[14], DD = g[15], DH = g[16], DW = g[17];
    const int group = g[21];
    int ow = i % OW, t = i / OW;
    int oh = t % OH;
    t /= OH;
    int od = t % OD;
    t /= OD;
    int m = t % M, img = t / M;
    int cg = C / group, mg = M / group;
    int c0 = (m / mg) * cg, mm = m % mg;
    float acc = 0.0f;
    for (int kd = 0; kd < KD; kd++) {
        int td = od + g[18] - kd * DD;
        if (td < 0 || td % SD) continue;
        int id = td / SD;
        if (id >= D) continue;
        for (int kh = 0; kh < KH; kh++) {
            int th = oh + g[19] - kh * DH;
            if (th < 0 || th % SH) continue;
            int ih = th / SH;
            if (ih >= H) continue;
            for (int kw = 0; kw < KW; kw++) {
                int tw = ow + g[20] - kw * DW;
                if (tw < 0 || tw % SW) continue;
                int iw = tw / SW;
                if (iw >= W) continue;
                int tap = (kd * KH + kh) * KW + kw;
                for (int c = 0; c < cg; c++)
                    acc = fma(LD(x, ((img * C + c0 + c) * D + id) * H * W + ih * W + iw),
                              LD(w, ((c0 + c) * mg + mm) * KD * KH * KW + tap), acc);
            }
        }
    }
    if (has_bias) acc += LD(bias, m);
    ST(y, i, acc);
}
