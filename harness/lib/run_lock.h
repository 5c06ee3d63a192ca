/* run_lock.h — one writer per run: the process executing a run holds an advisory lock
 * (flock) on a small file beside the database, named after the run, for as long as it
 * writes the run. `run --resume` takes the same lock before it touches the run, so the
 * resume of a run that is still being executed (or a second resume) is refused. A lock
 * dies with its process: a run whose process was killed is resumable at once, with no
 * stale-lock guessing. */
#ifndef CC_RUN_LOCK_H
#define CC_RUN_LOCK_H

#include <stdint.h>

#include "../../ops/core/cc.h"

typedef struct cc_run_lock {
    int fd;                   /* -1 when not held */
    char path[4096 + 32];
} cc_run_lock;

/* Takes the lock of run run_id of the database at db_path (file "<db_path>.run<ID>.lock",
 * created if missing, holding the holder's pid and host). CC_ERR_ARG with one line naming
 * the holder when another process holds it; CC_ERR_IO when the file cannot be made. */
cc_status cc_run_lock_take(const char *db_path, int64_t run_id, cc_run_lock *lock, cc_err *err);

/* Releases the lock and removes its file. Accepts a lock never taken (fd -1). */
void cc_run_lock_release(cc_run_lock *lock);

#endif
