/* runner.c — the suite's main loop: case selection, target probing, one job per
 * (case, regime, target) through the worker, each result committed as it arrives. */
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ops/random.h"
#include "../../ops/sweep.h"
#include "shard.h"
#include "run_lock.h"
#include "stats.h"

static cc_status select_unsharded(const cc_selection *sel, cc_case **out, int *n, cc_err *err)
{
    if (sel->cases) {
        cc_case *c = malloc(sizeof *c * (size_t)(sel->n_cases ? sel->n_cases : 1));
        if (!c) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        if (sel->n_cases) memcpy(c, sel->cases, sizeof *c * (size_t)sel->n_cases);
        *out = c;
        *n = sel->n_cases;
        return CC_OK;
    }
    if (sel->random_n > 0) {
        int n_ops = sel->n_ops ? sel->n_ops : cc_catalog_count();
        const cc_op_def **ops = malloc(sizeof *ops * (size_t)n_ops);
        if (!ops) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        for (int i = 0; i < n_ops; i++) ops[i] = sel->n_ops ? sel->ops[i] : cc_catalog_at(i);
        cc_status st = cc_case_draw_many(ops, n_ops, sel->dtypes, sel->random_seed, sel->random_n, out, n,
                                         err);
        free(ops);
        return st;
    }
    if (sel->case_id) {
        cc_case *c = malloc(sizeof *c);
        if (!c) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        cc_status st = cc_case_parse(sel->case_id, c, err);
        if (st) {
            free(c);
            return st;
        }
        *out = c;
        *n = 1;
        return CC_OK;
    }
    cc_case *all = NULL;
    int total = 0, cap = 0;
    int n_ops = sel->n_ops ? sel->n_ops : cc_catalog_count();
    for (int i = 0; i < n_ops; i++) {
        const cc_op_def *op = sel->n_ops ? sel->ops[i] : cc_catalog_at(i);
        cc_case *cs = NULL;
        int k = 0;
        cc_status st = cc_case_enumerate(op, CC_DTYPE_COUNT, sel->quick, &cs, &k, err);
        if (st) {
            free(all);
            return st;
        }
        for (int j = 0; j < k; j++) {
            if (sel->dtypes && !(sel->dtypes & CC_DTYPE_BIT(cc_case_dtype(&cs[j])))) continue;
            if (sel->tags && !(sel->tags & cs[j].tags)) continue;
            if (total == cap) {
                cap = cap ? cap * 2 : 256;
                cc_case *grown = realloc(all, sizeof *all * (size_t)cap);
                if (!grown) {
                    free(cs);
                    free(all);
                    return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
                }
                all = grown;
            }
            all[total++] = cs[j];
        }
        free(cs);
    }
    *out = all;
    *n = total;
    return CC_OK;
}

cc_status cc_select_cases(const cc_selection *sel, cc_case **out, int *n, cc_err *err)
{
    cc_status st = select_unsharded(sel, out, n, err);
    if (st == CC_OK && sel->shard_n > 0) cc_shard_filter(*out, n, sel->shard_i, sel->shard_n);
    return st;
}

void cc_run_config_text(const cc_run_options *o, char *buf, size_t n)
{
    size_t len = 0;
    len += (size_t)snprintf(buf + len, n - len, "targets=");
    for (int t = 0; t < o->n_targets && len < n; t++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s%s%s", t ? "," : "", o->targets[t]->name,
                                o->devices[t] && o->devices[t][0] ? ":" : "",
                                o->devices[t] ? o->devices[t] : "");
    if (len < n) len += (size_t)snprintf(buf + len, n - len, ";ops=");
    for (int i = 0; i < o->sel.n_ops && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? "," : "", o->sel.ops[i]->name);
    if (len < n) len += (size_t)snprintf(buf + len, n - len, ";dtypes=");
    for (int d = 0; d < CC_DTYPE_COUNT && len < n; d++)
        if (o->sel.dtypes & CC_DTYPE_BIT(d))
            len += (size_t)snprintf(buf + len, n - len, "%s,", cc_dtype_name((cc_dtype)d));
    if (len < n)
        len += (size_t)snprintf(buf + len, n - len, ";case=%s;quick=%d;seed=%llu",
                                o->sel.case_id ? o->sel.case_id : "", o->sel.quick,
                                (unsigned long long)o->seed);
    if (len < n && o->sel.tags)
        len += (size_t)snprintf(buf + len, n - len, ";tags=%s%s%s",
                                o->sel.tags & CC_SWEEP_EDGE ? "edge," : "",
                                o->sel.tags & CC_SWEEP_MODEL ? "model," : "",
                                o->sel.tags & CC_SWEEP_QUICK ? "quick," : "");
    if (len < n && o->sel.cases_file)
        len += (size_t)snprintf(buf + len, n - len, ";cases-file=%s", o->sel.cases_file);
    if (len < n && o->sel.random_n > 0)
        len += (size_t)snprintf(buf + len, n - len, ";random=%d", o->sel.random_n);
    if (len < n && o->sel.shard_n > 0)
        snprintf(buf + len, n - len, ";shard=%d/%d", o->sel.shard_i, o->sel.shard_n);
}

static int is_bad(cc_verdict v)
{
    return v == CC_FAILED || v == CC_ERROR || v == CC_CRASHED || v == CC_TIMEOUT;
}

/* A job the random mode shrinks. */
typedef struct bad_job {
    int ci, t;
    cc_regime regime;
    cc_verdict verdict;
} bad_job;

#define SHRINK_CANDIDATES 96

/* Shrinks case `from`, which ended in verdict v on target t: the smallest case that still
 * does is left in *best and its result in *res (*found = 0 when no smaller case does). */
static cc_status shrink_one(const cc_run_options *o, const cc_case *from, int t, cc_regime regime,
                            cc_verdict v, cc_case *best, cc_result *res, int *found, cc_err *err)
{
    cc_status st = CC_OK;
    cc_case *cand = malloc(sizeof *cand * SHRINK_CANDIDATES);
    double *samples = malloc(sizeof(double));
    static cc_result r;
    int runs = 0;
    *found = 0;
    *best = *from;
    if (!cand || !samples) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (;;) {
        int n = cc_case_shrink_candidates(best, cand, SHRINK_CANDIDATES);
        if (n == 0 || runs >= CC_SHRINK_RUNS) break;
        cc_worker_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.cases = cand;
        cfg.n_cases = n;
        cfg.targets = &o->targets[t];
        cfg.devices = &o->devices[t];
        cfg.n_targets = 1;
        cfg.params = o->params;
        cfg.params.time_it = 0;
        cfg.params.max_samples = 1;
        cfg.mem_limit_mb = o->mem_limit_mb;
        cfg.interrupt = o->interrupt;
        cc_worker *w = NULL;
        if ((st = cc_worker_create(&cfg, &w, err))) goto done;
        int hit = -1;
        for (int k = 0; k < n && runs < CC_SHRINK_RUNS && hit < 0; k++) {
            if (o->interrupt && *o->interrupt) break;
            uint64_t seed = cc_exec_case_seed(cand[k].id, o->seed, regime);
            int ns = 0;
            st = cc_worker_run(w, k, 0, regime, seed, 0, o->timeout_s, &r, samples, &ns, err);
            runs++;
            if (st) break;
            if (r.verdict == v) hit = k;
        }
        cc_worker_destroy(w);
        if (st || hit < 0) break;
        *best = cand[hit];
        *res = r;
        *found = 1;
    }
done:
    free(cand);
    free(samples);
    return st;
}

/* Shrinks the run's bad jobs (runner.h) and records each smallest case found. */
static cc_status shrink_bad_jobs(const cc_run_options *o, cc_db *store, int64_t run_id, const cc_case *cases,
                                 const bad_job *bad, int n_bad, cc_progress_fn fn, void *user,
                                 cc_progress *p, cc_err *err)
{
    int shrunk = 0;
    static cc_case probe[1];
    unsigned char *tried = calloc((size_t)n_bad, 1);
    if (!tried) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    for (int b = 0; b < n_bad && shrunk < CC_SHRINK_MAX; b++) {
        if (o->interrupt && *o->interrupt) break;
        /* a case with nothing smaller to try is as small as it gets: it does not use up
         * the shrinks of its (op, target, verdict) */
        if (cc_case_shrink_candidates(&cases[bad[b].ci], probe, 1) == 0) continue;
        int same = 0;
        for (int j = 0; j < b; j++)
            same += tried[j] && bad[j].t == bad[b].t && bad[j].verdict == bad[b].verdict &&
                    cases[bad[j].ci].op == cases[bad[b].ci].op;
        if (same >= CC_SHRINK_PER_KEY) continue;
        tried[b] = 1;
        shrunk++;
        static cc_case best;
        static cc_result res;
        int found = 0;
        const cc_case *from = &cases[bad[b].ci];
        cc_status st = shrink_one(o, from, bad[b].t, bad[b].regime, bad[b].verdict, &best, &res, &found, err);
        if (st) {
            free(tried);
            return st;
        }
        if (!found) continue;
        int has = 0;
        st = cc_store_has_result(store, run_id, best.id, o->targets[bad[b].t]->name, bad[b].regime, &has, err);
        if (st) {
            free(tried);
            return st;
        }
        /* a smallest case that is one of the run's own cases is recorded already */
        if (!has) {
            size_t len = strlen(res.reason);
            snprintf(res.reason + len, sizeof res.reason - len, " (shrunk from %s)", from->id);
            st = cc_store_put_result(store, run_id, &res, NULL, 0, err);
            if (st) {
                free(tried);
                return st;
            }
        }
        if (fn) {
            p->event = CC_PROGRESS_RESULT;
            p->result = &res;
            p->shrunk_from = from->id;
            fn(user, p);
            p->shrunk_from = NULL;
        }
    }
    free(tried);
    return CC_OK;
}

cc_status cc_run_suite(const cc_run_options *o, cc_progress_fn fn, void *user, cc_run_summary *sum,
                       cc_err *err)
{
    bad_job *bad = NULL;
    int n_bad = 0;
    cc_status st;
    cc_db *store = NULL;
    cc_case *cases = NULL;
    cc_worker *w = NULL;
    double *samples = NULL;
    int n_cases = 0;
    int64_t run_id = 0;
    memset(sum, 0, sizeof *sum);
    static cc_run_lock lock;
    lock.fd = -1;
    double t_start = cc_now();
    cc_env_mark mark_start;
    cc_env_mark_take(&mark_start);

    st = cc_select_cases(&o->sel, &cases, &n_cases, err);
    if (st) goto done;
    st = cc_store_open(o->db_path, 0, &store, err);
    if (st) goto done;

    static cc_run_info info;
    memset(&info, 0, sizeof info);
    cc_run_config_text(o, info.config, sizeof info.config);
    if (o->resume) {
        st = cc_store_find_resumable(store, info.config, &run_id, err);
        if (st) goto done;
        if (run_id) {
            st = cc_run_lock_take(o->db_path, run_id, &lock, err);
            if (st) goto done;
            st = cc_store_run_resume(store, run_id, err);
            if (st == CC_OK) st = cc_store_run_add_job(store, run_id, o->scheduler_job, err);
            if (st) goto done;
            sum->resumed = 1;
        }
    }
    if (!run_id) {
        cc_env_collect(&info);
        snprintf(info.tag, sizeof info.tag, "%s", o->tag ? o->tag : "");
        info.seed = o->seed;
        info.quick = o->sel.quick;
        snprintf(info.command, sizeof info.command, "%s", o->command_line ? o->command_line : "");
        snprintf(info.version, sizeof info.version, "%s", o->version ? o->version : "");
        snprintf(info.git_commit, sizeof info.git_commit, "%s", o->git_commit ? o->git_commit : "");
        snprintf(info.libraries, sizeof info.libraries, "%s", o->libraries ? o->libraries : "");
        if (o->sel.shard_n > 0) {
            info.shard_index = o->sel.shard_i;
            info.shard_count = o->sel.shard_n;
            snprintf(info.shard_source, sizeof info.shard_source, "%s", o->shard_source ? o->shard_source : "");
        }
        snprintf(info.scheduler_jobs, sizeof info.scheduler_jobs, "%s", o->scheduler_job ? o->scheduler_job : "");
        st = cc_store_run_begin(store, &info, &run_id, err);
        if (st) goto done;
        st = cc_run_lock_take(o->db_path, run_id, &lock, err);
        if (st) goto done;
    }
    sum->run_id = run_id;

    static cc_worker_config cfg;
    cfg.cases = cases;
    cfg.n_cases = n_cases;
    cfg.targets = o->targets;
    cfg.devices = o->devices;
    cfg.n_targets = o->n_targets;
    cfg.params = o->params;
    cfg.mem_limit_mb = o->mem_limit_mb;
    cfg.interrupt = o->interrupt;
    samples = malloc(sizeof(double) * (size_t)(o->params.max_samples > 0 ? o->params.max_samples : 1));
    if (!samples) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto done;
    }
    st = cc_worker_create(&cfg, &w, err);
    if (st) goto done;

    int total = n_cases * 2 * o->n_targets;
    cc_progress p;
    memset(&p, 0, sizeof p);
    p.total = total;
    p.run_id = run_id;
    p.resumed = sum->resumed;
    if (fn) {
        p.event = CC_PROGRESS_START;
        fn(user, &p);
    }

    /* probe every target once, in the worker */
    int available[CC_RUN_MAX_TARGETS];
    char why[CC_RUN_MAX_TARGETS][CC_REASON_MAX];
    char label[CC_RUN_MAX_TARGETS][64];
    for (int t = 0; t < o->n_targets; t++)
        cc_target_label(o->targets[t]->name, o->devices[t], label[t], sizeof label[t]);
    for (int t = 0; t < o->n_targets; t++) {
        cc_device_desc desc;
        st = cc_worker_probe(w, t, o->timeout_s, &available[t], &desc, why[t], sizeof why[t], err);
        if (st) goto done;
        st = cc_store_put_target(store, run_id, label[t], available[t] ? &desc : NULL,
                                 available[t], available[t] ? "" : why[t], err);
        if (st) goto done;
        if (fn) {
            p.event = CC_PROGRESS_TARGET;
            p.target = label[t];
            p.available = available[t];
            p.reason = why[t];
            p.desc = &desc;
            fn(user, &p);
        }
    }

    if (o->sel.random_n > 0) {
        bad = malloc(sizeof *bad * (size_t)(total > 0 ? total : 1));
        if (!bad) {
            st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
            goto done;
        }
    }
    static cc_result res;
    for (int ci = 0; ci < n_cases; ci++) {
        for (int regime = CC_REGIME_EXACT; regime <= CC_REGIME_RANDOM; regime++) {
            uint64_t seed = cc_exec_case_seed(cases[ci].id, o->seed, (cc_regime)regime);
            for (int t = 0; t < o->n_targets; t++) {
                if (o->interrupt && *o->interrupt) {
                    sum->interrupted = 1;
                    goto finish;
                }
                p.done++;
                if (sum->resumed) {
                    int has = 0;
                    st = cc_store_has_result(store, run_id, cases[ci].id, label[t],
                                             (cc_regime)regime, &has, err);
                    if (st) goto done;
                    if (has) {
                        sum->skipped++;
                        if (fn) {
                            p.event = CC_PROGRESS_SKIPPED;
                            p.elapsed = cc_now() - t_start;
                            fn(user, &p);
                        }
                        continue;
                    }
                }
                int n = 0;
                if (!available[t]) {
                    cc_exec_result_init(&res, &cases[ci], label[t], (cc_regime)regime, seed);
                    res.verdict = CC_UNSUPPORTED;
                    snprintf(res.reason, sizeof res.reason, "target unavailable: %.200s", why[t]);
                } else {
                    int time_it = o->params.time_it && regime == CC_REGIME_RANDOM;
                    st = cc_worker_run(w, ci, t, (cc_regime)regime, seed, time_it, o->timeout_s,
                                       &res, samples, &n, err);
                    if (st) goto done;
                    if (res.verdict == CC_VERDICT_COUNT) { /* interrupted in flight */
                        sum->interrupted = 1;
                        goto finish;
                    }
                }
                st = cc_store_put_result(store, run_id, &res, samples, n, err);
                if (st) goto done;
                if (bad && (res.verdict == CC_FAILED || res.verdict == CC_ERROR || res.verdict == CC_CRASHED))
                    bad[n_bad++] = (bad_job){ ci, t, (cc_regime)regime, res.verdict };
                sum->counts[res.verdict]++;
                sum->jobs++;
                if (is_bad(res.verdict)) p.not_passed++;
                if (fn) {
                    p.event = CC_PROGRESS_RESULT;
                    p.result = &res;
                    p.elapsed = cc_now() - t_start;
                    fn(user, &p);
                }
            }
        }
    }
    cc_worker_destroy(w);
    w = NULL;
    if (n_bad > 0) {
        st = shrink_bad_jobs(o, store, run_id, cases, bad, n_bad, fn, user, &p, err);
        if (st) goto done;
        if (o->interrupt && *o->interrupt) sum->interrupted = 1;
    }
finish:
    /* the conditions of the run: the worker is waited for first, so that its CPU time
     * counts as the run's own and not as other processes' */
    cc_worker_destroy(w);
    w = NULL;
    cc_env_state at_end;
    cc_env_mark mark_end;
    cc_env_sample(&at_end);
    cc_env_mark_take(&mark_end);
    st = cc_store_run_conditions(store, run_id, &at_end, cc_env_others_share(&mark_start, &mark_end), err);
    if (!st) st = cc_store_run_end(store, run_id, sum->interrupted ? "interrupted" : "finished", err);
    /* the verdict counts of the whole run, resumed parts included */
    for (int v = 0; !st && v < CC_VERDICT_COUNT; v++) {
        int64_t c = 0;
        st = cc_store_count_results(store, run_id, v, &c, err);
        sum->counts[v] = (int)c;
    }
done:
    sum->wall_s = cc_now() - t_start;
    free(bad);
    cc_worker_destroy(w);
    free(samples);
    free(cases);
    cc_store_close(store);
    cc_run_lock_release(&lock);
    return st;
}
