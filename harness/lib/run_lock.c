/* run_lock.c — the advisory lock of a run being executed (flock on "<db>.run<ID>.lock"). */
#include "run_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

cc_status cc_run_lock_take(const char *db_path, int64_t run_id, cc_run_lock *lock, cc_err *err)
{
    lock->fd = -1;
    if (snprintf(lock->path, sizeof lock->path, "%s.run%lld.lock", db_path, (long long)run_id) >= (int)sizeof lock->path)
        return cc_err_set(err, CC_ERR_ARG, "database path too long for its run lock: %s", db_path);
    int fd = open(lock->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return cc_err_set(err, CC_ERR_IO, "run lock %s: %s", lock->path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        char holder[128] = "";
        ssize_t k = pread(fd, holder, sizeof holder - 1, 0);
        holder[k > 0 ? k : 0] = '\0';
        holder[strcspn(holder, "\n")] = '\0';
        close(fd);
        if (e == EWOULDBLOCK)
            return cc_err_set(err, CC_ERR_ARG, "run %lld is being executed by another process (%s); not resumed",
                              (long long)run_id, holder[0] ? holder : "holder unknown");
        return cc_err_set(err, CC_ERR_IO, "run lock %s: %s", lock->path, strerror(e));
    }
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    char who[320];
    int n = snprintf(who, sizeof who, "pid %ld on %s\n", (long)getpid(), host[0] ? host : "unknown host");
    if (ftruncate(fd, 0) == 0 && pwrite(fd, who, (size_t)n, 0) != n) { /* the holder text is a courtesy */ }
    lock->fd = fd;
    return CC_OK;
}

void cc_run_lock_release(cc_run_lock *lock)
{
    if (lock->fd < 0) return;
    unlink(lock->path);
    close(lock->fd);
    lock->fd = -1;
}
