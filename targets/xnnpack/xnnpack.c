/* xnnpack.c — the xnnpack plugin: XNNPACK (Debian's libxnnpack, a 2022-02 snapshot) as an
 * out-of-tree crosscheck backend. The entry point, the vtable, the device description,
 * dispatch of nodes to the family builders (conv.c, pool.c, eltwise.c, matmul.c, misc.c),
 * graph plans and the NCHW <-> NHWC conversions around the operators that want NHWC.
 *
 * Values between nodes are dense row-major (NCHW) host tensors, as the graph describes
 * them. Convolution, pooling and resize operators run on NHWC copies the plan owns: their
 * inputs are transposed in and their outputs out at run time (skipped where the two
 * layouts coincide: one channel or one pixel), and describe_plan counts those transposes.
 * Buffers carry XNN_EXTRA_BYTES of slack because XNNPACK kernels may read past the end of
 * an input.
 *
 * Threads: one pthreadpool of CROSSCHECK_XNNPACK_THREADS threads (default one per core)
 * whose workers sleep after each operator (XNN_FLAG_YIELD_WORKERS), the counterpart of the
 * OMP_WAIT_POLICY=passive crosscheck sets for OpenMP; 1 runs without a pool. Operators
 * are created, weights packed and buffers bound once, in prepare; a run is the transposes
 * (on the calling thread) and xnn_run_operator per node. */
#include "xnnpack_plugin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef XP_LIBRARY_VERSION
#define XP_LIBRARY_VERSION "unknown version"
#endif

/* The thread count (default: one per core); 1 runs every operator on the calling thread. */
#define THREADS_ENV "CROSSCHECK_XNNPACK_THREADS"

static const xp_family *const families[] = {
    &xp_family_conv, &xp_family_pool, &xp_family_eltwise, &xp_family_matmul, &xp_family_misc,
};
#define N_FAMILIES ((int)(sizeof families / sizeof families[0]))

static xp_build_fn find_builder(const char *op)
{
    for (int f = 0; f < N_FAMILIES; f++)
        for (int i = 0; i < families[f]->n; i++)
            if (strcmp(families[f]->ops[i].op, op) == 0) return families[f]->ops[i].build;
    return NULL;
}

/* ---- helpers for the builders ------------------------------------------------------ */

const char *xp_status_name(enum xnn_status s)
{
    switch (s) {
    case xnn_status_success: return "xnn_status_success";
    case xnn_status_uninitialized: return "xnn_status_uninitialized";
    case xnn_status_invalid_parameter: return "xnn_status_invalid_parameter";
    case xnn_status_invalid_state: return "xnn_status_invalid_state";
    case xnn_status_unsupported_parameter: return "xnn_status_unsupported_parameter";
    case xnn_status_unsupported_hardware: return "xnn_status_unsupported_hardware";
    case xnn_status_out_of_memory: return "xnn_status_out_of_memory";
    }
    return "unknown xnn_status";
}

cc_status xp_check(enum xnn_status s, const char *what, cc_err *err)
{
    if (s == xnn_status_success) return CC_OK;
    if (s == xnn_status_out_of_memory) return cc_err_set(err, CC_ERR_NOMEM, "xnnpack: %s: out of memory", what);
    return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: %s refused (%s)", what, xp_status_name(s));
}

cc_status xp_need_const(const xp_build *b, int i, const char *why, cc_err *err)
{
    const cc_tensor *t = b->in[i];
    if (t && !t->data)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: %s needs %s as a constant (%s)", b->node->op->name,
                          b->node->op->inputs[i].name, why);
    return CC_OK;
}

double xp_const_at(const cc_tensor *t, int64_t j)
{
    return cc_load(t->data, t->dtype, (size_t)j);
}

int xp_is_scalar(const cc_tensor *t)
{
    return cc_tensor_numel(t) == 1;
}

cc_status xp_dtype(const xp_build *b, cc_dtype d, unsigned allowed, cc_err *err)
{
    if (allowed & CC_DTYPE_BIT(d)) return CC_OK;
    if (d == CC_BF16)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: no bf16 operators (XNNPACK computes f32, f16 and 8-bit)");
    char list[64] = "";
    for (int k = 0; k < CC_DTYPE_COUNT; k++)
        if (allowed & CC_DTYPE_BIT(k)) {
            strcat(list, list[0] ? "/" : "");
            strcat(list, cc_dtype_name((cc_dtype)k));
        }
    return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: no %s operator for %s (it has %s)", b->node->op->name,
                      cc_dtype_name(d), list[0] ? list : "none");
}

static const cc_attr_value *attr(const cc_node *n, const char *name)
{
    int i = cc_attr_index(n->op, name);
    return i >= 0 && n->attrs[i].set ? &n->attrs[i] : NULL;
}

cc_status xp_window_get(const xp_build *b, const cc_shape *x, const int64_t *kdims, int has_dilations,
                        xp_window *win, cc_err *err)
{
    const cc_node *n = b->node;
    const char *op = n->op->name;
    if (x->rank != 3 && x->rank != 4)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: %s over %d spatial dimensions (it has 1-D as 2-D, and 2-D)",
                          op, x->rank - 2);
    int sp = x->rank - 2;
    xp_window w = { .n = x->dims[0], .c = x->dims[1], .h = sp == 2 ? x->dims[2] : 1, .w = x->dims[x->rank - 1],
                    .kh = 1, .kw = 1, .sh = 1, .sw = 1, .dh = 1, .dw = 1 };
    int64_t k[2] = { 1, 1 }, s[2] = { 1, 1 }, d[2] = { 1, 1 }, pb[2] = { 0, 0 }, pe[2] = { 0, 0 };
    const cc_attr_value *a = attr(n, "kernel_shape");
    if (a && a->n != sp) return cc_err_set(err, CC_ERR_ARG, "xnnpack: %s: kernel_shape has %d values", op, a->n);
    for (int i = 0; i < sp; i++) {
        k[i] = a ? a->ints[i] : kdims ? kdims[i] : 0;
        if (k[i] < 1) return cc_err_set(err, CC_ERR_ARG, "xnnpack: %s: no kernel size", op);
    }
    if ((a = attr(n, "strides")))
        for (int i = 0; i < sp && i < a->n; i++) s[i] = a->ints[i];
    if (has_dilations && (a = attr(n, "dilations")))
        for (int i = 0; i < sp && i < a->n; i++) d[i] = a->ints[i];
    const cc_attr_value *ap = attr(n, "auto_pad");
    const char *mode = ap ? ap->s : "NOTSET";
    if (strcmp(mode, "NOTSET") == 0) {
        if ((a = attr(n, "pads")) && a->n == 2 * sp)
            for (int i = 0; i < sp; i++) {
                pb[i] = a->ints[i];
                pe[i] = a->ints[sp + i];
            }
    } else if (strcmp(mode, "SAME_UPPER") == 0 || strcmp(mode, "SAME_LOWER") == 0) {
        for (int i = 0; i < sp; i++) {
            int64_t in = sp == 2 && i == 0 ? w.h : w.w;
            int64_t out = (in + s[i] - 1) / s[i];
            int64_t total = (out - 1) * s[i] + (k[i] - 1) * d[i] + 1 - in;
            if (total < 0) total = 0;
            pb[i] = mode[5] == 'U' ? total / 2 : total - total / 2;
            pe[i] = total - pb[i];
        }
    } else if (strcmp(mode, "VALID") != 0) {
        return cc_err_set(err, CC_ERR_ARG, "xnnpack: %s: auto_pad '%s'", op, mode);
    }
    for (int i = 0; i < sp; i++)
        if (s[i] < 1 || d[i] < 1 || pb[i] < 0 || pe[i] < 0)
            return cc_err_set(err, CC_ERR_ARG, "xnnpack: %s: strides, dilations and pads out of range", op);
    if (sp == 2) {
        w.kh = k[0], w.sh = s[0], w.dh = d[0], w.pt = pb[0], w.pb = pe[0];
        w.kw = k[1], w.sw = s[1], w.dw = d[1], w.pl = pb[1], w.pr = pe[1];
    } else {
        w.kw = k[0], w.sw = s[0], w.dw = d[0], w.pl = pb[0], w.pr = pe[0];
    }
    *win = w;
    return CC_OK;
}

static int64_t spatial(const cc_shape *s)
{
    int64_t n = 1;
    for (int i = 2; i < s->rank; i++) n *= s->dims[i];
    return n;
}

void xp_src(xp_build *b, int k, int input, int nhwc)
{
    xp_node *np = b->np;
    const cc_tensor *t = b->in[input];
    if (np->n_src < k + 1) np->n_src = k + 1;
    np->src_in[k] = input;
    np->esize_src[k] = cc_dtype_size(t->dtype);
    np->src_ncs[k][0] = t->shape.rank > 0 ? t->shape.dims[0] : 1;
    np->src_ncs[k][1] = t->shape.rank > 1 ? t->shape.dims[1] : 1;
    np->src_ncs[k][2] = spatial(&t->shape);
    /* one channel or one pixel: NCHW and NHWC are the same bytes */
    np->nhwc_src[k] = nhwc && np->src_ncs[k][1] > 1 && np->src_ncs[k][2] > 1;
}

void xp_dst(xp_build *b, int nhwc)
{
    xp_node *np = b->np;
    const cc_tensor *t = &b->out[0];
    np->esize_dst = cc_dtype_size(t->dtype);
    np->dst_ncs[0] = t->shape.rank > 0 ? t->shape.dims[0] : 1;
    np->dst_ncs[1] = t->shape.rank > 1 ? t->shape.dims[1] : 1;
    np->dst_ncs[2] = spatial(&t->shape);
    np->nhwc_dst = nhwc && np->dst_ncs[1] > 1 && np->dst_ncs[2] > 1;
}

/* ---- layout conversion ---------------------------------------------------------------- */

#define TILE 32

typedef struct transpose_job {
    const char *src;
    char *dst;
    int64_t rows, cols; /* per batch item: src is rows x cols, dst cols x rows */
    size_t esize;
    int64_t bands;      /* bands of TILE source columns (destination rows) per item */
} transpose_job;

/* One band of TILE destination rows of one batch item, in TILE x TILE tiles, each written
 * a destination row at a time (sequential stores; strided loads stay within the tile). */
static void transpose_band(const transpose_job *j, size_t task)
{
    int64_t item = (int64_t)task / j->bands, c0 = (int64_t)task % j->bands * TILE;
    int64_t c1 = c0 + TILE < j->cols ? c0 + TILE : j->cols;
    size_t plane = (size_t)(j->rows * j->cols) * j->esize;
    const char *src = j->src + (size_t)item * plane;
    char *dst = j->dst + (size_t)item * plane;
    for (int64_t r0 = 0; r0 < j->rows; r0 += TILE) {
        int64_t r1 = r0 + TILE < j->rows ? r0 + TILE : j->rows;
        for (int64_t c = c0; c < c1; c++) {
            switch (j->esize) {
            case 4:
                for (int64_t r = r0; r < r1; r++)
                    ((uint32_t *)dst)[c * j->rows + r] = ((const uint32_t *)src)[r * j->cols + c];
                break;
            case 2:
                for (int64_t r = r0; r < r1; r++)
                    ((uint16_t *)dst)[c * j->rows + r] = ((const uint16_t *)src)[r * j->cols + c];
                break;
            default:
                for (int64_t r = r0; r < r1; r++)
                    memcpy(dst + (size_t)(c * j->rows + r) * j->esize, src + (size_t)(r * j->cols + c) * j->esize,
                           j->esize);
            }
        }
    }
}

/* n items of rows x cols elements, each transposed, on the calling thread: a transpose is
 * a small part of its operator's time, and one more hand-off to the pool's workers per
 * transpose cost more than it saved on a busy machine. */
static void transpose(const void *src, void *dst, int64_t n, int64_t rows, int64_t cols, size_t esize)
{
    transpose_job j = { src, dst, rows, cols, esize, (cols + TILE - 1) / TILE };
    for (int64_t t = 0; t < n * j.bands; t++) transpose_band(&j, (size_t)t);
}

/* ---- device ------------------------------------------------------------------------ */

static void cpuinfo_value(const char *key, char *buf, size_t n)
{
    buf[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    size_t klen = strlen(key);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0) continue;
        char *p = line + klen;
        while (*p == ' ' || *p == '\t') p++;
        if (*p != ':') continue;
        p++;
        while (*p == ' ') p++;
        p[strcspn(p, "\n")] = '\0';
        snprintf(buf, n, "%s", p);
        break;
    }
    fclose(f);
}

static void xp_close(void *ctx)
{
    xp_ctx *c = ctx;
    if (!c) return;
    if (c->pool) pthreadpool_destroy(c->pool);
    free(c);
}

static cc_status xp_open(const char *device, void **ctx, cc_device_desc *desc, cc_err *err)
{
    if (device && device[0] && strcmp(device, "0") != 0)
        return cc_err_set(err, CC_ERR_DEVICE, "xnnpack: no device '%s' (the CPU is device 0)", device);
    enum xnn_status s = xnn_initialize(NULL);
    if (s != xnn_status_success)
        return cc_err_set(err, CC_ERR_DEVICE, "xnnpack: xnn_initialize failed (%s)", xp_status_name(s));
    xp_ctx *c = calloc(1, sizeof *c);
    if (!c) return cc_err_set(err, CC_ERR_NOMEM, "xnnpack: out of memory");
    long want = 0;
    const char *env = getenv(THREADS_ENV);
    if (env && env[0]) {
        char *end;
        want = strtol(env, &end, 10);
        if (*end || want < 1 || want > 1024) {
            free(c);
            return cc_err_set(err, CC_ERR_ARG, "xnnpack: %s='%s' is not a thread count (1..1024)", THREADS_ENV, env);
        }
    }
    /* one thread: no pool (XNNPACK runs on the caller); otherwise workers that sleep after
     * each operator instead of spinning (pthreadpool's default spin starves the caller on a
     * busy machine: 1 ms convolutions took 12 to 24 ms) */
    if (want != 1) {
        c->pool = pthreadpool_create((size_t)want);
        if (!c->pool) {
            free(c);
            return cc_err_set(err, CC_ERR_DEVICE, "xnnpack: cannot create a thread pool");
        }
    }
    c->threads = c->pool ? (int)pthreadpool_get_threads_count(c->pool) : 1;
    if (c->threads > 1) c->xnn_flags = XNN_FLAG_YIELD_WORKERS;
    cc_device_desc d;
    memset(&d, 0, sizeof d);
    char model[128];
    cpuinfo_value("model name", model, sizeof model);
    snprintf(d.name, sizeof d.name, "%.100s (%d thread%s)", model[0] ? model : "unknown CPU", c->threads,
             c->threads == 1 ? "" : "s");
    snprintf(d.library, sizeof d.library, "XNNPACK %s; %s", XP_LIBRARY_VERSION,
             c->pool ? "pthreadpool, workers yield after each operator" : "no thread pool");
    d.peak_gflops = cc_host_fp32_peak(c->threads, d.peak_source, sizeof d.peak_source);
    *desc = d;
    *ctx = c;
    return CC_OK;
}

/* ---- buffers: host memory with XNNPACK's read slack ------------------------------------ */

static void *alloc_padded(size_t bytes)
{
    size_t n = (bytes + XNN_EXTRA_BYTES + 63) / 64 * 64;
    return aligned_alloc(64, n);
}

static cc_status xp_buffer_alloc(void *ctx, size_t bytes, void **buf, cc_err *err)
{
    (void)ctx;
    void *p = alloc_padded(bytes);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "xnnpack: out of memory allocating %zu bytes", bytes);
    *buf = p;
    return CC_OK;
}

static void xp_buffer_free(void *ctx, void *buf)
{
    (void)ctx;
    free(buf);
}

static cc_status xp_upload(void *ctx, void *buf, const void *src, size_t bytes, cc_err *err)
{
    (void)ctx;
    (void)err;
    memcpy(buf, src, bytes);
    return CC_OK;
}

static cc_status xp_download(void *ctx, const void *buf, void *dst, size_t bytes, cc_err *err)
{
    (void)ctx;
    (void)err;
    memcpy(dst, buf, bytes);
    return CC_OK;
}

static cc_status xp_sync(void *ctx, cc_err *err)
{
    (void)ctx;
    (void)err;
    return CC_OK; /* xnn_run_operator returns when the work is done */
}

/* ---- building one node ----------------------------------------------------------------- */

static void node_free(xp_node *np)
{
    if (np->op) xnn_delete_operator(np->op);
    np->op = NULL;
    for (int k = 0; k < 2; k++) free(np->scratch_src[k]);
    free(np->scratch_dst);
    np->scratch_src[0] = np->scratch_src[1] = np->scratch_dst = NULL;
}

/* Describes node (inputs from vals) into b and infers its outputs. */
static cc_status build_begin(const xp_ctx *ctx, const cc_tensor *vals, const cc_node *node, xp_node *np,
                             xp_build *b, cc_err *err)
{
    memset(b, 0, sizeof *b);
    memset(np, 0, sizeof *np);
    b->ctx = ctx;
    b->node = node;
    b->np = np;
    np->node = node;
    for (int i = 0; i < node->n_in && i < CC_MAX_IO; i++) b->in[i] = node->in[i] >= 0 ? &vals[node->in[i]] : NULL;
    cc_status st = node->op->infer(node, b->in, node->n_out, b->out, err);
    if (st) return st;
    b->n_out = node->n_out;
    if (b->n_out != 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: %s with %d outputs (one only)", node->op->name, b->n_out);
    /* an empty output is skipped at run time; an empty input with values to compute (a
     * convolution of padding only) is refused by XNNPACK's setup */
    if (b->in[0] && cc_tensor_numel(b->in[0]) == 0 && cc_tensor_numel(&b->out[0]) > 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: %s of an empty input with a non-empty output",
                          node->op->name);
    return CC_OK;
}

static cc_support xp_supports(void *ctx, const cc_graph *g, const cc_node *node, char *reason, size_t reason_size)
{
    if (reason_size) reason[0] = '\0';
    if (!node->op) {
        snprintf(reason, reason_size, "node without an op");
        return CC_SUPPORT_NO;
    }
    xp_build_fn fn = find_builder(node->op->name);
    if (!fn) {
        snprintf(reason, reason_size, "xnnpack: no operator for %s", node->op->name);
        return CC_SUPPORT_NO;
    }
    if (node->n_in > CC_MAX_IO || node->n_out < 1 || node->n_out > CC_MAX_IO) {
        snprintf(reason, reason_size, "%s: malformed node", node->op->name);
        return CC_SUPPORT_NO;
    }
    for (int i = 0; i < node->n_in; i++)
        if (node->in[i] >= g->n_values) {
            snprintf(reason, reason_size, "node input %d names value %d of %d", i, node->in[i], g->n_values);
            return CC_SUPPORT_NO;
        }
    xp_build b;
    xp_node np;
    cc_err e = { 0 };
    cc_status st = build_begin(ctx, g->values, node, &np, &b, &e);
    if (!st) st = fn(&b, &e);
    node_free(&np);
    if (st == CC_OK) return CC_SUPPORT_YES;
    snprintf(reason, reason_size, "%s", e.msg[0] ? e.msg : cc_status_name(st));
    return strstr(e.msg, "unsupported_hardware") ? CC_SUPPORT_NOT_HERE : CC_SUPPORT_NO;
}

/* ---- plans ------------------------------------------------------------------------------ */

typedef struct xp_plan {
    const cc_graph *g;
    cc_tensor *desc;      /* per value: shape, dtype; data only for constants */
    void **ptr;           /* per value: the data a run reads or writes */
    unsigned char *owned; /* ptr[v] allocated by the plan */
    xp_node *nodes;
    int n_nodes;
} xp_plan;

static void xp_release(void *ctx, void *plan)
{
    (void)ctx;
    xp_plan *p = plan;
    if (!p) return;
    for (int i = 0; i < p->n_nodes; i++) node_free(&p->nodes[i]);
    if (p->ptr)
        for (int i = 0; i < p->g->n_values; i++)
            if (p->owned[i]) free(p->ptr[i]);
    free(p->desc);
    free(p->ptr);
    free(p->owned);
    free(p->nodes);
    free(p);
}

static int in_list(const int *list, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (list[i] == v) return 1;
    return 0;
}

/* Binds np's operator when its buffers differ from the last binding. */
static cc_status bind(const xp_ctx *c, xp_node *np, const void *const *src, void *dst, cc_err *err)
{
    if (np->bound && dst == np->bound_dst && (np->n_src < 1 || src[0] == np->bound_src[0]) &&
        (np->n_src < 2 || src[1] == np->bound_src[1]))
        return CC_OK;
    enum xnn_status s = np->setup(np, src, dst, c->pool);
    if (s != xnn_status_success) {
        np->bound = 0;
        return cc_err_set(err, CC_ERR_DEVICE, "xnnpack: setting up %s (%s) failed (%s)", np->node->op->name, np->impl,
                          xp_status_name(s));
    }
    for (int k = 0; k < np->n_src; k++) np->bound_src[k] = src[k];
    np->bound_dst = dst;
    np->bound = 1;
    return CC_OK;
}

static cc_status xp_prepare(void *ctx, const cc_graph *g, void **plan, cc_err *err)
{
    xp_ctx *c = ctx;
    cc_status st = CC_OK;
    unsigned char *produced = NULL;
    xp_plan *p = calloc(1, sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "xnnpack: out of memory");
    p->g = g;
    size_t nv = g->n_values > 0 ? (size_t)g->n_values : 1, nn = g->n_nodes > 0 ? (size_t)g->n_nodes : 1;
    p->desc = calloc(nv, sizeof *p->desc);
    p->ptr = calloc(nv, sizeof *p->ptr);
    p->owned = calloc(nv, 1);
    p->nodes = calloc(nn, sizeof *p->nodes);
    produced = calloc(nv, 1);
    if (!p->desc || !p->ptr || !p->owned || !p->nodes || !produced) {
        st = cc_err_set(err, CC_ERR_NOMEM, "xnnpack: out of memory");
        goto fail;
    }
    st = cc_graph_check(g, "xnnpack", produced, err); /* the host's own graph check */
    if (st) goto fail;
    for (int i = 0; i < g->n_values; i++) {
        p->desc[i] = g->values[i];
        p->ptr[i] = g->values[i].data;
    }

    for (int n = 0; n < g->n_nodes; n++) {
        const cc_node *node = &g->nodes[n];
        xp_build_fn fn = find_builder(node->op->name);
        if (!fn) {
            st = cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: no operator for %s", node->op->name);
            goto fail;
        }
        xp_build b;
        xp_node *np = &p->nodes[n];
        st = build_begin(c, p->desc, node, np, &b, err);
        p->n_nodes = n + 1;
        if (!st) st = fn(&b, err);
        if (st) goto fail;
        int v = node->out[0];
        if (in_list(g->outputs, g->n_outputs, v)) {
            const cc_tensor *want = &g->values[v];
            if (want->dtype != b.out[0].dtype || !cc_shape_equal(&want->shape, &b.out[0].shape)) {
                st = cc_err_set(err, CC_ERR_ARG, "xnnpack: graph output value %d does not match what %s gives", v,
                                node->op->name);
                goto fail;
            }
        } else if (!(p->ptr[v] = alloc_padded(cc_tensor_bytes(&b.out[0])))) {
            st = cc_err_set(err, CC_ERR_NOMEM, "xnnpack: out of memory for value %d", v);
            goto fail;
        } else {
            p->owned[v] = 1;
        }
        p->desc[v] = b.out[0];
        p->desc[v].data = NULL;
        /* constants read at run time get a padded copy; NHWC operands a scratch buffer */
        for (int k = 0; k < np->n_src; k++) {
            int u = node->in[np->src_in[k]];
            size_t bytes = cc_tensor_bytes(&p->desc[u]);
            if (g->values[u].data && !p->owned[u]) {
                void *copy = alloc_padded(bytes);
                if (!copy) {
                    st = cc_err_set(err, CC_ERR_NOMEM, "xnnpack: out of memory");
                    goto fail;
                }
                memcpy(copy, g->values[u].data, bytes);
                p->ptr[u] = copy;
                p->owned[u] = 1;
            }
            if (np->nhwc_src[k] && !(np->scratch_src[k] = alloc_padded(bytes))) {
                st = cc_err_set(err, CC_ERR_NOMEM, "xnnpack: out of memory");
                goto fail;
            }
        }
        if (np->nhwc_dst && !(np->scratch_dst = alloc_padded(cc_tensor_bytes(&b.out[0])))) {
            st = cc_err_set(err, CC_ERR_NOMEM, "xnnpack: out of memory");
            goto fail;
        }
    }
    /* bind now what is already known: scratch buffers, intermediates and constants */
    for (int n = 0; n < p->n_nodes; n++) {
        xp_node *np = &p->nodes[n];
        /* an empty output has nothing to compute (XNNPACK refuses a zero-sized setup) */
        if (cc_tensor_numel(&p->desc[np->node->out[0]]) == 0) continue;
        const void *src[2] = { NULL, NULL };
        int known = 1;
        for (int k = 0; k < np->n_src; k++) {
            int u = np->node->in[np->src_in[k]];
            src[k] = np->nhwc_src[k] ? np->scratch_src[k] : p->ptr[u];
            known &= src[k] != NULL;
        }
        void *dst = np->nhwc_dst ? np->scratch_dst : p->ptr[np->node->out[0]];
        if (known && dst && (st = bind(c, np, src, dst, err))) goto fail;
    }
    free(produced);
    *plan = p;
    return CC_OK;

fail:
    free(produced);
    xp_release(ctx, p);
    return st;
}

static cc_status xp_run(void *ctx, void *plan, void *const *inputs, void *const *outputs, cc_err *err)
{
    xp_ctx *c = ctx;
    xp_plan *p = plan;
    const cc_graph *g = p->g;
    for (int j = g->n_outputs - 1; j >= 0; j--) {
        int v = g->outputs[j];
        if (!p->owned[v] && !g->values[v].data && !in_list(g->inputs, g->n_inputs, v)) p->ptr[v] = outputs[j];
    }
    for (int i = 0; i < g->n_inputs; i++) p->ptr[g->inputs[i]] = inputs[i];

    for (int n = 0; n < p->n_nodes; n++) {
        xp_node *np = &p->nodes[n];
        /* an empty output has nothing to compute (XNNPACK refuses a zero-sized setup) */
        if (cc_tensor_numel(&p->desc[np->node->out[0]]) == 0) continue;
        const void *src[2] = { NULL, NULL };
        for (int k = 0; k < np->n_src; k++) {
            const void *x = p->ptr[np->node->in[np->src_in[k]]];
            if (np->nhwc_src[k]) {
                const int64_t *d = np->src_ncs[k];
                transpose(x, np->scratch_src[k], d[0], d[1], d[2], np->esize_src[k]);
                x = np->scratch_src[k];
            }
            src[k] = x;
        }
        void *y = p->ptr[np->node->out[0]];
        void *dst = np->nhwc_dst ? np->scratch_dst : y;
        cc_status st = bind(c, np, src, dst, err);
        if (st) return st;
        enum xnn_status s = xnn_run_operator(np->op, c->pool);
        if (s != xnn_status_success)
            return cc_err_set(err, CC_ERR_DEVICE, "xnnpack: running %s (%s) failed (%s)", np->node->op->name, np->impl,
                              xp_status_name(s));
        if (np->nhwc_dst)
            transpose(np->scratch_dst, y, np->dst_ncs[0], np->dst_ncs[2], np->dst_ncs[1], np->esize_dst);
    }
    for (int j = 0; j < g->n_outputs; j++) {
        int v = g->outputs[j];
        if (p->ptr[v] != outputs[j]) memcpy(outputs[j], p->ptr[v], cc_tensor_bytes(&p->desc[v]));
    }
    return CC_OK;
}

/* "Conv: convolution2d_nhwc_f32 +2 transposes; Relu: clamp_nc_f32" with repeats counted. */
static void xp_describe_plan(void *ctx, void *plan, char *buf, size_t n)
{
    (void)ctx;
    xp_plan *p = plan;
    if (!n) return;
    buf[0] = '\0';
    if (!p) return;
    size_t len = 0;
    for (int i = 0; i < p->n_nodes && len < n; i++) {
        const xp_node *a = &p->nodes[i];
        int ta = a->nhwc_src[0] + a->nhwc_src[1] + a->nhwc_dst, seen = 0, count = 0;
        for (int k = 0; k < p->n_nodes; k++) {
            const xp_node *o = &p->nodes[k];
            if (o->node->op != a->node->op || strcmp(o->impl, a->impl) != 0 ||
                o->nhwc_src[0] + o->nhwc_src[1] + o->nhwc_dst != ta)
                continue;
            if (k < i) seen = 1;
            count++;
        }
        if (seen) continue;
        char extra[32] = "", times[16] = "";
        if (ta) snprintf(extra, sizeof extra, " +%d transpose%s", ta, ta > 1 ? "s" : "");
        if (count > 1) snprintf(times, sizeof times, " x%d", count);
        int w = snprintf(buf + len, n - len, "%s%s: %s%s%s", len ? "; " : "", a->node->op->name, a->impl, extra, times);
        if (w < 0) break;
        len += (size_t)w;
    }
}

static const cc_target_iface xnnpack_target = {
    .abi_version = CC_TARGET_ABI_VERSION,
    .struct_size = sizeof(cc_target_iface),
    .name = "xnnpack",
    .description = "XNNPACK operators on the CPU (plugin)",
    .hidden = 0,
    .open = xp_open,                      /* xnn_initialize, a pthreadpool */
    .close = xp_close,
    .supports = xp_supports,              /* the node's operator is created and deleted */
    .buffer_alloc = xp_buffer_alloc,      /* host memory + XNN_EXTRA_BYTES */
    .buffer_free = xp_buffer_free,
    .upload = xp_upload,
    .download = xp_download,
    .prepare = xp_prepare,                /* operators created, weights packed, buffers bound */
    .run = xp_run,                        /* transposes + xnn_run_operator per node */
    .sync = xp_sync,
    .release = xp_release,
    .run_timed = NULL,                    /* host clock */
    .describe_plan = xp_describe_plan,    /* the XNNPACK operator per node */
};

/* Score: how well this CPU suits XNNPACK's x86 kernels (any CPU runs them). */
CC_PLUGIN_EXPORT int crosscheck_target_v1(uint32_t host_abi, const cc_target_iface **target, char *reason,
                                          size_t reason_size)
{
    (void)host_abi;
    (void)reason;
    (void)reason_size;
    *target = &xnnpack_target;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return 3;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 2;
#endif
    return 1;
}
