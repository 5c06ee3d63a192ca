/* weights.c — synthetic weights from a seed, BatchNormalization calibration on synthetic
 * images with the golden model, copying weights between builds of one model, and the
 * "CCWT" weights file (format in weights.h). */
#include "weights.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zoo.h"

#define WEIGHTS_MAGIC "CCWT"
#define WEIGHTS_VERSION 1u

/* ---- which constants are weights ----------------------------------------------------- */

static int is_buffer(const cc_model *m, int v)
{
    return strncmp(m->value_names[v], CC_ZOO_BUFFER_PREFIX, strlen(CC_ZOO_BUFFER_PREFIX)) == 0;
}

int cc_weights_is_weight(const cc_model *m, int v)
{
    const cc_graph *g = &m->graph;
    if (v < 0 || v >= g->n_values || !g->values[v].data || is_buffer(m, v)) return 0;
    for (int k = 0; k < g->n_nodes; k++) {
        const cc_node *nd = &g->nodes[k];
        for (int i = 0; i < nd->n_in; i++)
            if (nd->in[i] == v && nd->op->inputs[i].role == CC_IN_DATA) return 1;
    }
    return 0;
}

/* flags[v] = 1 for every weight of m (one pass over the nodes); NULL when out of memory. */
static unsigned char *weight_flags(const cc_model *m)
{
    const cc_graph *g = &m->graph;
    unsigned char *f = calloc((size_t)g->n_values + 1, 1);
    if (!f) return NULL;
    for (int k = 0; k < g->n_nodes; k++) {
        const cc_node *nd = &g->nodes[k];
        for (int i = 0; i < nd->n_in; i++) {
            int v = nd->in[i];
            if (v >= 0 && g->values[v].data && nd->op->inputs[i].role == CC_IN_DATA && !is_buffer(m, v))
                f[v] = 1;
        }
    }
    return f;
}

/* ---- synthetic initialisation -------------------------------------------------------- */

/* Normal samples by the polar method, two per accepted pair (no trigonometry). */
typedef struct normal_gen {
    cc_rng rng;
    int have;
    double spare;
} normal_gen;

static double next_normal(normal_gen *n)
{
    if (n->have) {
        n->have = 0;
        return n->spare;
    }
    double u, v, s;
    do {
        u = 2 * cc_rng_uniform(&n->rng) - 1;
        v = 2 * cc_rng_uniform(&n->rng) - 1;
        s = u * u + v * v;
    } while (s >= 1 || s == 0);
    double f = sqrt(-2 * log(s) / s);
    n->spare = v * f;
    n->have = 1;
    return u * f;
}

typedef enum fill_kind { FILL_NORMAL, FILL_UNIFORM, FILL_CONST } fill_kind;

/* Fills constant v with values of the given law: normal(a, b) = mean a, std b; uniform in
 * [a, b); const a. The generator is seeded from seed and the value's name. */
static void fill(cc_model *m, int v, uint64_t seed, fill_kind kind, double a, double b)
{
    cc_tensor *t = &m->graph.values[v];
    if (!t->data || !cc_dtype_is_float(t->dtype)) return;
    normal_gen n;
    memset(&n, 0, sizeof n);
    cc_rng_seed(&n.rng, seed ^ cc_hash_str(m->value_names[v]));
    int64_t cnt = cc_tensor_numel(t);
    for (int64_t i = 0; i < cnt; i++) {
        double x = kind == FILL_NORMAL ? a + b * next_normal(&n)
                 : kind == FILL_UNIFORM ? a + (b - a) * cc_rng_uniform(&n.rng)
                 : a;
        if (t->dtype == CC_F32) ((float *)t->data)[i] = (float)x;
        else cc_store(t->data, t->dtype, (size_t)i, x);
    }
}

/* The constant at input i of node nd that is a weight, or -1. */
static int weight_input(const cc_model *m, const cc_node *nd, int i)
{
    if (i >= nd->n_in) return -1;
    int v = nd->in[i];
    if (v < 0 || !m->graph.values[v].data || is_buffer(m, v)) return -1;
    return v;
}

cc_status cc_weights_init(cc_model *m, uint64_t seed, cc_err *err)
{
    const cc_graph *g = &m->graph;
    for (int k = 0; k < g->n_nodes; k++) {
        const cc_node *nd = &g->nodes[k];
        const char *op = nd->op->name;
        if (strcmp(op, "Conv") == 0) {
            int w = weight_input(m, nd, 1), b = weight_input(m, nd, 2);
            if (w >= 0) {
                const cc_shape *s = &g->values[w].shape;
                double fan_in = 1;
                for (int d = 1; d < s->rank; d++) fan_in *= (double)s->dims[d];
                fill(m, w, seed, FILL_NORMAL, 0, sqrt(2 / fan_in));
            }
            if (b >= 0) fill(m, b, seed, FILL_NORMAL, 0, 0.01);
        } else if (strcmp(op, "Gemm") == 0) {
            int w = weight_input(m, nd, 1), b = weight_input(m, nd, 2);
            if (w >= 0) {
                const cc_shape *s = &g->values[w].shape;
                if (s->rank != 2)
                    return cc_err_set(err, CC_ERR_ARG, "node %s: Gemm weight has rank %d", nd->name, s->rank);
                double fan_in = (double)s->dims[cc_attr_i(nd, "transB") ? 1 : 0];
                fill(m, w, seed, FILL_NORMAL, 0, sqrt(1 / fan_in));
            }
            if (b >= 0) fill(m, b, seed, FILL_CONST, 0, 0);
        } else if (strcmp(op, "BatchNormalization") == 0) {
            static const struct { fill_kind kind; double a, b; } law[5] = {
                { FILL_CONST, 0, 0 },        /* x */
                { FILL_UNIFORM, 0.5, 1.5 },  /* scale */
                { FILL_NORMAL, 0, 0.05 },    /* bias */
                { FILL_CONST, 0, 0 },        /* mean */
                { FILL_CONST, 1, 0 },        /* variance */
            };
            for (int i = 1; i < 5; i++) {
                int v = weight_input(m, nd, i);
                if (v >= 0) fill(m, v, seed, law[i].kind, law[i].a, law[i].b);
            }
        }
    }
    return CC_OK;
}

/* ---- BatchNormalization calibration -------------------------------------------------- */

/* Sets the mean and variance inputs of BatchNormalization node nd to the per-channel
 * statistics of x ([N, C, ...]). */
static cc_status set_bn_stats(cc_model *m, const cc_node *nd, const cc_tensor *x, cc_err *err)
{
    int vm = weight_input(m, nd, 3), vv = weight_input(m, nd, 4);
    if (vm < 0 || vv < 0)
        return cc_err_set(err, CC_ERR_ARG, "node %s: BatchNormalization statistics are not constants", nd->name);
    if (x->shape.rank < 2)
        return cc_err_set(err, CC_ERR_ARG, "node %s: input of rank %d has no channel axis", nd->name, x->shape.rank);
    int64_t n = x->shape.dims[0], c = x->shape.dims[1], inner = 1;
    for (int d = 2; d < x->shape.rank; d++) inner *= x->shape.dims[d];
    cc_tensor *tm = &m->graph.values[vm], *tv = &m->graph.values[vv];
    if (cc_tensor_numel(tm) != c || cc_tensor_numel(tv) != c)
        return cc_err_set(err, CC_ERR_ARG, "node %s: statistics do not have %lld channels", nd->name, (long long)c);
    double count = (double)(n * inner);
    for (int64_t ch = 0; ch < c; ch++) {
        double s = 0, s2 = 0;
        for (int64_t b = 0; b < n; b++) {
            size_t base = (size_t)((b * c + ch) * inner);
            for (int64_t i = 0; i < inner; i++) s += cc_load(x->data, x->dtype, base + (size_t)i);
        }
        double mean = count > 0 ? s / count : 0;
        for (int64_t b = 0; b < n; b++) {
            size_t base = (size_t)((b * c + ch) * inner);
            for (int64_t i = 0; i < inner; i++) {
                double d = cc_load(x->data, x->dtype, base + (size_t)i) - mean;
                s2 += d * d;
            }
        }
        cc_store(tm->data, tm->dtype, (size_t)ch, mean);
        cc_store(tv->data, tv->dtype, (size_t)ch, count > 0 ? s2 / count : 1);
    }
    return CC_OK;
}

/* Evaluates nodes [from, to) of m into acc (which holds every value computed before). */
static cc_status eval_segment(const cc_model *m, const cc_tensor *images, int from, int to, cc_model_eval *acc,
                              cc_err *err)
{
    cc_graph view = m->graph;
    view.nodes = m->graph.nodes + from;
    view.n_nodes = to - from;
    cc_model_eval seg;
    cc_status st = cc_model_evaluate(&view, images, 0, acc, &seg, err);
    if (st) return st;
    for (int i = 0; i < seg.n_values; i++)
        if (seg.vals[i].data && !acc->vals[i].data) {
            acc->vals[i] = seg.vals[i];
            seg.vals[i].data = NULL;
        }
    cc_model_eval_free(&seg);
    return CC_OK;
}

cc_status cc_weights_calibrate_bn(cc_model *m, const cc_tensor *images, cc_model_eval *out, cc_err *err)
{
    const cc_graph *g = &m->graph;
    cc_status st = CC_OK;
    if (g->n_inputs != 1)
        return cc_err_set(err, CC_ERR_ARG, "%s: calibration needs a model with one input, it has %d", m->name,
                          g->n_inputs);
    const cc_tensor *want = &g->values[g->inputs[0]];
    if (!images->data || images->dtype != want->dtype || !cc_shape_equal(&images->shape, &want->shape)) {
        char a[128], b[128];
        return cc_err_set(err, CC_ERR_ARG, "%s: calibration images are %s %s, the input is %s %s", m->name,
                          cc_dtype_name(images->dtype), cc_shape_format(&images->shape, a, sizeof a),
                          cc_dtype_name(want->dtype), cc_shape_format(&want->shape, b, sizeof b));
    }
    cc_model_eval acc;
    memset(&acc, 0, sizeof acc);
    acc.n_values = g->n_values;
    acc.n_nodes = g->n_nodes;
    acc.vals = calloc((size_t)g->n_values, sizeof *acc.vals);
    if (!acc.vals) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    int from = 0;
    for (int k = 0; k <= g->n_nodes; k++) {
        int is_bn = k < g->n_nodes && strcmp(g->nodes[k].op->name, "BatchNormalization") == 0;
        if (!is_bn && k < g->n_nodes) continue;
        if (k > from) {
            st = eval_segment(m, images, from, k, &acc, err);
            if (st) goto fail;
        }
        from = k;
        if (!is_bn) break;
        const cc_node *nd = &g->nodes[k];
        const cc_tensor *x = nd->in[0] == g->inputs[0] ? images : &acc.vals[nd->in[0]];
        if (!x->data) {
            st = cc_err_set(err, CC_ERR_INTERNAL, "node %s: input not computed", nd->name);
            goto fail;
        }
        st = set_bn_stats(m, nd, x, err);
        if (st) goto fail;
    }
    if (out) *out = acc;
    else cc_model_eval_free(&acc);
    return CC_OK;
fail:
    cc_model_eval_free(&acc);
    return st;
}

/* ---- copying ------------------------------------------------------------------------- */

cc_status cc_weights_copy(cc_model *dst, const cc_model *src, cc_err *err)
{
    unsigned char *f = weight_flags(dst);
    if (!f) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    cc_status st = CC_OK;
    for (int v = 0; v < dst->graph.n_values; v++) {
        if (!f[v]) continue;
        int s = cc_model_find_value(src, dst->value_names[v]);
        cc_tensor *d = &dst->graph.values[v];
        if (s < 0 || !src->graph.values[s].data) {
            st = cc_err_set(err, CC_ERR_ARG, "weights of %s: %s has no tensor %s", dst->name, src->name,
                            dst->value_names[v]);
            break;
        }
        const cc_tensor *t = &src->graph.values[s];
        if (t->dtype != d->dtype || !cc_shape_equal(&t->shape, &d->shape)) {
            char a[128], b[128];
            st = cc_err_set(err, CC_ERR_ARG, "weights of %s: tensor %s is %s %s in %s, %s %s here", dst->name,
                            dst->value_names[v], cc_dtype_name(t->dtype), cc_shape_format(&t->shape, a, sizeof a),
                            src->name, cc_dtype_name(d->dtype), cc_shape_format(&d->shape, b, sizeof b));
            break;
        }
        memcpy(d->data, t->data, cc_tensor_bytes(d));
    }
    free(f);
    return st;
}

/* ---- the weights file ---------------------------------------------------------------- */

/* dtype codes of the file format (stable, independent of the cc_dtype enum's order) */
static const cc_dtype file_dtypes[] = { CC_F32, CC_F16, CC_BF16, CC_I8, CC_U8, CC_I32, CC_I64, CC_BOOL };
#define N_FILE_DTYPES ((int)(sizeof file_dtypes / sizeof file_dtypes[0]))

static int dtype_code(cc_dtype d)
{
    for (int i = 0; i < N_FILE_DTYPES; i++)
        if (file_dtypes[i] == d) return i;
    return -1;
}

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

cc_status cc_weights_save(const cc_model *m, const char *path, cc_err *err)
{
    if (!host_is_little_endian())
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "weights file %s: only little-endian hosts are supported", path);
    unsigned char *f = weight_flags(m);
    if (!f) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    cc_status st = CC_OK;
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        free(f);
        return cc_err_set(err, CC_ERR_IO, "weights file %s: cannot create it", path);
    }
    uint32_t count = 0;
    for (int v = 0; v < m->graph.n_values; v++) count += f[v];
    unsigned char head[12];
    memcpy(head, WEIGHTS_MAGIC, 4);
    put_le(head + 4, WEIGHTS_VERSION, 4);
    put_le(head + 8, count, 4);
    int ok = fwrite(head, 1, sizeof head, fp) == sizeof head;
    for (int v = 0; ok && v < m->graph.n_values; v++) {
        if (!f[v]) continue;
        const cc_tensor *t = &m->graph.values[v];
        size_t len = strlen(m->value_names[v]);
        unsigned char rec[2 + CC_VALUE_NAME_MAX + 2 + 8 * CC_MAX_RANK];
        size_t n = 0;
        put_le(rec, len, 2);
        n += 2;
        memcpy(rec + n, m->value_names[v], len);
        n += len;
        rec[n++] = (unsigned char)dtype_code(t->dtype);
        rec[n++] = (unsigned char)t->shape.rank;
        for (int d = 0; d < t->shape.rank; d++, n += 8) put_le(rec + n, (uint64_t)t->shape.dims[d], 8);
        ok = fwrite(rec, 1, n, fp) == n && fwrite(t->data, 1, cc_tensor_bytes(t), fp) == cc_tensor_bytes(t);
    }
    if (fclose(fp) != 0) ok = 0;
    if (!ok) {
        remove(path);
        st = cc_err_set(err, CC_ERR_IO, "weights file %s: write failed", path);
    }
    free(f);
    return st;
}

/* One tensor record of a weights file, parsed; data points into the file's bytes. */
typedef struct record {
    char name[CC_VALUE_NAME_MAX];
    cc_dtype dtype;
    cc_shape shape;
    const unsigned char *data;
    int used;
} record;

/* Reads the whole file at path into *buf (*size bytes). */
static cc_status read_file(const char *path, unsigned char **buf, size_t *size, cc_err *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return cc_err_set(err, CC_ERR_IO, "weights file %s: cannot open it", path);
    unsigned char *b = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : (size_t)1 << 20;
            unsigned char *nb = realloc(b, cap);
            if (!nb) {
                free(b);
                fclose(fp);
                return cc_err_set(err, CC_ERR_NOMEM, "weights file %s: out of memory", path);
            }
            b = nb;
        }
        size_t got = fread(b + n, 1, cap - n, fp);
        n += got;
        if (got == 0) break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(b);
        return cc_err_set(err, CC_ERR_IO, "weights file %s: read error", path);
    }
    *buf = b;
    *size = n;
    return CC_OK;
}

/* Parses the records of a file image; one-line CC_ERR_ARG on bad magic, version, codes or
 * a truncated file. */
static cc_status parse_records(const char *path, const unsigned char *b, size_t size, record **out, uint32_t *n_out,
                               cc_err *err)
{
    if (memcmp(b, WEIGHTS_MAGIC, size < 4 ? size : 4) != 0)
        return cc_err_set(err, CC_ERR_ARG, "weights file %s: bad magic (not a crosscheck weights file, expected \"%s\")",
                          path, WEIGHTS_MAGIC);
    if (size < 12)
        return cc_err_set(err, CC_ERR_ARG, "weights file %s: truncated in its header (%zu bytes)", path, size);
    uint32_t version = (uint32_t)get_le(b + 4, 4), count = (uint32_t)get_le(b + 8, 4);
    if (version != WEIGHTS_VERSION)
        return cc_err_set(err, CC_ERR_ARG, "weights file %s: version %u, this build reads version %u", path, version,
                          WEIGHTS_VERSION);
    /* every record takes at least 4 bytes: a count beyond that is a corrupt header */
    if (count > (size - 12) / 4)
        return cc_err_set(err, CC_ERR_ARG, "weights file %s: truncated (%u tensors announced in %zu bytes)", path,
                          count, size);
    record *r = calloc((size_t)count + 1, sizeof *r);
    if (!r) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    size_t off = 12;
    cc_status st = CC_OK;
    uint32_t i;
    for (i = 0; i < count; i++) {
        if (size - off < 2) goto truncated;
        size_t len = (size_t)get_le(b + off, 2);
        off += 2;
        if (size - off < len + 2) goto truncated;
        if (len >= CC_VALUE_NAME_MAX) {
            st = cc_err_set(err, CC_ERR_ARG, "weights file %s: tensor #%u has a %zu-byte name (at most %d)", path, i,
                            len, CC_VALUE_NAME_MAX - 1);
            goto fail;
        }
        memcpy(r[i].name, b + off, len);
        off += len;
        unsigned code = b[off], rank = b[off + 1];
        off += 2;
        if (code >= (unsigned)N_FILE_DTYPES) {
            st = cc_err_set(err, CC_ERR_ARG, "weights file %s: tensor %s has unknown dtype code %u", path, r[i].name, code);
            goto fail;
        }
        if (rank > CC_MAX_RANK) {
            st = cc_err_set(err, CC_ERR_ARG, "weights file %s: tensor %s has rank %u (at most %d)", path, r[i].name, rank,
                            CC_MAX_RANK);
            goto fail;
        }
        r[i].dtype = file_dtypes[code];
        r[i].shape.rank = (int)rank;
        if (size - off < 8 * (size_t)rank) goto truncated;
        for (unsigned d = 0; d < rank; d++, off += 8) r[i].shape.dims[d] = (int64_t)get_le(b + off, 8);
        int64_t numel;
        cc_err e;
        if (cc_shape_numel_checked(&r[i].shape, &numel, &e)) {
            st = cc_err_set(err, CC_ERR_ARG, "weights file %s: tensor %s: %s", path, r[i].name, e.msg);
            goto fail;
        }
        size_t bytes = (size_t)numel * cc_dtype_size(r[i].dtype);
        if (size - off < bytes) {
            st = cc_err_set(err, CC_ERR_ARG, "weights file %s: truncated in tensor %s (%zu data bytes needed, %zu left)",
                            path, r[i].name, bytes, size - off);
            goto fail;
        }
        r[i].data = b + off;
        off += bytes;
    }
    if (off != size) {
        st = cc_err_set(err, CC_ERR_ARG, "weights file %s: %zu bytes follow its last tensor", path, size - off);
        goto fail;
    }
    *out = r;
    *n_out = count;
    return CC_OK;
truncated:
    st = cc_err_set(err, CC_ERR_ARG, "weights file %s: truncated at byte %zu, in the header of tensor %u of %u", path,
                    size, i + 1, count);
fail:
    free(r);
    return st;
}

cc_status cc_weights_load(cc_model *m, const char *path, cc_err *err)
{
    if (!host_is_little_endian())
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "weights file %s: only little-endian hosts are supported", path);
    unsigned char *buf = NULL, *flags = NULL;
    record *r = NULL;
    uint32_t n = 0;
    size_t size = 0;
    cc_status st = read_file(path, &buf, &size, err);
    if (st) return st;
    st = parse_records(path, buf, size, &r, &n, err);
    if (st) goto done;
    flags = weight_flags(m);
    if (!flags) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto done;
    }
    /* match every weight of the model, in model order, to an unused record of its name */
    int *match = calloc((size_t)m->graph.n_values + 1, sizeof *match);
    if (!match) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int v = 0; v < m->graph.n_values && !st; v++) {
        match[v] = -1;
        if (!flags[v]) continue;
        const cc_tensor *t = &m->graph.values[v];
        const char *name = m->value_names[v];
        int j = -1;
        for (uint32_t i = 0; i < n && j < 0; i++)
            if (!r[i].used && strcmp(r[i].name, name) == 0) j = (int)i;
        if (j < 0) {
            st = cc_err_set(err, CC_ERR_ARG, "weights file %s: no tensor %s (model %s needs it)", path, name, m->name);
            break;
        }
        r[j].used = 1;
        match[v] = j;
        int64_t have = cc_shape_numel(&r[j].shape), need = cc_tensor_numel(t);
        char a[128], b[128];
        if (r[j].dtype != t->dtype)
            st = cc_err_set(err, CC_ERR_ARG, "weights file %s: tensor %s is %s, the model needs %s", path, name,
                            cc_dtype_name(r[j].dtype), cc_dtype_name(t->dtype));
        else if (have != need)
            st = cc_err_set(err, CC_ERR_ARG, "weights file %s: tensor %s has %lld elements, the model needs %lld", path,
                            name, (long long)have, (long long)need);
        else if (!cc_shape_equal(&r[j].shape, &t->shape))
            st = cc_err_set(err, CC_ERR_ARG, "weights file %s: tensor %s has shape %s, the model needs %s", path, name,
                            cc_shape_format(&r[j].shape, a, sizeof a), cc_shape_format(&t->shape, b, sizeof b));
    }
    for (uint32_t i = 0; i < n && !st; i++)
        if (!r[i].used)
            st = cc_err_set(err, CC_ERR_ARG, "weights file %s: tensor %s is not a weight of model %s%s", path, r[i].name,
                            m->name, cc_model_find_value(m, r[i].name) >= 0 ? " (or appears twice)" : "");
    if (!st)
        for (int v = 0; v < m->graph.n_values; v++)
            if (match[v] >= 0) memcpy(m->graph.values[v].data, r[match[v]].data, cc_tensor_bytes(&m->graph.values[v]));
    free(match);
done:
    free(flags);
    free(r);
    free(buf);
    return st;
}
