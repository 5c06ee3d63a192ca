/* env.c — the machine half of a run's fingerprint (CPU model and flags, cores, memory,
 * operating system, host name, the compiler that built crosscheck) and its volatile
 * conditions: load average, frequency governor and clocks, and how much of the machine
 * other processes used while a run ran. */
#include "store.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define CPU_SYSFS "/sys/devices/system/cpu"

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

/* ---- volatile conditions ---------------------------------------------------------------- */

/* The first line of a small file, without its newline; -1 when it cannot be read. */
static int read_line(const char *path, char *dst, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int ok = fgets(dst, (int)n, f) != NULL;
    fclose(f);
    if (!ok) return -1;
    dst[strcspn(dst, "\n")] = '\0';
    return 0;
}

/* 1 for a "cpuN" directory entry. */
static int is_cpu_dir(const char *name)
{
    if (strncmp(name, "cpu", 3) != 0 || !name[3]) return 0;
    for (const char *p = name + 3; *p; p++)
        if (!isdigit((unsigned char)*p)) return 0;
    return 1;
}

void cc_env_sample(cc_env_state *out)
{
    memset(out, 0, sizeof *out);
    out->load1 = out->mhz = out->max_mhz = NAN;
    double load = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &load) == 1 && load >= 0) out->load1 = load;
        fclose(f);
    }

    DIR *d = opendir(CPU_SYSFS);
    if (!d) return;
    double sum_khz = 0, max_khz = 0;
    int n_cur = 0, mixed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_cpu_dir(e->d_name)) continue;
        char path[512], line[64];
        double khz;
        snprintf(path, sizeof path, CPU_SYSFS "/%s/cpufreq/scaling_governor", e->d_name);
        if (read_line(path, line, sizeof line) == 0 && line[0]) {
            if (!out->governor[0]) snprintf(out->governor, sizeof out->governor, "%.31s", line);
            else if (strcmp(out->governor, line) != 0) mixed = 1;
        }
        snprintf(path, sizeof path, CPU_SYSFS "/%s/cpufreq/scaling_cur_freq", e->d_name);
        if (read_line(path, line, sizeof line) == 0 && sscanf(line, "%lf", &khz) == 1 && khz > 0) {
            sum_khz += khz;
            n_cur++;
        }
        snprintf(path, sizeof path, CPU_SYSFS "/%s/cpufreq/cpuinfo_max_freq", e->d_name);
        if (read_line(path, line, sizeof line) == 0 && sscanf(line, "%lf", &khz) == 1 && khz > max_khz)
            max_khz = khz;
    }
    closedir(d);
    if (mixed) snprintf(out->governor, sizeof out->governor, "mixed");
    if (n_cur) out->mhz = sum_khz / n_cur / 1000;
    if (max_khz > 0) out->max_mhz = max_khz / 1000;
}

static double timeval_s(struct timeval t)
{
    return (double)t.tv_sec + 1e-6 * (double)t.tv_usec;
}

void cc_env_mark_take(cc_env_mark *out)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    out->wall = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;

    /* "cpu user nice system idle iowait irq softirq steal ...", in clock ticks; idle,
     * iowait and steal (time the hypervisor gave to others) are not this machine's work */
    out->machine_busy = NAN;
    FILE *f = fopen("/proc/stat", "r");
    if (f) {
        unsigned long long v[8] = { 0 };
        long tick = sysconf(_SC_CLK_TCK);
        if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5], &v[6], &v[7]) >= 7 && tick > 0)
            out->machine_busy = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / (double)tick;
        fclose(f);
    }

    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    out->cpus = cpus > 0 ? (int)cpus : 0;
    struct rusage self, children;
    out->own = 0;
    if (getrusage(RUSAGE_SELF, &self) == 0) out->own += timeval_s(self.ru_utime) + timeval_s(self.ru_stime);
    if (getrusage(RUSAGE_CHILDREN, &children) == 0)
        out->own += timeval_s(children.ru_utime) + timeval_s(children.ru_stime);
}

double cc_env_others_share(const cc_env_mark *a, const cc_env_mark *b)
{
    if (!a || !b || b->cpus < 1 || isnan(a->machine_busy) || isnan(b->machine_busy)) return NAN;
    double elapsed = b->wall - a->wall;
    if (!(elapsed > 0)) return NAN;
    double others = (b->machine_busy - a->machine_busy) - (b->own - a->own);
    double share = others / (elapsed * b->cpus);
    return share < 0 ? 0 : share > 1 ? 1 : share;
}

int cc_env_is_busy(double others_cpu, double load_start, int cores)
{
    if (!isnan(others_cpu)) return others_cpu >= CC_ENV_BUSY_SHARE;
    if (!isnan(load_start) && cores > 0) return load_start >= 0.5 * cores;
    return -1;
}

/* ---- the machine --------------------------------------------------------------------------- */

void cc_env_collect(cc_run_info *info)
{
    if (!info) return;
    cc_env_sample(&info->at_start);
    cc_env_state unknown = { .load1 = NAN, .mhz = NAN, .max_mhz = NAN };
    info->at_end = unknown;
    info->others_cpu = NAN;
    info->busy = -1;
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
