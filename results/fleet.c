/* fleet.c — grouping runs by machine: the fingerprint of cc_env_machine_key, split where a
 * target saw another device (fleet.h). */
#include "fleet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

/* A machine as found so far: its fingerprint and the device each target saw on it. */
typedef struct fleet_machine {
    char key[512];
    cc_run_target *devices;   /* available targets only */
    int n_devices;
} fleet_machine;

/* 1 when a run with these available targets conflicts with machine m: one of them saw
 * another device there. */
static int conflicts(const fleet_machine *m, const cc_run_target *tg, int nt)
{
    for (int i = 0; i < nt; i++) {
        if (tg[i].available <= 0) continue;
        for (int k = 0; k < m->n_devices; k++)
            if (strcmp(m->devices[k].name, tg[i].name) == 0 && strcmp(m->devices[k].desc.name, tg[i].desc.name) != 0)
                return 1;
    }
    return 0;
}

/* Adds the devices of the run's available targets that m does not know yet. */
static int learn(fleet_machine *m, const cc_run_target *tg, int nt)
{
    for (int i = 0; i < nt; i++) {
        if (tg[i].available <= 0) continue;
        int known = 0;
        for (int k = 0; k < m->n_devices && !known; k++) known = strcmp(m->devices[k].name, tg[i].name) == 0;
        if (known) continue;
        cc_run_target *p = realloc(m->devices, sizeof *p * (size_t)(m->n_devices + 1));
        if (!p) return -1;
        m->devices = p;
        m->devices[m->n_devices++] = tg[i];
    }
    return 0;
}

cc_status cc_fleet_machines(cc_db *store, const cc_run_info *runs, int n, int *machine, int *n_machines,
                            cc_err *err)
{
    if (!store || (n > 0 && (!runs || !machine)) || !n_machines)
        return cc_err_set(err, CC_ERR_ARG, "cc_fleet_machines: NULL argument");
    fleet_machine *ms = calloc((size_t)(n > 0 ? n : 1), sizeof *ms);
    if (!ms) return cc_err_set(err, CC_ERR_NOMEM, "fleet: out of memory");
    int nm = 0;
    cc_status st = CC_OK;
    for (int i = 0; i < n && st == CC_OK; i++) {
        char key[512];
        cc_env_machine_key(&runs[i], key, sizeof key);
        cc_run_target *tg = NULL;
        int nt = 0;
        st = cc_store_load_targets(store, runs[i].id, &tg, &nt, err);
        if (st != CC_OK) break;
        int m = 0;
        while (m < nm && (strcmp(ms[m].key, key) != 0 || conflicts(&ms[m], tg, nt))) m++;
        if (m == nm) snprintf(ms[nm++].key, sizeof ms[0].key, "%s", key);
        if (learn(&ms[m], tg, nt)) st = cc_err_set(err, CC_ERR_NOMEM, "fleet: out of memory");
        machine[i] = m;
        free(tg);
    }
    for (int m = 0; m < nm; m++) free(ms[m].devices);
    free(ms);
    if (st == CC_OK) *n_machines = nm;
    return st;
}
