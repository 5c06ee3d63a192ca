/* random.c — random valid cases and the shrinker (see random.h). */
#include "random.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

#define POOL_MAX 48      /* distinct values kept per attribute */
#define DRAW_TRIES 64    /* changed drafts tried before falling back to a template */

struct cc_draw_source {
    const cc_op_def *op;
    unsigned dtypes;     /* case dtypes a draw may have */
    int n_templates;
    cc_case *templates;
    int n_edge;          /* templates tagged CC_SWEEP_EDGE: indices into templates */
    int *edge;
    int pool_n[CC_MAX_ATTRS];
    cc_attr_value pool[CC_MAX_ATTRS][POOL_MAX];
};

static void pool_add(cc_draw_source *s, int a, const cc_attr_value *v)
{
    if (!v->set) return;
    for (int i = 0; i < s->pool_n[a]; i++)
        if (cc_attr_equal(s->op->attrs[a].kind, &s->pool[a][i], v)) return;
    if (s->pool_n[a] < POOL_MAX) s->pool[a][s->pool_n[a]++] = *v;
}

cc_status cc_draw_source_make(const cc_op_def *op, unsigned dtypes, cc_draw_source **out, cc_err *err)
{
    cc_draw_source *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    s->op = op;
    s->dtypes = op->dtypes & (dtypes ? dtypes : ~0u);
    cc_case *all = NULL;
    int n = 0;
    cc_status st = cc_case_enumerate(op, CC_DTYPE_COUNT, 0, &all, &n, err);
    if (st) {
        free(s);
        return st;
    }
    s->templates = all;
    for (int i = 0; i < n; i++) {
        for (int a = 0; a < op->n_attrs; a++) pool_add(s, a, &all[i].attrs[a]);
        if (dtypes && !(dtypes & CC_DTYPE_BIT(cc_case_dtype(&all[i])))) continue;
        all[s->n_templates++] = all[i];
    }
    s->edge = malloc(sizeof *s->edge * (size_t)(s->n_templates ? s->n_templates : 1));
    if (!s->edge) {
        free(all);
        free(s);
        return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < s->n_templates; i++)
        if (all[i].tags & CC_SWEEP_EDGE) s->edge[s->n_edge++] = i;
    /* defaults belong to every pool */
    for (int a = 0; a < op->n_attrs; a++) {
        cc_attr_value def;
        cc_attr_default(&op->attrs[a], &def);
        pool_add(s, a, &def);
    }
    *out = s;
    return CC_OK;
}

void cc_draw_source_free(cc_draw_source *s)
{
    if (!s) return;
    free(s->templates);
    free(s->edge);
    free(s);
}

int cc_draw_source_templates(const cc_draw_source *s) { return s->n_templates; }

static int pick(cc_rng *r, int n) { return n > 0 ? (int)cc_rng_int(r, 0, n - 1) : 0; }
static int chance(cc_rng *r, double p) { return cc_rng_uniform(r) < p; }

/* A new value for dimension value v. */
static int64_t new_dim(cc_rng *r, int64_t v)
{
    switch (pick(r, 10)) {
    case 0: return 1;
    case 1: return v > 1 ? v - 1 : 2;
    case 2: return v + 1;
    case 3: return v > 1 ? (v + 1) / 2 : 1;
    case 4: return 2 * v;
    case 5: return cc_rng_int(r, 1, 5);
    case 6: return cc_rng_int(r, 1, 12);
    case 7: return cc_rng_int(r, 5, 33);
    case 8: return chance(r, 0.3) ? 0 : 3;  /* empty tensors are edge cases too */
    default: return 7;
    }
}

static const double float_steps[] = { 0.25, 0.5, 0.75, 1.25, 1.5, 2.0, 2.5, 3.0, 1.0 / 3.0 };
#define N_STEPS ((int)(sizeof float_steps / sizeof float_steps[0]))

/* i + 1 (up != 0) or i - 1, staying put at the ends of int64 (Slice's ends are often
 * INT64_MAX). */
static int64_t neighbour(int64_t i, int up)
{
    if (up) return i < INT64_MAX ? i + 1 : i;
    return i > INT64_MIN ? i - 1 : i;
}

/* Changes one attribute: a pooled value, then sometimes a neighbour of it. */
static void change_attr(const cc_draw_source *s, int a, cc_rng *r, cc_attr_value *v)
{
    const cc_attr_def *d = &s->op->attrs[a];
    if (s->pool_n[a] > 0) *v = s->pool[a][pick(r, s->pool_n[a])];
    int numeric = d->kind == CC_ATTR_INT || d->kind == CC_ATTR_FLOAT || d->kind == CC_ATTR_INTS ||
                  d->kind == CC_ATTR_FLOATS;
    if (!numeric || !chance(r, 0.4)) return; /* words, lists of words, tensors: pooled values only */
    v->set = 1;
    switch (d->kind) {
    case CC_ATTR_INT: v->i = neighbour(v->i, chance(r, 0.5)); break;
    case CC_ATTR_FLOAT: v->f = v->f != 0 ? v->f * float_steps[pick(r, N_STEPS)] : float_steps[pick(r, N_STEPS)]; break;
    case CC_ATTR_INTS:
        if (v->n > 0) {
            int k = pick(r, v->n);
            v->ints[k] = neighbour(v->ints[k], chance(r, 0.5));
        }
        break;
    case CC_ATTR_FLOATS:
        if (v->n > 0) v->floats[pick(r, v->n)] = float_steps[pick(r, N_STEPS)];
        break;
    default: break;
    }
}

/* One changed draft of template t; 0 when the draft is not valid. */
static int draft(const cc_draw_source *s, const cc_case *t, cc_rng *r, cc_case *c)
{
    const cc_op_def *op = s->op;
    *c = *t;
    /* dtype: every input that has the case dtype moves with it */
    if (chance(r, 0.25)) {
        int ds[CC_DTYPE_COUNT], nd = 0;
        for (int d = 0; d < CC_DTYPE_COUNT; d++)
            if (s->dtypes & CC_DTYPE_BIT(d)) ds[nd++] = d;
        cc_dtype from = cc_case_dtype(c), to = (cc_dtype)ds[pick(r, nd)];
        for (int i = 0; nd > 0 && i < op->n_inputs; i++)
            if (c->present[i] && c->in_dtype[i] == from) c->in_dtype[i] = to;
    }
    /* dimensions: each distinct value, everywhere it appears (and sometimes in the integer
     * attributes too: Reshape's shape, Resize's sizes) */
    int64_t seen[64];
    int n_seen = 0;
    for (int i = 0; i < op->n_inputs; i++) {
        if (!c->present[i]) continue;
        for (int k = 0; k < c->in_shape[i].rank; k++) {
            int64_t v = c->in_shape[i].dims[k];
            int dup = 0;
            for (int j = 0; j < n_seen && !dup; j++) dup = seen[j] == v;
            if (!dup && n_seen < 64) seen[n_seen++] = v;
        }
    }
    for (int j = 0; j < n_seen; j++) {
        if (!chance(r, 0.45)) continue;
        int64_t v = seen[j], nv = new_dim(r, v);
        int in_attrs = chance(r, 0.5);
        for (int i = 0; i < op->n_inputs; i++)
            for (int k = 0; k < c->in_shape[i].rank; k++)
                if (c->present[i] && t->in_shape[i].dims[k] == v) c->in_shape[i].dims[k] = nv;
        if (in_attrs)
            for (int a = 0; a < op->n_attrs; a++)
                if (op->attrs[a].kind == CC_ATTR_INTS && c->attrs[a].set)
                    for (int k = 0; k < c->attrs[a].n; k++)
                        if (t->attrs[a].ints[k] == v) c->attrs[a].ints[k] = nv;
    }
    if (chance(r, 0.2)) { /* one place alone */
        int i = pick(r, op->n_inputs);
        if (c->present[i] && c->in_shape[i].rank > 0)
            c->in_shape[i].dims[pick(r, c->in_shape[i].rank)] = cc_rng_int(r, 1, 9);
    }
    /* optional inputs */
    for (int i = 1; i < op->n_inputs; i++)
        if (c->present[i] && op->inputs[i].optional && chance(r, 0.15)) c->present[i] = 0;
    /* attributes */
    for (int a = 0; a < op->n_attrs; a++)
        if (chance(r, 0.3)) change_attr(s, a, r, &c->attrs[a]);
    cc_err e;
    if (cc_case_reparse(c, &e) != CC_OK) return 0;
    return c->mem_need <= CC_DRAW_MEM_BUDGET;
}

cc_status cc_case_draw(const cc_draw_source *s, uint64_t seed, uint64_t index, cc_case *out, cc_err *err)
{
    if (s->n_templates == 0)
        return cc_err_set(err, CC_ERR_ARG, "%s: no sweep case to draw from", s->op->name);
    cc_rng r;
    cc_rng_seed(&r, seed ^ (index * 0x9E3779B97F4A7C15ull) ^ cc_hash_str(s->op->name));
    for (int tries = 0; tries < DRAW_TRIES; tries++) {
        /* a third of the drafts start from an edge case of the sweep, where there are any */
        int ti = s->n_edge > 0 && chance(&r, 1.0 / 3) ? s->edge[pick(&r, s->n_edge)]
                                                      : pick(&r, s->n_templates);
        if (draft(s, &s->templates[ti], &r, out)) return CC_OK;
    }
    /* no valid change found: the smallest template that fits */
    const cc_case *best = NULL;
    for (int i = 0; i < s->n_templates; i++)
        if (s->templates[i].mem_need <= CC_DRAW_MEM_BUDGET &&
            (!best || s->templates[i].mem_need < best->mem_need))
            best = &s->templates[i];
    if (!best) return cc_err_set(err, CC_ERR_ARG, "%s: no case within the draw budget", s->op->name);
    *out = *best;
    return CC_OK;
}

cc_status cc_case_draw_many(const cc_op_def *const *ops, int n_ops, unsigned dtypes, uint64_t seed,
                            int n, cc_case **out, int *n_out, cc_err *err)
{
    *out = NULL;
    *n_out = 0;
    if (n_ops <= 0 || n <= 0) return CC_OK;
    cc_draw_source **src = calloc((size_t)n_ops, sizeof *src);
    cc_case *cs = malloc(sizeof *cs * (size_t)n);
    cc_status st = CC_OK;
    if (!src || !cs) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int k = 0; k < n_ops && !st; k++) st = cc_draw_source_make(ops[k], dtypes, &src[k], err);
    /* a set of the ids drawn so far (open addressing on their hash): a repeated draw is
     * drawn again at a later index, so the n cases differ where the op allows it */
    size_t cap = 16;
    while (cap < 2 * (size_t)n) cap *= 2;
    uint64_t *set = st ? NULL : calloc(cap, sizeof *set);
    if (!st && !set) st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    int m = 0;
    for (int i = 0; i < n && !st; i++) {
        const cc_draw_source *s = src[i % n_ops];
        if (s->n_templates == 0) continue;
        for (int attempt = 0; attempt < 8; attempt++) {
            cc_err e;
            if (cc_case_draw(s, seed, (uint64_t)i + (uint64_t)attempt * (uint64_t)n, &cs[m], &e) != CC_OK) break;
            uint64_t h = cc_hash_str(cs[m].id) | 1;
            size_t k = (size_t)h & (cap - 1);
            while (set[k] && set[k] != h) k = (k + 1) & (cap - 1);
            if (set[k] == h && attempt < 7) continue; /* drawn before: again */
            if (!set[k]) set[k] = h;
            m++;
            break;
        }
    }
    free(set);
    if (!st) {
        *out = cs;
        *n_out = m;
        cs = NULL;
    }
done:
    for (int k = 0; src && k < n_ops; k++) cc_draw_source_free(src[k]);
    free(src);
    free(cs);
    return st;
}

/* ---- shrinking ---------------------------------------------------------------------- */

double cc_case_size(const cc_case *c)
{
    const cc_op_def *op = c->op;
    double size = 0;
    for (int i = 0; i < op->n_inputs; i++) {
        if (!c->present[i]) continue;
        size += 1;
        for (int k = 0; k < c->in_shape[i].rank; k++) size += (double)c->in_shape[i].dims[k];
    }
    for (int a = 0; a < op->n_attrs; a++) {
        if (cc_attr_is_default(&op->attrs[a], &c->attrs[a])) continue;
        size += 1000;
        if (op->attrs[a].kind == CC_ATTR_INT) size += fabs((double)c->attrs[a].i);
        if (op->attrs[a].kind == CC_ATTR_INTS)
            for (int k = 0; k < c->attrs[a].n; k++) size += fabs((double)c->attrs[a].ints[k]);
    }
    return size;
}

typedef struct cand_list {
    const cc_case *from;
    double from_size;
    cc_case *out;
    int n, max;
} cand_list;

/* Keeps candidate c when it is valid, new and strictly smaller. */
static void offer(cand_list *l, cc_case *c)
{
    if (l->n >= l->max) return;
    cc_err e;
    if (cc_case_reparse(c, &e) != CC_OK) return;
    if (strcmp(c->id, l->from->id) == 0 || !(cc_case_size(c) < l->from_size)) return;
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->out[i].id, c->id) == 0) return;
    l->out[l->n++] = *c;
}

/* Replaces dimension value v by nv: everywhere (pos_i < 0) or at input pos_i, axis pos_k. */
static void offer_dim(cand_list *l, int64_t v, int64_t nv, int pos_i, int pos_k, int in_attrs)
{
    const cc_case *c = l->from;
    const cc_op_def *op = c->op;
    cc_case d = *c;
    for (int i = 0; i < op->n_inputs; i++)
        for (int k = 0; k < d.in_shape[i].rank; k++)
            if (d.present[i] && d.in_shape[i].dims[k] == v && (pos_i < 0 || (i == pos_i && k == pos_k)))
                d.in_shape[i].dims[k] = nv;
    if (in_attrs)
        for (int a = 0; a < op->n_attrs; a++)
            if (op->attrs[a].kind == CC_ATTR_INTS && d.attrs[a].set)
                for (int k = 0; k < d.attrs[a].n; k++)
                    if (d.attrs[a].ints[k] == v) d.attrs[a].ints[k] = nv;
    offer(l, &d);
}

int cc_case_shrink_candidates(const cc_case *c, cc_case *out, int max)
{
    const cc_op_def *op = c->op;
    cand_list l = { c, cc_case_size(c), out, 0, max };
    cc_case d;
    /* attributes back to their defaults */
    for (int a = 0; a < op->n_attrs; a++) {
        if (cc_attr_is_default(&op->attrs[a], &c->attrs[a])) continue;
        d = *c;
        cc_attr_default(&op->attrs[a], &d.attrs[a]);
        offer(&l, &d);
    }
    /* optional inputs dropped */
    for (int i = 1; i < op->n_inputs; i++) {
        if (!c->present[i] || !op->inputs[i].optional) continue;
        d = *c;
        d.present[i] = 0;
        offer(&l, &d);
    }
    /* a dimension value made smaller everywhere it appears, largest values first */
    int64_t seen[64];
    int n_seen = 0;
    for (int i = 0; i < op->n_inputs; i++)
        for (int k = 0; c->present[i] && k < c->in_shape[i].rank; k++) {
            int64_t v = c->in_shape[i].dims[k];
            int dup = v <= 1;
            for (int j = 0; j < n_seen && !dup; j++) dup = seen[j] == v;
            if (!dup && n_seen < 64) seen[n_seen++] = v;
        }
    for (int j = 0; j < n_seen; j++) /* sort descending */
        for (int k = j + 1; k < n_seen; k++)
            if (seen[k] > seen[j]) {
                int64_t t = seen[j];
                seen[j] = seen[k];
                seen[k] = t;
            }
    for (int j = 0; j < n_seen; j++) {
        int64_t v = seen[j];
        int64_t to[3] = { 1, (v + 1) / 2, v - 1 };
        for (int q = 0; q < 3; q++) {
            if (q > 0 && to[q] == to[q - 1]) continue;
            offer_dim(&l, v, to[q], -1, 0, 1);
            offer_dim(&l, v, to[q], -1, 0, 0);
        }
    }
    /* a dimension made smaller in one place */
    for (int i = 0; i < op->n_inputs; i++)
        for (int k = 0; c->present[i] && k < c->in_shape[i].rank; k++) {
            int64_t v = c->in_shape[i].dims[k];
            if (v <= 1) continue;
            offer_dim(&l, v, 1, i, k, 0);
            offer_dim(&l, v, (v + 1) / 2, i, k, 0);
            offer_dim(&l, v, v - 1, i, k, 0);
        }
    /* integer attributes away from their defaults: values halved towards zero */
    for (int a = 0; a < op->n_attrs; a++) {
        if (cc_attr_is_default(&op->attrs[a], &c->attrs[a])) continue;
        if (op->attrs[a].kind == CC_ATTR_INT && (c->attrs[a].i > 1 || c->attrs[a].i < -1)) {
            d = *c;
            d.attrs[a].i /= 2;
            offer(&l, &d);
        }
        if (op->attrs[a].kind == CC_ATTR_INTS)
            for (int k = 0; k < c->attrs[a].n; k++) {
                if (c->attrs[a].ints[k] == 0) continue;
                d = *c;
                d.attrs[a].ints[k] /= 2;
                offer(&l, &d);
            }
    }
    return l.n;
}
