/* copy.cl - template (S = u8, u16, u32, u64: the element size): a strided copy over an
 * iteration space of rank dims (Transpose, Slice, Concat and Split are all such copies);
 * Trilu, Pad and Resize in nearest mode (below).
 * g holds the dims, then the source strides, then the destination strides (negative
 * strides walk backwards: Slice with negative steps). Work-item (x, y) copies element x
 * of row y, a row being the last dimension (length inner, strides sx and dx): the outer
 * coordinates are decoded once per row, not per element. */

kernel void KN(copy_strided)(global const TY *restrict src, int sbase, global TY *restrict dst, int dbase,
                             int inner, int outer, int sx, int dx, int rank, global const int *restrict g)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (y >= outer) return;
    int so = sbase, dof = dbase;
    for (int d = rank - 2; d >= 0; d--) {
        int c = y % g[d];
        y /= g[d];
        so += c * g[rank + d];
        dof += c * g[2 * rank + d];
    }
    global const TY *s = src + so;
    global TY *t = dst + dof;
    if (x < inner) t[x * dx] = s[x * sx];
}

/* Trilu over rows of cols elements (the last two dims: rows x cols per matrix): element
 * (r, c) is kept where c - r >= k (upper) or c - r <= k (lower), else 0. */
kernel void KN(copy_trilu)(global const TY *restrict x, global TY *restrict y, int n, int rows, int cols, int k,
                           int upper)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int c = i % cols, r = (i / cols) % rows;
    int keep = upper ? c - r >= k : c - r <= k;
    y[i] = keep ? x[i] : (TY)0;
}

/* Pad: output element i (rank dims) from the input element each dim maps it to, or the
 * constant c[0]. g holds the output dims, the input dims, the begin pads and the input
 * strides; mode 0 constant, 1 edge, 2 reflect (as targets/lower.c's cc_lower_pad_source). */
kernel void KN(copy_pad)(global const TY *restrict x, global TY *restrict y, int n, int rank, int mode,
                         global const TY *restrict c, global const int *restrict g)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int rem = i, off = 0;
    for (int d = rank - 1; d >= 0; d--) {
        int o = rem % g[d], len = g[rank + d];
        rem /= g[d];
        int s = o - g[2 * rank + d];
        if (s < 0 || s >= len) {
            if (mode == 0) {
                y[i] = c[0];
                return;
            }
            if (mode == 1 || len == 1) {
                s = s < 0 ? 0 : len - 1;
            } else {
                int period = 2 * (len - 1);
                s %= period;
                if (s < 0) s += period;
                if (s >= len) s = period - s;
            }
        }
        off += s * g[3 * rank + d];
    }
    y[i] = x[off];
}

/* Resize in nearest mode (resize.c, for the dtypes whose elements it moves as words):
 * output element i is the input element at the sum, over the axes, of the one tap its
 * coordinate o has on each, tidx[toff[a] + o] (an input offset); a tap of -1 marks a
 * coordinate outside tf_crop_and_resize's crop, whose output is the fill value c[0] (the
 * extrapolation_value in the dtype). g is resize.cl's geometry: r, then the output dims[r],
 * taps per axis (1 here), table offsets toff[r]. */
kernel void KN(copy_taps)(global const TY *restrict x, global TY *restrict y, int n, global const int *restrict g,
                          global const int *restrict tidx, global const TY *restrict c)
{
    int i = get_global_id(0);
    if (i >= n) return;
    int r = g[0], rem = i, off = 0;
    global const int *dims = g + 1, *toff = g + 1 + 2 * r;
    for (int a = r - 1; a >= 0; a--) {
        int t = tidx[toff[a] + rem % dims[a]];
        rem /= dims[a];
        if (t < 0) {
            y[i] = c[0];
            return;
        }
        off += t;
    }
    y[i] = x[off];
}
