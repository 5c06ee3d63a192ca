/* check.c — judges a target's outputs against the golden outputs (policy.h's bound) and
 * computes the error metrics kept with every result. */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Fraction of golden elements that make a comparison weak. */
#define MISTRUST_ZERO_FRACTION 0.95
#define MISTRUST_MIN_ELEMENTS 16

/* 1 when every float attribute of c is a short dyadic fraction (a multiple of 2^-12 below
 * 2^12 in magnitude): then products of the exact regime's small integers with it stay
 * exact in float32, which is the exact regime's premise. Gemm with beta=1/6 breaks it:
 * c*beta rounds on every target and in any correct implementation. */
static int float_attrs_dyadic(const cc_case *c)
{
    for (int a = 0; a < c->op->n_attrs; a++) {
        const cc_attr_value *v = &c->attrs[a];
        if (!v->set) continue;
        int n = c->op->attrs[a].kind == CC_ATTR_FLOAT ? 1 : c->op->attrs[a].kind == CC_ATTR_FLOATS ? v->n : 0;
        for (int k = 0; k < n; k++) {
            double x = c->op->attrs[a].kind == CC_ATTR_FLOAT ? v->f : v->floats[k];
            double scaled = ldexp(x, 12);
            if (!(fabs(x) < 4096.0) || scaled != nearbyint(scaled)) return 0;
        }
    }
    return 1;
}

cc_verdict cc_check_outputs(const cc_case *c, int exact, int n_out, const cc_golden *golden,
                            const cc_tensor *got, cc_metrics *m, char *reason, size_t reason_size)
{
    return cc_check_outputs_on(c, exact, n_out, golden, got, 0, m, reason, reason_size);
}

cc_verdict cc_check_outputs_on(const cc_case *c, int exact, int n_out, const cc_golden *golden,
                               const cc_tensor *got, int contraction_bits, cc_metrics *m, char *reason,
                               size_t reason_size)
{
    memset(m, 0, sizeof *m);
    m->cosine = 1;
    m->worst_index = -1;
    if (reason_size) reason[0] = '\0';
    cc_dtype case_dt = cc_case_dtype(c);
    const cc_tol *tol = cc_policy_of(c->op, case_dt);
    if (!tol) { /* a bug the catalog test catches: fail closed */
        snprintf(reason, reason_size, "%s has no tolerance row at %s (ops/policy.c)", c->op->name,
                 cc_dtype_name(case_dt));
        m->bound_ratio = INFINITY;
        return CC_FAILED;
    }
    double u = cc_dtype_unit_roundoff(case_dt);
    if (!cc_dtype_is_float(case_dt)) u = cc_dtype_unit_roundoff(CC_F32);
    /* FP32 contractions on a device that rounds their inputs to fewer bits (TF32 tensor
       cores: 11) and multiplies and accumulates in FP32: each product a*b becomes
       a(1+d1) b(1+d2), |d| <= u_in, an error of at most (2 u_in + u_in^2)|a b|, which adds
       (2 u_in + u_in^2) S to FP32's accumulation bound (S = sum of |terms|, g->mag) */
    int reduced = contraction_bits > 0 && contraction_bits < 24 && case_dt == CC_F32 &&
                  cc_op_has_trait(c->op, CC_TRAIT_CONTRACTION);
    double u_in = reduced ? ldexp(1.0, -contraction_bits) : 0;
    double in_round = 2 * u_in + u_in * u_in;
    /* each operation may also underflow: an absolute error of half the smallest subnormal
     * of the compute type (the model fl(x op y) = (x op y)(1 + d) + e, |e| <= eta) */
    double eta = cc_dtype_min_subnormal(cc_dtype_is_float(case_dt) ? case_dt : CC_F32) / 2;
    if (exact && !float_attrs_dyadic(c)) exact = 0;

    double sum_err2 = 0, sum_want2 = 0, sum_got2 = 0, sum_gw = 0;
    int64_t base = 0, n_zero = 0, n_sat = 0, n_int = 0;
    double first_value = 0;
    int64_t first_exact = 0;
    int all_same = 1, any_nonfinite_bad = 0;
    for (int j = 0; j < n_out; j++) {
        const cc_golden *g = &golden[j];
        const cc_tensor *t = &got[j];
        if (t->dtype != g->dtype || !cc_shape_equal(&t->shape, &g->shape)) {
            char a[160], b[160];
            snprintf(reason, reason_size, "output %d is %s %s, expected %s %s", j,
                     cc_dtype_name(t->dtype), cc_shape_format(&t->shape, a, sizeof a),
                     cc_dtype_name(g->dtype), cc_shape_format(&g->shape, b, sizeof b));
            m->bound_ratio = INFINITY;
            return CC_FAILED;
        }
        int64_t n = cc_shape_numel(&g->shape);
        int is_float = cc_dtype_is_float(g->dtype);
        double u_out = cc_dtype_unit_roundoff(g->dtype);
        double sub_out = cc_dtype_min_subnormal(g->dtype) / 2;
        double gamma = tol->sqrt_gamma ? sqrt(g->k) : g->k;
        int exact_here = exact && tol->exact && (g->dtype == CC_F32 || !is_float) &&
                         (case_dt == CC_F32 || !cc_dtype_is_float(case_dt));
        for (int64_t i = 0; i < n; i++) {
            double want = g->value[i];
            double y = cc_load(t->data, t->dtype, (size_t)i);
            int64_t wi = 0;
            int w_exact = !g->real && cc_golden_int(g, i, &wi); /* a 64-bit integer, exactly */
            if (base + i == 0) {
                first_value = want;
                first_exact = wi;
            } else if (want != first_value && !(isnan(want) && isnan(first_value))) {
                all_same = 0;
            } else if (w_exact && wi != first_exact) {
                all_same = 0;
            }
            if (want == 0) n_zero++;
            if (!is_float && g->dtype != CC_BOOL) { /* a bool's 0 and 1 are not saturation */
                n_int++;
                if (want <= cc_dtype_min(g->dtype) || want >= cc_dtype_max(g->dtype)) n_sat++;
            }
            double bound, e;
            if (isnan(want) || isinf(want)) {
                int ok = isnan(want) ? isnan(y) : y == want;
                e = ok ? 0 : INFINITY;
                bound = 0;
                if (!ok) any_nonfinite_bad = 1;
            } else {
                e = isnan(y) ? INFINITY : fabs(y - want);
                if (w_exact) /* 64-bit integers compared in 64 bits */
                    e = cc_int_gap(((const int64_t *)t->data)[i], wi, g->dtype == CC_U64);
                if (!is_float && g->real && !exact_here) {
                    /* rounded from a float computation: any integer that a value within the
                     * error bound of the real value rounds to (either way at a tie), saturated */
                    double lo, hi;
                    cc_tol_int_range(tol, tol->c * gamma * (u * g->mag[i] + eta), g->real[i], g->dtype, &lo, &hi);
                    bound = y >= want ? hi - want : want - lo;
                } else if (!is_float) bound = exact_here ? 0 : tol->atol;
                else if (exact_here) bound = 0;
                else bound = tol->atol + tol->c * (gamma * (u * g->mag[i] + eta) + in_round * g->mag[i]) +
                             tol->r * u_out * fabs(want) + sub_out;
            }
            m->n++;
            double ratio = e == 0 ? 0 : (bound > 0 ? e / bound : INFINITY);
            if (e > bound) m->n_bad++;
            if (ratio > m->bound_ratio || m->worst_index < 0) {
                m->bound_ratio = ratio;
                m->worst_index = base + i;
                m->worst_got = y;
                m->worst_want = want;
            }
            if (e > m->max_abs) m->max_abs = e;
            if (want != 0 && isfinite(want)) {
                double rel = e / fabs(want);
                if (rel > m->max_rel) m->max_rel = rel;
            }
            double ulp = cc_ulp_distance(g->dtype, y, want);
            if (ulp > m->max_ulp) m->max_ulp = ulp;
            if (isfinite(want) && isfinite(y)) {
                sum_err2 += (y - want) * (y - want);
                sum_want2 += want * want;
                sum_got2 += y * y;
                sum_gw += y * want;
            }
        }
        base += n;
    }
    m->nmse = sum_want2 > 0 ? sum_err2 / sum_want2 : (sum_err2 > 0 ? INFINITY : 0);
    m->cosine = (sum_want2 > 0 && sum_got2 > 0) ? sum_gw / sqrt(sum_want2 * sum_got2)
                : (sum_want2 == sum_got2 ? 1 : 0);
    if (m->n_bad > 0 || any_nonfinite_bad) {
        snprintf(reason, reason_size,
                 "%lld of %lld elements out of bound; worst at flat index %lld: got %.9g, want %.9g (%.3gx the bound%s)",
                 (long long)m->n_bad, (long long)m->n, (long long)m->worst_index, m->worst_got,
                 m->worst_want, m->bound_ratio, reduced ? contraction_bits == 11 ? " for TF32 inputs" : " for reduced-precision inputs" : "");
        return CC_FAILED;
    }
    const cc_op_info *info = cc_op_info_of(c->op->id);
    if (m->n >= 2 && all_same && !(info && (info->traits & CC_TRAIT_FILL))) {
        snprintf(reason, reason_size, "golden output is constant (every element %.9g)", first_value);
        return CC_MISTRUSTED;
    }
    if (m->n >= MISTRUST_MIN_ELEMENTS && (double)n_zero > MISTRUST_ZERO_FRACTION * (double)m->n) {
        snprintf(reason, reason_size, "%.1f%% of golden outputs are zero",
                 100.0 * (double)n_zero / (double)m->n);
        return CC_MISTRUSTED;
    }
    if (n_int >= MISTRUST_MIN_ELEMENTS && (double)n_sat > MISTRUST_ZERO_FRACTION * (double)n_int) {
        snprintf(reason, reason_size, "%.1f%% of golden outputs saturate", 100.0 * (double)n_sat / (double)n_int);
        return CC_MISTRUSTED;
    }
    return CC_PASSED;
}
