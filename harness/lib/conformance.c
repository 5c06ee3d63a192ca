/* conformance.c — the official ONNX node tests on targets (see conformance.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../models/testdata.h"
#include "conformance.h"
#include "graph_exec.h"
#include "stats.h"
#include "worker.h"

/* ---- the tests and their ops ---------------------------------------------------------- */

/* name lower-cased without underscores into buf */
static void squash(const char *name, char *buf, size_t n)
{
    size_t k = 0;
    for (; *name && k + 1 < n; name++)
        if (*name != '_') buf[k++] = (char)tolower((unsigned char)*name);
    buf[k] = '\0';
}

/* The node tests' short names for ops. */
static const char *const aliases[][2] = {
    { "batchnorm", "BatchNormalization" },       { "instancenorm", "InstanceNormalization" },
    { "mvn", "MeanVarianceNormalization" },      { "nllloss", "NegativeLogLikelihoodLoss" },
    { "sce", "SoftmaxCrossEntropyLoss" },        { "strnorm", "StringNormalizer" },
};

/* The op test (a folder of dir) is about; see conformance.h. */
static void op_of_test(const char *dir, const char *test, char *op, size_t n)
{
    char key[160], cand[96], path[4096];
    squash(test + 5, key, sizeof key); /* after "test_" */
    char types[64][64];
    int nt = 0;
    cc_err e = { 0 };
    snprintf(path, sizeof path, "%s/%s/model.onnx", dir, test);
    if (cc_onnx_op_types(path, types, 64, &nt, &e)) nt = 0;
    if (nt > 64) nt = 64;
    size_t best = 0;
    op[0] = '\0';
    for (int i = 0; i < nt + cc_catalog_count(); i++) {
        const char *name = i < nt ? types[i] : cc_catalog_at(i - nt)->name;
        squash(name, cand, sizeof cand);
        size_t len = strlen(cand);
        if (len > best && strncmp(key, cand, len) == 0) {
            best = len;
            snprintf(op, n, "%.63s", name);
        }
    }
    for (size_t a = 0; a < sizeof aliases / sizeof aliases[0]; a++) {
        size_t len = strlen(aliases[a][0]);
        if (len > best && strncmp(key, aliases[a][0], len) == 0) {
            best = len;
            snprintf(op, n, "%s", aliases[a][1]);
        }
    }
    if (op[0]) return;
    for (int i = 0; i < nt && !op[0]; i++)
        if (!cc_onnx_op_known(types[i])) snprintf(op, n, "%.63s", types[i]);
    for (int i = 0; i < nt && !op[0]; i++)
        if (strcmp(types[i], "Constant") != 0) snprintf(op, n, "%.63s", types[i]);
    if (!op[0]) snprintf(op, n, "%s", nt ? "Constant" : "?");
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void cc_conformance_tests_free(char **names, char **ops, int n)
{
    for (int i = 0; i < n; i++) {
        if (names) free(names[i]);
        if (ops) free(ops[i]);
    }
    free(names);
    free(ops);
}

cc_status cc_conformance_tests(const cc_conformance_options *o, char ***names_out, char ***ops_out, int *n_out,
                               cc_err *err)
{
    *names_out = *ops_out = NULL;
    *n_out = 0;
    DIR *d = opendir(o->dir);
    if (!d) return cc_err_set(err, CC_ERR_IO, "cannot read the node tests' folder %s: %s", o->dir, strerror(errno));
    char **names = NULL;
    int n = 0, cap = 0;
    struct dirent *de;
    cc_status st = CC_OK;
    while ((de = readdir(d))) {
        if (strncmp(de->d_name, "test_", 5) != 0 || strlen(de->d_name) >= 128) continue;
        if (o->match && !strstr(de->d_name, o->match)) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            char **g = realloc(names, sizeof *g * (size_t)cap);
            if (!g) {
                st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
                break;
            }
            names = g;
        }
        if (!(names[n] = strdup(de->d_name))) {
            st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
            break;
        }
        n++;
    }
    closedir(d);
    if (n > 1) qsort(names, (size_t)n, sizeof *names, cmp_str);
    char **keep = NULL, **ops = NULL;
    if (st == CC_OK && (!(keep = calloc((size_t)(n ? n : 1), sizeof *keep)) ||
                        !(ops = calloc((size_t)(n ? n : 1), sizeof *ops))))
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    int kept = 0;
    for (int i = 0; i < n; i++) {
        char op[96];
        int want = 0;
        if (st == CC_OK) {
            op_of_test(o->dir, names[i], op, sizeof op);
            want = o->n_ops == 0;
            for (int k = 0; k < o->n_ops && !want; k++) want = strcmp(o->ops[k], op) == 0;
        }
        if (!want) {
            free(names[i]);
            continue;
        }
        keep[kept] = names[i];
        if (!(ops[kept++] = strdup(op))) st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    free(names);
    names = keep;
    if (st != CC_OK) {
        cc_conformance_tests_free(names, ops, kept);
        return st;
    }
    *names_out = names;
    *ops_out = ops;
    *n_out = kept;
    return CC_OK;
}

/* ---- one test on one opened target (in the child) ------------------------------------- */

static void set(cc_conformance_result *r, cc_verdict v, const char *why)
{
    r->verdict = v;
    snprintf(r->reason, sizeof r->reason, "%s", why ? why : "");
}

static void one_test(const char *dir, const char *test, const cc_target_iface *t, void *ctx, cc_conformance_result *r)
{
    char path[4096], why[CC_REASON_MAX];
    cc_err e = { 0 };
    r->ratio = NAN;
    snprintf(path, sizeof path, "%s/%s/model.onnx", dir, test);
    char types[64][64];
    int nt = 0;
    if (cc_onnx_op_types(path, types, 64, &nt, &e)) {
        set(r, CC_ERROR, e.msg);
        return;
    }
    for (int i = 0; i < nt && i < 64; i++)
        if (!cc_onnx_op_known(types[i])) {
            snprintf(why, sizeof why, "%.63s is not in the catalog", types[i]);
            set(r, CC_UNSUPPORTED, why);
            return;
        }
    snprintf(path, sizeof path, "%s/%s", dir, test);
    cc_onnx_testdata td;
    cc_model_eval ev;
    memset(&ev, 0, sizeof ev);
    cc_graph_exec *x = NULL;
    cc_tensor out[CC_MAX_IO];
    memset(out, 0, sizeof out);
    cc_status st = cc_onnx_testdata_load(path, 0, NULL, &td, &e);
    if (st) {
        set(r, st == CC_ERR_UNSUPPORTED ? CC_UNSUPPORTED : CC_ERROR, e.msg);
        return;
    }
    const cc_graph *g = &td.model->graph;
    if (g->n_outputs != td.n_expected) {
        snprintf(why, sizeof why, "the model has %d outputs, the test expects %d", g->n_outputs, td.n_expected);
        set(r, CC_ERROR, why);
        goto done;
    }
    if ((st = cc_model_evaluate(g, td.inputs, CC_EVAL_PROPAGATE, NULL, &ev, &e))) {
        snprintf(why, sizeof why, "golden model: %.230s", e.msg);
        set(r, st == CC_ERR_UNSUPPORTED ? CC_UNSUPPORTED : CC_ERROR, why);
        goto done;
    }
    /* whether the expected outputs agree with the golden model */
    double gratio = 0;
    char gwhy[CC_REASON_MAX];
    int golden_off = 0;
    for (int o = 0; o < g->n_outputs && !golden_off; o++)
        golden_off = cc_onnx_testdata_compare(&td, &ev, o, NULL, 2, &gratio, gwhy, sizeof gwhy) != 0;
    cc_graph_exec_info info;
    if ((st = cc_graph_exec_create(g, t, ctx, NULL, NULL, &x, &info, &e))) {
        set(r, st == CC_ERR_UNSUPPORTED ? CC_UNSUPPORTED : CC_ERROR, e.msg);
        goto done;
    }
    for (int j = 0; j < g->n_outputs; j++) {
        const cc_tensor *oj = &g->values[g->outputs[j]];
        if (cc_tensor_alloc(&out[j], oj->dtype, &oj->shape, &e)) {
            set(r, CC_ERROR, e.msg);
            goto done;
        }
    }
    if ((st = cc_graph_exec_run(x, td.inputs, out, &e))) {
        set(r, CC_ERROR, e.msg);
        goto done;
    }
    double ratio = 0;
    int off = 0;
    for (int o = 0; o < g->n_outputs && !off; o++)
        off = cc_onnx_testdata_compare(&td, &ev, o, &out[o], 2, &ratio, why, sizeof why) != 0;
    r->ratio = ratio;
    if (!off) {
        set(r, CC_PASSED, "");
    } else if (golden_off) {
        char m[CC_REASON_MAX];
        snprintf(m, sizeof m, "%.150s; the golden model misses the expected values too (%.3g of the bound): they are off",
                 why, gratio);
        set(r, CC_MISTRUSTED, m);
    } else {
        set(r, CC_FAILED, why);
    }
done:
    if (x) cc_graph_exec_destroy(x);
    for (int j = 0; j < CC_MAX_IO; j++) cc_tensor_free(&out[j]);
    cc_model_eval_free(&ev);
    cc_onnx_testdata_free(&td);
}

/* ---- children ----------------------------------------------------------------------------- */

/* The child of target ti: opens it and writes one result per test from `first` on. */
static void child(const cc_conformance_options *o, int ti, char **tests, char **ops, int n, int first, int fd)
{
    const cc_target_iface *t = o->targets[ti];
    void *ctx = NULL;
    cc_device_desc desc;
    cc_err e = { 0 };
    char label[CC_NAME_MAX], unavailable[CC_REASON_MAX] = "";
    cc_target_label(t->name, o->devices[ti] ? o->devices[ti] : "", label, sizeof label);
    if (t->open(o->devices[ti] ? o->devices[ti] : "", &ctx, &desc, &e))
        snprintf(unavailable, sizeof unavailable, "target unavailable: %.200s", e.msg);
    for (int i = first; i < n; i++) {
        cc_conformance_result r;
        memset(&r, 0, sizeof r);
        snprintf(r.test, sizeof r.test, "%s", tests[i]);
        snprintf(r.op, sizeof r.op, "%s", ops[i]);
        snprintf(r.target, sizeof r.target, "%s", label);
        if (unavailable[0]) {
            r.ratio = NAN;
            set(&r, CC_UNSUPPORTED, unavailable);
        } else {
            one_test(o->dir, tests[i], t, ctx, &r);
        }
        size_t done = 0;
        while (done < sizeof r) {
            ssize_t w = write(fd, (const char *)&r + done, sizeof r - done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) _exit(3);
            done += (size_t)w;
        }
    }
    if (!unavailable[0]) t->close(ctx);
    _exit(0);
}

cc_status cc_conformance_run(const cc_conformance_options *o, char **tests, char **ops, int n, cc_conformance_fn fn,
                             void *user, int *interrupted, cc_err *err)
{
    *interrupted = 0;
    for (int ti = 0; ti < o->n_targets; ti++) {
        char label[CC_NAME_MAX];
        cc_target_label(o->targets[ti]->name, o->devices[ti] ? o->devices[ti] : "", label, sizeof label);
        int next = 0;
        while (next < n) {
            int p[2];
            if (pipe(p)) return cc_err_set(err, CC_ERR_IO, "conformance: pipe: %s", strerror(errno));
            pid_t pid = cc_isolate_fork(o->mem_limit_mb, err);
            if (pid < 0) {
                close(p[0]);
                close(p[1]);
                return CC_ERR_IO;
            }
            if (pid == 0) {
                close(p[0]);
                child(o, ti, tests, ops, n, next, p[1]);
            }
            close(p[1]);
            int rc = 0;
            while (next < n) {
                cc_conformance_result r;
                /* the first test also waits for the target to open */
                rc = cc_isolate_read(p[0], &r, sizeof r, cc_now() + o->timeout_s, o->interrupt);
                if (rc) break;
                next++;
                cc_status st = fn(user, &r, err);
                if (st) {
                    close(p[0]);
                    cc_isolate_reap(pid, SIGKILL, NULL);
                    return st;
                }
            }
            close(p[0]);
            int status = 0;
            cc_isolate_reap(pid, rc ? SIGKILL : 0, &status);
            if (rc == 2) {
                *interrupted = 1;
                return CC_OK;
            }
            if (!rc) break;
            /* the child died or hung in test `next`: that test's verdict, then a new child */
            cc_conformance_result r;
            memset(&r, 0, sizeof r);
            snprintf(r.test, sizeof r.test, "%s", tests[next]);
            snprintf(r.op, sizeof r.op, "%s", ops[next]);
            snprintf(r.target, sizeof r.target, "%s", label);
            r.ratio = NAN;
            if (rc == 1) {
                char why[CC_REASON_MAX];
                snprintf(why, sizeof why, "no result within %.0f s; killed", o->timeout_s);
                set(&r, CC_TIMEOUT, why);
            } else {
                char why[CC_REASON_MAX];
                cc_isolate_describe(status, "test", why, sizeof why);
                set(&r, CC_CRASHED, why);
            }
            next++;
            cc_status st = fn(user, &r, err);
            if (st) return st;
        }
    }
    return CC_OK;
}
