/* scan.c — which of a model's operators each target would run (see scan.h). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../models/onnx_import.h"
#include "scan.h"
#include "stats.h"
#include "worker.h"

#define MAX_TYPES 128

/* ---- the models of a path ------------------------------------------------------------- */

void cc_scan_models_free(char **paths, char **names, int n)
{
    for (int i = 0; i < n; i++) {
        if (paths) free(paths[i]);
        if (names) free(names[i]);
    }
    free(paths);
    free(names);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* path's model name: its file name without .onnx, or its folder's name for .../model.onnx */
static char *model_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strcmp(base, "model.onnx") == 0 && base > path) {
        const char *end = base - 1, *start = end;
        while (start > path && start[-1] != '/') start--;
        if (end > start) return strndup(start, (size_t)(end - start));
    }
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".onnx") == 0) n -= 5;
    return strndup(base, n);
}

cc_status cc_scan_models(const char *path, char ***paths_out, char ***names_out, int *n_out, cc_err *err)
{
    *paths_out = *names_out = NULL;
    *n_out = 0;
    struct stat sb;
    if (stat(path, &sb) != 0) return cc_err_set(err, CC_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
    char **paths = NULL;
    int n = 0, cap = 0;
    cc_status st = CC_OK;
    if (!S_ISDIR(sb.st_mode)) {
        paths = malloc(sizeof *paths);
        if (!paths || !(paths[0] = strdup(path))) st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        else n = 1;
    } else {
        DIR *d = opendir(path);
        if (!d) return cc_err_set(err, CC_ERR_IO, "cannot read folder '%s': %s", path, strerror(errno));
        struct dirent *de;
        while (st == CC_OK && (de = readdir(d))) {
            if (de->d_name[0] == '.') continue;
            char full[4096];
            size_t len = strlen(de->d_name);
            if (len > 5 && strcmp(de->d_name + len - 5, ".onnx") == 0) {
                snprintf(full, sizeof full, "%s/%s", path, de->d_name);
            } else {
                snprintf(full, sizeof full, "%s/%s/model.onnx", path, de->d_name);
                if (stat(full, &sb) != 0) continue;
            }
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                char **g = realloc(paths, sizeof *g * (size_t)cap);
                if (!g) {
                    st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
                    break;
                }
                paths = g;
            }
            if (!(paths[n] = strdup(full))) st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
            else n++;
        }
        closedir(d);
        if (n > 1) qsort(paths, (size_t)n, sizeof *paths, cmp_str);
    }
    char **names = st == CC_OK ? calloc((size_t)(n ? n : 1), sizeof *names) : NULL;
    if (st == CC_OK && !names) st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n && st == CC_OK; i++)
        if (!(names[i] = model_name(paths[i]))) st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    if (st != CC_OK) {
        cc_scan_models_free(paths, names, n);
        return st;
    }
    *paths_out = paths;
    *names_out = names;
    *n_out = n;
    return CC_OK;
}

/* ---- one target in a child ------------------------------------------------------------- */

/* What the child sends back: per op type of the model, the nodes declined and why. */
typedef struct declined {
    int n[MAX_TYPES];
    char reason[MAX_TYPES][CC_REASON_MAX];
} declined;

static int type_index(char (*types)[64], int nt, const char *op)
{
    for (int i = 0; i < nt; i++)
        if (strcmp(types[i], op) == 0) return i;
    return -1;
}

/* Asks t about every node of g; a control-flow node the host runs, and the nodes of its
 * sub-graphs are asked in turn (they are the model's nodes as the file counts them). */
static void ask_graph(const cc_target_iface *t, void *ctx, const cc_graph *g, char (*types)[64], int nt, declined *d)
{
    for (int k = 0; k < g->n_nodes; k++) {
        const cc_node *nd = &g->nodes[k];
        if (cc_op_has_trait(nd->op, CC_TRAIT_SUBGRAPH)) {
            for (int a = 0; a < nd->op->n_attrs; a++)
                if (nd->op->attrs[a].kind == CC_ATTR_GRAPH && nd->attrs[a].set && nd->attrs[a].i >= 0 &&
                    nd->attrs[a].i < g->n_subgraphs)
                    ask_graph(t, ctx, &g->subgraphs[nd->attrs[a].i], types, nt, d);
            continue;
        }
        char why[CC_REASON_MAX] = "";
        if (cc_target_supports(t, ctx, g, nd, why, sizeof why) == CC_SUPPORT_YES) continue;
        int i = type_index(types, nt, nd->op->name);
        if (i < 0) continue;
        if (!d->n[i]++) snprintf(d->reason[i], sizeof d->reason[i], "%s", why[0] ? why : "declined, no reason given");
    }
}

static void ask_target(const cc_scan_options *o, int ti, const cc_model *m, char (*types)[64], int nt, declined *d)
{
    const cc_target_iface *t = o->targets[ti];
    void *ctx = NULL;
    cc_device_desc desc;
    cc_err e = { 0 };
    const cc_graph *g = &m->graph;
    if (t->open(o->devices[ti] ? o->devices[ti] : "", &ctx, &desc, &e)) {
        for (int k = 0; k < g->n_nodes; k++) {
            int i = type_index(types, nt, g->nodes[k].op->name);
            if (i < 0) continue;
            if (!d->n[i]++) snprintf(d->reason[i], sizeof d->reason[i], "target unavailable: %.200s", e.msg);
        }
        return;
    }
    ask_graph(t, ctx, g, types, nt, d);
    t->close(ctx);
}

/* Asks target ti in a child; *why gets a crash or timeout (then d is not filled). */
static void isolated_ask(const cc_scan_options *o, int ti, const cc_model *m, char (*types)[64], int nt, declined *d,
                         char *why, size_t n)
{
    int p[2];
    why[0] = '\0';
    if (pipe(p)) {
        snprintf(why, n, "pipe: %s", strerror(errno));
        return;
    }
    cc_err e = { 0 };
    pid_t pid = cc_isolate_fork(o->mem_limit_mb, &e);
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        snprintf(why, n, "%.200s", e.msg);
        return;
    }
    if (pid == 0) {
        close(p[0]);
        static declined mine;
        memset(&mine, 0, sizeof mine);
        ask_target(o, ti, m, types, nt, &mine);
        size_t done = 0;
        while (done < sizeof mine) {
            ssize_t w = write(p[1], (const char *)&mine + done, sizeof mine - done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) _exit(3);
            done += (size_t)w;
        }
        _exit(0);
    }
    close(p[1]);
    int rc = cc_isolate_read(p[0], d, sizeof *d, cc_now() + o->timeout_s, NULL);
    close(p[0]);
    int status = 0;
    cc_isolate_reap(pid, rc ? SIGKILL : 0, &status);
    if (rc == 1) snprintf(why, n, "no answer within %.0f s; killed", o->timeout_s);
    else if (rc) cc_isolate_describe(status, "scan", why, n);
}

/* ---- a model ------------------------------------------------------------------------------- */

cc_status cc_scan_model(const cc_scan_options *o, const char *path, const char *name, cc_scan_fn fn, void *user,
                        char *import_why, size_t why_n, cc_err *err)
{
    static char types[MAX_TYPES][64];
    static int counts[MAX_TYPES];
    int nt = 0;
    import_why[0] = '\0';
    cc_status st = cc_onnx_op_counts(path, types, counts, MAX_TYPES, &nt, err);
    if (st) return st == CC_ERR_NOMEM ? st : CC_ERR_ARG;
    if (nt > MAX_TYPES) nt = MAX_TYPES;
    cc_scan_result r;
    /* the catalog's rows */
    for (int i = 0; i < nt; i++) {
        memset(&r, 0, sizeof r);
        snprintf(r.model, sizeof r.model, "%s", name);
        snprintf(r.op, sizeof r.op, "%s", types[i]);
        r.nodes = counts[i];
        int known = cc_onnx_op_known(types[i]);
        r.supported = known ? counts[i] : 0;
        if (!known) snprintf(r.reason, sizeof r.reason, "not in the catalog");
        if ((st = fn(user, &r, err))) return st;
    }
    /* the imported graph, bound like `model run` binds it */
    cc_onnx_options oo;
    memset(&oo, 0, sizeof oo);
    oo.batch = 1;
    oo.name = name;
    oo.n_shapes = o->n_shapes;
    oo.shape_names = o->shape_names;
    oo.shapes = o->shapes;
    cc_model *m = NULL;
    cc_err e = { 0 };
    if (cc_onnx_load(path, &oo, &m, &e)) snprintf(import_why, why_n, "%s", e.msg);
    for (int ti = 0; ti < o->n_targets && st == CC_OK; ti++) {
        static declined d;
        memset(&d, 0, sizeof d);
        char why[CC_REASON_MAX] = "";
        if (m) isolated_ask(o, ti, m, types, nt, &d, why, sizeof why);
        for (int i = 0; i < nt && st == CC_OK; i++) {
            memset(&r, 0, sizeof r);
            snprintf(r.model, sizeof r.model, "%s", name);
            cc_target_label(o->targets[ti]->name, o->devices[ti] ? o->devices[ti] : "", r.target, sizeof r.target);
            snprintf(r.op, sizeof r.op, "%s", types[i]);
            r.nodes = counts[i];
            int known = cc_onnx_op_known(types[i]);
            if (!known) {
                snprintf(r.reason, sizeof r.reason, "not in the catalog");
            } else if (!m) {
                snprintf(r.reason, sizeof r.reason, "not scanned: the model does not import (%.200s)", import_why);
            } else if (why[0]) {
                snprintf(r.reason, sizeof r.reason, "not scanned: %.230s", why);
            } else {
                r.supported = counts[i] - (d.n[i] < counts[i] ? d.n[i] : counts[i]);
                snprintf(r.reason, sizeof r.reason, "%s", d.reason[i]);
            }
            st = fn(user, &r, err);
        }
    }
    cc_model_free(m);
    return st;
}
