/* env.c — the machine half of a run's fingerprint: CPU model and flags, cores, memory,
 * operating system, host name and the compiler that built crosscheck. */
#include "store.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Copies the value of the first "key<spaces>: value" line of a /proc file into dst. */
static int proc_field(const char *file, const char *key, char *dst, size_t n)
{
    FILE *f = fopen(file, "r");
    if (!f) return -1;
    char line[8192];
    size_t klen = strlen(key);
    int found = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0) continue;
        const char *p = line + klen;
        while (*p == ' ' || *p == '\t') p++;
        if (*p != ':') continue;
        p++;
        while (*p == ' ' || *p == '\t') p++;
        size_t len = strcspn(p, "\n");
        if (len >= n) len = n - 1;
        memcpy(dst, p, len);
        dst[len] = '\0';
        found = 0;
        break;
    }
    fclose(f);
    return found;
}

static void compiler_name(char *dst, size_t n)
{
#if defined(__clang__)
    snprintf(dst, n, "clang %s", __clang_version__);
#elif defined(__GNUC__)
    snprintf(dst, n, "gcc %s", __VERSION__);
#elif defined(__VERSION__)
    snprintf(dst, n, "%s", __VERSION__);
#else
    snprintf(dst, n, "unknown C compiler");
#endif
    size_t len = strlen(dst);
    while (len && isspace((unsigned char)dst[len - 1])) dst[--len] = '\0';
}

void cc_env_collect(cc_run_info *info)
{
    if (!info) return;
    info->cpu_model[0] = info->cpu_flags[0] = info->os[0] = info->hostname[0] = '\0';

    /* x86 names the model "model name" and lists "flags"; arm64 has "Features" and, on
     * some kernels, only "Hardware" or "CPU part" for a model. */
    if (proc_field("/proc/cpuinfo", "model name", info->cpu_model, sizeof info->cpu_model) &&
        proc_field("/proc/cpuinfo", "Hardware", info->cpu_model, sizeof info->cpu_model))
        proc_field("/proc/cpuinfo", "CPU part", info->cpu_model, sizeof info->cpu_model);
    if (proc_field("/proc/cpuinfo", "flags", info->cpu_flags, sizeof info->cpu_flags))
        proc_field("/proc/cpuinfo", "Features", info->cpu_flags, sizeof info->cpu_flags);

    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    info->cores = cores > 0 ? (int)cores : 0;

    char mem[64] = "";
    long long kib = 0;
    info->memory_bytes = 0;
    if (proc_field("/proc/meminfo", "MemTotal", mem, sizeof mem) == 0 &&
        sscanf(mem, "%lld", &kib) == 1 && kib > 0)
        info->memory_bytes = (int64_t)kib * 1024;
    else {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        if (pages > 0 && page > 0) info->memory_bytes = (int64_t)pages * page;
    }

    struct utsname u;
    if (uname(&u) == 0) {
        const char *parts[4] = { u.sysname, u.release, u.version, u.machine };
        size_t len = 0;
        for (int i = 0; i < 4 && len + 1 < sizeof info->os; i++) {
            size_t room = sizeof info->os - len - 1, k = strlen(parts[i]);
            if (k > room) k = room;
            memcpy(info->os + len, parts[i], k);
            len += k;
            if (i < 3 && len + 1 < sizeof info->os) info->os[len++] = ' ';
        }
        info->os[len] = '\0';
        snprintf(info->hostname, sizeof info->hostname, "%s", u.nodename);
    }
    compiler_name(info->compiler, sizeof info->compiler);
}
