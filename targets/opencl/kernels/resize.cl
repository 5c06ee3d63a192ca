/* resize.cl - template (S = f32, f16, bf16, i8, u8): Resize by per-axis tap tables the
 * host computes (coordinate transform, nearest rounding, linear or cubic weights,
 * clamping, exclude_outside), one work-item per output element; GridSample (float
 * storage only) at the end.
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
