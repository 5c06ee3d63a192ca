/* pool.cl - template (S = f32, f16, bf16, i8, u8): MaxPool and AveragePool over 1 to 3
 * spatial axes (as D x H x W), and MaxUnpool (at the end), one work-item per output element: work-item (ow, r) with
 * r = (plane * OD + od) * OH + oh, planes being N*C. Taps outside the input are skipped.
 * AveragePool divides by the taps on the input, or with count_include_pad by the taps
 * inside the padded input [-pad_begin, in + pad_end) (a ceil_mode window reaching past
 * the end padding does not count its overhang). Values compare and sum as f32 (8-bit and
 * 16-bit values convert exactly).
 * g: D, H, W, OD, OH, OW, KD, KH, KW, stride D/H/W, dilation D/H/W, pad-begin D/H/W,
 *    pad-end D/H/W. */

#define POOL_GEOMETRY                                                                     \
    const int D = g[0], H = g[1], W = g[2], OD = g[3], OH = g[4], OW = g[5];              \
    const int KD = g[6], KH = g[7], KW = g[8], SD = g[9], SH = g[10], SW = g[11];         \
    const int DD = g[12], DH = g[13], DW = g[14], PD = g[15], PH = g[16], PW = g[17];     \
    const int ED = g[18], EH = g[19], EW = g[20];                                         \
    const int ow = get_global_id(0), r = get_global_id(1);                                \
    if (r >= rows || ow >= OW) return;                                                    \
    const int oh = r % OH, t = r / OH, od = t % OD, plane = t / OD;                       \
    global const TY *xp = x + plane * D * H * W;                                          \
    const int id0 = od * SD - PD, ih0 = oh * SH - PH, iw0 = ow * SW - PW;

kernel void KN(maxpool)(global const TY *restrict x, global TY *restrict y, int rows,
                        global const int *restrict g)
{
    POOL_GEOMETRY
    float best = -INFINITY;
    for (int kd = 0; kd < KD; kd++) {
        int id = id0 + kd * DD;
        if (id < 0 || id >= D) continue;
        for (int kh = 0; kh < KH; kh++) {
            int ih = ih0 + kh * DH;
            if (ih < 0 || ih >= H) continue;
            global const TY *row = xp + (id * H + ih) * W;
            for (int kw = 0; kw < KW; kw++) {
                int iw = iw0 + kw * DW;
                if (iw < 0 || iw >= W) continue;
                float v = LD(row, iw);
                best = v > best ? v : best;
            }
        }
    }
    ST(y, r * OW + ow, best);
}

/* MaxPool with Indices: the first tap in scan order holding the maximum (where every tap
 * is -inf, the first tap on the input), and its flat index into x: plane * D*H*W plus the
 * spatial offset, row-major ((id * H + ih) * W + iw) or, with col_major, column-major over
 * the spatial axes ((iw * H + ih) * D + id). */
kernel void KN(maxpool_idx)(global const TY *restrict x, global TY *restrict y, global long *restrict ind, int rows,
                            global const int *restrict g, int col_major)
{
    POOL_GEOMETRY
    float best = -INFINITY;
    int at = -1, first = -1;
    for (int kd = 0; kd < KD; kd++) {
        int id = id0 + kd * DD;
        if (id < 0 || id >= D) continue;
        for (int kh = 0; kh < KH; kh++) {
            int ih = ih0 + kh * DH;
            if (ih < 0 || ih >= H) continue;
            for (int kw = 0; kw < KW; kw++) {
                int iw = iw0 + kw * DW;
                if (iw < 0 || iw >= W) continue;
                float v = LD(xp, (id * H + ih) * W + iw);
                int s = col_major ? (iw * H + ih) * D + id : (id * H + ih) * W + iw;
                if (first < 0) first = s;
                if (v > best) {
                    best = v;
                    at = s;
                }
            }
        }
    }
    ST(y, r * OW + ow, best);
    ind[r * OW + ow] = (long)plane * (long)(D * H * W) + (long)(at >= 0 ? at : first);
}

kernel void KN(avgpool)(global const TY *restrict x, global TY *restrict y, int rows, int include_pad,
                        global const int *restrict g)
{
    POOL_GEOMETRY
    float sum = 0.0f;
    int real = 0, padded = 0;
    for (int kd = 0; kd < KD; kd++) {
        int id = id0 + kd * DD;
        int pd = id >= -PD && id < D + ED;
        for (int kh = 0; kh < KH; kh++) {
            int ih = ih0 + kh * DH;
            int ph = ih >= -PH && ih < H + EH;
            for (int kw = 0; kw < KW; kw++) {
                int iw = iw0 + kw * DW;
                int pw = iw >= -PW && iw < W + EW;
                padded += pd && ph && pw;
                if (id < 0 || id >= D || ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                sum += LD(xp, (id * H + ih) * W + iw);
                real++;
            }
        }
    }
    int count = include_pad ? padded : real;
    ST(y, r * OW + ow, sum / (float)count);
}

/* MaxUnpool in three launches over an owner table (int32, one per unpooled element): -1
 * everywhere; then each element k of X claims the unpooled element its index names with
 * atomic_max, so the largest k, the last in X's order, owns it (an index outside
 * [0, nu) claims nothing); then output element o (of rank r, sides y = d[0..r), the
 * unpooled sides u = d[r..2r) in its leading corner) copies X[owner] where it lies in the
 * unpooled corner and one owns it, else 0 (raw storage bits: every float dtype). */
kernel void KN(unpool_clear)(global int *restrict owner, int nu)
{
    int i = get_global_id(0);
    if (i < nu) owner[i] = -1;
}

kernel void KN(unpool_claim)(global const long *restrict ind, global int *owner, int nx, int nu)
{
    int k = get_global_id(0);
    if (k >= nx) return;
    long at = ind[k];
    if (at >= 0 && at < (long)nu) atomic_max(&owner[(int)at], k);
}

kernel void KN(unpool_gather)(global const TY *restrict x, global TY *restrict y, global const int *restrict owner,
                              int ny, int r, global const int *restrict d)
{
    int o = get_global_id(0);
    if (o >= ny) return;
    int rest = o, at = 0, unit = 1, inside = 1;
    for (int a = r - 1; a >= 0; a--) {
        int c = rest % d[a];
        rest /= d[a];
        inside = inside && c < d[r + a];
        at += c * unit;
        unit *= d[r + a];
    }
    int w = inside ? owner[at] : -1;
    y[o] = w >= 0 ? x[w] : (TY)0;
}
