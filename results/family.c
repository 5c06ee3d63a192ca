/* family.c — the second stage of compare's timing rule: a row's timing change counts only
 * when the median change of its op family (the timed rows of one op on one target) moves
 * the same way beyond the family threshold. The threshold is a floor, raised to
 * noise_factor x the spread of the family's level over the A/A runs of the baseline's
 * build on this machine when the history holds them. A row that moved alone may still be
 * judged on strong evidence of its own when the candidate ran on a quiet machine (the lone
 * rule). A model is its own family, its level over the A/A runs read from their stored
 * p50. The rule is documented in compare.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "compare_int.h"
#include "model_result.h"
#include "store_query.h"

/* A family: its rows in order[first .. first + n - 1], and its level over the A/A runs
 * (the median log ratio of its rows' medians to the baseline's; the baseline is 0). */
typedef struct family {
    int first, n;
    double lo, hi;
    int runs;
} family;

static int family_order(const void *a, const void *b, void *ctx)
{
    const cc_compare_row *rows = ctx;
    const cc_compare_row *x = &rows[*(const int *)a], *y = &rows[*(const int *)b];
    int k = strcmp(x->op, y->op);
    if (!k) k = strcmp(x->target, y->target);
    if (!k) k = strcmp(x->case_id, y->case_id);
    if (!k) k = (int)x->regime - (int)y->regime;
    return k;
}

/* Index of (case, target, regime) in medians sorted by cc_store_load_medians; -1 if absent. */
static int find_median(const cc_median_row *m, int n, const cc_compare_row *row)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int k = strcmp(m[mid].case_id, row->case_id);
        if (!k) k = strcmp(m[mid].target, row->target);
        if (!k) k = (int)m[mid].regime - (int)row->regime;
        if (k == 0) return mid;
        if (k < 0) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* The family test on one row: a change the row test found (*change) that the family's
 * level (log ratio) does not carry beyond threshold is demoted to none and marked
 * unconfirmed (+1 slower, -1 faster), unless strong evidence of its own keeps it as a lone
 * change (*lone = 1; lone may be NULL when strong is 0). */
static void family_test(cc_change *change, int *unconfirmed, int *lone, double level, double threshold, int strong)
{
    int dir = *change == CC_CHANGE_REGRESSION ? 1 : *change == CC_CHANGE_IMPROVEMENT ? -1 : 0;
    if (!dir || dir * level > threshold) return;
    if (strong) {
        *lone = 1;
        return;
    }
    *change = CC_CHANGE_NONE;
    *unconfirmed = dir;
}

static double median_sorted(double *x, int n)
{
    gsl_sort(x, 1, (size_t)n);
    return gsl_stats_median_from_sorted_data(x, 1, (size_t)n);
}

/* 1 when run is an A/A run of the baseline's build: finished, same git commit, neither the
 * baseline nor the candidate, started no later than the candidate. */
static int aa_candidate(const cc_comparison *c, const cc_run_info *run)
{
    return strcmp(run->status, "finished") == 0 && c->base.git_commit[0] &&
           strcmp(run->git_commit, c->base.git_commit) == 0 && strcmp(run->uid, c->cand.uid) != 0 &&
           strcmp(run->uid, c->base.uid) != 0 && strcmp(run->started_at, c->cand.started_at) <= 0;
}

/* The ids of the A/A runs of base_db for c (aa_candidate, and stable environment parts
 * equal to the baseline's), in run order; *ids malloc'd (NULL when *n is 0). */
static cc_status aa_runs(cc_db *db, const cc_comparison *c, int64_t **ids, int *n_ids, cc_err *err)
{
    cc_run_info *runs = NULL;
    int n = 0;
    *ids = NULL;
    *n_ids = 0;
    cc_status st = cc_store_list_runs(db, &runs, &n, err);
    if (st == CC_OK && n > 0) {
        *ids = malloc(sizeof **ids * (size_t)n);
        if (!*ids) st = cc_err_set(err, CC_ERR_NOMEM, "compare: out of memory");
    }
    for (int r = 0; r < n && st == CC_OK; r++) {
        const cc_run_info *run = &runs[r];
        if (!aa_candidate(c, run)) continue;
        cc_run_target *tg = NULL;
        cc_env_diff *diffs = NULL;
        int nt = 0, nd = 0, ns = 0;
        st = cc_store_load_targets(db, run->id, &tg, &nt, err);
        if (st == CC_OK)
            st = cc_env_compare(&c->base, c->base_targets, c->n_base_targets, run, tg, nt, &diffs, &nd, &ns, err);
        free(tg);
        free(diffs);
        if (st == CC_OK && ns == 0) (*ids)[(*n_ids)++] = run->id;
    }
    free(runs);
    if (st != CC_OK) {
        free(*ids);
        *ids = NULL;
        *n_ids = 0;
    }
    return st;
}

/* Widens each family's level range with the A/A runs of base_db, and each row's own
 * (own[i] for row order[i]). base_med[k] is the baseline's stored median of row order[k]
 * (NaN when absent), base_ref[k] its reference loop's median (NaN when none). An A/A run's
 * level is taken like the candidate's change (compare.c): divided by how much slower its
 * reference ran than the baseline's, when both have one, so that the machine's slow and
 * fast periods between the history's runs do not widen the thresholds. */
static cc_status read_history(cc_db *db, cc_comparison *c, const int *order, const double *base_med,
                              const double *base_ref, family *fam, int n_fam, family *own, double *scratch,
                              cc_err *err)
{
    const int use_ref = !c->ref_unsteady;
    int64_t *ids = NULL;
    int n = 0;
    cc_status st = aa_runs(db, c, &ids, &n, err);
    for (int r = 0; r < n && st == CC_OK; r++) {
        cc_median_row *med = NULL;
        int nm = 0;
        st = cc_store_load_medians(db, ids[r], &med, &nm, err);
        if (st != CC_OK) break;
        for (int f = 0; f < n_fam; f++) {
            int k = 0;
            for (int i = fam[f].first; i < fam[f].first + fam[f].n; i++) {
                int m = find_median(med, nm, &c->rows[order[i]]);
                if (m >= 0 && med[m].n_samples >= c->opt.min_samples && med[m].median > 0 && base_med[i] > 0) {
                    double level = log(med[m].median / base_med[i]);
                    if (use_ref && med[m].ref > 0 && base_ref[i] > 0) level -= log(med[m].ref / base_ref[i]);
                    scratch[k++] = level;
                    own[i].lo = fmin(own[i].lo, level);
                    own[i].hi = fmax(own[i].hi, level);
                    own[i].runs++;
                }
            }
            if (k == 0) continue;
            double level = median_sorted(scratch, k);
            fam[f].lo = fmin(fam[f].lo, level);
            fam[f].hi = fmax(fam[f].hi, level);
            fam[f].runs++;
        }
        free(med);
    }
    free(ids);
    if (st == CC_OK) c->noise_history = n + 1;
    return st;
}

/* The timed rows (all rows when all is set) in family order, and the families. */
static int families_of(const cc_comparison *c, int all, int *order, family *fam, family *own, int *n_fam)
{
    int n = 0;
    for (int i = 0; i < c->n_rows; i++)
        if (all || !isnan(c->rows[i].p)) order[n++] = i;
    qsort_r(order, (size_t)n, sizeof *order, family_order, c->rows);
    *n_fam = 0;
    for (int i = 0; i < n; i++) own[i] = (family){ i, 1, 0, 0, 1 };
    for (int i = 0; i < n; i++) {
        const cc_compare_row *a = &c->rows[order[i]];
        const cc_compare_row *prev = i ? &c->rows[order[i - 1]] : NULL;
        if (!prev || strcmp(a->op, prev->op) || strcmp(a->target, prev->target))
            fam[(*n_fam)++] = (family){ i, 0, 0, 0, 1 };
        fam[*n_fam - 1].n++;
    }
    return n;
}

cc_status cc_compare_ref_check(cc_db *base_db, cc_comparison *c, cc_err *err)
{
    c->ref_unsteady = 0;
    if (!c->opt.noise_auto || c->n_rows == 0) return CC_OK;
    int n = c->n_rows, n_fam = 0;
    int *order = malloc(sizeof *order * (size_t)n);
    double *scratch = malloc(sizeof *scratch * (size_t)n), *base_med = malloc(sizeof *base_med * (size_t)n);
    double *base_ref = malloc(sizeof *base_ref * (size_t)n);
    family *fam[2] = { malloc(sizeof(family) * (size_t)n), malloc(sizeof(family) * (size_t)n) };
    family *own = malloc(sizeof *own * (size_t)n);
    cc_median_row *bm = NULL;
    int n_bm = 0;
    cc_status st = CC_OK;
    if (!order || !scratch || !base_med || !base_ref || !fam[0] || !fam[1] || !own) {
        st = cc_err_set(err, CC_ERR_NOMEM, "compare: out of memory");
        goto done;
    }
    n = families_of(c, 1, order, fam[0], own, &n_fam);
    memcpy(fam[1], fam[0], sizeof(family) * (size_t)n_fam);
    if ((st = cc_store_load_medians(base_db, c->base.id, &bm, &n_bm, err))) goto done;
    for (int i = 0; i < n; i++) {
        int m = find_median(bm, n_bm, &c->rows[order[i]]);
        base_med[i] = m >= 0 ? bm[m].median : NAN;
        base_ref[i] = m >= 0 ? bm[m].ref : NAN;
    }
    /* the families' level spreads over the A/A runs, with the reference's scaling (k = 0)
     * and without it (k = 1) */
    double spread[2] = { 0, 0 };
    int runs = 0;
    for (int k = 0; k < 2 && !st; k++) {
        c->ref_unsteady = k;
        st = read_history(base_db, c, order, base_med, base_ref, fam[k], n_fam, own, scratch, err);
        for (int f = 0; f < n_fam; f++)
            if (fam[k][f].runs >= 2) spread[k] += fam[k][f].hi - fam[k][f].lo;
        runs = c->noise_history;
    }
    c->ref_unsteady = !st && runs >= 3 && spread[0] > spread[1];
done:
    c->noise_history = 0;
    free(order), free(scratch), free(base_med), free(base_ref), free(fam[0]), free(fam[1]), free(own), free(bm);
    return st;
}

cc_status cc_compare_families(cc_db *base_db, cc_comparison *c, cc_err *err)
{
    const cc_compare_options *o = &c->opt;
    int n = 0;
    for (int i = 0; i < c->n_rows; i++) n += !isnan(c->rows[i].p);
    c->noise_history = 0;
    if (n == 0) return CC_OK;
    int *order = malloc(sizeof *order * (size_t)n);
    double *scratch = malloc(sizeof *scratch * (size_t)n);
    double *base_med = malloc(sizeof *base_med * (size_t)n);
    double *base_ref = malloc(sizeof *base_ref * (size_t)n);
    family *fam = malloc(sizeof *fam * (size_t)n);
    family *own = malloc(sizeof *own * (size_t)n);
    cc_median_row *bm = NULL;
    int n_bm = 0, n_fam = 0;
    cc_status st = CC_OK;
    if (!order || !scratch || !base_med || !base_ref || !fam || !own) {
        st = cc_err_set(err, CC_ERR_NOMEM, "compare: out of memory");
        goto done;
    }
    n = families_of(c, 0, order, fam, own, &n_fam);

    if (o->noise_auto) {
        st = cc_store_load_medians(base_db, c->base.id, &bm, &n_bm, err);
        if (st != CC_OK) goto done;
        for (int i = 0; i < n; i++) {
            int m = find_median(bm, n_bm, &c->rows[order[i]]);
            base_med[i] = m >= 0 ? bm[m].median : NAN;
            base_ref[i] = m >= 0 ? bm[m].ref : NAN;
        }
        st = read_history(base_db, c, order, base_med, base_ref, fam, n_fam, own, scratch, err);
        if (st != CC_OK) goto done;
    }

    for (int f = 0; f < n_fam; f++) {
        const family *F = &fam[f];
        for (int i = 0; i < F->n; i++) scratch[i] = log1p(c->rows[order[F->first + i]].change);
        double level = median_sorted(scratch, F->n);
        double threshold = log1p(o->noise_floor);
        if (F->runs >= 2) threshold = fmax(threshold, o->noise_factor * (F->hi - F->lo));
        for (int i = F->first; i < F->first + F->n; i++) {
            cc_compare_row *row = &c->rows[order[i]];
            row->family_change = expm1(level);
            row->family_threshold = expm1(threshold);
            row->family_rows = F->n;
            row->noise_runs = F->runs >= 2 ? F->runs : 0;
            if (own[i].runs >= 2) row->own_spread = expm1(own[i].hi - own[i].lo);
            /* strong evidence of its own, from a quiet candidate: judged alone (the lone
             * rule in compare.h) */
            double mine = log1p(row->change);
            int strong = c->lone_rule && own[i].runs >= 3 && row->p < o->lone_alpha &&
                         fabs(mine) > fmax(log1p(o->lone_effect), o->lone_factor * (own[i].hi - own[i].lo));
            family_test(&row->timing_change, &row->unconfirmed, &row->lone, level, threshold, strong);
        }
    }

done:
    free(order);
    free(scratch);
    free(base_med);
    free(base_ref);
    free(fam);
    free(own);
    free(bm);
    return st;
}

/* The stored p50 of (model, target, precision) among a run's model results; NaN if none. */
static double model_p50(const cc_model_result *m, int n, const cc_compare_model_row *row)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(m[i].model, row->model) && !strcmp(m[i].target, row->target) &&
            !strcmp(m[i].precision, row->precision))
            return m[i].lat_samples > 0 && m[i].lat_p50 > 0 ? m[i].lat_p50 : NAN;
    return NAN;
}

cc_status cc_compare_model_families(cc_db *base_db, cc_comparison *c, cc_err *err)
{
    const cc_compare_options *o = &c->opt;
    int timed = 0;
    for (int i = 0; i < c->n_mrows; i++) timed += !isnan(c->mrows[i].family_threshold);
    if (timed == 0) return CC_OK;
    family *fam = calloc((size_t)c->n_mrows, sizeof *fam);
    double *base_p50 = calloc((size_t)c->n_mrows, sizeof *base_p50);
    cc_model_result *mr = NULL;
    int64_t *ids = NULL;
    int n_ids = 0, nm = 0;
    cc_status st = CC_OK;
    if (!fam || !base_p50) {
        st = cc_err_set(err, CC_ERR_NOMEM, "compare: out of memory");
        goto done;
    }
    for (int i = 0; i < c->n_mrows; i++) fam[i].runs = 1;
    if (o->noise_auto) {
        /* the baseline's own stored p50 is the reference of every A/A run's level */
        st = cc_store_load_model_results(base_db, c->base.id, &mr, &nm, err);
        if (st != CC_OK) goto done;
        for (int i = 0; i < c->n_mrows; i++) base_p50[i] = model_p50(mr, nm, &c->mrows[i]);
        free(mr);
        mr = NULL;
        st = aa_runs(base_db, c, &ids, &n_ids, err);
        for (int r = 0; r < n_ids && st == CC_OK; r++) {
            st = cc_store_load_model_results(base_db, ids[r], &mr, &nm, err);
            if (st != CC_OK) break;
            for (int i = 0; i < c->n_mrows; i++) {
                double p50 = model_p50(mr, nm, &c->mrows[i]);
                if (!(p50 > 0) || !(base_p50[i] > 0)) continue;
                double level = log(p50 / base_p50[i]);
                fam[i].lo = fmin(fam[i].lo, level);
                fam[i].hi = fmax(fam[i].hi, level);
                fam[i].runs++;
            }
            free(mr);
            mr = NULL;
        }
        if (st != CC_OK) goto done;
    }
    for (int i = 0; i < c->n_mrows; i++) {
        cc_compare_model_row *row = &c->mrows[i];
        if (isnan(row->family_threshold)) continue;
        double threshold = log1p(o->noise_floor);
        if (fam[i].runs >= 2) threshold = fmax(threshold, o->noise_factor * (fam[i].hi - fam[i].lo));
        row->family_threshold = expm1(threshold);
        row->noise_runs = fam[i].runs >= 2 ? fam[i].runs : 0;
        family_test(&row->timing_change, &row->unconfirmed, NULL, log1p(row->change), threshold, 0);
    }

done:
    free(fam);
    free(base_p50);
    free(mr);
    free(ids);
    return st;
}
