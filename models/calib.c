/* calib.c — INT8 calibration: synthetic inputs, and the activation ranges of a model
 * collected with the golden evaluation (min-max, or a percentile read from a histogram
 * of magnitudes kept per sign). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "quantize.h"
#include "zoo.h"

/* Histogram geometry: |x| = f * 2^e with f in [0.5, 1); octaves e in [E_MIN, E_MAX),
 * SUB linear sub-bins per octave. Magnitudes below 2^(E_MIN-1) count as zero; above the
 * last octave they land in the last bin (the percentile is clamped to [min, max]). */
#define E_MIN (-30)
#define E_MAX 34
#define SUB 64
#define N_BINS ((E_MAX - E_MIN) * SUB)

typedef struct hist {
    uint64_t pos[N_BINS], neg[N_BINS], zero;
} hist;

cc_calib_options cc_calib_options_default(void)
{
    cc_calib_options o;
    memset(&o, 0, sizeof o);
    o.method = CC_CALIB_MINMAX;
    o.percentile = 99.99;
    o.n_images = 8;
    o.seed = 1;
    return o;
}

static const char *const method_names[] = { "minmax", "percentile", "percentile-abs" };

const char *cc_calib_method_name(cc_calib_method m)
{
    return (unsigned)m < sizeof method_names / sizeof *method_names ? method_names[m] : "?";
}

int cc_calib_method_parse(const char *name, cc_calib_method *out)
{
    for (size_t i = 0; i < sizeof method_names / sizeof *method_names; i++)
        if (strcmp(name, method_names[i]) == 0) {
            *out = (cc_calib_method)i;
            return 0;
        }
    return -1;
}

/* ---- synthetic inputs ----------------------------------------------------------------- */

/* What the ops that read a graph input accept of it, found by following the value through
 * ops that only move or convert it. */
typedef enum { ROLE_ANY, ROLE_POSITIVE, ROLE_NONZERO, ROLE_MASK, ROLE_INDEX } input_role;

static int moves_value(cc_op_id id)
{
    return id == CC_OP_ID_Cast || id == CC_OP_ID_Unsqueeze || id == CC_OP_ID_Squeeze || id == CC_OP_ID_Reshape ||
           id == CC_OP_ID_Flatten || id == CC_OP_ID_Identity || id == CC_OP_ID_Expand || id == CC_OP_ID_Transpose;
}

/* The role of value v (and, for ROLE_INDEX, the exclusive upper bound of the indices: the
 * smallest extent of the axes it indexes). Index beats mask beats the rest. */
static input_role value_role(const cc_graph *g, int v, int64_t *bound, int depth)
{
    input_role role = ROLE_ANY;
    for (int k = 0; k < g->n_nodes && depth < 8; k++) {
        const cc_node *nd = &g->nodes[k];
        cc_op_id id = nd->op->id;
        for (int j = 0; j < nd->n_in; j++) {
            if (nd->in[j] != v) continue;
            input_role r = ROLE_ANY;
            if ((id == CC_OP_ID_Gather || id == CC_OP_ID_GatherElements) && j == 1 && nd->in[0] >= 0) {
                const cc_shape *ds = &g->values[nd->in[0]].shape;
                int64_t axis = cc_attr_i(nd, "axis");
                if (axis < 0) axis += ds->rank;
                if (axis >= 0 && axis < ds->rank && ds->dims[axis] > 0) {
                    r = ROLE_INDEX;
                    if (*bound <= 0 || ds->dims[axis] < *bound) *bound = ds->dims[axis];
                }
            } else if (id == CC_OP_ID_Equal || id == CC_OP_ID_Not || id == CC_OP_ID_And || id == CC_OP_ID_Or ||
                       id == CC_OP_ID_Xor || (id == CC_OP_ID_Where && j == 0)) {
                r = ROLE_MASK;
            } else if (((id == CC_OP_ID_Div || id == CC_OP_ID_Mod) && j == 1) || (id == CC_OP_ID_BitShift && j == 0)) {
                r = ROLE_NONZERO;
            } else if ((id == CC_OP_ID_BatchNormalization && j == 4) ||
                       ((id == CC_OP_ID_Sqrt || id == CC_OP_ID_Log || id == CC_OP_ID_Reciprocal) && j == 0)) {
                r = ROLE_POSITIVE;
            } else if (moves_value(id) && j == 0) {
                for (int q = 0; q < nd->n_out; q++) {
                    input_role rq = value_role(g, nd->out[q], bound, depth + 1);
                    if (rq > r) r = rq;
                }
            }
            if (r > role) role = r;
        }
    }
    return role;
}

static int name_says_mask(const char *name)
{
    for (const char *p = name; *p; p++)
        if ((p[0] == 'm' || p[0] == 'M') && strncasecmp(p, "mask", 4) == 0) return 1;
    return 0;
}

/* Values for input i (tensor t, its role) that the model's ops accept: indices within the
 * rows they index (token ids, positions), masks of 1s then 0s along the last axis (at least
 * one 1 per row: a padded sequence), positive or non-zero values where an op needs them;
 * other integers small and positive, other floats standard normal. */
static void fill_input(cc_tensor *t, input_role role, int64_t bound, cc_rng *rng)
{
    int64_t n = cc_tensor_numel(t);
    int fl = cc_dtype_is_float(t->dtype);
    if (role == ROLE_MASK) {
        int64_t len = t->shape.rank ? t->shape.dims[t->shape.rank - 1] : 1;
        for (int64_t r = 0; len > 0 && r < n / len; r++) {
            int64_t ones = cc_rng_int(rng, len / 2 > 0 ? len / 2 : 1, len);
            for (int64_t e = 0; e < len; e++) cc_store(t->data, t->dtype, (size_t)(r * len + e), e < ones);
        }
        return;
    }
    for (int64_t e = 0; e < n; e++) {
        double x;
        if (role == ROLE_INDEX) x = (double)cc_rng_int(rng, 0, bound - 1);
        else if (!fl) x = (double)cc_rng_int(rng, 1, t->dtype == CC_BOOL ? 1 : 4);
        else if (role == ROLE_POSITIVE || role == ROLE_NONZERO) x = 0.5 + fabs(cc_rng_normal(rng));
        else x = cc_rng_normal(rng);
        cc_store(t->data, t->dtype, (size_t)e, x);
    }
}

cc_status cc_model_synthetic_input(const cc_model *m, uint64_t seed, cc_tensor *in, cc_err *err)
{
    const cc_graph *g = &m->graph;
    cc_rng rng;
    cc_rng_seed(&rng, seed);
    cc_status st = CC_OK;
    int made = 0;
    for (int i = 0; i < g->n_inputs; i++) {
        const cc_tensor *v = &g->values[g->inputs[i]];
        if ((st = cc_tensor_alloc(&in[i], v->dtype, &v->shape, err))) break;
        made++;
        int64_t n = cc_tensor_numel(v), bound = 0;
        input_role role = value_role(g, g->inputs[i], &bound, 0);
        if (role == ROLE_ANY && !cc_dtype_is_float(v->dtype) && m->value_names &&
            name_says_mask(m->value_names[g->inputs[i]]))
            role = ROLE_MASK;
        if (role != ROLE_ANY || !cc_dtype_is_float(v->dtype) || v->shape.rank != 4) {
            fill_input(&in[i], role, bound, &rng);
            continue;
        }
        /* images: the suite's synthetic photographs, made in f32 and rounded */
        cc_tensor f = { 0 };
        if ((st = cc_tensor_alloc(&f, CC_F32, &v->shape, err))) break;
        uint64_t s = seed * 0x9e3779b97f4a7c15ull + (uint64_t)i;
        int scenes = m->task == CC_TASK_DETECT && v->shape.dims[2] >= 64 && v->shape.dims[3] >= 64;
        st = scenes ? cc_zoo_scenes(&f, s, NULL, NULL, err) : cc_zoo_images(&f, s, err);
        for (int64_t e = 0; e < n && !st; e++) cc_store(in[i].data, v->dtype, (size_t)e, ((float *)f.data)[e]);
        cc_tensor_free(&f);
        if (st) break;
    }
    if (st) {
        for (int j = 0; j < made; j++) cc_tensor_free(&in[j]);
        return st;
    }
    return CC_OK;
}

/* ---- histogram ---------------------------------------------------------------------- */

/* Bin of magnitude a > 0, or -1 for "counts as zero". */
static int bin_of(double a)
{
    int e;
    double f = frexp(a, &e);
    if (e < E_MIN) return -1;
    if (e >= E_MAX) return N_BINS - 1;
    int s = (int)((f - 0.5) * 2 * SUB);
    if (s >= SUB) s = SUB - 1;
    return (e - E_MIN) * SUB + s;
}

static double bin_lo(int b)
{
    int e = b / SUB + E_MIN, s = b % SUB;
    return ldexp(1.0 + (double)s / SUB, e - 1);
}

static double bin_hi(int b)
{
    int e = b / SUB + E_MIN, s = b % SUB;
    return ldexp(1.0 + (double)(s + 1) / SUB, e - 1);
}

static void hist_add(hist *h, double x)
{
    int b = bin_of(fabs(x));
    if (x == 0 || b < 0) h->zero++;
    else if (x > 0) h->pos[b]++;
    else h->neg[b]++;
}

/* The value with a fraction q of the n values below it, walking negatives from the most
 * negative, then zeros, then positives, interpolated linearly within the bin. */
static double hist_value_quantile(const hist *h, int64_t n, double q)
{
    double t = q * (double)n, c0 = 0;
    for (int b = N_BINS - 1; b >= 0; b--) {
        double c = (double)h->neg[b];
        if (c > 0 && c0 + c >= t) return -bin_hi(b) + (t - c0) / c * (bin_hi(b) - bin_lo(b));
        c0 += c;
    }
    c0 += (double)h->zero;
    if (c0 >= t) return 0;
    for (int b = 0; b < N_BINS; b++) {
        double c = (double)h->pos[b];
        if (c > 0 && c0 + c >= t) return bin_lo(b) + (t - c0) / c * (bin_hi(b) - bin_lo(b));
        c0 += c;
    }
    for (int b = N_BINS - 1; b >= 0; b--)
        if (h->pos[b]) return bin_hi(b);
    return 0;
}

/* The magnitude with a fraction q of the n values' magnitudes below it. */
static double hist_abs_quantile(const hist *h, int64_t n, double q)
{
    double t = q * (double)n, c0 = (double)h->zero;
    if (c0 >= t) return 0;
    int last = -1;
    for (int b = 0; b < N_BINS; b++) {
        double c = (double)h->pos[b] + (double)h->neg[b];
        if (c > 0) last = b;
        if (c > 0 && c0 + c >= t) return bin_lo(b) + (t - c0) / c * (bin_hi(b) - bin_lo(b));
        c0 += c;
    }
    return last >= 0 ? bin_hi(last) : 0;
}

/* Estimated count of values below v (interpolated within v's bin). */
static double hist_count_below(const hist *h, double v)
{
    double c = 0;
    if (v <= 0) {
        double a = -v;
        for (int b = N_BINS - 1; b >= 0; b--) {
            if (bin_lo(b) >= a) c += (double)h->neg[b];
            else if (bin_hi(b) > a) c += (double)h->neg[b] * (bin_hi(b) - a) / (bin_hi(b) - bin_lo(b));
        }
        return c;
    }
    for (int b = 0; b < N_BINS; b++) c += (double)h->neg[b];
    c += (double)h->zero;
    for (int b = 0; b < N_BINS; b++) {
        if (bin_hi(b) <= v) c += (double)h->pos[b];
        else if (bin_lo(b) < v) c += (double)h->pos[b] * (v - bin_lo(b)) / (bin_hi(b) - bin_lo(b));
    }
    return c;
}

/* Chooses [lo, hi] for one tensor from its statistics. */
static void choose_range(const hist *h, const cc_calib_options *opt, double p, cc_calib_range *r)
{
    r->lo = r->min;
    r->hi = r->max;
    r->clipped = 0;
    if (opt->method == CC_CALIB_MINMAX || r->count == 0) return;
    double q = p / 100;
    if (opt->method == CC_CALIB_PERCENTILE) {
        r->lo = hist_value_quantile(h, r->count, 1 - q);
        r->hi = hist_value_quantile(h, r->count, q);
    } else {
        double a = hist_abs_quantile(h, r->count, q);
        r->hi = a;
        r->lo = r->min < 0 ? -a : 0;
    }
    if (r->lo < r->min) r->lo = r->min;
    if (r->hi > r->max) r->hi = r->max;
    if (r->lo > r->hi) r->lo = r->hi;
    double below = r->lo > r->min ? hist_count_below(h, r->lo) : 0;
    double above = r->hi < r->max ? (double)r->count - hist_count_below(h, r->hi) : 0;
    r->clipped = (below + above) / (double)r->count;
    if (r->clipped < 0) r->clipped = 0;
}

cc_status cc_calib_collect(const cc_model *m, const cc_calib_options *opt, cc_calib_range **ranges,
                           cc_err *err)
{
    const cc_graph *g = &m->graph;
    cc_calib_options def = cc_calib_options_default();
    if (!opt) opt = &def;
    if (opt->n_images < 1) return cc_err_set(err, CC_ERR_ARG, "calibration needs at least one input");
    double p = opt->percentile > 0 ? opt->percentile : 99.99;
    if (opt->method != CC_CALIB_MINMAX && !(p > 50 && p <= 100))
        return cc_err_set(err, CC_ERR_ARG, "calibration percentile must be in (50, 100], got %g", p);
    if ((unsigned)opt->method > CC_CALIB_PERCENTILE_ABS)
        return cc_err_set(err, CC_ERR_ARG, "unknown calibration method %d", (int)opt->method);
    cc_status st = CC_OK;
    cc_calib_range *r = calloc((size_t)g->n_values + 1, sizeof *r);
    hist **h = calloc((size_t)g->n_values + 1, sizeof *h);
    cc_tensor in[CC_MAX_IO];
    memset(in, 0, sizeof in);
    if (!r || !h) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (int v = 0; v < g->n_values; v++) {
        if (g->values[v].data || g->values[v].dtype != CC_F32) continue;
        r[v].valid = 1;
        r[v].min = INFINITY;
        r[v].max = -INFINITY;
        if (opt->method != CC_CALIB_MINMAX && !(h[v] = calloc(1, sizeof **h))) {
            st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
            goto fail;
        }
    }
    for (int img = 0; img < opt->n_images; img++) {
        const cc_tensor *x = in;
        if (opt->inputs) {
            x = &opt->inputs[(size_t)img * (size_t)g->n_inputs];
        } else if ((st = cc_model_synthetic_input(m, opt->seed + (uint64_t)img, in, err))) {
            goto fail;
        }
        cc_model_eval ev;
        st = cc_model_evaluate(g, x, 0, NULL, &ev, err);
        if (!opt->inputs)
            for (int i = 0; i < g->n_inputs; i++) cc_tensor_free(&in[i]);
        if (st) goto fail;
        for (int v = 0; v < g->n_values; v++) {
            if (!r[v].valid || !ev.vals[v].data) continue;
            const float *d = ev.vals[v].data;
            int64_t n = cc_tensor_numel(&ev.vals[v]);
            for (int64_t i = 0; i < n; i++) {
                double x1 = d[i];
                if (isnan(x1)) continue;
                if (x1 < r[v].min) r[v].min = x1;
                if (x1 > r[v].max) r[v].max = x1;
                if (h[v]) hist_add(h[v], x1);
                r[v].count++;
            }
        }
        cc_model_eval_free(&ev);
    }
    for (int v = 0; v < g->n_values; v++) {
        if (!r[v].valid) continue;
        if (r[v].count == 0) {
            r[v].min = r[v].max = 0;
        }
        if (h[v]) choose_range(h[v], opt, p, &r[v]);
        else {
            r[v].lo = r[v].min;
            r[v].hi = r[v].max;
        }
    }
    for (int v = 0; v < g->n_values; v++) free(h[v]);
    free(h);
    *ranges = r;
    return CC_OK;
fail:
    if (h)
        for (int v = 0; v < g->n_values; v++) free(h[v]);
    free(h);
    free(r);
    return st;
}
