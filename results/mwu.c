/* mwu.c — the two-sided Mann-Whitney U test on raw timing samples: ranks with ties
 * averaged (GSL sort), an exact p-value from the null distribution of U for small tie-free
 * samples, else the normal approximation with tie and continuity corrections (GSL's
 * Gaussian tail). */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>

#define EXACT_MAX 50   /* exact when both samples are smaller than this and tie-free */

/* The null distribution of U for sizes m, n: counts[u] for u = 0..m*n. Built by laying
 * the m + n ordered values down one at a time: after k values of which i are from the
 * first sample, one more value from it adds (k - i) to U (it exceeds every value of the
 * second sample so far). Only additions of non-negative counts, so the tails keep full
 * relative precision in double. */
static double *u_distribution(int m, int n)
{
    int deg = m * n, w = deg + 1;
    double *cur = calloc((size_t)(m + 1) * (size_t)w, sizeof *cur);
    double *nxt = calloc((size_t)(m + 1) * (size_t)w, sizeof *nxt);
    double *counts = malloc(sizeof *counts * (size_t)w);
    if (!cur || !nxt || !counts) {
        free(cur);
        free(nxt);
        free(counts);
        return NULL;
    }
    cur[0] = 1;
    for (int k = 0; k < m + n; k++) {
        memset(nxt, 0, sizeof *nxt * (size_t)(m + 1) * (size_t)w);
        for (int i = 0; i <= m && i <= k; i++) {
            int j = k - i;                 /* values of the second sample so far */
            if (j > n) continue;
            const double *row = cur + (size_t)i * w;
            for (int u = 0; u <= i * j; u++) {
                if (row[u] == 0) continue;
                if (i < m) nxt[(size_t)(i + 1) * w + u + j] += row[u];
                if (j < n) nxt[(size_t)i * w + u] += row[u];
            }
        }
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    memcpy(counts, cur + (size_t)m * w, sizeof *counts * (size_t)w);
    free(cur);
    free(nxt);
    return counts;
}

cc_status cc_mann_whitney(const double *a, int na, const double *b, int nb, cc_mwu *out,
                          cc_err *err)
{
    if (!a || !b || !out || na < 1 || nb < 1)
        return cc_err_set(err, CC_ERR_ARG, "Mann-Whitney test: needs two non-empty samples (%d and %d)",
                          na, nb);
    int n = na + nb;
    double *v = malloc(sizeof *v * (size_t)n);
    size_t *idx = malloc(sizeof *idx * (size_t)n);
    if (!v || !idx) {
        free(v);
        free(idx);
        return cc_err_set(err, CC_ERR_NOMEM, "Mann-Whitney test: out of memory");
    }
    cc_status status = CC_OK;
    memcpy(v, a, sizeof *v * (size_t)na);
    memcpy(v + na, b, sizeof *v * (size_t)nb);
    for (int i = 0; i < n; i++)
        if (isnan(v[i])) {
            status = cc_err_set(err, CC_ERR_ARG, "Mann-Whitney test: a sample is NaN");
            goto done;
        }
    gsl_sort_index(idx, v, 1, (size_t)n);

    /* rank sum of a, ties sharing their average rank; tie term sum(t^3 - t) */
    double rank_a = 0, ties = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && v[idx[j + 1]] == v[idx[i]]) j++;
        double t = (double)(j - i + 1), avg = (i + j) / 2.0 + 1.0;
        for (int k = i; k <= j; k++)
            if ((int)idx[k] < na) rank_a += avg;
        if (t > 1) ties += t * t * t - t;
        i = j + 1;
    }
    double u = rank_a - (double)na * (na + 1) / 2.0;
    double mean = (double)na * nb / 2.0;
    cc_mwu r = { .u = u, .z = 0, .p = 1, .exact = 0 };

    if (na < EXACT_MAX && nb < EXACT_MAX && ties == 0) {
        double *c = u_distribution(na, nb);
        if (!c) {
            status = cc_err_set(err, CC_ERR_NOMEM, "Mann-Whitney test: out of memory");
            goto done;
        }
        int deg = na * nb, ui = (int)llround(u);
        double total = 0, le = 0, ge = 0;
        for (int k = 0; k <= deg; k++) {
            total += c[k];
            if (k <= ui) le += c[k];
            if (k >= ui) ge += c[k];
        }
        free(c);
        double p = 2.0 * fmin(le, ge) / total;
        r.p = p > 1 ? 1 : p;
        r.exact = 1;
    } else {
        double var = (double)na * nb / 12.0 * ((n + 1) - ties / ((double)n * (n - 1)));
        if (var > 0) {
            double d = u - mean;
            double cc = d > 0 ? -0.5 : (d < 0 ? 0.5 : 0);
            r.z = (d + cc) / sqrt(var);
            double p = 2.0 * gsl_cdf_ugaussian_Q(fabs(r.z));
            r.p = p > 1 ? 1 : p;
        }
    }
    *out = r;
done:
    free(v);
    free(idx);
    return status;
}
