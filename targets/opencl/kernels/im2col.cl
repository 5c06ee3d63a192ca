/* im2col.cl - template (S = u8, u16, u32: the element size): unfolds one image of x
 * (C x D x H x W, starting at element x_off) into col, a (C*KD*KH*KW) x (OD*OH*OW) matrix:
 * row (c, kd, kh, kw), column (od, oh, ow) holds the input element that tap of that
 * output reads, or `pad` where the tap falls in the padding (0 for floats, the input zero
 * point for 8-bit data). A pure copy: no arithmetic on the values.
 * Work-item (i, row) fills the OW columns of output row i = od*OH + oh of col row `row`,
 * so the index arithmetic is paid once per OW elements; rows is C*KD*KH*KW.
 * g: C, D, H, W, OD, OH, OW, KD, KH, KW, stride D/H/W, dilation D/H/W, pad-begin D/H/W. */

kernel void KN(im2col)(global const TY *x, int x_off, global TY *col, int rows, int pad,
                       global const int *g)
{
    const int i = get_global_id(0), row = get_global_id(1);
    const int D = g[1], H = g[2], W = g[3];
    const int OD = g[4], OH = g[5], OW = g[6];
    const int KD = g[7], KH = g[8], KW = g[9];
    if (i >= OD * OH || row >= rows) return;
    int oh = i % OH, od = i / OH;
    int kw = row % KW, t = row / KW;
    int kh = t % KH;
    t /= KH;
    int kd = t % KD, c = t / KD;
    int id = od * g[10] - g[16] + kd * g[13];
    int ih = oh * g[11] - g[17] + kh * g[14];
    global TY *out = col + (row * OD * OH + i) * OW;
    if (id < 0 || id >= D || ih < 0 || ih >= H) {
        for (int ow = 0; ow < OW; ow++) out[ow] = (TY)pad;
        return;
    }
    global const TY *in = x + x_off + ((c * D + id) * H + ih) * W;
    const int sw = g[12], iw0 = kw * g[15] - g[18];
    for (int ow = 0; ow < OW; ow++) {
        int iw = ow * sw + iw0;
        out[ow] = iw >= 0 && iw < W ? in[iw] : (TY)pad;
    }
}
