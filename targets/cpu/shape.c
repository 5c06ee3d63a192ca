/* shape.c — cpu kernels of the data-movement family: Identity, Dropout, Flatten, Reshape, Transpose, Concat,
 * Split, Slice, Unsqueeze, Squeeze, Expand and Tile, Gather, GatherElements and GatherND (indices
 * read at run time and checked), DepthToSpace and SpaceToDepth (walks of targets/lower.c),
 * Trilu and EyeLike, and Shape and Size (int64 dims). Every dtype is handled by copying elements by size; nothing is
 * converted. Shape-valued inputs (Reshape's shape, Slice's starts/ends/axes/steps, Split's
 * split) are read as int32 or int64 tensors and checked against the output shapes the
 * backend inferred.
 *
 * Transpose drops size-1 dims and merges axes that stay adjacent, then either copies
 * contiguous runs (the innermost output axis is contiguous in the input) or does a tiled
 * 2-D transpose between the innermost output axis and the axis that is innermost in the
 * input, batched over the remaining axes (the last-two-axes swap is the plain case). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "cpu.h"
#include "../lower.h"

#define PAR_BYTES (1 << 18)  /* below this many bytes a copy runs on one thread */
#define TILE 32              /* transpose tile edge */

/* Reads element i of an int32/int64 index tensor. */
static int64_t index_at(const cc_tensor *t, int64_t i)
{
    if (t->dtype == CC_I32) return ((const int32_t *)t->data)[i];
    return ((const int64_t *)t->data)[i];
}

static cc_status index_check(const char *op, const char *what, const cc_tensor *t, cc_err *err)
{
    if (!t->data || (t->dtype != CC_I32 && t->dtype != CC_I64) || t->shape.rank > 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: %s must be a constant 1-D int32/int64 tensor",
                          op, what);
    return CC_OK;
}

static const cc_tensor *opt_input(const cc_node *node, const cc_tensor *const *in, int i)
{
    return i < node->n_in && in[i] && in[i]->data ? in[i] : NULL;
}

/* Copies bytes, split over the threads when large. */
static void copy_bytes(void *dst, const void *src, size_t n)
{
    if (n < PAR_BYTES) {
        memcpy(dst, src, n);
        return;
    }
    const int parts = 16;
    size_t part = (n + parts - 1) / parts;
#pragma omp parallel for schedule(static)
    for (int k = 0; k < parts; k++) {
        size_t off = (size_t)k * part;
        if (off < n) memcpy((char *)dst + off, (const char *)src + off, n - off < part ? n - off : part);
    }
}

static cc_status same_data(const char *op, const cc_tensor *x, const cc_tensor *y, cc_err *err)
{
    if (x->dtype != y->dtype || cc_shape_numel(&x->shape) != cc_shape_numel(&y->shape))
        return cc_err_set(err, CC_ERR_ARG, "%s: output must have the input's dtype and size", op);
    return CC_OK;
}

/* ---- Flatten / Reshape ------------------------------------------------------------- */

static cc_status flatten_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                             cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out; (void)state;
    const cc_tensor *x = in[0];
    int r = x->shape.rank;
    int64_t axis = cc_attr_i(node, "axis");
    if (axis < -r || axis > r)
        return cc_err_set(err, CC_ERR_ARG, "Flatten: axis %lld out of range for rank %d",
                          (long long)axis, r);
    if (axis < 0) axis += r;
    int64_t a = 1, b = 1;
    for (int i = 0; i < r; i++) *(i < axis ? &a : &b) *= x->shape.dims[i];
    if (out[0].shape.rank != 2 || out[0].shape.dims[0] != a || out[0].shape.dims[1] != b)
        return cc_err_set(err, CC_ERR_ARG, "Flatten: output shape is not %lldx%lld", (long long)a,
                          (long long)b);
    cc_status s = same_data("Flatten", x, &out[0], err);
    if (s != CC_OK) return s;
    copy_bytes(out[0].data, x->data, cc_tensor_bytes(x));
    return CC_OK;
}

static cc_status reshape_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                             cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out; (void)state;
    const cc_tensor *x = in[0], *sh = opt_input(node, in, 1);
    if (!sh) return cc_err_set(err, CC_ERR_ARG, "Reshape: shape input missing");
    cc_status s = index_check("Reshape", "shape", sh, err);
    if (s != CC_OK) return s;
    int64_t n = cc_shape_numel(&sh->shape);
    if (n > CC_MAX_RANK) return cc_err_set(err, CC_ERR_ARG, "Reshape: rank %lld too large", (long long)n);
    int allowzero = cc_attr_index(node->op, "allowzero") >= 0 ? (int)cc_attr_i(node, "allowzero") : 0;
    /* resolve 0 (copy the input dim unless allowzero) and -1 (inferred) */
    int64_t dims[CC_MAX_RANK], known = 1;
    int infer = -1;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = index_at(sh, i);
        if (v == 0 && !allowzero) {
            if (i >= x->shape.rank)
                return cc_err_set(err, CC_ERR_ARG, "Reshape: shape[%lld] = 0 has no input dim", (long long)i);
            v = x->shape.dims[i];
        }
        if (v == -1) {
            if (infer >= 0) return cc_err_set(err, CC_ERR_ARG, "Reshape: more than one -1");
            infer = (int)i;
        } else if (v < 0) {
            return cc_err_set(err, CC_ERR_ARG, "Reshape: shape[%lld] = %lld", (long long)i, (long long)v);
        } else {
            known *= v;
        }
        dims[i] = v;
    }
    int64_t total = cc_shape_numel(&x->shape);
    if (infer >= 0) {
        if (known == 0 || total % known)
            return cc_err_set(err, CC_ERR_ARG, "Reshape: cannot infer the -1 dim");
        dims[infer] = total / known;
    }
    cc_shape want = cc_shape_make((int)n, dims);
    if (!cc_shape_equal(&want, &out[0].shape))
        return cc_err_set(err, CC_ERR_ARG, "Reshape: output shape differs from the resolved shape");
    s = same_data("Reshape", x, &out[0], err);
    if (s != CC_OK) return s;
    copy_bytes(out[0].data, x->data, cc_tensor_bytes(x));
    return CC_OK;
}

/* ---- Transpose --------------------------------------------------------------------- */

/* Copies one element of size es. */
static inline void copy_elem(char *dst, const char *src, size_t es)
{
    switch (es) {
    case 1: *dst = *src; break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    default: memcpy(dst, src, es); break;
    }
}

/* Tiled 2-D transpose of a rows x cols block: dst[i*dst_ld + j] = src[j*src_ld + i]
 * in elements, where i runs over rows (contiguous in src) and j over cols (contiguous in
 * dst). Typed loops for the common element sizes. */
#define TILE_LOOP(T)                                                                       \
    do {                                                                                   \
        const T *s_ = (const T *)src;                                                      \
        T *d_ = (T *)dst;                                                                  \
        for (int64_t i = 0; i < rows; i++)                                                 \
            for (int64_t j = 0; j < cols; j++) d_[i * dst_ld + j] = s_[j * src_ld + i];   \
    } while (0)

static void tile_copy(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows,
                      int64_t cols, size_t es)
{
    switch (es) {
    case 1: TILE_LOOP(uint8_t); break;
    case 2: TILE_LOOP(uint16_t); break;
    case 4: TILE_LOOP(uint32_t); break;
    case 8: TILE_LOOP(uint64_t); break;
    default:
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++)
                copy_elem(dst + (size_t)(i * dst_ld + j) * es, src + (size_t)(j * src_ld + i) * es, es);
    }
}

/* Output geometry of a strided copy: output dims (row-major, contiguous) and the input
 * element stride of each output axis. */
typedef struct walk {
    int rank;
    int64_t dims[CC_MAX_RANK];
    int64_t istride[CC_MAX_RANK];
} walk;

/* Drops size-1 dims and merges output axes that are adjacent in the input too. */
static void walk_simplify(walk *w)
{
    int r = 0;
    for (int i = 0; i < w->rank; i++) {
        if (w->dims[i] == 1) continue;
        if (r > 0 && w->istride[r - 1] == w->istride[i] * w->dims[i]) {
            w->dims[r - 1] *= w->dims[i];
            w->istride[r - 1] = w->istride[i];
            continue;
        }
        w->dims[r] = w->dims[i];
        w->istride[r] = w->istride[i];
        r++;
    }
    w->rank = r;
}

/* Input offset (elements) of the output position with flat index j over dims[0..r). */
static int64_t walk_offset(const walk *w, int r, int64_t j)
{
    int64_t off = 0;
    for (int d = r - 1; d >= 0; d--) {
        off += (j % w->dims[d]) * w->istride[d];
        j /= w->dims[d];
    }
    return off;
}

enum walk_kind { W_ONE, W_RUNS, W_GATHER, W_TILED };

/* How a simplified walk is copied; *k receives the output axis that is innermost in the
 * input (the rows of the tiled transpose). */
static enum walk_kind walk_kind_of(const walk *w, size_t es, int *k)
{
    int r = w->rank;
    *k = 0;
    if (r == 0) return W_ONE;
    int64_t inner = w->dims[r - 1], is = w->istride[r - 1];
    if (is == 1 || inner * (int64_t)es < 64) return W_RUNS;
    for (int i = 1; i < r - 1; i++)
        if (llabs(w->istride[i]) < llabs(w->istride[*k])) *k = i;
    return llabs(w->istride[*k]) >= llabs(is) ? W_GATHER : W_TILED;
}

static const char *const walk_kind_names[] = {"single element", "contiguous runs",
                                              "strided gather", "tiled 2-D transpose"};

/* Copies the strided view described by w (of input `src` starting at element `base`)
 * into contiguous dst. */
static void walk_copy(walk *w, const char *src, int64_t base, char *dst, size_t es)
{
    walk_simplify(w);
    src += (ptrdiff_t)base * (ptrdiff_t)es;
    int r = w->rank, k;
    enum walk_kind kind = walk_kind_of(w, es, &k);
    if (kind == W_ONE) {
        copy_elem(dst, src, es);
        return;
    }
    int64_t total = 1;
    for (int i = 0; i < r; i++) total *= w->dims[i];
    int big = (size_t)total * es >= PAR_BYTES;
    int64_t inner = w->dims[r - 1], is = w->istride[r - 1];
    if (kind == W_RUNS) {
        /* contiguous (or short) inner runs */
        int64_t runs = total / inner;
#pragma omp parallel for schedule(static) if (big)
        for (int64_t j = 0; j < runs; j++) {
            const char *s = src + (ptrdiff_t)walk_offset(w, r - 1, j) * (ptrdiff_t)es;
            char *d = dst + (ptrdiff_t)(j * inner) * (ptrdiff_t)es;
            if (is == 1) memcpy(d, s, (size_t)inner * es);
            else
                for (int64_t t = 0; t < inner; t++)
                    copy_elem(d + (size_t)t * es, s + (ptrdiff_t)(t * is) * (ptrdiff_t)es, es);
        }
        return;
    }
    if (kind == W_GATHER) {
        /* no axis is finer than the last: plain element gather */
        int64_t runs = total / inner;
#pragma omp parallel for schedule(static) if (big)
        for (int64_t j = 0; j < runs; j++) {
            const char *s = src + (ptrdiff_t)walk_offset(w, r - 1, j) * (ptrdiff_t)es;
            char *d = dst + (ptrdiff_t)(j * inner) * (ptrdiff_t)es;
            for (int64_t t = 0; t < inner; t++)
                copy_elem(d + (size_t)t * es, s + (ptrdiff_t)(t * is) * (ptrdiff_t)es, es);
        }
        return;
    }
    /* batched tiled transpose between axis k, the output axis innermost in the input
     * (rows), and the last axis (cols) */
    int64_t ostride[CC_MAX_RANK], run = 1;
    for (int i = r - 1; i >= 0; i--) {
        ostride[i] = run;
        run *= w->dims[i];
    }
    walk b = {0};
    int64_t bostride[CC_MAX_RANK];
    for (int i = 0; i < r - 1; i++) {
        if (i == k) continue;
        b.dims[b.rank] = w->dims[i];
        b.istride[b.rank] = w->istride[i];
        bostride[b.rank++] = ostride[i];
    }
    int64_t n_batch = total / (w->dims[k] * inner);
    int64_t tr = (w->dims[k] + TILE - 1) / TILE, tc = (inner + TILE - 1) / TILE;
    int64_t rows_ld = ostride[k], src_ld = is;
    int64_t rows_is = w->istride[k];
#pragma omp parallel for schedule(static) if (big)
    for (int64_t item = 0; item < n_batch * tr * tc; item++) {
        int64_t bi = item / (tr * tc), t = item % (tr * tc);
        int64_t r0 = (t / tc) * TILE, c0 = (t % tc) * TILE;
        int64_t ioff = 0, ooff = 0, j = bi;
        for (int d = b.rank - 1; d >= 0; d--) {
            int64_t x = j % b.dims[d];
            j /= b.dims[d];
            ioff += x * b.istride[d];
            ooff += x * bostride[d];
        }
        int64_t rows = w->dims[k] - r0 < TILE ? w->dims[k] - r0 : TILE;
        int64_t cols = inner - c0 < TILE ? inner - c0 : TILE;
        if (rows_is == 1) {
            tile_copy(dst + (ptrdiff_t)(ooff + r0 * rows_ld + c0) * (ptrdiff_t)es, rows_ld,
                      src + (ptrdiff_t)(ioff + r0 + c0 * src_ld) * (ptrdiff_t)es, src_ld, rows, cols, es);
        } else {
            for (int64_t i = 0; i < rows; i++)
                for (int64_t c = 0; c < cols; c++)
                    copy_elem(dst + (ptrdiff_t)(ooff + (r0 + i) * rows_ld + c0 + c) * (ptrdiff_t)es,
                              src + (ptrdiff_t)(ioff + (r0 + i) * rows_is + (c0 + c) * src_ld) * (ptrdiff_t)es, es);
        }
    }
}

/* The walk of Transpose(x) -> y after validating perm and the shapes. */
static cc_status transpose_walk(const cc_node *node, const cc_tensor *x, const cc_tensor *y,
                                walk *w, cc_err *err)
{
    int r = x->shape.rank;
    const cc_attr_value *pv = cc_attr_get(node, "perm");
    int64_t perm[CC_MAX_RANK];
    int seen[CC_MAX_RANK] = {0};
    if (pv->set && pv->n != r)
        return cc_err_set(err, CC_ERR_ARG, "Transpose: perm has %d entries for rank %d", pv->n, r);
    for (int i = 0; i < r; i++) {
        perm[i] = pv->set ? pv->ints[i] : r - 1 - i;
        if (perm[i] < 0 || perm[i] >= r || seen[perm[i]]++)
            return cc_err_set(err, CC_ERR_ARG, "Transpose: perm is not a permutation of 0..%d", r - 1);
    }
    cc_status s = same_data("Transpose", x, y, err);
    if (s != CC_OK) return s;
    if (y->shape.rank != r) return cc_err_set(err, CC_ERR_ARG, "Transpose: output rank differs");
    int64_t istride[CC_MAX_RANK], run = 1;
    for (int i = r - 1; i >= 0; i--) {
        istride[i] = run;
        run *= x->shape.dims[i];
    }
    memset(w, 0, sizeof *w);
    w->rank = r;
    for (int i = 0; i < r; i++) {
        if (y->shape.dims[i] != x->shape.dims[perm[i]])
            return cc_err_set(err, CC_ERR_ARG, "Transpose: output dim %d is not input dim %lld", i,
                              (long long)perm[i]);
        w->dims[i] = x->shape.dims[perm[i]];
        w->istride[i] = istride[perm[i]];
    }
    return CC_OK;
}

/* Notes the copy strategy (shown in the plan description). */
static cc_status transpose_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                   const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    *state = NULL;
    walk w;
    cc_status s = transpose_walk(node, in[0], &out[0], &w, err);
    if (s != CC_OK) return s;
    walk_simplify(&w);
    int k;
    cc_backend_note("%s over %d merged dims",
                walk_kind_names[walk_kind_of(&w, cc_dtype_size(in[0]->dtype), &k)], w.rank);
    return CC_OK;
}

static cc_status transpose_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                               cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out; (void)state;
    walk w;
    cc_status s = transpose_walk(node, in[0], &out[0], &w, err);
    if (s != CC_OK) return s;
    if (cc_shape_numel(&in[0]->shape) == 0) return CC_OK;
    walk_copy(&w, in[0]->data, 0, out[0].data, cc_dtype_size(in[0]->dtype));
    return CC_OK;
}

/* ---- Concat / Split ------------------------------------------------------------------ */

static cc_status concat_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                            cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out; (void)state;
    cc_tensor *y = &out[0];
    int r = y->shape.rank;
    int64_t axis = cc_attr_i(node, "axis");
    if (axis < -r || axis >= r)
        return cc_err_set(err, CC_ERR_ARG, "Concat: axis %lld out of range for rank %d",
                          (long long)axis, r);
    if (axis < 0) axis += r;
    size_t es = cc_dtype_size(y->dtype);
    int64_t outer = 1, inner = 1, sum = 0;
    for (int i = 0; i < axis; i++) outer *= y->shape.dims[i];
    for (int i = (int)axis + 1; i < r; i++) inner *= y->shape.dims[i];
    for (int k = 0; k < node->n_in; k++) {
        const cc_tensor *t = in[k];
        if (!t) continue; /* an absent optional input */
        if (t->dtype != y->dtype || t->shape.rank != r)
            return cc_err_set(err, CC_ERR_ARG, "Concat: input %d has a different dtype or rank", k);
        for (int i = 0; i < r; i++)
            if (i != axis && t->shape.dims[i] != y->shape.dims[i])
                return cc_err_set(err, CC_ERR_ARG, "Concat: input %d differs off the axis", k);
        sum += t->shape.dims[axis];
    }
    if (sum != y->shape.dims[axis])
        return cc_err_set(err, CC_ERR_ARG, "Concat: inputs do not add up to the output");
    size_t row = (size_t)(y->shape.dims[axis] * inner) * es;
    int big = cc_tensor_bytes(y) >= PAR_BYTES;
#pragma omp parallel for schedule(static) if (big)
    for (int64_t o = 0; o < outer; o++) {
        size_t off = 0;
        for (int k = 0; k < node->n_in; k++) {
            if (!in[k]) continue;
            size_t chunk = (size_t)(in[k]->shape.dims[axis] * inner) * es;
            memcpy((char *)y->data + (size_t)o * row + off, (const char *)in[k]->data + (size_t)o * chunk, chunk);
            off += chunk;
        }
    }
    return CC_OK;
}

static cc_status split_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                           cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)state;
    const cc_tensor *x = in[0], *sp = opt_input(node, in, 1);
    int r = x->shape.rank;
    int64_t axis = cc_attr_i(node, "axis");
    if (axis < -r || axis >= r)
        return cc_err_set(err, CC_ERR_ARG, "Split: axis %lld out of range for rank %d",
                          (long long)axis, r);
    if (axis < 0) axis += r;
    if (sp) {
        cc_status s = index_check("Split", "split", sp, err);
        if (s != CC_OK) return s;
        if (cc_shape_numel(&sp->shape) != n_out)
            return cc_err_set(err, CC_ERR_ARG, "Split: split has %lld entries for %d outputs",
                              (long long)cc_shape_numel(&sp->shape), n_out);
    }
    int64_t outer = 1, inner = 1, sum = 0;
    for (int i = 0; i < axis; i++) outer *= x->shape.dims[i];
    for (int i = (int)axis + 1; i < r; i++) inner *= x->shape.dims[i];
    for (int j = 0; j < n_out; j++) {
        const cc_tensor *t = &out[j];
        if (t->dtype != x->dtype || t->shape.rank != r)
            return cc_err_set(err, CC_ERR_ARG, "Split: output %d has a different dtype or rank", j);
        for (int i = 0; i < r; i++)
            if (i != axis && t->shape.dims[i] != x->shape.dims[i])
                return cc_err_set(err, CC_ERR_ARG, "Split: output %d differs off the axis", j);
        if (sp && index_at(sp, j) != t->shape.dims[axis])
            return cc_err_set(err, CC_ERR_ARG, "Split: output %d does not match split", j);
        sum += t->shape.dims[axis];
    }
    if (sum != x->shape.dims[axis])
        return cc_err_set(err, CC_ERR_ARG, "Split: outputs do not add up to the input");
    size_t es = cc_dtype_size(x->dtype);
    size_t row = (size_t)(x->shape.dims[axis] * inner) * es;
    int big = cc_tensor_bytes(x) >= PAR_BYTES;
#pragma omp parallel for schedule(static) if (big)
    for (int64_t o = 0; o < outer; o++) {
        size_t off = 0;
        for (int j = 0; j < n_out; j++) {
            size_t chunk = (size_t)(out[j].shape.dims[axis] * inner) * es;
            memcpy((char *)out[j].data + (size_t)o * chunk, (const char *)x->data + (size_t)o * row + off, chunk);
            off += chunk;
        }
    }
    return CC_OK;
}

/* ---- Slice --------------------------------------------------------------------------- */

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static cc_status slice_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                           cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out; (void)state;
    const cc_tensor *x = in[0], *st = opt_input(node, in, 1), *en = opt_input(node, in, 2);
    const cc_tensor *ax = opt_input(node, in, 3), *sp = opt_input(node, in, 4);
    cc_tensor *y = &out[0];
    int r = x->shape.rank;
    if (!st || !en) return cc_err_set(err, CC_ERR_ARG, "Slice: starts and ends are required");
    cc_status s = index_check("Slice", "starts", st, err);
    if (s == CC_OK) s = index_check("Slice", "ends", en, err);
    if (s == CC_OK && ax) s = index_check("Slice", "axes", ax, err);
    if (s == CC_OK && sp) s = index_check("Slice", "steps", sp, err);
    if (s != CC_OK) return s;
    int64_t n = cc_shape_numel(&st->shape);
    if (cc_shape_numel(&en->shape) != n || (ax && cc_shape_numel(&ax->shape) != n) ||
        (sp && cc_shape_numel(&sp->shape) != n))
        return cc_err_set(err, CC_ERR_ARG, "Slice: starts, ends, axes and steps differ in length");
    if (n > r) return cc_err_set(err, CC_ERR_ARG, "Slice: more slices than dims");
    int64_t start[CC_MAX_RANK], step[CC_MAX_RANK], count[CC_MAX_RANK];
    int done[CC_MAX_RANK] = {0};
    for (int i = 0; i < r; i++) {
        start[i] = 0;
        step[i] = 1;
        count[i] = x->shape.dims[i];
    }
    for (int64_t k = 0; k < n; k++) {
        int64_t a = ax ? index_at(ax, k) : k;
        if (a < -r || a >= r) return cc_err_set(err, CC_ERR_ARG, "Slice: axis %lld out of range", (long long)a);
        if (a < 0) a += r;
        if (done[a]++) return cc_err_set(err, CC_ERR_ARG, "Slice: axis %lld repeated", (long long)a);
        int64_t dim = x->shape.dims[a], b = index_at(st, k), e = index_at(en, k);
        int64_t t = sp ? index_at(sp, k) : 1;
        if (t == 0) return cc_err_set(err, CC_ERR_ARG, "Slice: step 0 on axis %lld", (long long)a);
        if (b < 0) b += dim;
        if (e < 0) e += dim;
        if (t > 0) {
            b = clamp64(b, 0, dim);
            e = clamp64(e, 0, dim);
            count[a] = e > b ? (e - b + t - 1) / t : 0;
        } else {
            b = clamp64(b, 0, dim - 1);
            e = clamp64(e, -1, dim - 1);
            count[a] = b > e ? (b - e + (-t) - 1) / (-t) : 0;
        }
        start[a] = b;
        step[a] = t;
    }
    if (y->dtype != x->dtype || y->shape.rank != r)
        return cc_err_set(err, CC_ERR_ARG, "Slice: output dtype or rank differs from the input");
    /* bounds given at run time: the output's buffer was sized for x's shape (its bound) */
    for (int i = 0; i < r; i++)
        if (count[i] > y->shape.dims[i])
            return cc_err_set(err, CC_ERR_ARG, "Slice: output dim %d has room for %lld, slice gives %lld", i,
                              (long long)y->shape.dims[i], (long long)count[i]);
    for (int i = 0; i < r; i++) y->shape.dims[i] = count[i];
    if (cc_shape_numel(&y->shape) == 0) return CC_OK;
    int64_t istride[CC_MAX_RANK], run = 1, base = 0;
    for (int i = r - 1; i >= 0; i--) {
        istride[i] = run;
        run *= x->shape.dims[i];
    }
    walk w = {.rank = r};
    for (int i = 0; i < r; i++) {
        w.dims[i] = count[i];
        w.istride[i] = istride[i] * step[i];
        base += start[i] * istride[i];
    }
    walk_copy(&w, x->data, base, y->data, cc_dtype_size(x->dtype));
    return CC_OK;
}

/* ---- Identity, Dropout (inference) ----------------------------------------------------- */

/* The output is the input (Identity, Dropout, and Unsqueeze and Squeeze, which change only
 * the shape); Dropout's mask, when asked for, is all true. */
static cc_status identity_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)state;
    cc_status s = same_data(node->op->name, in[0], &out[0], err);
    if (s != CC_OK) return s;
    copy_bytes(out[0].data, in[0]->data, cc_tensor_bytes(in[0]));
    if (n_out > 1) memset(out[1].data, 1, cc_tensor_bytes(&out[1]));
    return CC_OK;
}

/* ---- Shape, Size, Unsqueeze, Squeeze, Expand, Tile ------------------------------------ */

/* Shape and Size: the int64 values of the input's shape (targets/lower.c). */
static cc_status describe_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    if (out[0].dtype != CC_I64) return cc_err_set(err, CC_ERR_ARG, "%s: output must be int64", node->op->name);
    return cc_lower_describe(node, &in[0]->shape, out[0].data, cc_tensor_numel(&out[0]), err);
}

/* Expand and Tile: every output row (the innermost dim) comes from one input row, found
 * dim by dim from the back (a size-1 input dim repeats its one index, any other wraps
 * around: Expand's broadcast and Tile's repeat are both i mod d). The row is a copy, a
 * fill with one element, or the input row repeated. */
static cc_status repeat_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                            cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0];
    const cc_shape *o = &out[0].shape;
    int off = o->rank - x->shape.rank;
    if (x->dtype != out[0].dtype || off < 0)
        return cc_err_set(err, CC_ERR_ARG, "%s: output must have the input's dtype and rank at least its",
                          node->op->name);
    int64_t total = cc_tensor_numel(&out[0]);
    if (total == 0) return CC_OK;
    size_t es = cc_dtype_size(x->dtype);
    if (o->rank == 0) {
        memcpy(out[0].data, x->data, es);
        return CC_OK;
    }
    int64_t xst[CC_MAX_RANK], acc = 1;
    for (int d = x->shape.rank - 1; d >= 0; d--) {
        xst[d] = acc;
        acc *= x->shape.dims[d];
    }
    int64_t ow = o->dims[o->rank - 1], rows = total / ow;
    int64_t xw = x->shape.rank > 0 ? x->shape.dims[x->shape.rank - 1] : 1;
    const char *src = x->data;
    char *dst = out[0].data;
    int big = (size_t)total * es >= PAR_BYTES;
#pragma omp parallel for schedule(static) if (big)
    for (int64_t row = 0; row < rows; row++) {
        int64_t rem = row, base = 0;
        for (int d = o->rank - 2; d >= 0; d--) {
            int64_t i = rem % o->dims[d];
            rem /= o->dims[d];
            int xd = d - off;
            if (xd >= 0) base += (x->shape.dims[xd] == 1 ? 0 : i % x->shape.dims[xd]) * xst[xd];
        }
        char *drow = dst + (size_t)(row * ow) * es;
        const char *srow = src + (size_t)base * es;
        if (xw == 1)
            for (int64_t j = 0; j < ow; j++) copy_elem(drow + (size_t)j * es, srow, es);
        else
            for (int64_t j = 0; j < ow; j += xw) memcpy(drow + (size_t)j * es, srow, (size_t)xw * es);
    }
    return CC_OK;
}

/* ---- Gather, GatherElements, GatherND ---------------------------------------------------- */

/* Index value i of idx (int32/int64) normalised into [0, dim); -1 when outside [-dim, dim). */
static int64_t index_in(const cc_tensor *idx, int64_t i, int64_t dim)
{
    int64_t v = index_at(idx, i);
    if (v < 0) v += dim;
    return v >= 0 && v < dim ? v : -1;
}

static cc_status index_error(const cc_node *node, const cc_tensor *idx, int64_t i, int64_t dim, cc_err *err)
{
    return cc_err_set(err, CC_ERR_ARG, "%s: indices[%lld] = %lld is outside [%lld, %lld]", node->op->name,
                      (long long)i, (long long)index_at(idx, i), (long long)-dim, (long long)dim - 1);
}

static cc_status gather_check(const cc_node *node, const cc_tensor *x, const cc_tensor *idx, const cc_tensor *y,
                              int *axis, cc_err *err)
{
    if ((idx->dtype != CC_I32 && idx->dtype != CC_I64) || x->dtype != y->dtype)
        return cc_err_set(err, CC_ERR_ARG, "%s: int32/int64 indices and an output of the data's dtype", node->op->name);
    if (axis) {
        int64_t a = cc_attr_i(node, "axis");
        if (a < 0) a += x->shape.rank;
        if (a < 0 || a >= x->shape.rank)
            return cc_err_set(err, CC_ERR_ARG, "%s: axis out of range for rank %d", node->op->name, x->shape.rank);
        *axis = (int)a;
    }
    return CC_OK;
}

/* y[o, j, i] = x[o, indices[j], i] over x as [outer, dim, inner]: one memcpy of inner
 * elements per (o, j). */
static cc_status gather_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0], *idx = in[1];
    int axis = 0;
    cc_status st = gather_check(node, x, idx, &out[0], &axis, err);
    if (st) return st;
    int64_t outer = 1, inner = 1, dim = x->shape.dims[axis], n = cc_tensor_numel(idx);
    for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
    for (int d = axis + 1; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    for (int64_t j = 0; j < n; j++)
        if (index_in(idx, j, dim) < 0) return index_error(node, idx, j, dim, err);
    size_t es = cc_dtype_size(x->dtype), row = (size_t)inner * es;
    const char *src = x->data;
    char *dst = out[0].data;
    int big = (size_t)(outer * n) * row >= PAR_BYTES;
#pragma omp parallel for schedule(static) if (big)
    for (int64_t on = 0; on < outer * n; on++) {
        int64_t o = on / n, j = on % n;
        memcpy(dst + (size_t)on * row, src + (size_t)(o * dim + index_in(idx, j, dim)) * row, row);
    }
    return CC_OK;
}

/* y[p] = x[p with its axis coordinate replaced by indices[p]]. */
static cc_status gather_elements_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                     cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0], *idx = in[1];
    int axis = 0;
    cc_status st = gather_check(node, x, idx, &out[0], &axis, err);
    if (st) return st;
    int r = x->shape.rank;
    int64_t xst[CC_MAX_RANK], acc = 1, n = cc_tensor_numel(idx), dim = x->shape.dims[axis];
    for (int d = r - 1; d >= 0; d--) {
        xst[d] = acc;
        acc *= x->shape.dims[d];
    }
    for (int64_t j = 0; j < n; j++)
        if (index_in(idx, j, dim) < 0) return index_error(node, idx, j, dim, err);
    size_t es = cc_dtype_size(x->dtype);
    const char *src = x->data;
    char *dst = out[0].data;
    int big = (size_t)n * es >= PAR_BYTES;
#pragma omp parallel for schedule(static) if (big)
    for (int64_t j = 0; j < n; j++) {
        int64_t rem = j, off = 0;
        for (int d = r - 1; d >= 0; d--) {
            int64_t c = rem % idx->shape.dims[d];
            rem /= idx->shape.dims[d];
            off += (d == axis ? index_in(idx, j, dim) : c) * xst[d];
        }
        copy_elem(dst + (size_t)j * es, src + (size_t)off * es, es);
    }
    return CC_OK;
}

/* ScatterND, ScatterElements: the data copied, then each update written (reduction none)
 * or combined (add, mul: in float for f32/f16/bf16, in double for f64, in 64 bits that
 * wrap for integers, stored in the data's width; in index order)
 * at the place its indices name; an index outside its dim is refused before anything is
 * written. */
static cc_status scatter_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                             void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0], *idx = in[1], *u = in[2];
    if ((idx->dtype != CC_I32 && idx->dtype != CC_I64) || u->dtype != x->dtype || out[0].dtype != x->dtype)
        return cc_err_set(err, CC_ERR_ARG, "%s: int32/int64 indices, updates and output of the data's dtype",
                          node->op->name);
    const char *rs = cc_attr_s(node, "reduction");
    int red = !strcmp(rs, "add") ? 1 : !strcmp(rs, "mul") ? 2 : 0;
    int r = x->shape.rank, nd = node->op->id == CC_OP_ID_ScatterND, axis = 0;
    int64_t xst[CC_MAX_RANK], acc = 1, k = 1, slice = 1, n;
    for (int d = r - 1; d >= 0; d--) {
        xst[d] = acc;
        acc *= x->shape.dims[d];
    }
    if (nd) {
        k = idx->shape.dims[idx->shape.rank - 1];
        for (int d = (int)k; d < r; d++) slice *= x->shape.dims[d];
        n = k > 0 ? cc_tensor_numel(idx) / k : 0;
    } else {
        int64_t a = cc_attr_i(node, "axis");
        axis = (int)(a < 0 ? a + r : a);
        n = cc_tensor_numel(idx);
    }
    for (int64_t j = 0; j < n * k; j++) { /* every index inside its dim */
        int64_t dim = nd ? x->shape.dims[j % k] : x->shape.dims[axis];
        if (index_in(idx, j, dim) < 0) return index_error(node, idx, j, dim, err);
    }
    size_t es = cc_dtype_size(x->dtype);
    memcpy(out[0].data, x->data, cc_tensor_bytes(x));
    char *dst = out[0].data;
    const char *src = u->data;
    int is_float = cc_dtype_is_float(x->dtype);
    for (int64_t j = 0; j < n; j++) {
        int64_t off = 0;
        if (nd) {
            for (int64_t t = 0; t < k; t++) off += index_in(idx, j * k + t, x->shape.dims[t]) * xst[t];
        } else {
            int64_t rem = j;
            for (int d = r - 1; d >= 0; d--) {
                int64_t c = rem % idx->shape.dims[d];
                rem /= idx->shape.dims[d];
                off += (d == axis ? index_in(idx, j, x->shape.dims[axis]) : c) * xst[d];
            }
        }
        for (int64_t e = 0; e < slice; e++) {
            char *yp = dst + (size_t)(off + e) * es;
            const char *up = src + (size_t)(j * slice + e) * es;
            if (red == 0) {
                memcpy(yp, up, es);
            } else if (x->dtype == CC_F64) {
                double a = cc_cpu_real_at(yp, CC_F64, 0), b = cc_cpu_real_at(up, CC_F64, 0);
                cc_cpu_real_put(yp, CC_F64, 0, red == 1 ? a + b : a * b);
            } else if (is_float) {
                float a = (float)cc_load(yp, x->dtype, 0), b = (float)cc_load(up, x->dtype, 0);
                cc_store(yp, x->dtype, 0, red == 1 ? (double)(a + b) : (double)(a * b));
            } else { /* integers: 64 bits that wrap, the low bits stored */
                uint64_t a = cc_cpu_int_at(yp, x->dtype, 0), b = cc_cpu_int_at(up, x->dtype, 0);
                cc_cpu_int_put(yp, x->dtype, 0, red == 1 ? a + b : a * b);
            }
        }
    }
    return CC_OK;
}

/* y[bt, t, :] = x[bt, tuple(bt, t), :]: one memcpy of a slice per index tuple. */
static cc_status gather_nd_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                               void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0], *idx = in[1];
    cc_status st = gather_check(node, x, idx, &out[0], NULL, err);
    if (st) return st;
    int r = x->shape.rank, q = idx->shape.rank;
    int64_t b = cc_attr_i(node, "batch_dims"), m = q > 0 ? idx->shape.dims[q - 1] : 0;
    if (q < 1 || b < 0 || b >= q || m < 1 || b + m > r)
        return cc_err_set(err, CC_ERR_ARG, "GatherND: batch_dims or index tuple length out of range");
    int64_t xst[CC_MAX_RANK], acc = 1, batches = 1, tuples = 1;
    for (int d = r - 1; d >= 0; d--) {
        xst[d] = acc;
        acc *= x->shape.dims[d];
    }
    for (int d = 0; d < b; d++) batches *= x->shape.dims[d];
    for (int d = (int)b; d < q - 1; d++) tuples *= idx->shape.dims[d];
    int64_t inner = xst[b + m - 1], batch_size = b > 0 ? xst[b - 1] : acc;
    for (int64_t i = 0; i < batches * tuples * m; i++)
        if (index_in(idx, i, x->shape.dims[b + i % m]) < 0) return index_error(node, idx, i, x->shape.dims[b + i % m], err);
    size_t es = cc_dtype_size(x->dtype), row = (size_t)inner * es;
    const char *src = x->data;
    char *dst = out[0].data;
    for (int64_t bt = 0; bt < batches * tuples; bt++) {
        int64_t off = (bt / tuples) * batch_size;
        for (int64_t k = 0; k < m; k++) off += index_in(idx, bt * m + k, x->shape.dims[b + k]) * xst[b + k];
        memcpy(dst + (size_t)bt * row, src + (size_t)off * es, row);
    }
    return CC_OK;
}

/* ---- DepthToSpace, SpaceToDepth, Trilu, EyeLike ---------------------------------------------- */

/* DepthToSpace and SpaceToDepth: the shared lowering's six-dim walk (targets/lower.c), copied
 * as Transpose copies. */
static cc_status block_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                           void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    cc_status s = same_data(node->op->name, in[0], &out[0], err);
    if (s != CC_OK) return s;
    if (in[0]->shape.rank != 4) return cc_err_set(err, CC_ERR_ARG, "%s: input must be 4-D", node->op->name);
    if (cc_tensor_numel(in[0]) == 0) return CC_OK;
    walk w;
    memset(&w, 0, sizeof w);
    w.rank = 6;
    cc_lower_block(node, &in[0]->shape, w.dims, w.istride);
    walk_copy(&w, in[0]->data, 0, out[0].data, cc_dtype_size(in[0]->dtype));
    return CC_OK;
}

/* OneHot: the values' off element everywhere, then the on element where an index points
 * (../lower.h's cc_lower_onehot). */
static cc_status onehot_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            void *state, cc_err *err)
{
    (void)ctx, (void)n_out, (void)state;
    int64_t outer, depth, inner;
    cc_status st = cc_lower_onehot(node, &in[0]->shape, in[1], &outer, &depth, &inner, err);
    if (st) return st;
    const cc_tensor *ix = in[0], *v = in[2];
    size_t es = cc_dtype_size(v->dtype);
    const char *off = v->data, *on = (const char *)v->data + es;
    char *y = out[0].data;
    for (int64_t e = 0; e < outer * depth * inner; e++) memcpy(y + (size_t)e * es, off, es);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            double k = trunc(cc_load(ix->data, ix->dtype, (size_t)(o * inner + i)));
            if (k < 0) k += (double)depth;
            if (k >= 0 && k < (double)depth) memcpy(y + (size_t)((o * depth + (int64_t)k) * inner + i) * es, on, es);
        }
    return CC_OK;
}

/* ReverseSequence: per batch b and step t, one memcpy of the inner elements from step
 * L - 1 - t (t < L = sequence_lens[b]) or t (../lower.h's cc_lower_reverse_sequence). */
static cc_status reverse_sequence_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                      cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx, (void)n_out, (void)state;
    int ta;
    int64_t d0, d1, inner;
    cc_status st = cc_lower_reverse_sequence(node, &in[0]->shape, &ta, &d0, &d1, &inner, err);
    if (st) return st;
    const int64_t *lens = in[1]->data, batch = ta == 0 ? d1 : d0, time = ta == 0 ? d0 : d1;
    const size_t row = (size_t)inner * cc_dtype_size(in[0]->dtype);
    const char *x = in[0]->data;
    char *y = out[0].data;
    for (int64_t b = 0; b < batch; b++) {
        if (lens[b] < 0 || lens[b] > time)
            return cc_err_set(err, CC_ERR_ARG, "ReverseSequence: sequence_lens[%lld] = %lld is outside [0, %lld]",
                              (long long)b, (long long)lens[b], (long long)time);
        for (int64_t t = 0; t < time; t++) {
            int64_t from = t < lens[b] ? lens[b] - 1 - t : t;
            int64_t to_at = ta == 0 ? t * d1 + b : b * d1 + t, from_at = ta == 0 ? from * d1 + b : b * d1 + from;
            memcpy(y + (size_t)to_at * row, x + (size_t)from_at * row, row);
        }
    }
    return CC_OK;
}

/* Trilu: each row of the last two dims keeps [0, k + r] (lower) or [k + r, cols) (upper)
 * and zeroes the rest. */
static cc_status trilu_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                           void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0];
    cc_status s = same_data("Trilu", x, &out[0], err);
    if (s != CC_OK) return s;
    int64_t k = 0;
    if (node->n_in > 1 && in[1]) {
        if (!in[1]->data || in[1]->dtype != CC_I64 || cc_tensor_numel(in[1]) != 1)
            return cc_err_set(err, CC_ERR_ARG, "Trilu: k must be a constant int64 scalar");
        k = ((const int64_t *)in[1]->data)[0];
    }
    int upper = cc_attr_i(node, "upper") != 0, r = x->shape.rank;
    int64_t rows = x->shape.dims[r - 2], cols = x->shape.dims[r - 1], n = cc_tensor_numel(x);
    size_t es = cc_dtype_size(x->dtype);
    const char *src = x->data;
    char *dst = out[0].data;
    for (int64_t row0 = 0; cols > 0 && row0 < n / cols; row0++) {
        int64_t row = row0 % rows, lo, hi; /* kept columns [lo, hi) */
        if (upper) lo = row + k < 0 ? 0 : row + k > cols ? cols : row + k, hi = cols;
        else lo = 0, hi = row + k + 1 < 0 ? 0 : row + k + 1 > cols ? cols : row + k + 1;
        char *d = dst + (size_t)(row0 * cols) * es;
        const char *sr = src + (size_t)(row0 * cols) * es;
        memset(d, 0, (size_t)lo * es);
        memcpy(d + (size_t)lo * es, sr + (size_t)lo * es, (size_t)(hi - lo) * es);
        memset(d + (size_t)hi * es, 0, (size_t)(cols - hi) * es);
    }
    return CC_OK;
}

/* EyeLike: zeros, then a one of the output's dtype where column - row == k. */
static cc_status eyelike_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                             void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    if (out[0].shape.rank != 2 || cc_tensor_numel(in[0]) != cc_tensor_numel(&out[0]))
        return cc_err_set(err, CC_ERR_ARG, "EyeLike: a 2-D output of the input's shape");
    memset(out[0].data, 0, cc_tensor_bytes(&out[0]));
    cc_lower_eyelike(node, &out[0], out[0].data);
    return CC_OK;
}

/* Pad: each output row's source row found dim by dim (targets/lower.c's mapping); inside
 * the input a row is one copy, else element by element. */
static cc_status pad_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0];
    int mode, r = x->shape.rank;
    int64_t begin[CC_MAX_RANK];
    unsigned char cb[8];
    cc_status st = cc_lower_pad(node, in, &mode, begin, cb, err);
    if (st) return st;
    int64_t total = cc_tensor_numel(&out[0]);
    if (total == 0) return CC_OK;
    size_t es = cc_dtype_size(x->dtype);
    if (r == 0) {
        memcpy(out[0].data, x->data, es);
        return CC_OK;
    }
    int64_t xst[CC_MAX_RANK], acc = 1;
    for (int d = r - 1; d >= 0; d--) {
        xst[d] = acc;
        acc *= x->shape.dims[d];
    }
    const int64_t *od = out[0].shape.dims, *xd = x->shape.dims;
    int64_t ow = od[r - 1], rows = total / ow;
    char *dst = out[0].data;
    const char *src = x->data;
#pragma omp parallel for schedule(static) if ((size_t)total * es >= PAR_BYTES)
    for (int64_t row = 0; row < rows; row++) {
        int64_t rem = row, base = 0;
        for (int d = r - 2; d >= 0 && base >= 0; d--) {
            int64_t i = cc_lower_pad_source(rem % od[d], begin[d], xd[d], mode);
            rem /= od[d];
            base = i < 0 ? -1 : base + i * xst[d];
        }
        char *drow = dst + (size_t)(row * ow) * es;
        for (int64_t j = 0; j < ow; j++) {
            int64_t i = base < 0 ? -1 : cc_lower_pad_source(j, begin[r - 1], xd[r - 1], mode);
            memcpy(drow + (size_t)j * es, i < 0 ? (const char *)cb : src + (size_t)(base + i) * es, es);
        }
    }
    return CC_OK;
}

/* ConstantOfShape, Range: the values from the shared lowering, written straight into the
 * output. */
static cc_status generate_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                              void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    return cc_lower_generate(node, in, &out[0], out[0].data, err);
}

static const cc_kernel kernels[] = {
    {.op = CC_OP_ID_ScatterND, .run = scatter_run},
    {.op = CC_OP_ID_ScatterElements, .run = scatter_run},
    {.op = CC_OP_ID_ConstantOfShape, .run = generate_run},
    {.op = CC_OP_ID_Range, .run = generate_run},
    {.op = CC_OP_ID_Pad, .run = pad_run},
    {.op = CC_OP_ID_DepthToSpace, .run = block_run},
    {.op = CC_OP_ID_SpaceToDepth, .run = block_run},
    {.op = CC_OP_ID_Trilu, .run = trilu_run},
    {.op = CC_OP_ID_OneHot, .run = onehot_run},
    {.op = CC_OP_ID_ReverseSequence, .run = reverse_sequence_run},
    {.op = CC_OP_ID_EyeLike, .run = eyelike_run},
    {.op = CC_OP_ID_Gather, .run = gather_run},
    {.op = CC_OP_ID_GatherElements, .run = gather_elements_run},
    {.op = CC_OP_ID_GatherND, .run = gather_nd_run},
    {.op = CC_OP_ID_Shape, .run = describe_run},
    {.op = CC_OP_ID_Size, .run = describe_run},
    {.op = CC_OP_ID_Unsqueeze, .run = identity_run},
    {.op = CC_OP_ID_Squeeze, .run = identity_run},
    {.op = CC_OP_ID_Expand, .run = repeat_run},
    {.op = CC_OP_ID_Tile, .run = repeat_run},
    {.op = CC_OP_ID_Identity, .run = identity_run},
    {.op = CC_OP_ID_Dropout, .run = identity_run},
    {.op = CC_OP_ID_Flatten, .run = flatten_run},
    {.op = CC_OP_ID_Reshape, .run = reshape_run},
    {.op = CC_OP_ID_Transpose, .prepare = transpose_prepare, .run = transpose_run},
    {.op = CC_OP_ID_Concat, .run = concat_run},
    {.op = CC_OP_ID_Split, .run = split_run},
    {.op = CC_OP_ID_Slice, .run = slice_run},
};

const cc_kernel_list cc_cpu_family_shape = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
