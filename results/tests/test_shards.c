/* test_shards.c — the shard of a run in the store and the shard sets of a database: the
 * shard columns round-trip, a resumed run's scheduler tasks are listed once each, a
 * version-10 database's shards are read from their config text (and a config that only
 * looks like one is left alone), shard sets group by selection, count, tag and build, pick
 * the latest finished run of each shard and name the missing and unfinished ones, and a
 * merge carries the shard and replaces an unfinished copy of a run by its later state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "harness/cctest.h"
#include "results/merge.h"
#include "results/shards.h"
#include "results/store_query.h"
#include "synth.h"

static synth_row rows[8];
static char ids[8][64];

/* A shard run of `config` (";shard=I/N" appended), tag and commit, ended with status
 * ("finished", "interrupted"; NULL: left running), holding rows[index - 1]. */
static int64_t shard_run(cc_db *db, const char *config, int index, int count, const char *tag, const char *commit,
                         const char *status)
{
    cc_run_info info;
    synth_run_info(&info, tag, commit);
    snprintf(info.config, sizeof info.config, "%s;shard=%d/%d", config, index, count);
    info.shard_index = index;
    info.shard_count = count;
    snprintf(info.shard_source, sizeof info.shard_source, "slurm");
    snprintf(info.scheduler_jobs, sizeof info.scheduler_jobs, "slurm 40_%d (job %d)", index, 40 + index);
    cc_rng rng;
    cc_rng_seed(&rng, (uint64_t)index);
    int64_t id = synth_store_run(db, &info, "dev", &rows[index - 1], 1, &rng);
    cc_err err = { 0 };
    if (!status) {
        CHECK_OK(cc_store_run_resume(db, id, &err));
    } else if (strcmp(status, "finished") != 0) {
        CHECK_OK(cc_store_run_resume(db, id, &err));
        CHECK_OK(cc_store_run_end(db, id, status, &err));
    }
    return id;
}

static void columns_and_jobs(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "columns.db");
    cc_err err = { 0 };
    int64_t id = shard_run(db, "sel", 3, 4, "t", "c1", "interrupted");
    cc_run_info back;
    CHECK_OK(cc_store_get_run(db, id, &back, &err));
    CHECK(back.shard_index == 3 && back.shard_count == 4 && strcmp(back.shard_source, "slurm") == 0);
    CHECK(strcmp(back.scheduler_jobs, "slurm 40_3 (job 43)") == 0);
    /* resumed by another task, then requeued under the same name: listed once each */
    CHECK_OK(cc_store_run_add_job(db, id, "slurm 51_3 (job 51)", &err));
    CHECK_OK(cc_store_run_add_job(db, id, "slurm 51_3 (job 51)", &err));
    CHECK_OK(cc_store_run_add_job(db, id, "", &err));
    CHECK_OK(cc_store_run_add_job(db, id, NULL, &err));
    CHECK_OK(cc_store_get_run(db, id, &back, &err));
    CHECK(strcmp(back.scheduler_jobs, "slurm 40_3 (job 43), slurm 51_3 (job 51)") == 0);
    /* a name ending like the last one is still another name */
    CHECK_OK(cc_store_run_add_job(db, id, "1 (job 51)", &err));
    CHECK_OK(cc_store_get_run(db, id, &back, &err));
    CHECK(strcmp(back.scheduler_jobs, "slurm 40_3 (job 43), slurm 51_3 (job 51), 1 (job 51)") == 0);
    /* the list stops growing at 255 bytes */
    char job[128];
    for (int k = 0; k < 20; k++) {
        snprintf(job, sizeof job, "slurm %d_3 (job %d)", 100 + k, 100 + k);
        CHECK_OK(cc_store_run_add_job(db, id, job, &err));
    }
    CHECK_OK(cc_store_get_run(db, id, &back, &err));
    CHECK(strlen(back.scheduler_jobs) <= 255 && strstr(back.scheduler_jobs, "slurm 100_3 (job 100)"));
    CHECK(cc_store_run_add_job(db, 999, "x", &err) == CC_ERR_ARG);
    CHECK(cc_store_run_add_job(db, 999, NULL, &err) == CC_ERR_ARG);
    /* not a shard: no index, count or source */
    cc_run_info plain;
    synth_run_info(&plain, "plain", "c1");
    snprintf(plain.shard_source, sizeof plain.shard_source, "slurm");
    cc_rng rng;
    cc_rng_seed(&rng, 1);
    int64_t p = synth_store_run(db, &plain, "dev", rows, 1, &rng);
    CHECK_OK(cc_store_get_run(db, p, &back, &err));
    CHECK(back.shard_index == 0 && back.shard_count == 0 && back.shard_source[0] == '\0');
    cc_shard_set set;
    CHECK_OK(cc_store_shard_set(db, p, &set, &err));
    CHECK(set.count == 0 && set.members == NULL);
    CHECK(cc_store_shard_set(db, 999, &set, &err) == CC_ERR_ARG);
    cc_store_close(db);
}

/* A version-10 database said which shard a run was only in its config text. */
static void migration(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "v10.db");
    cc_err err = { 0 };
    cc_rng rng;
    cc_rng_seed(&rng, 2);
    const char *configs[4] = { "targets=cpu;quick=1;seed=1;shard=2/4", "targets=cpu;quick=1;seed=1",
                               "targets=cpu;cases-file=a;shard=x.csv;random=3",
                               "targets=cpu;cases-file=b;shard=1/2.csv;shard=1/3" };
    int64_t id[4];
    for (int k = 0; k < 4; k++) {
        cc_run_info info;
        synth_run_info(&info, "old", "c0");
        snprintf(info.config, sizeof info.config, "%s", configs[k]);
        id[k] = synth_store_run(db, &info, "dev", rows, 1, &rng);
    }
    cc_store_close(db);
    sqlite3 *raw = NULL;
    CHECK(sqlite3_open(path, &raw) == SQLITE_OK);
    CHECK(sqlite3_exec(raw, "PRAGMA journal_mode = DELETE;" SYNTH_DOWNGRADE_TO_V10, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(raw);
    db = NULL;
    CHECK_OK(cc_store_open(path, 0, &db, &err));
    if (!db) return;
    CHECK(cc_store_schema_version(db) == CC_STORE_SCHEMA_VERSION);
    cc_run_info back;
    CHECK_OK(cc_store_get_run(db, id[0], &back, &err));
    CHECK(back.shard_index == 2 && back.shard_count == 4 && strcmp(back.shard_source, "option") == 0);
    CHECK(back.scheduler_jobs[0] == '\0');
    CHECK_OK(cc_store_get_run(db, id[1], &back, &err));
    CHECK(back.shard_count == 0 && back.shard_source[0] == '\0');
    /* ";shard=" inside a file name is not a shard */
    CHECK_OK(cc_store_get_run(db, id[2], &back, &err));
    CHECK(back.shard_count == 0 && back.shard_source[0] == '\0');
    /* nor is a config whose first ";shard=" is not its end: left alone rather than misread */
    CHECK_OK(cc_store_get_run(db, id[3], &back, &err));
    CHECK(back.shard_count == 0);
    cc_shard_set set;
    CHECK_OK(cc_store_shard_set(db, id[0], &set, &err));
    CHECK(set.count == 4 && set.n_finished == 1 && set.n_missing == 3);
    CHECK(strcmp(set.selection, "targets=cpu;quick=1;seed=1") == 0);
    cc_shard_set_free(&set);
    cc_store_close(db);
}

static void sets(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "sets.db");
    cc_err err = { 0 };
    /* set A (tag "gpu", commit c1, 4 shards): 1 finished; 2 interrupted, then a finished
     * run, then an interrupted one again; 3 missing; 4 killed (left running) */
    int64_t a1 = shard_run(db, "sel", 1, 4, "gpu", "c1", "finished");
    shard_run(db, "sel", 2, 4, "gpu", "c1", "interrupted");
    int64_t a2 = shard_run(db, "sel", 2, 4, "gpu", "c1", "finished");
    int64_t a2_late = shard_run(db, "sel", 2, 4, "gpu", "c1", "interrupted");
    int64_t a4 = shard_run(db, "sel", 4, 4, "gpu", "c1", NULL);
    /* not in A: another tag, another build, another count, another selection */
    int64_t b = shard_run(db, "sel", 3, 4, "cpu", "c1", "finished");
    shard_run(db, "sel", 3, 4, "gpu", "c2", "finished");
    shard_run(db, "sel", 3, 5, "gpu", "c1", "finished");
    shard_run(db, "other", 3, 4, "gpu", "c1", "finished");

    cc_shard_set set;
    CHECK_OK(cc_store_shard_set(db, a4, &set, &err));
    CHECK(set.count == 4 && strcmp(set.selection, "sel") == 0 && strcmp(set.tag, "gpu") == 0);
    CHECK(strcmp(set.git_commit, "c1") == 0);
    if (set.count == 4) {
        CHECK(set.members[0].run_id == a1 && strcmp(set.members[0].status, "finished") == 0);
        CHECK(set.members[1].run_id == a2 && set.members[1].n_runs == 3);
        CHECK(set.members[2].run_id == 0 && set.members[2].status[0] == '\0' && set.members[2].n_runs == 0);
        CHECK(set.members[3].run_id == a4 && strcmp(set.members[3].status, "running") == 0);
    }
    CHECK(set.n_finished == 2 && set.n_unfinished == 1 && set.n_missing == 1);
    char buf[64];
    cc_shard_set_list(&set, 0, buf, sizeof buf);
    CHECK(strcmp(buf, "3") == 0);
    cc_shard_set_list(&set, 1, buf, sizeof buf);
    CHECK(strcmp(buf, "1, 2") == 0);
    cc_shard_set_list(&set, 2, buf, sizeof buf);
    CHECK(strcmp(buf, "4") == 0);
    cc_shard_set_free(&set);
    /* any run of the set finds the same set, the older runs of a shard included */
    CHECK_OK(cc_store_shard_set(db, a2_late, &set, &err));
    CHECK(set.count == 4 && set.n_finished == 2 && set.members[1].run_id == a2);
    cc_shard_set_free(&set);
    CHECK_OK(cc_store_shard_set(db, b, &set, &err));
    CHECK(set.count == 4 && set.n_finished == 1 && set.n_missing == 3 && set.members[2].run_id == b);
    char none[8];
    cc_shard_set_list(&set, 2, none, sizeof none);
    CHECK(strcmp(none, "none") == 0);
    /* a list longer than the buffer is cut with "..." */
    cc_shard_set_list(&set, 0, none, sizeof none);
    CHECK(strcmp(none, "1, ...") == 0 || strcmp(none, "1...") == 0);
    cc_shard_set_free(&set);

    cc_shard_set *all = NULL;
    int n = 0;
    CHECK_OK(cc_store_shard_sets(db, &all, &n, &err));
    CHECK(n == 5);
    if (n == 5) {
        CHECK(strcmp(all[0].tag, "gpu") == 0 && all[0].count == 4 && all[0].n_finished == 2);
        CHECK(strcmp(all[1].tag, "cpu") == 0);
        CHECK(strcmp(all[2].git_commit, "c2") == 0);
        CHECK(all[3].count == 5);
        CHECK(strcmp(all[4].selection, "other") == 0);
    }
    cc_shard_sets_free(all, n);
    cc_store_close(db);
}

/* A shard interrupted, merged, resumed to the end and merged again: the merged copy is
 * replaced by the finished run; an older state of a run never replaces a newer one. */
static void merge_resumed(void)
{
    char shard[512], merged[512];
    cc_db *db = synth_open(shard, sizeof shard, "shard3.db");
    synth_path(merged, sizeof merged, "merged.db");
    cc_err err = { 0 };
    int64_t id = shard_run(db, "sel", 3, 4, "gpu", "c1", "interrupted");
    cc_store_close(db);
    const char *inputs[1] = { shard };
    cc_merge_stats st;
    CHECK_OK(cc_merge_databases(inputs, 1, merged, &st, &err));
    CHECK(st.runs_copied == 1 && st.runs_updated == 0 && st.results == 2);

    /* resumed (another task), one more result, finished */
    CHECK_OK(cc_store_open(shard, 0, &db, &err));
    CHECK_OK(cc_store_run_resume(db, id, &err));
    CHECK_OK(cc_store_run_add_job(db, id, "slurm 77_3 (job 77)", &err));
    cc_result r;
    synth_result(&r, &rows[5], CC_REGIME_RANDOM);
    CHECK_OK(cc_store_put_result(db, id, &r, NULL, 0, &err));
    CHECK_OK(cc_store_run_end(db, id, "finished", &err));
    cc_run_info src;
    CHECK_OK(cc_store_get_run(db, id, &src, &err));
    cc_store_close(db);
    CHECK_OK(cc_merge_databases(inputs, 1, merged, &st, &err));
    CHECK(st.runs_copied == 0 && st.runs_updated == 1 && st.runs_present == 0 && st.results == 3);
    cc_db *m = NULL;
    CHECK_OK(cc_store_open(merged, 1, &m, &err));
    cc_run_info *runs = NULL;
    int n = 0;
    if (m) CHECK_OK(cc_store_list_runs(m, &runs, &n, &err));
    CHECK(n == 1);
    if (n == 1) {
        CHECK(strcmp(runs[0].uid, src.uid) == 0 && strcmp(runs[0].status, "finished") == 0);
        CHECK(runs[0].shard_index == 3 && runs[0].shard_count == 4 && strcmp(runs[0].shard_source, "slurm") == 0);
        CHECK(strcmp(runs[0].scheduler_jobs, "slurm 40_3 (job 43), slurm 77_3 (job 77)") == 0);
        int64_t count = 0;
        CHECK_OK(cc_store_count_results(m, runs[0].id, -1, &count, &err));
        CHECK(count == 3);
    }
    free(runs);
    cc_store_close(m);
    /* again: nothing to do */
    CHECK_OK(cc_merge_databases(inputs, 1, merged, &st, &err));
    CHECK(st.runs_copied == 0 && st.runs_updated == 0 && st.runs_present == 1);

    /* the interrupted state, from an older copy of the shard's database, does not replace
     * the finished one */
    char older[512];
    cc_db *o = synth_open(older, sizeof older, "older.db");
    cc_store_close(o);
    sqlite3 *raw = NULL;
    CHECK(sqlite3_open(older, &raw) == SQLITE_OK);
    char sql[1024];
    snprintf(sql, sizeof sql, "ATTACH '%s' AS m; INSERT INTO runs SELECT * FROM m.runs;"
                              "UPDATE runs SET status = 'interrupted', finished_at = '2999-01-01T00:00:00Z';",
             merged);
    CHECK(sqlite3_exec(raw, sql, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(raw);
    const char *old_inputs[1] = { older };
    CHECK_OK(cc_merge_databases(old_inputs, 1, merged, &st, &err));
    CHECK(st.runs_updated == 0 && st.runs_present == 1);
}

int main(void)
{
    synth_init();
    for (int i = 0; i < 8; i++) {
        snprintf(ids[i], sizeof ids[i], "Relu(x=%dx3:f32)", i + 1);
        rows[i] = (synth_row){ ids[i], "Relu", "f32", "cpu", CC_PASSED, 0.1, 1e-6, 0.05, 0 };
    }
    columns_and_jobs();
    migration();
    sets();
    merge_resumed();
    return CC_TEST_RESULT();
}
