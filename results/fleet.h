/* fleet.h — the machines of a results database merged from a fleet: which runs ran on the
 * same kind of machine. A machine is the stable fingerprint cc_env_machine_key names (CPU
 * model, cores, libraries) and the devices its targets found: two runs are the same
 * machine when their fingerprints are equal and no target that was available in both saw
 * a different device there. So nodes with one CPU model and different GPUs (cuda on an
 * A100 and on an H100) are two machines, while two runs of one node with different
 * target selections stay one. */
#ifndef CC_FLEET_H
#define CC_FLEET_H

#include "store.h"

/* Groups runs[0..n-1] (as cc_store_list_runs gives them; each run's targets are read from
 * store) by machine, in the order of each machine's first run: machine[i] is run i's
 * machine, 0 .. *n_machines - 1. machine holds n ints. CC_ERR_DB, CC_ERR_NOMEM. */
cc_status cc_fleet_machines(cc_db *store, const cc_run_info *runs, int n, int *machine, int *n_machines,
                            cc_err *err);

#endif
