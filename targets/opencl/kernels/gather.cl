/* gather.cl - template (S = u8, u16, u32, u64: the element size): Gather, GatherElements
 * and GatherND, each for int32 (suffix ix32) and int64 (ix64) indices, one work-item per
 * output element; ScatterND and ScatterElements (reduction none), one work-item per update
 * element; OneHot for int32, int64 and float32 (ixf32) indices; ReverseSequence, one
 * work-item per output element. A negative index counts
 * from the end of its dim; an index still outside the dim reads nothing and writes 0 (a
 * gather) or writes nothing (a scatter): the cpu backend and the golden model refuse it
 * (OneHot's writes off_value there, as it must). */

#define GATHER_KERNELS(IX, SFX)                                                                         \
/* y[o, j, i] = x[o, idx[j], i] over x as [outer, dim, inner] */                                        \
kernel void KN(gather_##SFX)(global const TY *restrict x, global TY *restrict y,                       \
                             global const IX *restrict idx, int outer, int dim, int nidx, int inner)   \
{                                                                                                       \
    int g = get_global_id(0);                                                                           \
    if (g >= outer * nidx * inner) return;                                                              \
    int i = g % inner, t = g / inner, j = t % nidx, o = t / nidx;                                       \
    long k = idx[j];                                                                                    \
    if (k < 0) k += dim;                                                                                \
    y[g] = k >= 0 && k < dim ? x[((long)o * dim + k) * inner + i] : (TY)0;                              \
}                                                                                                       \
/* The offset of position g (of indices' shape: meta[0..rank)) with its coordinate along axis \
 * replaced by k, by the strides meta[rank..2 rank) */                                                 \
long KN(elements_offset_##SFX)(int g, long k, int rank, int axis, global const int *restrict meta)     \
{                                                                                                       \
    long off = 0;                                                                                       \
    int rem = g;                                                                                        \
    for (int d = rank - 1; d >= 0; d--) {                                                               \
        int c = rem % meta[d];                                                                          \
        rem /= meta[d];                                                                                 \
        off += (d == axis ? k : c) * (long)meta[rank + d];                                              \
    }                                                                                                   \
    return off;                                                                                         \
}                                                                                                       \
/* y[p] = x[p with coordinate axis replaced by idx[p]]; meta: idx dims, then x strides */              \
kernel void KN(gather_elements_##SFX)(global const TY *restrict x, global TY *restrict y,              \
                                      global const IX *restrict idx, int n, int rank, int axis,        \
                                      int dim, global const int *restrict meta)                        \
{                                                                                                       \
    int g = get_global_id(0);                                                                           \
    if (g >= n) return;                                                                                 \
    long k = idx[g];                                                                                    \
    if (k < 0) k += dim;                                                                                \
    y[g] = k >= 0 && k < dim ? x[KN(elements_offset_##SFX)(g, k, rank, axis, meta)] : (TY)0;            \
}                                                                                                       \
/* y[bt, i] = x[(bt / tuples) * bsize + sum_k idx[bt, k] * stride_k + i]; meta: the m indexed dims,   \
 * then their strides */                                                                               \
kernel void KN(gather_nd_##SFX)(global const TY *restrict x, global TY *restrict y,                    \
                                global const IX *restrict idx, int count, int tuples, int m,           \
                                int inner, int bsize, global const int *restrict meta)                 \
{                                                                                                       \
    int g = get_global_id(0);                                                                           \
    if (g >= count * inner) return;                                                                     \
    int bt = g / inner, i = g % inner;                                                                  \
    long off = (long)(bt / tuples) * bsize;                                                             \
    for (int k = 0; k < m; k++) {                                                                       \
        long v = idx[(long)bt * m + k];                                                                 \
        if (v < 0) v += meta[k];                                                                        \
        if (v < 0 || v >= meta[k]) {                                                                    \
            y[g] = (TY)0;                                                                               \
            return;                                                                                     \
        }                                                                                               \
        off += v * meta[m + k];                                                                         \
    }                                                                                                   \
    y[g] = x[off + i];                                                                                  \
}                                                                                                       \
/* ScatterND (reduction none), after y := data: update element g (slice element e of update    \
 * j) to y[sum_t idx[j, t] * stride_t + e]; meta: the k indexed dims, then their strides */           \
kernel void KN(scatter_nd_##SFX)(global const TY *restrict u, global TY *restrict y,                   \
                                 global const IX *restrict idx, int count, int k, int slice,           \
                                 global const int *restrict meta)                                      \
{                                                                                                       \
    int g = get_global_id(0);                                                                           \
    if (g >= count * slice) return;                                                                     \
    int j = g / slice, e = g % slice;                                                                   \
    long off = 0;                                                                                       \
    for (int t = 0; t < k; t++) {                                                                       \
        long v = idx[(long)j * k + t];                                                                  \
        if (v < 0) v += meta[t];                                                                        \
        if (v < 0 || v >= meta[t]) return;                                                              \
        off += v * meta[k + t];                                                                         \
    }                                                                                                   \
    y[off + e] = u[g];                                                                                  \
}                                                                                                       \
/* ScatterElements (reduction none), after y := data: y[p with coordinate axis replaced by     \
 * idx[p]] = u[p]; meta: idx dims, then y strides */                                                 \
kernel void KN(scatter_elements_##SFX)(global const TY *restrict u, global TY *restrict y,             \
                                       global const IX *restrict idx, int n, int rank, int axis,       \
                                       int dim, global const int *restrict meta)                       \
{                                                                                                       \
    int g = get_global_id(0);                                                                           \
    if (g >= n) return;                                                                                 \
    long k = idx[g];                                                                                    \
    if (k < 0) k += dim;                                                                                \
    if (k >= 0 && k < dim) y[KN(elements_offset_##SFX)(g, k, rank, axis, meta)] = u[g];                 \
}

GATHER_KERNELS(int, ix32)
GATHER_KERNELS(long, ix64)

/* OneHot over y as [outer, depth, inner]: v[1] where the index of (o, i), truncated and
 * + depth when negative, is d, else v[0]; for int32, int64 and float32 indices */
#define ONEHOT_KERNEL(IX, SFX)                                                                          \
kernel void KN(onehot_##SFX)(global const IX *restrict idx, global const TY *restrict v,               \
                             global TY *restrict y, int outer, int depth, int inner)                   \
{                                                                                                       \
    int g = get_global_id(0);                                                                           \
    if (g >= outer * depth * inner) return;                                                             \
    int i = g % inner, t = g / inner, d = t % depth, o = t / depth;                                     \
    long k = (long)idx[(long)o * inner + i];                                                            \
    if (k < 0) k += depth;                                                                              \
    y[g] = v[k == d ? 1 : 0];                                                                           \
}
ONEHOT_KERNEL(int, ix32)
ONEHOT_KERNEL(long, ix64)
ONEHOT_KERNEL(float, ixf32)

/* ReverseSequence over x and y as [d0, d1, inner], time along axis ta (0 or 1), the batch
 * along the other: (t, b) reads step lens[b] - 1 - t where t < lens[b], else t (a length
 * outside [0, time] reverses nothing: the cpu backend and the golden model refuse it) */
kernel void KN(reverse_sequence)(global const TY *restrict x, global const long *restrict lens,
                                 global TY *restrict y, int d0, int d1, int inner, int ta)
{
    int g = get_global_id(0);
    if (g >= d0 * d1 * inner) return;
    int i = g % inner, p = g / inner, p1 = p % d1, p0 = p / d1;
    int t = ta == 0 ? p0 : p1, b = ta == 0 ? p1 : p0, time = ta == 0 ? d0 : d1;
    long len = lens[b];
    int from = (len >= 0 && len <= time && t < len) ? (int)(len - 1 - t) : t;
    int q = ta == 0 ? from * d1 + p1 : p0 * d1 + from;
    y[g] = x[(long)q * inner + i];
}
