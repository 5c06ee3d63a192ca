/* test_fleet.c — runs grouped by machine (results/fleet.h): one fingerprint with the same
 * devices is one machine; another CPU model is another machine; the same CPU model with a
 * target that saw another device (an A100 node and an H100 node) is another machine; a
 * run of the same node with fewer targets, or a target unavailable there, stays on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "results/fleet.h"
#include "results/store_query.h"
#include "synth.h"

/* A run on cpu_model whose targets are cpu (device "dev") and, when gpu is not NULL, cuda
 * on that device (unavailable when gpu is ""). */
static void run_on(cc_db *db, const char *cpu_model, const char *gpu)
{
    cc_run_info info;
    synth_run_info(&info, "", "c1");
    snprintf(info.cpu_model, sizeof info.cpu_model, "%s", cpu_model);
    cc_rng rng;
    cc_rng_seed(&rng, 1);
    int64_t id = synth_store_run(db, &info, "dev", NULL, 0, &rng);
    if (!gpu) return;
    cc_device_desc d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", gpu);
    cc_err err = { 0 };
    CHECK_OK(cc_store_put_target(db, id, "cuda", gpu[0] ? &d : NULL, gpu[0] != '\0', gpu[0] ? "" : "no GPU", &err));
}

int main(void)
{
    synth_init();
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "fleet.db");
    if (!db) return CC_TEST_RESULT();
    run_on(db, "EPYC", "A100");   /* M1 */
    run_on(db, "EPYC", "H100");   /* M2: cuda saw another device */
    run_on(db, "EPYC", NULL);     /* M1: no cuda in this selection */
    run_on(db, "Xeon", NULL);     /* M3: another CPU */
    run_on(db, "EPYC", "H100");   /* M2 */
    run_on(db, "EPYC", "");       /* M1: cuda unavailable says nothing of the device */
    cc_run_info *runs = NULL;
    int n = 0, nm = -1;
    cc_err err = { 0 };
    CHECK_OK(cc_store_list_runs(db, &runs, &n, &err));
    CHECK(n == 6);
    int m[6] = { -1, -1, -1, -1, -1, -1 };
    if (n == 6) CHECK_OK(cc_fleet_machines(db, runs, n, m, &nm, &err));
    CHECK(nm == 3);
    CHECK(m[0] == 0 && m[1] == 1 && m[2] == 0 && m[3] == 2 && m[4] == 1 && m[5] == 0);
    CHECK(cc_fleet_machines(db, NULL, 2, m, &nm, &err) == CC_ERR_ARG);
    CHECK_OK(cc_fleet_machines(db, runs, 0, m, &nm, &err));
    CHECK(nm == 0);
    free(runs);
    cc_store_close(db);
    return CC_TEST_RESULT();
}
