/* reduce.c — cpu kernels of the reduction family: Softmax, LogSoftmax and Hardmax (opset
 * 13: one axis, max subtracted before exp), the ten Reduce* ops (opset 13: axes attribute
 * or ReduceSum's constant axes input, keepdims, negative axes; no axes reduces everything
 * unless noop_with_empty_axes), ArgMax, ArgMin and CumSum.
 *
 * Floating data computes in f32 (sums accumulate in double); f16/bf16 tensors are
 * converted to f32 scratch buffers sized at prepare time and the result rounded back.
 * The Reduce* ops take f64 data too (target ABI 8), reduced in double throughout.
 * Integer reductions (Max, Min, Sum, Prod, L1, SumSquare) run in 64-bit integers. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lower.h"
#include "cpu.h"
#include "vexp.h"

#define PAR_MIN (1 << 15)  /* below this many elements a kernel runs on one thread */
#define CHUNK 1024         /* inner elements per work item */

/* ---- f32 scratch for f16/bf16 tensors ------------------------------------------------ */

typedef struct scratch {
    float *x;   /* the input as f32 (NULL for f32 input) */
    float *y;   /* the output as f32 (NULL for f32 output) */
} scratch;

static void scratch_release(void *state)
{
    scratch *s = state;
    if (!s) return;
    free(s->x);
    free(s->y);
    free(s);
}

/* Allocates f32 copies of input 0 and (for the Reduce* ops) output 0 when their dtype is
 * f16/bf16. */
static cc_status scratch_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                                 const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    scratch *s = calloc(1, sizeof *s);
    if (!s) goto nomem;
    if (in[0]->dtype == CC_F16 || in[0]->dtype == CC_BF16) {
        int64_t nx = cc_shape_numel(&in[0]->shape), ny = cc_shape_numel(&out[0].shape);
        s->x = malloc((size_t)(nx > 0 ? nx : 1) * sizeof(float));
        int in_place = cc_lower_reduce_kind(node) < 0; /* (Log)Softmax, Hardmax work in place in x */
        if (!in_place) s->y = malloc((size_t)(ny > 0 ? ny : 1) * sizeof(float));
        if (!s->x || (!s->y && !in_place)) goto nomem;
    }
    *state = s;
    return CC_OK;
nomem:
    scratch_release(s);
    return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory for f32 scratch", node->op->name);
}

/* Normalises axis a of a rank-r tensor into [0, r). */
static cc_status norm_axis(const char *op, int64_t a, int r, int *out, cc_err *err)
{
    if (a < -r || a >= (r > 0 ? r : 1))
        return cc_err_set(err, CC_ERR_ARG, "%s: axis %lld out of range for rank %d", op,
                          (long long)a, r);
    *out = (int)(a < 0 ? a + r : a);
    return CC_OK;
}

/* Sum of n floats in double, in eight interleaved partial sums (they vectorise; one
 * running sum would be a chain of dependent adds). */
static double sum_f32(const float *v, int64_t n)
{
    double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int q = 0; q < 8; q++) s[q] += v[i + q];
    for (; i < n; i++) s[0] += v[i];
    return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

/* ---- Softmax --------------------------------------------------------------------------- */

enum { SM_SOFT, SM_LOG, SM_HARD };

/* Index of the first largest of len floats step apart; a NaN counts as the largest. */
static int64_t first_max(const float *x, int64_t len, int64_t step)
{
    int64_t at = 0;
    float b = x[0];
    for (int64_t l = 1; l < len && !isnan(b); l++) {
        float v = x[l * step];
        if (v > b || isnan(v)) {
            b = v;
            at = l;
        }
    }
    return at;
}

/* Softmax (SM_SOFT), LogSoftmax (SM_LOG: (x - m) - log sum exp(x - m)) or Hardmax (SM_HARD:
 * 1 at the first largest element) of outer x len x inner data along the middle axis; the
 * sums in double. For f32 data ws is NULL and
 * the work is done in y; for f16/bf16 each work item converts the part it reads into the
 * same place of ws (numel floats), computes there and converts its part back into y, so the
 * conversions run inside the one parallel region. */
static void softmax_any(int mode, const void *xv, void *yv, cc_dtype d, float *ws, int64_t outer,
                        int64_t len, int64_t inner)
{
    int64_t total = outer * len * inner;
    size_t es = cc_dtype_size(d);
    if (inner == 1) {
#pragma omp parallel for schedule(static) if (total > PAR_MIN)
        for (int64_t o = 0; o < outer; o++) {
            const float *xr;
            float *yr;
            if (ws) {
                yr = ws + o * len;
                cc_cpu_to_f32((const char *)xv + (size_t)(o * len) * es, d, yr, len);
                xr = yr;
            } else {
                xr = (const float *)xv + o * len;
                yr = (float *)yv + o * len;
            }
            if (mode == SM_HARD) {
                int64_t at = first_max(xr, len, 1);
                for (int64_t l = 0; l < len; l++) yr[l] = l == at;
            } else if (mode == SM_LOG) {
                float m = -INFINITY;
                for (int64_t l = 0; l < len; l++) m = xr[l] > m ? xr[l] : m;
                double sum = 0.0;
                for (int64_t l = 0; l < len; l++) sum += cc_cpu_expf(xr[l] - m);
                float lse = (float)log(sum);
                for (int64_t l = 0; l < len; l++) yr[l] = (xr[l] - m) - lse;
            } else {
                float m = -INFINITY;
                for (int64_t l = 0; l < len; l++) m = xr[l] > m ? xr[l] : m;
                for (int64_t l = 0; l < len; l++) yr[l] = cc_cpu_expf(xr[l] - m);
                float inv = (float)(1.0 / sum_f32(yr, len));
                for (int64_t l = 0; l < len; l++) yr[l] *= inv;
            }
            if (ws) cc_cpu_from_f32(yr, (char *)yv + (size_t)(o * len) * es, d, len);
        }
        return;
    }
    int64_t nch = (inner + CHUNK - 1) / CHUNK;
#pragma omp parallel for schedule(static) if (total > PAR_MIN)
    for (int64_t w = 0; w < outer * nch; w++) {
        int64_t o = w / nch, j0 = (w % nch) * CHUNK;
        int64_t cn = inner - j0 < CHUNK ? inner - j0 : CHUNK;
        int64_t base = o * len * inner + j0;
        float m[CHUNK];
        double sum[CHUNK];
        const float *xb;
        float *yb;
        if (ws) {
            yb = ws + base;
            for (int64_t l = 0; l < len; l++)
                cc_cpu_to_f32((const char *)xv + (size_t)(base + l * inner) * es, d, yb + l * inner, cn);
            xb = yb;
        } else {
            xb = (const float *)xv + base;
            yb = (float *)yv + base;
        }
        if (mode == SM_HARD) {
            for (int64_t j = 0; j < cn; j++) {
                int64_t at = first_max(xb + j, len, inner);
                for (int64_t l = 0; l < len; l++) yb[l * inner + j] = l == at;
            }
        } else {
            for (int64_t j = 0; j < cn; j++) {
                m[j] = -INFINITY;
                sum[j] = 0.0;
            }
            for (int64_t l = 0; l < len; l++)
                for (int64_t j = 0; j < cn; j++) m[j] = xb[l * inner + j] > m[j] ? xb[l * inner + j] : m[j];
            for (int64_t l = 0; l < len; l++)
                for (int64_t j = 0; j < cn; j++) {
                    float e = cc_cpu_expf(xb[l * inner + j] - m[j]);
                    if (mode == SM_SOFT) yb[l * inner + j] = e;
                    sum[j] += e;
                }
            if (mode == SM_LOG) {
                for (int64_t j = 0; j < cn; j++) sum[j] = log(sum[j]);
                for (int64_t l = 0; l < len; l++)
                    for (int64_t j = 0; j < cn; j++)
                        yb[l * inner + j] = (xb[l * inner + j] - m[j]) - (float)sum[j];
            } else {
                for (int64_t j = 0; j < cn; j++) m[j] = (float)(1.0 / sum[j]);
                for (int64_t l = 0; l < len; l++)
                    for (int64_t j = 0; j < cn; j++) yb[l * inner + j] *= m[j];
            }
        }
        if (ws)
            for (int64_t l = 0; l < len; l++)
                cc_cpu_from_f32(yb + l * inner, (char *)yv + (size_t)(base + l * inner) * es, d, cn);
    }
}

static cc_support float_only(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out, char *reason,
                             size_t n)
{
    (void)ctx;
    (void)out;
    if (cc_dtype_is_float(in[0]->dtype)) return CC_SUPPORT_YES;
    snprintf(reason, n, "%s: dtype %s not implemented", node->op->name,
             cc_dtype_name(in[0]->dtype));
    return CC_SUPPORT_NO;
}

static cc_status softmax_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                             cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const cc_tensor *x = in[0];
    cc_tensor *y = &out[0];
    const scratch *s = state;
    if (!cc_dtype_is_float(x->dtype) || y->dtype != x->dtype ||
        !cc_shape_equal(&x->shape, &y->shape))
        return cc_err_set(err, CC_ERR_ARG, "%s: output must be a float tensor like the input", node->op->name);
    int r = x->shape.rank, ax = 0;
    cc_status st = norm_axis(node->op->name, cc_attr_i(node, "axis"), r, &ax, err);
    if (st != CC_OK) return st;
    int64_t outer = 1, len = r > 0 ? x->shape.dims[ax] : 1, inner = 1;
    for (int i = 0; i < ax; i++) outer *= x->shape.dims[i];
    for (int i = ax + 1; i < r; i++) inner *= x->shape.dims[i];
    int64_t n = outer * len * inner;
    if (n == 0) return CC_OK;
    if (x->dtype != CC_F32 && (!s || !s->x))
        return cc_err_set(err, CC_ERR_INTERNAL, "%s: run without prepare", node->op->name);
    int mode = node->op->id == CC_OP_ID_LogSoftmax ? SM_LOG : node->op->id == CC_OP_ID_Hardmax ? SM_HARD : SM_SOFT;
    softmax_any(mode, x->data, y->data, x->dtype, x->dtype == CC_F32 ? NULL : s->x, outer, len, inner);
    return CC_OK;
}

/* ---- ReduceMean, ReduceMax, ReduceMin, ReduceSum, ReduceProd, ReduceL1, ReduceL2,
 *      ReduceLogSum, ReduceLogSumExp, ReduceSumSquare ----------------------------------- */

typedef struct rplan {
    int nk;                      /* kept dims outside the inner run */
    int64_t kdims[CC_MAX_RANK], kstride[CC_MAX_RANK];
    int nr;                      /* reduced dims outside the inner run */
    int64_t rdims[CC_MAX_RANK], rstride[CC_MAX_RANK];
    int64_t run;                 /* length of the innermost (contiguous) run */
    int run_reduced;             /* 1: the run is reduced too; 0: it is kept */
    int64_t n_outer;             /* product of kdims */
    int64_t n_steps;             /* product of rdims: runs reduced into each output */
    int64_t n_red;               /* elements reduced into each output */
} rplan;

/* Builds the plan from the input shape and a mask of reduced axes: drops size-1 dims,
 * merges neighbours of the same kind, and splits off the innermost run. */
static void rplan_make(const cc_shape *s, const int *red, rplan *p)
{
    int64_t dims[CC_MAX_RANK];
    int rf[CC_MAX_RANK], m = 0;
    for (int i = 0; i < s->rank; i++) {
        if (s->dims[i] == 1) continue;
        if (m > 0 && rf[m - 1] == red[i]) {
            dims[m - 1] *= s->dims[i];
            continue;
        }
        dims[m] = s->dims[i];
        rf[m] = red[i];
        m++;
    }
    memset(p, 0, sizeof *p);
    if (m == 0) { /* everything of size 1 */
        p->run = 1;
        p->run_reduced = 1;
        p->n_outer = 1;
        p->n_steps = 1;
        p->n_red = 1;
        return;
    }
    int64_t stride[CC_MAX_RANK], run = 1;
    for (int i = m - 1; i >= 0; i--) {
        stride[i] = run;
        run *= dims[i];
    }
    p->run = dims[m - 1];
    p->run_reduced = rf[m - 1];
    p->n_outer = 1;
    p->n_steps = 1;
    p->n_red = p->run_reduced ? p->run : 1;
    for (int i = 0; i < m - 1; i++) {
        if (rf[i]) {
            p->rdims[p->nr] = dims[i];
            p->rstride[p->nr++] = stride[i];
            p->n_red *= dims[i];
            p->n_steps *= dims[i];
        } else {
            p->kdims[p->nk] = dims[i];
            p->kstride[p->nk++] = stride[i];
            p->n_outer *= dims[i];
        }
    }
}

/* Input offset of outer (kept) index j. */
static int64_t kept_offset(const rplan *p, int64_t j)
{
    int64_t off = 0;
    for (int d = p->nk - 1; d >= 0; d--) {
        off += (j % p->kdims[d]) * p->kstride[d];
        j /= p->kdims[d];
    }
    return off;
}

/* Odometer step over the reduced dims outside the run; returns the offset delta. */
static int64_t red_step(const rplan *p, int64_t *idx)
{
    int64_t delta = 0;
    for (int d = p->nr - 1; d >= 0; d--) {
        idx[d]++;
        delta += p->rstride[d];
        if (idx[d] < p->rdims[d]) break;
        delta -= p->rdims[d] * p->rstride[d];
        idx[d] = 0;
    }
    return delta;
}

/* The accumulator's start: sums 0, products 1, extremes the opposite infinity. */
static double acc_init(int k)
{
    return k == CC_REDUCE_PROD ? 1.0 : k == CC_REDUCE_MAX ? -INFINITY : k == CC_REDUCE_MIN ? INFINITY : 0.0;
}

/* acc combined with value v (sh: LogSumExp's shift, the largest element). Max and Min keep
 * the first NaN they meet. */
static inline double acc_step(int k, double acc, float v, float sh)
{
    switch (k) {
    case CC_REDUCE_MAX: return (v > acc || isnan(v)) && !isnan(acc) ? v : acc;
    case CC_REDUCE_MIN: return (v < acc || isnan(v)) && !isnan(acc) ? v : acc;
    case CC_REDUCE_PROD: return acc * v;
    case CC_REDUCE_L1: return acc + fabsf(v);
    case CC_REDUCE_L2: case CC_REDUCE_SUMSQUARE: return acc + (double)v * v;
    case CC_REDUCE_LOGSUMEXP: return acc + cc_cpu_expf(v - sh);
    default: return acc + v; /* Mean, Sum, LogSum */
    }
}

/* The output from the accumulator over n elements. */
static float acc_final(int k, double acc, int64_t n, float sh)
{
    switch (k) {
    case CC_REDUCE_MEAN: return (float)(acc / (double)n);
    case CC_REDUCE_L2: return (float)sqrt(acc);
    case CC_REDUCE_LOGSUM: return (float)log(acc);
    case CC_REDUCE_LOGSUMEXP: return isfinite(sh) ? sh + (float)log(acc) : sh;
    default: return (float)acc;
    }
}

/* Reduces f32 data x into y (f32) following plan p. LogSumExp runs twice: first as Max
 * into y, then reading each output's shift from y before it overwrites it. */
static void reduce_f32(const rplan *p, int k, const float *x, float *y)
{
    if (k == CC_REDUCE_LOGSUMEXP) reduce_f32(p, CC_REDUCE_MAX, x, y);
    int64_t n_steps = p->n_steps, n_red = p->n_red;
    int plain_sum = k == CC_REDUCE_MEAN || k == CC_REDUCE_SUM || k == CC_REDUCE_LOGSUM;
    if (p->run_reduced) {
        int64_t total = p->n_outer * p->n_red;
#pragma omp parallel for schedule(static) if (total > PAR_MIN)
        for (int64_t j = 0; j < p->n_outer; j++) {
            int64_t idx[CC_MAX_RANK] = {0}, off = kept_offset(p, j);
            float sh = k == CC_REDUCE_LOGSUMEXP ? y[j] : 0.0f;
            double acc = acc_init(k);
            for (int64_t s = 0; s < n_steps; s++) {
                const float *xr = x + off;
                if (plain_sum) acc += sum_f32(xr, p->run);
                else
                    for (int64_t t = 0; t < p->run; t++) acc = acc_step(k, acc, xr[t], sh);
                off += red_step(p, idx);
            }
            y[j] = acc_final(k, acc, n_red, sh);
        }
        return;
    }
    /* kept inner run: accumulate vectors of up to CHUNK outputs */
    int64_t nch = (p->run + CHUNK - 1) / CHUNK;
    int64_t total = p->n_outer * p->n_red * p->run;
#pragma omp parallel for schedule(static) if (total > PAR_MIN)
    for (int64_t w = 0; w < p->n_outer * nch; w++) {
        int64_t j = w / nch, t0 = (w % nch) * CHUNK;
        int64_t cn = p->run - t0 < CHUNK ? p->run - t0 : CHUNK;
        int64_t idx[CC_MAX_RANK] = {0}, off = kept_offset(p, j) + t0;
        float *yr = y + j * p->run + t0;
        double acc[CHUNK];
        for (int64_t t = 0; t < cn; t++) acc[t] = acc_init(k);
        for (int64_t s = 0; s < n_steps; s++) {
            const float *xr = x + off;
            if (plain_sum)
                for (int64_t t = 0; t < cn; t++) acc[t] += xr[t];
            else
                for (int64_t t = 0; t < cn; t++) acc[t] = acc_step(k, acc[t], xr[t], k == CC_REDUCE_LOGSUMEXP ? yr[t] : 0);
            off += red_step(p, idx);
        }
        for (int64_t t = 0; t < cn; t++) yr[t] = acc_final(k, acc[t], n_red, yr[t]);
    }
}

/* f64 data: acc combined with v, as acc_step does in double. */
static inline double step_f64(int k, double acc, double v, double sh)
{
    switch (k) {
    case CC_REDUCE_MAX: return (v > acc || isnan(v)) && !isnan(acc) ? v : acc;
    case CC_REDUCE_MIN: return (v < acc || isnan(v)) && !isnan(acc) ? v : acc;
    case CC_REDUCE_PROD: return acc * v;
    case CC_REDUCE_L1: return acc + fabs(v);
    case CC_REDUCE_L2: case CC_REDUCE_SUMSQUARE: return acc + v * v;
    case CC_REDUCE_LOGSUMEXP: return acc + exp(v - sh);
    default: return acc + v; /* Mean, Sum, LogSum */
    }
}

/* One output of f64 data: the n_steps runs from offset off, len elements each. */
static double pass_f64(const rplan *p, int k, const double *x, int64_t off, int64_t len, double sh)
{
    int64_t idx[CC_MAX_RANK] = {0};
    double acc = acc_init(k);
    for (int64_t s = 0; s < p->n_steps; s++) {
        for (int64_t u = 0; u < len; u++) acc = step_f64(k, acc, x[off + u], sh);
        off += red_step(p, idx);
    }
    return acc;
}

/* Reduces f64 data x into y in double, output by output (LogSumExp: its Max first, then
 * the sum of exp(x - max)). */
static void reduce_f64(const rplan *p, int k, const double *x, double *y)
{
    int64_t runs = p->run_reduced ? 1 : p->run, len = p->run_reduced ? p->run : 1;
#pragma omp parallel for schedule(static) if (p->n_outer * runs * p->n_red > PAR_MIN)
    for (int64_t w = 0; w < p->n_outer * runs; w++) {
        int64_t off = kept_offset(p, w / runs) + w % runs;
        double sh = k == CC_REDUCE_LOGSUMEXP ? pass_f64(p, CC_REDUCE_MAX, x, off, len, 0) : 0;
        double acc = pass_f64(p, k, x, off, len, sh);
        switch (k) {
        case CC_REDUCE_MEAN: y[w] = acc / (double)p->n_red; break;
        case CC_REDUCE_L2: y[w] = sqrt(acc); break;
        case CC_REDUCE_LOGSUM: y[w] = log(acc); break;
        case CC_REDUCE_LOGSUMEXP: y[w] = isfinite(sh) ? sh + log(acc) : sh; break;
        default: y[w] = acc; break;
        }
    }
}

static int64_t load_int(const void *p, cc_dtype d, int64_t i)
{
    switch (d) {
    case CC_I8: return ((const int8_t *)p)[i];
    case CC_U8: return ((const uint8_t *)p)[i];
    case CC_I32: return ((const int32_t *)p)[i];
    case CC_I64: return ((const int64_t *)p)[i];
    default: return 0;
    }
}

static void store_int(void *p, cc_dtype d, int64_t i, int64_t v)
{
    switch (d) {
    case CC_I8: ((int8_t *)p)[i] = (int8_t)v; break;
    case CC_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
    case CC_I32: ((int32_t *)p)[i] = (int32_t)(uint32_t)(uint64_t)v; break;
    case CC_I64: ((int64_t *)p)[i] = v; break;
    default: break;
    }
}

/* Integer Max, Min, Sum, Prod, L1, SumSquare (plain loops; integer reductions are rare and
 * small): in 64-bit arithmetic that wraps, stored wrapped to the output dtype. */
static void reduce_int(const rplan *p, int k, const void *x, void *y, cc_dtype d)
{
    int64_t n_steps = p->n_steps;
    int64_t runs = p->run_reduced ? 1 : p->run, len = p->run_reduced ? p->run : 1;
    for (int64_t j = 0; j < p->n_outer; j++) {
        for (int64_t t = 0; t < runs; t++) {
            int64_t idx[CC_MAX_RANK] = {0}, off = kept_offset(p, j) + t;
            uint64_t acc = k == CC_REDUCE_PROD ? 1u : 0u;
            int64_t m = k == CC_REDUCE_MAX ? INT64_MIN : INT64_MAX;
            for (int64_t s = 0; s < n_steps; s++) {
                for (int64_t u = 0; u < len; u++) {
                    int64_t v = load_int(x, d, off + u);
                    uint64_t uv = (uint64_t)v;
                    switch (k) {
                    case CC_REDUCE_MAX: m = v > m ? v : m; break;
                    case CC_REDUCE_MIN: m = v < m ? v : m; break;
                    case CC_REDUCE_PROD: acc *= uv; break;
                    case CC_REDUCE_L1: acc += v < 0 ? 0u - uv : uv; break;
                    case CC_REDUCE_SUMSQUARE: acc += uv * uv; break;
                    default: acc += uv; break;
                    }
                }
                off += red_step(p, idx);
            }
            int extreme = k == CC_REDUCE_MAX || k == CC_REDUCE_MIN;
            store_int(y, d, j * runs + t, extreme ? m : (int64_t)acc);
        }
    }
}

static cc_status reduce_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                            cc_tensor *out, void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const scratch *s = state;
    const cc_tensor *x = in[0];
    cc_tensor *y = &out[0];
    const char *name = node->op->name;
    int k = cc_lower_reduce_kind(node);
    if (y->dtype != x->dtype)
        return cc_err_set(err, CC_ERR_ARG, "%s: output dtype differs from the input", name);
    int red[CC_MAX_RANK];
    cc_status st = cc_lower_reduce_axes(node, in, x->shape.rank, red, err);
    if (st != CC_OK) return st;
    int64_t n_out_expect = 1;
    for (int i = 0; i < x->shape.rank; i++)
        if (!red[i]) n_out_expect *= x->shape.dims[i];
    if (cc_shape_numel(&y->shape) != n_out_expect)
        return cc_err_set(err, CC_ERR_ARG, "%s: output has %lld elements, expected %lld", name,
                          (long long)cc_shape_numel(&y->shape), (long long)n_out_expect);
    if (n_out_expect == 0) return CC_OK;
    rplan p;
    rplan_make(&x->shape, red, &p);
    cc_dtype d = x->dtype;
    if (d == CC_F32) {
        reduce_f32(&p, k, x->data, y->data);
    } else if (d == CC_F16 || d == CC_BF16) {
        if (!s || !s->x) return cc_err_set(err, CC_ERR_INTERNAL, "%s: run without prepare", name);
        cc_cpu_to_f32(x->data, d, s->x, cc_shape_numel(&x->shape));
        reduce_f32(&p, k, s->x, s->y);
        cc_cpu_from_f32(s->y, y->data, d, n_out_expect);
    } else if (d == CC_F64) {
        reduce_f64(&p, k, x->data, y->data);
    } else if (d == CC_I8 || d == CC_U8 || d == CC_I32 || d == CC_I64) {
        reduce_int(&p, k, x->data, y->data, d);
    } else {
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: dtype %s not handled", name, cc_dtype_name(d));
    }
    return CC_OK;
}

/* Floats for every kind; integers where the result is exact (Max, Min, Sum, Prod, L1,
 * SumSquare: the catalog refuses integer Mean, L2, LogSum and LogSumExp). */
static cc_support reduce_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out, char *reason,
                                  size_t n)
{
    (void)ctx;
    (void)out;
    cc_dtype d = in[0]->dtype;
    int k = cc_lower_reduce_kind(node);
    if (cc_dtype_is_float(d)) return CC_SUPPORT_YES;
    if ((d == CC_I8 || d == CC_U8 || d == CC_I32 || d == CC_I64) && k != CC_REDUCE_MEAN && k != CC_REDUCE_L2 &&
        k != CC_REDUCE_LOGSUM && k != CC_REDUCE_LOGSUMEXP)
        return CC_SUPPORT_YES;
    snprintf(reason, n, "%s: dtype %s not implemented", node->op->name, cc_dtype_name(d));
    return CC_SUPPORT_NO;
}

/* ---- ArgMax, ArgMin ------------------------------------------------------------------- */

/* Element i of a float tensor (f32, f16, bf16) as float. */
static float load_float(const void *p, cc_dtype d, int64_t i)
{
    if (d == CC_F16) return cc_f16_to_f32(((const uint16_t *)p)[i]);
    if (d == CC_BF16) return cc_bf16_to_f32(((const uint16_t *)p)[i]);
    return ((const float *)p)[i];
}

/* The index along the axis (x as [outer, len, inner]) of the largest (smallest) element:
 * NaN beats every number, ties and NaN against NaN go to the first index, or the last with
 * select_last_index. Floats compare as floats, integers as int64. */
static cc_status arg_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                         void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0];
    int r = x->shape.rank, axis = 0;
    cc_status st = norm_axis(node->op->name, cc_attr_i(node, "axis"), r, &axis, err);
    if (st != CC_OK) return st;
    if (out[0].dtype != CC_I64) return cc_err_set(err, CC_ERR_ARG, "%s: output must be int64", node->op->name);
    int max = node->op->id == CC_OP_ID_ArgMax, last = cc_attr_i(node, "select_last_index") != 0;
    int64_t outer = 1, len = x->shape.dims[axis], inner = 1;
    for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
    for (int d = axis + 1; d < r; d++) inner *= x->shape.dims[d];
    int64_t *y = out[0].data;
    int is_float = cc_dtype_is_float(x->dtype);
#pragma omp parallel for schedule(static) if (outer * len * inner > PAR_MIN)
    for (int64_t j = 0; j < outer * inner; j++) {
        int64_t o = j / inner, i = j % inner, base = o * len * inner + i, best = 0;
        if (is_float) {
            float b = load_float(x->data, x->dtype, base);
            for (int64_t k = 1; k < len; k++) {
                float v = load_float(x->data, x->dtype, base + k * inner);
                int win = isnan(b) ? last && isnan(v) : isnan(v) ? 1 : v == b ? last : max ? v > b : v < b;
                if (win) best = k, b = v;
            }
        } else {
            int64_t b = load_int(x->data, x->dtype, base);
            for (int64_t k = 1; k < len; k++) {
                int64_t v = load_int(x->data, x->dtype, base + k * inner);
                if (v == b ? last : max ? v > b : v < b) best = k, b = v;
            }
        }
        y[j] = best;
    }
    return CC_OK;
}

/* CumSum: running sums along the axis, in float for float types (f16/bf16 rounded on each
 * store) and in int64 for integers. */
static cc_status cumsum_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                            void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0], *at = node->n_in > 1 ? in[1] : NULL;
    if (!at || !at->data || cc_tensor_numel(at) != 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "CumSum: axis must be a constant scalar");
    int r = x->shape.rank, axis = 0;
    cc_status st = norm_axis("CumSum", at->dtype == CC_I32 ? ((const int32_t *)at->data)[0] : ((const int64_t *)at->data)[0],
                             r, &axis, err);
    if (st != CC_OK) return st;
    int ex = cc_attr_i(node, "exclusive") != 0, rev = cc_attr_i(node, "reverse") != 0;
    int64_t outer = 1, len = x->shape.dims[axis], inner = 1;
    for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
    for (int d = axis + 1; d < r; d++) inner *= x->shape.dims[d];
    cc_dtype d = x->dtype;
    int is_float = cc_dtype_is_float(d);
#pragma omp parallel for schedule(static) if (outer * len * inner > PAR_MIN)
    for (int64_t j = 0; j < outer * inner; j++) {
        int64_t base = (j / inner) * len * inner + j % inner, isum = 0;
        float fsum = 0;
        for (int64_t s = 0; s < len; s++) {
            int64_t at_ = base + (rev ? len - 1 - s : s) * inner;
            if (is_float) {
                float v = load_float(x->data, d, at_);
                if (!ex) fsum += v;
                if (d == CC_F32) ((float *)out[0].data)[at_] = fsum;
                else ((uint16_t *)out[0].data)[at_] = d == CC_F16 ? cc_f32_to_f16(fsum) : cc_f32_to_bf16(fsum);
                if (ex) fsum += v;
            } else {
                int64_t v = load_int(x->data, d, at_);
                if (!ex) isum += v;
                store_int(out[0].data, d, at_, isum);
                if (ex) isum += v;
            }
        }
    }
    return CC_OK;
}

/* ---- TopK -------------------------------------------------------------------------------- */

typedef struct topk_item {
    double v;   /* floats and int32 exactly; int64 through key */
    int64_t key, idx;
    int nan;
} topk_item;

static int topk_desc(const void *pa, const void *pb)
{
    const topk_item *a = pa, *b = pb;
    if (a->nan != b->nan) return a->nan ? -1 : 1;
    if (!a->nan && (a->v != b->v || a->key != b->key)) return a->v > b->v || (a->v == b->v && a->key > b->key) ? -1 : 1;
    return a->idx < b->idx ? -1 : 1;
}

static int topk_asc(const void *pa, const void *pb)
{
    const topk_item *a = pa, *b = pb;
    if (a->nan != b->nan) return a->nan ? 1 : -1;
    if (!a->nan && (a->v != b->v || a->key != b->key)) return a->v < b->v || (a->v == b->v && a->key < b->key) ? -1 : 1;
    return a->idx < b->idx ? -1 : 1;
}

/* TopK: each line sorted by a total order (value, then index; NaN largest) and its first K
 * kept. */
static cc_status topk_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                          void *state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)state;
    const cc_tensor *x = in[0], *kt = node->n_in > 1 ? in[1] : NULL;
    if (!kt || !kt->data || cc_tensor_numel(kt) != 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "TopK: K must be one value");
    int r = x->shape.rank, axis = 0;
    cc_status st = norm_axis("TopK", cc_attr_i(node, "axis"), r, &axis, err);
    if (st != CC_OK) return st;
    int64_t k = cc_load_i64(kt->data, kt->dtype, 0), len = x->shape.dims[axis], outer = 1, inner = 1;
    if (k < 0 || k > len) /* K computed at run time is checked here, its outputs sized for len */
        return cc_err_set(err, CC_ERR_ARG, "TopK: K = %lld is outside [0, %lld] (the axis's length)", (long long)k,
                          (long long)len);
    out[0].shape.dims[axis] = out[1].shape.dims[axis] = k; /* the actual shape where K is given at run time */
    for (int d = 0; d < axis; d++) outer *= x->shape.dims[d];
    for (int d = axis + 1; d < r; d++) inner *= x->shape.dims[d];
    if (k == 0 || outer * inner == 0) return CC_OK;
    int largest = cc_attr_i(node, "largest") != 0, is_float = cc_dtype_is_float(x->dtype);
    topk_item *items = malloc(sizeof *items * (size_t)len);
    if (!items) return cc_err_set(err, CC_ERR_NOMEM, "TopK: out of memory");
    size_t es = cc_dtype_size(x->dtype);
    for (int64_t j = 0; j < outer * inner; j++) {
        int64_t base = (j / inner) * len * inner + j % inner;
        for (int64_t t = 0; t < len; t++) {
            int64_t at = base + t * inner;
            topk_item *it = &items[t];
            it->idx = t;
            it->key = 0;
            if (is_float) {
                it->v = load_float(x->data, x->dtype, at);
                it->nan = isnan(it->v);
            } else {
                it->key = load_int(x->data, x->dtype, at);
                it->v = 0;
                it->nan = 0;
            }
        }
        qsort(items, (size_t)len, sizeof *items, largest ? topk_desc : topk_asc);
        for (int64_t t = 0; t < k; t++) {
            int64_t src = base + items[t].idx * inner, dst = (j / inner) * k * inner + t * inner + j % inner;
            memcpy((char *)out[0].data + (size_t)dst * es, (const char *)x->data + (size_t)src * es, es);
            ((int64_t *)out[1].data)[dst] = items[t].idx;
        }
    }
    free(items);
    return CC_OK;
}

/* ---- NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss ---------------------------------- */

static void store_float(void *p, cc_dtype d, int64_t i, float v)
{
    if (d == CC_F16) ((uint16_t *)p)[i] = cc_f32_to_f16(v);
    else if (d == CC_BF16) ((uint16_t *)p)[i] = cc_f32_to_bf16(v);
    else ((float *)p)[i] = v;
}

/* Per position (n, j): the class's log-probability (SoftmaxCrossEntropyLoss: the shift by
 * the classes' largest score and log of the sum of exps, in float32; every class's written
 * to log_prob when asked for) or the input itself, the weighted term, and the reduction in
 * float32 (targets/lower.h's cc_lower_loss). */
static cc_status loss_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                          void *state, cc_err *err)
{
    (void)ctx;
    (void)state;
    const cc_tensor *x = in[0], *t = in[1], *w = node->n_in > 2 ? in[2] : NULL;
    cc_lower_loss_geom g;
    cc_status st = cc_lower_loss(node, &x->shape, &g, err);
    if (st) return st;
    cc_dtype d = x->dtype;
    const int64_t C = g.c, D = g.d;
    float total = 0, den = 0;
    for (int64_t n = 0; n < g.n; n++)
        for (int64_t j = 0; j < D; j++) {
            int64_t cls = t->dtype == CC_I64 ? ((const int64_t *)t->data)[n * D + j] : ((const int32_t *)t->data)[n * D + j];
            float shift = 0, ls = 0;
            if (g.softmax) {
                float m = -INFINITY, sum = 0;
                for (int64_t c = 0; c < C; c++) m = fmaxf(m, load_float(x->data, d, (n * C + c) * D + j));
                for (int64_t c = 0; c < C; c++) sum += expf(load_float(x->data, d, (n * C + c) * D + j) - m);
                shift = m;
                ls = logf(sum);
                for (int64_t c = 0; n_out > 1 && c < C; c++) {
                    int64_t at = (n * C + c) * D + j;
                    store_float(out[1].data, d, at, load_float(x->data, d, at) - shift - ls);
                }
            }
            float term = 0, wt = 0;
            if (!(g.has_ignore && cls == g.ignore)) {
                if (cls < 0 || cls >= C)
                    return cc_err_set(err, CC_ERR_ARG, "%s: class %lld outside [0, %lld)", node->op->name,
                                      (long long)cls, (long long)C);
                wt = w ? load_float(w->data, d, cls) : 1.0f;
                float lp = load_float(x->data, d, (n * C + cls) * D + j);
                if (g.softmax) lp = lp - shift - ls;
                term = -lp * wt;
            }
            if (g.reduction == 0) store_float(out[0].data, d, n * D + j, term);
            total += term;
            den += wt;
        }
    if (g.reduction == 1) store_float(out[0].data, d, 0, total);
    else if (g.reduction == 2) store_float(out[0].data, d, 0, total / den);
    return CC_OK;
}

static const cc_kernel kernels[] = {
    {.op = CC_OP_ID_NegativeLogLikelihoodLoss, .supports = float_only, .run = loss_run},
    {.op = CC_OP_ID_SoftmaxCrossEntropyLoss, .supports = float_only, .run = loss_run},
    {.op = CC_OP_ID_TopK, .run = topk_run},
    {.op = CC_OP_ID_CumSum, .run = cumsum_run},
    {.op = CC_OP_ID_ArgMax, .run = arg_run},
    {.op = CC_OP_ID_ArgMin, .run = arg_run},
    {.op = CC_OP_ID_Softmax, .supports = float_only, .prepare = scratch_prepare,
     .release = scratch_release, .run = softmax_run},
    {.op = CC_OP_ID_LogSoftmax, .supports = float_only, .prepare = scratch_prepare,
     .release = scratch_release, .run = softmax_run},
    {.op = CC_OP_ID_Hardmax, .supports = float_only, .prepare = scratch_prepare,
     .release = scratch_release, .run = softmax_run},
    {.op = CC_OP_ID_ReduceMean, .supports = reduce_supports, .prepare = scratch_prepare,
     .release = scratch_release, .run = reduce_run},
    {.op = CC_OP_ID_ReduceMax, .supports = reduce_supports, .prepare = scratch_prepare,
     .release = scratch_release, .run = reduce_run},
    {.op = CC_OP_ID_ReduceMin, .supports = reduce_supports, .prepare = scratch_prepare,
     .release = scratch_release, .run = reduce_run},
    {.op = CC_OP_ID_ReduceSum, .supports = reduce_supports, .prepare = scratch_prepare,
     .release = scratch_release, .run = reduce_run},
    {.op = CC_OP_ID_ReduceProd, .supports = reduce_supports, .prepare = scratch_prepare,
     .release = scratch_release, .run = reduce_run},
    {.op = CC_OP_ID_ReduceL1, .supports = reduce_supports, .prepare = scratch_prepare,
     .release = scratch_release, .run = reduce_run},
    {.op = CC_OP_ID_ReduceL2, .supports = reduce_supports, .prepare = scratch_prepare,
     .release = scratch_release, .run = reduce_run},
    {.op = CC_OP_ID_ReduceLogSum, .supports = reduce_supports, .prepare = scratch_prepare,
     .release = scratch_release, .run = reduce_run},
    {.op = CC_OP_ID_ReduceLogSumExp, .supports = reduce_supports, .prepare = scratch_prepare,
     .release = scratch_release, .run = reduce_run},
    {.op = CC_OP_ID_ReduceSumSquare, .supports = reduce_supports, .prepare = scratch_prepare,
     .release = scratch_release, .run = reduce_run},
};

const cc_kernel_list cc_cpu_family_reduce = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
