/* resize.cl - template (S = f32, f16, bf16, i8, u8): Resize by per-axis tap tables the
 * host computes (coordinate transform, nearest rounding, linear or cubic weights,
 * clamping, exclude_outside), one work-item per output element; GridSample and RoiAlign
 * (float storage only) at the end.
 *
 * g: r, then the output dims[r], taps per axis nt[r], table offsets toff[r]. For output
 * coordinate o on axis a, taps toff[a] + o*nt[a] .. + nt[a]-1 hold the input element
 * offsets along that axis (index * input stride) in tidx and the weights in tw; a tidx of
 * -1 marks a coordinate outside the crop (tf_crop_and_resize): the output is extrap.
 * Axes with one tap only move the base offset; the others are combined (all products of
 * their taps), accumulating in f32. Integer outputs round half to even and saturate. */

kernel void KN(resize)(global const TY *x, global TY *y, int n, int r, global const int *g,
                       global const int *tidx, global const float *tw, float extrap)
{
    int i = get_global_id(0);
    if (i >= n) return;
    global const int *dims = g + 1, *nt = g + 1 + r, *toff = g + 1 + 2 * r;
    int first[8], count[8];
    int na = 0, base = 0, rem = i;
    for (int a = r - 1; a >= 0; a--) {
        int o = rem % dims[a];
        rem /= dims[a];
        int t0 = toff[a] + o * nt[a];
        if (tidx[t0] < 0) {
            ST(y, i, extrap);
            return;
        }
        if (nt[a] == 1) {
            base += tidx[t0];
        } else {
            first[na] = t0;
            count[na] = nt[a];
            na++;
        }
    }
    int combos = 1;
    for (int k = 0; k < na; k++) combos *= count[k];
    float acc = 0.0f;
    for (int t = 0; t < combos; t++) {
        int q = t, off = base;
        float w = 1.0f;
        for (int k = 0; k < na; k++) {
            int tap = first[k] + q % count[k];
            q /= count[k];
            off += tidx[tap];
            w *= tw[tap];
        }
        acc = fma(w, LD(x, off), acc);
    }
    ST(y, i, acc);
}

/* GridSample (opset 16; ops/resize_gridsample.c states the semantics): one work-item per
 * grid point (image n, point q of pts), looping over the c channels; the grid has the
 * image's storage type. Along axis a (0: x over w, 1: y over h) the point's coordinate is
 * fma(g, sc[a], of[a]), padded outside [lo[a], hi[a]]; mode 0 bilinear, 1 nearest (ties to
 * even, decided on the exact coordinate), 2 bicubic (Keys, A = -0.75); pad 0 zeros, 1
 * border, 2 reflection. A tap index is -1 where it reads 0. A grid point that is not
 * finite gives NaN. */

int gs_pad_tap(int i, int len, int pad, int align)
{
    if (i >= 0 && i < len) return i;
    if (pad == 0) return -1;
    if (pad == 1 || (align && len == 1)) return i < 0 ? 0 : len - 1;
    int period = align ? 2 * (len - 1) : 2 * len, m = i % period;
    if (m < 0) m += period;
    if (m < len) return m;
    return align ? period - m : period - 1 - m;
}

/* the taps of coordinate v along an axis: their count, indices and weights */
int gs_taps(float v, float sc, float of, float lo, float hi, int len, int mode, int pad, int align, int *idx,
            float *w)
{
    float x = fma(v, sc, of);
    if (mode == 1) {
        float r = rint(x);
        if (fabs(x - r) == 0.5f) {
            float d = fma(v, sc, of - x);
            if (d != 0.0f) r = d > 0.0f ? x + 0.5f : x - 0.5f;
        }
        x = r;
    }
    if (x < lo || x > hi) {
        if (pad == 1) {
            x = fmin(fmax(x, 0.0f), (float)(len - 1));
        } else if (pad == 2) {
            float span = hi - lo, m = fmod(fabs(x - lo), 2.0f * span);
            x = span > 0.0f ? lo + (m > span ? 2.0f * span - m : m) : lo;
        } else {
            x = fmin(fmax(x, lo - 3.0f), hi + 3.0f);
        }
    }
    if (mode == 1) {
        idx[0] = gs_pad_tap((int)x, len, pad, align);
        w[0] = 1.0f;
        return 1;
    }
    float f = floor(x), u = x - f, s = 1.0f - u;
    int i0 = (int)f;
    if (mode == 0) {
        idx[0] = gs_pad_tap(i0, len, pad, align);
        idx[1] = gs_pad_tap(i0 + 1, len, pad, align);
        w[0] = s;
        w[1] = u;
        return 2;
    }
    const float A = -0.75f;
    for (int k = 0; k < 4; k++) idx[k] = gs_pad_tap(i0 - 1 + k, len, pad, align);
    w[0] = A * u * s * s;
    w[1] = s * (1.0f + u - (A + 2.0f) * u * u);
    w[2] = u * (1.0f + s - (A + 2.0f) * s * s);
    w[3] = A * u * u * s;
    return 4;
}

kernel void KN(gridsample)(global const TY *x, global const TY *grid, global TY *y, int total, int c, int h,
                           int w, int pts, int mode, int pad, int align, float scx, float ofx, float lox, float hix,
                           float scy, float ofy, float loy, float hiy)
{
    int e = get_global_id(0);
    if (e >= total) return;
    int n = e / pts, q = e - n * pts;
    float gx = LD(grid, 2 * e), gy = LD(grid, 2 * e + 1);
    int ybase = n * c * pts + q;
    if (!isfinite(gx) || !isfinite(gy)) {
        for (int ch = 0; ch < c; ch++) ST(y, ybase + ch * pts, NAN);
        return;
    }
    int ix[4], iy[4];
    float wx[4], wy[4];
    int nx = gs_taps(gx, scx, ofx, lox, hix, w, mode, pad, align, ix, wx);
    int ny = gs_taps(gy, scy, ofy, loy, hiy, h, mode, pad, align, iy, wy);
    for (int ch = 0; ch < c; ch++) {
        int img = (n * c + ch) * h * w;
        float acc = 0.0f;
        for (int i = 0; i < ny; i++) {
            if (iy[i] < 0) continue;
            int row = img + iy[i] * w;
            float r = 0.0f;
            for (int j = 0; j < nx; j++)
                if (ix[j] >= 0) r = fma(wx[j], LD(x, row + ix[j]), r);
            acc = fma(wy[i], r, acc);
        }
        ST(y, ybase + ch * pts, acc);
    }
}

/* RoiAlign (opset 16; ops/resize_roialign.c states the semantics): one work-item per
 * output element (roi r, channel ch, bin ph, pw); rois have the image's storage type, the
 * batch indices are long. A roi's geometry, per axis, is ../lower.h's float32 formula:
 * start = fma(lo, scale, -offset), size = (hi - lo) * scale (at least 1 where min_one),
 * bin = size / out, the grid sampling or the least g with g * out >= size, and sample i of
 * bin b at fma(bin, (2 (b grid + i) + 1) / (2 grid), start). max_mode: the largest weighted
 * corner over the bin's samples (a sample outside counts 0), else their sum over the
 * samples. A batch index outside [0, n) writes 0: the golden model and the cpu backend
 * refuse it. */

int ra_grid(float size, float bin, float out, int sampling)
{
    if (sampling > 0) return sampling;
    if (!(size > 0.0f)) return 0;
    if (!(bin <= 2048.0f)) return 2048;
    int k = max((int)ceil(bin), 1);
    while (k > 1 && (float)(k - 1) * out >= size) k--;
    while ((float)k * out < size) k++;
    return min(k, 2048);
}

/* the sample at v over len pixels: 0 outside [-1, len]; else its two pixels and weights */
int ra_tap(float v, int len, int *i0, int *i1, float *w0, float *w1)
{
    if (!(v >= -1.0f && v <= (float)len)) return 0;
    v = fmax(v, 0.0f);
    int lo = (int)v;
    if (lo >= len - 1) {
        *i0 = *i1 = len - 1;
        *w0 = 1.0f;
        *w1 = 0.0f;
    } else {
        *i0 = lo;
        *i1 = lo + 1;
        *w1 = v - (float)lo;
        *w0 = 1.0f - *w1;
    }
    return 1;
}

kernel void KN(roialign)(global const TY *x, global const TY *rois, global const long *bi, global TY *y, int total,
                         int n, int c, int h, int w, int oh, int ow, int sampling, int max_mode, int min_one,
                         float scale, float offset)
{
    int e = get_global_id(0);
    if (e >= total) return;
    int pw = e % ow, t = e / ow, ph = t % oh;
    t /= oh;
    int ch = t % c, r = t / c;
    long b = bi[r];
    if (b < 0 || b >= n) {
        ST(y, e, 0.0f);
        return;
    }
    float x1 = LD(rois, 4 * r), y1 = LD(rois, 4 * r + 1), x2 = LD(rois, 4 * r + 2), y2 = LD(rois, 4 * r + 3);
    float sy = fma(y1, scale, -offset), sx = fma(x1, scale, -offset);
    float hs = (y2 - y1) * scale, ws = (x2 - x1) * scale;
    if (min_one) {
        hs = fmax(hs, 1.0f);
        ws = fmax(ws, 1.0f);
    }
    float bh = hs / (float)oh, bw = ws / (float)ow;
    int gy = ra_grid(hs, bh, (float)oh, sampling), gx = ra_grid(ws, bw, (float)ow, sampling);
    if (gy <= 0 || gx <= 0) {
        ST(y, e, 0.0f);
        return;
    }
    int img = ((int)b * c + ch) * h * w;
    float acc = 0.0f, best = -INFINITY;
    for (int i = 0; i < gy; i++) {
        float vy = fma(bh, (float)(2 * (ph * gy + i) + 1) / (float)(2 * gy), sy);
        int y0, y1i;
        float wy0, wy1;
        int iny = ra_tap(vy, h, &y0, &y1i, &wy0, &wy1);
        for (int j = 0; j < gx; j++) {
            float vx = fma(bw, (float)(2 * (pw * gx + j) + 1) / (float)(2 * gx), sx);
            int x0, x1i;
            float wx0, wx1;
            if (!iny || !ra_tap(vx, w, &x0, &x1i, &wx0, &wx1)) {
                best = fmax(best, 0.0f);
                continue;
            }
            float c00 = wy0 * wx0 * LD(x, img + y0 * w + x0), c01 = wy0 * wx1 * LD(x, img + y0 * w + x1i);
            float c10 = wy1 * wx0 * LD(x, img + y1i * w + x0), c11 = wy1 * wx1 * LD(x, img + y1i * w + x1i);
            if (max_mode)
                best = fmax(best, fmax(fmax(c00, c01), fmax(c10, c11)));
            else
                acc += (c00 + c01) + (c10 + c11);
        }
    }
    ST(y, e, max_mode ? best : acc / (float)(gy * gx));
}
