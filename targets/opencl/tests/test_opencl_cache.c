/* test_opencl_cache.c — the opencl backend's program cache on disk, in a fresh folder:
 * a first run compiles from source and stores an entry; a second context loads it (and
 * prepares faster); an entry with a flipped byte, a truncated one, and one whose header
 * and checksum are right but whose binary the driver refuses are each detected, deleted
 * and rebuilt while the case still passes; afterwards the rebuilt entry loads cleanly. An
 * older entry of the same program and device (another key) is deleted when the new one
 * is stored.
 * Also: a kernel that does not compile is a CC_ERR_DEVICE quoting the build log, and a
 * device index that does not exist is a CC_ERR_DEVICE. PoCL's own kernel cache is turned
 * off (POCL_KERNEL_CACHE=0) so that compilation really happens where the test expects it.
 * Exits 77 when no OpenCL device opens here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/cctest.h"
#include "harness/lib/exec.h"
#include "targets/opencl/ocl.h"

extern const cc_target_iface cc_target_opencl;

#define CASE_ID "Transpose(data=2x3x4:f32,perm=[1,0,2])"
#define PROGRAM "copy_u32" /* the only program that case needs */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Opens a context, runs CASE_ID once (exact regime), returns the context's cache
 * counters and the run's wall time (open excluded). The case must pass. */
static ocl_cache_stats run_once(double *seconds)
{
    void *ctx = NULL;
    cc_device_desc desc;
    cc_err err = { 0 };
    ocl_cache_stats s;
    memset(&s, 0, sizeof s);
    if (cc_target_opencl.open("", &ctx, &desc, &err) != CC_OK) {
        fprintf(stderr, "open: %s\n", err.msg);
        CHECK(0);
        return s;
    }
    cc_case c;
    CHECK(cc_case_parse(CASE_ID, &c, &err) == CC_OK);
    cc_exec_golden g;
    CHECK(cc_exec_golden_make(&c, 7, CC_REGIME_EXACT, &g, &err) == CC_OK);
    cc_exec_params params = { .time_it = 0 };
    cc_result res;
    double samples[1];
    int n = 0;
    cc_exec_result_init(&res, &c, "opencl", CC_REGIME_EXACT, 7);
    double t0 = now();
    cc_exec_target(&g, &cc_target_opencl, ctx, &params, &res, samples, &n, NULL);
    *seconds = now() - t0;
    if (res.verdict != CC_PASSED) fprintf(stderr, "%s: %s\n", cc_verdict_name(res.verdict), res.reason);
    CHECK(res.verdict == CC_PASSED);
    cc_exec_golden_release(&g);
    s = ((ocl_ctx *)ctx)->cache;
    cc_target_opencl.close(ctx);
    return s;
}

static unsigned char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)(len > 0 ? len : 1));
    if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *n = (size_t)len;
    return buf;
}

static void write_file(const char *path, const unsigned char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(data, 1, n, f) == n);
    fclose(f);
}

/* FNV-1a 64, the entry checksum (see program.c). */
static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static void expect(const char *what, ocl_cache_stats s, int loaded, int built, int stored, int corrupt)
{
    printf("%-34s loaded %d built %d stored %d corrupt %d\n", what, s.loaded, s.built, s.stored, s.corrupt);
    CHECK(s.loaded == loaded);
    CHECK(s.built == built);
    CHECK(s.stored == stored);
    CHECK(s.corrupt == corrupt);
}

int main(void)
{
    setenv("POCL_KERNEL_CACHE", "0", 1);
    char dir[] = "/tmp/cc-opencl-cache-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("CROSSCHECK_CACHE_DIR", dir, 1);

    void *ctx = NULL;
    cc_device_desc desc;
    cc_err err = { 0 };
    if (cc_target_opencl.open("", &ctx, &desc, &err) != CC_OK) {
        rmdir(dir);
        CC_TEST_SKIP(err.msg);
    }
    char path[1200];
    CHECK(cc_ocl_cache_path(ctx, PROGRAM, path, sizeof path, &err) == CC_OK);
    CHECK(strncmp(path, dir, strlen(dir)) == 0);

    /* a kernel that does not compile: the build log reaches the message */
    cl_program bad = NULL;
    cc_status st = cc_ocl_build_source(ctx, "broken", "kernel void k(global float *x) { x[0] = undefined_name; }",
                                       &bad, &err);
    printf("build error: %s\n", err.msg);
    CHECK(st == CC_ERR_DEVICE);
    CHECK(strstr(err.msg, "broken") != NULL);
    CHECK(strstr(err.msg, "CL_BUILD_PROGRAM_FAILURE") != NULL);
    CHECK(strstr(err.msg, "undefined_name") != NULL);
    if (bad) clReleaseProgram(bad);
    cc_target_opencl.close(ctx);

    /* a device that does not exist */
    ctx = NULL;
    CHECK(cc_target_opencl.open("99", &ctx, &desc, &err) == CC_ERR_DEVICE);
    CHECK(strstr(err.msg, "no device 99") != NULL);
    CHECK(cc_target_opencl.open("gpu", &ctx, &desc, &err) == CC_ERR_DEVICE);

    /* an entry of an older build of the same program for this device (another key) */
    char stale[1200];
    snprintf(stale, sizeof stale, "%s", path);
    char *key = strrchr(stale, '-');
    CHECK(key != NULL && strlen(key) == strlen("-0123456789abcdef.bin"));
    if (key) memcpy(key + 1, "0000000000000000", 16);
    write_file(stale, (const unsigned char *)"CCOCLBIN", 8);
    CHECK(access(stale, F_OK) == 0);

    double cold, warm, t;
    expect("first run (empty cache):", run_once(&cold), 0, 1, 1, 0);
    CHECK(access(stale, F_OK) != 0); /* pruned when the new entry was stored */
    size_t n_orig = 0;
    unsigned char *orig = read_file(path, &n_orig);
    CHECK(orig != NULL && n_orig > 40);
    CHECK(orig && memcmp(orig, "CCOCLBIN", 8) == 0);
    expect("second run (cached):", run_once(&warm), 1, 0, 0, 0);
    printf("case with the program compiled: %.3f s; loaded from the cache: %.3f s\n", cold, warm);

    if (orig && n_orig > 40) {
        /* one flipped byte in the binary: the checksum no longer matches */
        unsigned char *bad_bytes = malloc(n_orig);
        memcpy(bad_bytes, orig, n_orig);
        bad_bytes[40 + (n_orig - 40) / 2] ^= 0x5a;
        write_file(path, bad_bytes, n_orig);
        expect("flipped byte:", run_once(&t), 0, 1, 1, 1);
        size_t n_new = 0;
        unsigned char *rebuilt = read_file(path, &n_new);
        CHECK(rebuilt != NULL && n_new > 40 && memcmp(rebuilt, "CCOCLBIN", 8) == 0);
        CHECK(rebuilt && (n_new != n_orig || memcmp(rebuilt, bad_bytes, n_orig) != 0));
        free(rebuilt);
        expect("after the rebuild:", run_once(&t), 1, 0, 0, 0);

        /* truncated in the middle of the binary */
        write_file(path, orig, n_orig / 2);
        expect("truncated:", run_once(&t), 0, 1, 1, 1);

        /* header and checksum right, binary garbage: the driver must refuse it */
        for (size_t i = 40; i < n_orig; i++) bad_bytes[i] = (unsigned char)(i * 131u + 7u);
        uint64_t sum = fnv1a(bad_bytes + 40, n_orig - 40);
        memcpy(bad_bytes + 32, &sum, 8);
        write_file(path, bad_bytes, n_orig);
        expect("valid checksum, garbage binary:", run_once(&t), 0, 1, 1, 1);
        expect("after the rebuild:", run_once(&t), 1, 0, 0, 0);
        free(bad_bytes);
    }
    free(orig);
    unlink(path);
    unlink(stale);
    rmdir(dir);
    return CC_TEST_RESULT();
}
