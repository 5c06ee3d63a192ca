/* resize.cl - template (S = f32, f16, bf16, i8, u8): Resize by per-axis tap tables the
 * host computes (coordinate transform, nearest rounding, linear or cubic weights,
 * clamping, exclude_outside), one work-item per output element.
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
