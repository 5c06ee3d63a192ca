/* model_record.c — the run a model run records into (its own, or a joined one) and the
 * real status of its targets, probed in a worker process. */
#include "model_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../results/store_query.h"
#include "worker.h"

cc_status cc_model_record_open(const cc_model_run_options *o, cc_model_record *rec, cc_err *err)
{
    memset(rec, 0, sizeof *rec);
    rec->lock.fd = -1;
    struct stat sb;
    if (o->join_run && stat(o->db_path, &sb) != 0)
        return cc_err_set(err, CC_ERR_ARG, "--run %s: no database at %s to join", o->join_run, o->db_path);
    if (!o->join_run) {
        /* a database that exists is opened (checked, upgraded) now, before minutes of
           golden computation: a corrupt or read-only one is refused at once. A new one
           is created by cc_model_record_begin, so a refused model leaves none behind. */
        if (stat(o->db_path, &sb) != 0) return CC_OK;
        return cc_store_open(o->db_path, 0, &rec->store, err);
    }
    cc_status st = cc_store_open(o->db_path, 0, &rec->store, err);
    if (st) return st;

    st = cc_store_resolve_run(rec->store, o->join_run, &rec->join_id, err);
    if (st) goto fail;
    if (rec->join_id == 0) {
        st = cc_err_set(err, CC_ERR_ARG, "--run %s: no such run in %s", o->join_run, o->db_path);
        goto fail;
    }
    static cc_run_info run, here;
    st = cc_store_get_run(rec->store, rec->join_id, &run, err);
    if (st) goto fail;
    memset(&here, 0, sizeof here);
    cc_env_collect(&here);
    const char *git = o->git_commit ? o->git_commit : "", *libs = o->libraries ? o->libraries : "";
    const char *what = NULL, *theirs = NULL, *ours = NULL;
    if (strcmp(run.git_commit, git)) what = "was made by another build, git", theirs = run.git_commit, ours = git;
    else if (strcmp(run.libraries, libs)) what = "was made with other libraries", theirs = run.libraries, ours = libs;
    else if (strcmp(run.hostname, here.hostname)) what = "ran on another host", theirs = run.hostname, ours = here.hostname;
    else if (strcmp(run.cpu_model, here.cpu_model) || run.cores != here.cores)
        what = "ran on another CPU", theirs = run.cpu_model, ours = here.cpu_model;
    if (what) {
        if (theirs)
            st = cc_err_set(err, CC_ERR_ARG, "--run %s: run %lld %s '%.80s', not '%.80s'", o->join_run,
                            (long long)rec->join_id, what, theirs, ours);
        else
            st = cc_err_set(err, CC_ERR_ARG, "--run %s: run %lld %s", o->join_run, (long long)rec->join_id, what);
        goto fail;
    }
    /* a run still marked running is joined only when no process holds its lock: it was
       killed, and what the killed process did not finish stays missing, so the run ends
       interrupted */
    st = cc_run_lock_take(o->db_path, rec->join_id, &rec->lock, err);
    if (st == CC_ERR_ARG) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        char *cut = strstr(why, "; not resumed");
        if (cut) *cut = '\0';
        st = cc_err_set(err, CC_ERR_ARG, "--run %s: %.300s; join it when it has finished", o->join_run, why);
    }
    if (st) goto fail;
    snprintf(rec->join_status, sizeof rec->join_status, "%s",
             strcmp(run.status, "running") ? run.status : "interrupted");
    return CC_OK;

fail:
    cc_store_close(rec->store);
    rec->store = NULL;
    return st;
}

/* Probes every target of o in one worker process (a crash or hang there makes that
 * target unavailable, with the reason) and stores each as described above. */
static cc_status probe_targets(const cc_model_run_options *o, cc_model_record *rec, cc_err *err)
{
    cc_run_target *listed = NULL;
    int n_listed = 0;
    cc_status st = CC_OK;
    if (rec->join_id) {
        st = cc_store_load_targets(rec->store, rec->run_id, &listed, &n_listed, err);
        if (st) return st;
    }
    cc_worker_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.targets = o->targets;
    cfg.devices = o->devices;
    cfg.n_targets = o->n_targets;
    cfg.params.max_samples = 1;
    cc_worker *w = NULL;
    st = cc_worker_create(&cfg, &w, err);
    for (int t = 0; !st && t < o->n_targets; t++) {
        static cc_device_desc desc;
        memset(&desc, 0, sizeof desc);
        st = cc_worker_probe(w, t, o->timeout_s < 120 ? o->timeout_s : 120, &rec->available[t], &desc,
                             rec->why[t], sizeof rec->why[t], err);
        if (st) break;
        int have = 0;
        char label[64];
        cc_target_label(o->targets[t]->name, o->devices[t], label, sizeof label);
        for (int i = 0; i < n_listed; i++) have |= !strcmp(listed[i].name, label);
        if (!have)
            st = cc_store_put_target(rec->store, rec->run_id, label, rec->available[t] ? &desc : NULL,
                                     rec->available[t], rec->available[t] ? "" : rec->why[t], err);
    }
    cc_worker_destroy(w);
    free(listed);
    return st;
}

cc_status cc_model_record_begin(const cc_model_run_options *o, cc_model_record *rec, const cc_run_info *info,
                                cc_err *err)
{
    cc_status st = CC_OK;
    if (!rec->store) st = cc_store_open(o->db_path, 0, &rec->store, err);
    if (st) return st;
    if (rec->join_id) {
        rec->run_id = rec->join_id;
        st = cc_store_run_resume(rec->store, rec->run_id, err);
    } else {
        st = cc_store_run_begin(rec->store, info, &rec->run_id, err);
        if (!st) st = cc_run_lock_take(o->db_path, rec->run_id, &rec->lock, err);
    }
    if (st) return st;
    return probe_targets(o, rec, err);
}

cc_status cc_model_record_end(cc_model_record *rec, int interrupted, const cc_env_mark *mark_start, cc_err *err)
{
    if (!rec->store || !rec->run_id) return CC_OK;
    cc_env_state at_end;
    cc_env_mark mark_end;
    cc_env_sample(&at_end);
    cc_env_mark_take(&mark_end);
    cc_status st = cc_store_run_conditions(rec->store, rec->run_id, &at_end, cc_env_others_share(mark_start, &mark_end),
                                           err);
    if (!strcmp(rec->join_status, "interrupted")) interrupted = 1;
    if (!st) st = cc_store_run_end(rec->store, rec->run_id, interrupted ? "interrupted" : "finished", err);
    return st;
}

void cc_model_record_close(cc_model_record *rec)
{
    cc_store_close(rec->store);
    rec->store = NULL;
    cc_run_lock_release(&rec->lock);
}

cc_status cc_model_record_start(cc_model_run_options *mo, cc_model_record *rec, const char *command,
                                const char *db_path, int n_targets, const cc_target_iface *const *targets,
                                const char *const *devices, const char *join, const char *tag, double probe_timeout_s,
                                const char *config, const char *command_line, const char *libraries,
                                const char *git_commit, const char *version, cc_err *err)
{
    memset(mo, 0, sizeof *mo);
    mo->db_path = db_path;
    mo->model = command;
    mo->n_targets = n_targets;
    for (int k = 0; k < n_targets && k < CC_RUN_MAX_TARGETS; k++) {
        mo->targets[k] = targets[k];
        mo->devices[k] = devices[k];
    }
    mo->join_run = join;
    mo->tag = tag;
    mo->timeout_s = probe_timeout_s;
    mo->command_line = command_line;
    mo->libraries = libraries;
    mo->git_commit = git_commit;
    mo->version = version;
    memset(rec, 0, sizeof *rec);
    rec->lock.fd = -1;
    if (!strncmp(db_path, "out/", 4)) mkdir("out", 0777);
    cc_status st = cc_model_record_open(mo, rec, err);
    if (st) return st;
    static cc_run_info info;
    memset(&info, 0, sizeof info);
    cc_env_collect(&info);
    snprintf(info.tag, sizeof info.tag, "%s", tag ? tag : "");
    snprintf(info.config, sizeof info.config, "%s", config);
    snprintf(info.command, sizeof info.command, "%s", command_line ? command_line : "");
    snprintf(info.version, sizeof info.version, "%s", version ? version : "");
    snprintf(info.git_commit, sizeof info.git_commit, "%s", git_commit ? git_commit : "");
    snprintf(info.libraries, sizeof info.libraries, "%s", libraries ? libraries : "");
    return cc_model_record_begin(mo, rec, &info, err);
}
