/* program.c — the opencl backend's programs: the table of template instantiations
 * (one program each, so a run compiles only the dtypes and variants it uses), building
 * them once per context, and the disk cache of built binaries that makes later runs skip
 * compilation. (PoCL compiles every kernel of a program when its binary is asked for, so
 * a first build costs about a second per program there; a cached one, milliseconds.)
 *
 * Cache entries live in the cache folder (cc_ocl_cache_dir) as
 * opencl-<program>-<device tag>-<key>.bin, where the key is a 64-bit FNV-1a hash of the
 * platform, the device, the driver version, the build options and the full program
 * source, and the device tag a hash of the platform and device names: when a program is
 * compiled and stored, the same program's older entries for that device (another key:
 * the sources, driver or options changed) are deleted. A file is
 * a 40-byte header (magic "CCOCLBIN", format version, key, binary size, FNV-1a checksum
 * of the binary) followed by the binary from CL_PROGRAM_BINARIES. On load the header,
 * the key and the checksum are verified and clBuildProgram must accept the binary; an
 * entry failing any of that is deleted, counted as corrupt and rebuilt from source.
 * Entries are written to a temporary file and renamed, so concurrent workers never see
 * half-written files. The cache is an optimisation: when its folder cannot be used the
 * programs are simply compiled from source.
 *
 * Programs that compute in double (the f64 copies: fp64 in the table) carry kernels/fp64.cl
 * after common.cl and are built only for a device with cl_khr_fp64; asked for one on
 * another device, cc_ocl_program refuses it (CC_ERR_UNSUPPORTED), and no other program
 * names that type, so such a device still builds all the rest. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ocl.h"

/* ---- what each program is made of -------------------------------------------------- */

/* A program: common.cl (and fp64.cl where fp64 is set), then a block of #defines
 * instantiating one template file. */
typedef struct program_def {
    const char *name;
    const char *defs;
    const char *file;
    int fp64;           /* 1: computes in double, built only where the device has cl_khr_fp64 */
} program_def;

#define F32 "#define S f32\n"
#define F16 "#define S f16\n"
#define BF16 "#define S bf16\n"
#define T32 "#define TS 32\n#define WPT 2\n"
#define T64 "#define TS 64\n#define WPT 4\n"
#define V8 "#define RM 8\n#define VN 8\n"
#define V16 "#define RM 8\n#define VN 16\n"
#define Q8(s, a, b) "#define S " s "\n#define TA " a "\n#define TB " b "\n" T64 V16

static const program_def programs[] = {
    { "eltwise_f32", F32, "eltwise_float.cl" },
    { "eltwise_f16", F16, "eltwise_float.cl" },
    { "eltwise_bf16", BF16, "eltwise_float.cl" },
    { "eltwise_i8", "#define S i8\n", "eltwise_int.cl" },
    { "eltwise_u8", "#define S u8\n", "eltwise_int.cl" },
    { "eltwise_i32", "#define S i32\n", "eltwise_int.cl" },
    { "eltwise_i64", "#define S i64\n", "eltwise_int.cl" },
    { "eltwise_i16", "#define S i16\n", "eltwise_int.cl" },
    { "eltwise_u16", "#define S u16\n", "eltwise_int.cl" },
    { "eltwise_u32", "#define S u32\n", "eltwise_int.cl" },
    { "eltwise_u64", "#define S u64\n", "eltwise_int.cl" },
    { "eltwise_f64", "#define S f64\n", "eltwise_f64.cl", 1 },
    { "logic_f32", F32 "#define LOGIC_FLOAT\n", "eltwise_logic.cl" },
    { "logic_f16", F16 "#define LOGIC_FLOAT\n", "eltwise_logic.cl" },
    { "logic_bf16", BF16 "#define LOGIC_FLOAT\n", "eltwise_logic.cl" },
    { "logic_i8", "#define S i8\n", "eltwise_logic.cl" },
    { "logic_u8", "#define S u8\n", "eltwise_logic.cl" },
    { "logic_i32", "#define S i32\n", "eltwise_logic.cl" },
    { "logic_i64", "#define S i64\n", "eltwise_logic.cl" },
    { "logic_u16", "#define S u16\n", "eltwise_logic.cl" },
    { "logic_u32", "#define S u32\n", "eltwise_logic.cl" },
    { "logic_u64", "#define S u64\n", "eltwise_logic.cl" },
    { "gemm_naive_f32", F32, "gemm_naive.cl" },
    { "gemm_naive_f16", F16, "gemm_naive.cl" },
    { "gemm_naive_bf16", BF16, "gemm_naive.cl" },
    { "gemm_naive_f64", "#define S f64\n#define S_IS_F64\n", "gemm_naive.cl", 1 },
    { "gemm_t32_f32", F32 T32, "gemm_tiled.cl" },
    { "gemm_t32_f16", F16 T32, "gemm_tiled.cl" },
    { "gemm_t32_bf16", BF16 T32, "gemm_tiled.cl" },
    { "gemm_t64_f32", F32 T64, "gemm_tiled.cl" },
    { "gemm_t64_f16", F16 T64, "gemm_tiled.cl" },
    { "gemm_t64_bf16", BF16 T64, "gemm_tiled.cl" },
    { "gemm_v8x8_f32", F32 V8, "gemm_vec.cl" },
    { "gemm_v8x8_f16", F16 V8, "gemm_vec.cl" },
    { "gemm_v8x8_bf16", BF16 V8, "gemm_vec.cl" },
    { "gemm_v8x16_f32", F32 V16, "gemm_vec.cl" },
    { "gemm_v8x16_f16", F16 V16, "gemm_vec.cl" },
    { "gemm_v8x16_bf16", BF16 V16, "gemm_vec.cl" },
    { "gemm_dot_f32", F32, "gemm_dot.cl" },
    { "gemm_dot_f16", F16, "gemm_dot.cl" },
    { "gemm_dot_bf16", BF16, "gemm_dot.cl" },
    { "einsum_f32", F32 "#define S_IS_FLOAT\n", "einsum.cl" },
    { "einsum_f16", F16 "#define S_IS_FLOAT\n", "einsum.cl" },
    { "einsum_bf16", BF16 "#define S_IS_FLOAT\n", "einsum.cl" },
    { "einsum_i32", "#define S i32\n", "einsum.cl" },
    { "einsum_i64", "#define S i64\n", "einsum.cl" },
    { "einsum_i16", "#define S i16\n", "einsum.cl" },
    { "einsum_u16", "#define S u16\n", "einsum.cl" },
    { "einsum_u32", "#define S u32\n", "einsum.cl" },
    { "einsum_u64", "#define S u64\n", "einsum.cl" },
    { "einsum_f64", "#define S f64\n#define S_IS_FLOAT\n", "einsum.cl", 1 },
    { "q8_i8i8", Q8("i8i8", "char", "char"), "gemm_q8.cl" },
    { "q8_i8u8", Q8("i8u8", "char", "uchar"), "gemm_q8.cl" },
    { "q8_u8i8", Q8("u8i8", "uchar", "char"), "gemm_q8.cl" },
    { "q8_u8u8", Q8("u8u8", "uchar", "uchar"), "gemm_q8.cl" },
    { "im2col_u8", "#define S u8\n", "im2col.cl" },
    { "im2col_u16", "#define S u16\n", "im2col.cl" },
    { "im2col_u32", "#define S u32\n", "im2col.cl" },
    { "conv_direct_f32", F32, "conv_direct.cl" },
    { "conv_direct_f16", F16, "conv_direct.cl" },
    { "conv_direct_bf16", BF16, "conv_direct.cl" },
    { "pool_f32", F32, "pool.cl" },
    { "pool_f16", F16, "pool.cl" },
    { "pool_bf16", BF16, "pool.cl" },
    { "pool_i8", "#define S i8\n", "pool.cl" },
    { "pool_u8", "#define S u8\n", "pool.cl" },
    { "reduce_f32", F32 "#define S_IS_FLOAT\n", "reduce.cl" },
    { "reduce_f16", F16 "#define S_IS_FLOAT\n", "reduce.cl" },
    { "reduce_bf16", BF16 "#define S_IS_FLOAT\n", "reduce.cl" },
    { "reduce_i8", "#define S i8\n", "reduce.cl" },
    { "reduce_u8", "#define S u8\n", "reduce.cl" },
    { "reduce_i32", "#define S i32\n", "reduce.cl" },
    { "reduce_i64", "#define S i64\n", "reduce.cl" },
    { "reduce_f64", "#define S f64\n#define S_IS_FLOAT\n#define S_IS_F64\n", "reduce.cl", 1 },
    { "quant_u8", "#define S u8\n", "quant.cl" },
    { "quant_i8", "#define S i8\n", "quant.cl" },
    { "quant_i32", "#define S i32\n", "quant.cl" },
    { "copy_u8", "#define S u8\n", "copy.cl" },
    { "copy_u16", "#define S u16\n", "copy.cl" },
    { "copy_u32", "#define S u32\n", "copy.cl" },
    { "copy_u64", "#define S u64\n", "copy.cl" },
    { "cast_f32", F32 "#define S_IS_FLOAT\n", "cast.cl" },
    { "cast_f16", F16 "#define S_IS_FLOAT\n", "cast.cl" },
    { "cast_bf16", BF16 "#define S_IS_FLOAT\n", "cast.cl" },
    { "cast_i8", "#define S i8\n", "cast.cl" },
    { "cast_u8", "#define S u8\n", "cast.cl" },
    { "cast_i32", "#define S i32\n", "cast.cl" },
    { "cast_i64", "#define S i64\n", "cast.cl" },
    { "cast_i16", "#define S i16\n", "cast.cl" },
    { "cast_u16", "#define S u16\n", "cast.cl" },
    { "cast_u32", "#define S u32\n", "cast.cl" },
    { "cast_u64", "#define S u64\n#define S_IS_U64\n", "cast.cl" },
    { "cast_f64", "#define S f64\n", "cast_f64.cl", 1 },
    { "axis_f32", F32 "#define S_IS_FLOAT\n", "axis.cl" },
    { "axis_f16", F16 "#define S_IS_FLOAT\n", "axis.cl" },
    { "axis_bf16", BF16 "#define S_IS_FLOAT\n", "axis.cl" },
    { "axis_i8", "#define S i8\n", "axis.cl" },
    { "axis_u8", "#define S u8\n", "axis.cl" },
    { "axis_i32", "#define S i32\n", "axis.cl" },
    { "axis_i64", "#define S i64\n", "axis.cl" },
    { "axis_i16", "#define S i16\n", "axis.cl" },
    { "axis_u16", "#define S u16\n", "axis.cl" },
    { "axis_u32", "#define S u32\n", "axis.cl" },
    { "axis_u64", "#define S u64\n", "axis.cl" },
    { "axis_f64", "#define S f64\n#define S_IS_FLOAT\n", "axis.cl", 1 },
    { "gather_u8", "#define S u8\n", "gather.cl" },
    { "gather_u16", "#define S u16\n", "gather.cl" },
    { "gather_u32", "#define S u32\n", "gather.cl" },
    { "gather_u64", "#define S u64\n", "gather.cl" },
    { "resize_f32", F32, "resize.cl" },
    { "resize_f16", F16, "resize.cl" },
    { "resize_bf16", BF16, "resize.cl" },
    { "resize_i8", "#define S i8\n", "resize.cl" },
    { "resize_u8", "#define S u8\n", "resize.cl" },
};

#define N_PROGRAMS ((int)(sizeof programs / sizeof programs[0]))
_Static_assert(sizeof programs / sizeof programs[0] <= OCL_MAX_PROGRAMS, "raise OCL_MAX_PROGRAMS");

const char *cc_ocl_program_name(int i)
{
    return i >= 0 && i < N_PROGRAMS ? programs[i].name : NULL;
}

static int program_index(const char *name)
{
    for (int i = 0; i < N_PROGRAMS; i++)
        if (strcmp(programs[i].name, name) == 0) return i;
    return -1;
}

int cc_ocl_program_fp64(int i)
{
    return i >= 0 && i < N_PROGRAMS && programs[i].fp64;
}

static const char *source_text(const char *file)
{
    for (int i = 0; i < cc_ocl_n_sources; i++)
        if (strcmp(cc_ocl_sources[i].name, file) == 0) return cc_ocl_sources[i].text;
    return NULL;
}

/* The full source of program i (malloc'd): common.cl, the formulas the backends share
 * (targets/eltwise_formulas.h), fp64.cl for a program that computes in double, the
 * #defines, the template. */
static cc_status program_source(int i, char **out, cc_err *err)
{
    const program_def *d = &programs[i];
    const char *common = source_text("common.cl"), *t = source_text(d->file);
    const char *formulas = source_text("eltwise_formulas.h");
    const char *fp64 = d->fp64 ? source_text("fp64.cl") : "";
    if (!common || !t || !formulas || !fp64)
        return cc_err_set(err, CC_ERR_INTERNAL, "opencl: kernel file %s is not embedded",
                          !common ? "common.cl" : !formulas ? "eltwise_formulas.h" : !fp64 ? "fp64.cl" : d->file);
    size_t len = strlen(common) + strlen(formulas) + strlen(fp64) + strlen(d->defs) + strlen(t) + 5;
    char *s = malloc(len);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory for program source");
    snprintf(s, len, "%s\n%s\n%s\n%s%s\n", common, formulas, fp64, d->defs, t);
    *out = s;
    return CC_OK;
}

cc_status cc_ocl_program_source(int i, char **out, cc_err *err)
{
    if (i < 0 || i >= N_PROGRAMS) return cc_err_set(err, CC_ERR_ARG, "opencl: no program %d", i);
    return program_source(i, out, err);
}

/* ---- hashing ------------------------------------------------------------------------- */

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

#define FNV_BASIS 0xcbf29ce484222325ull

static uint64_t fnv1a_str(uint64_t h, const char *s)
{
    h = fnv1a(h, s, strlen(s));
    return fnv1a(h, "\n", 1); /* a separator, so ("ab","c") and ("a","bc") differ */
}

static uint64_t program_key(const ocl_ctx *c, const char *source)
{
    uint64_t h = fnv1a_str(FNV_BASIS, "crosscheck opencl program cache v1");
    h = fnv1a_str(h, c->platform_name);
    h = fnv1a_str(h, c->platform_version);
    h = fnv1a_str(h, c->device_name);
    h = fnv1a_str(h, c->device_version);
    h = fnv1a_str(h, c->driver_version);
    h = fnv1a_str(h, c->options);
    return fnv1a_str(h, source);
}

/* ---- cache folder ---------------------------------------------------------------------- */

void cc_ocl_cache_dir(char *buf, size_t n)
{
    const char *env = getenv("CROSSCHECK_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (env && env[0]) snprintf(buf, n, "%s", env);
    else if (xdg && xdg[0]) snprintf(buf, n, "%s/crosscheck", xdg);
    else if (home && home[0]) snprintf(buf, n, "%s/.cache/crosscheck", home);
    else if (n) buf[0] = '\0';
}

/* The device tag in entry names: a hash of the platform and device names only, so that
 * entries of one device whose key changed (new sources, driver or options) can be found
 * and removed, while other devices' entries in the same folder are left alone. */
static uint32_t device_tag(const ocl_ctx *c)
{
    uint64_t h = fnv1a_str(FNV_BASIS, c->platform_name);
    h = fnv1a_str(h, c->device_name);
    return (uint32_t)(h ^ (h >> 32));
}

/* "<dir>/opencl-<program>-<device tag>-" : the part of an entry name before the key. */
static void cache_prefix(const ocl_ctx *c, int prog, char *buf, size_t n)
{
    snprintf(buf, n, "opencl-%s-%08x-", programs[prog].name, (unsigned)device_tag(c));
}

static void cache_file_name(const ocl_ctx *c, int prog, uint64_t key, char *buf, size_t n)
{
    char prefix[96];
    cache_prefix(c, prog, prefix, sizeof prefix);
    snprintf(buf, n, "%s/%s%016llx.bin", c->cache_dir, prefix, (unsigned long long)key);
}

/* Deletes the entries of program prog for this device other than `keep` (a full path):
 * left behind when the kernel sources, the driver or the build options changed. */
static void cache_prune(const ocl_ctx *c, int prog, const char *keep)
{
    char prefix[96], path[1300];
    cache_prefix(c, prog, prefix, sizeof prefix);
    DIR *dir = opendir(c->cache_dir);
    if (!dir) return;
    size_t len = strlen(prefix);
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        if (strncmp(de->d_name, prefix, len) != 0 || strstr(de->d_name, ".tmp.")) continue;
        snprintf(path, sizeof path, "%s/%s", c->cache_dir, de->d_name);
        if (strcmp(path, keep) != 0) unlink(path);
    }
    closedir(dir);
}

cc_status cc_ocl_cache_path(ocl_ctx *c, const char *program, char *buf, size_t n, cc_err *err)
{
    int prog = program_index(program);
    if (prog < 0) return cc_err_set(err, CC_ERR_ARG, "opencl: no program '%s'", program);
    if (!c->cache_dir[0]) return cc_err_set(err, CC_ERR_IO, "opencl: no usable cache folder");
    char *src = NULL;
    cc_status st = program_source(prog, &src, err);
    if (st) return st;
    cache_file_name(c, prog, program_key(c, src), buf, n);
    free(src);
    return CC_OK;
}

/* ---- cache entries ---------------------------------------------------------------------- */

#define CACHE_MAGIC "CCOCLBIN"
#define CACHE_FORMAT 1u
#define CACHE_HEADER 40
#define CACHE_MAX_BINARY ((uint64_t)1 << 30)

typedef struct cache_header {
    char magic[8];
    uint32_t format, reserved;
    uint64_t key, size, checksum;
} cache_header;

static void header_encode(const cache_header *h, unsigned char *b)
{
    memcpy(b, h->magic, 8);
    memcpy(b + 8, &h->format, 4);
    memcpy(b + 12, &h->reserved, 4);
    memcpy(b + 16, &h->key, 8);
    memcpy(b + 24, &h->size, 8);
    memcpy(b + 32, &h->checksum, 8);
}

static void header_decode(const unsigned char *b, cache_header *h)
{
    memcpy(h->magic, b, 8);
    memcpy(&h->format, b + 8, 4);
    memcpy(&h->reserved, b + 12, 4);
    memcpy(&h->key, b + 16, 8);
    memcpy(&h->size, b + 24, 8);
    memcpy(&h->checksum, b + 32, 8);
}

/* Loads and builds the entry at path. Returns 1 (built from the cache), 0 (no entry) or
 * -1 (the entry was damaged or refused: deleted). */
static int cache_load(ocl_ctx *c, const char *path, uint64_t key, cl_program *out)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    unsigned char hb[CACHE_HEADER];
    unsigned char *bin = NULL;
    cl_program p = NULL;
    cache_header h;
    int ok = fread(hb, 1, sizeof hb, f) == sizeof hb;
    if (ok) {
        header_decode(hb, &h);
        ok = memcmp(h.magic, CACHE_MAGIC, 8) == 0 && h.format == CACHE_FORMAT && h.key == key &&
             h.size > 0 && h.size <= CACHE_MAX_BINARY;
    }
    if (ok) {
        bin = malloc((size_t)h.size);
        ok = bin && fread(bin, 1, (size_t)h.size, f) == (size_t)h.size && fgetc(f) == EOF &&
             fnv1a(FNV_BASIS, bin, (size_t)h.size) == h.checksum;
    }
    fclose(f);
    if (ok) {
        size_t size = (size_t)h.size;
        const unsigned char *bins[1] = { bin };
        cl_int bin_status = CL_SUCCESS, e = CL_SUCCESS;
        p = clCreateProgramWithBinary(c->context, 1, &c->device, &size, bins, &bin_status, &e);
        ok = p && e == CL_SUCCESS && bin_status == CL_SUCCESS;
        if (ok) ok = clBuildProgram(p, 1, &c->device, c->options, NULL, NULL) == CL_SUCCESS;
    }
    free(bin);
    if (ok) {
        *out = p;
        return 1;
    }
    if (p) clReleaseProgram(p);
    unlink(path);
    c->cache.corrupt++;
    return -1;
}

/* Writes program p's binary to path (through a temporary file and a rename). Failures
 * leave no entry behind and are not errors: the cache is an optimisation. */
static void cache_store(ocl_ctx *c, const char *path, uint64_t key, cl_program p)
{
    size_t size = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS ||
        size == 0 || (uint64_t)size > CACHE_MAX_BINARY)
        return;
    unsigned char *bin = malloc(size);
    if (!bin) return;
    unsigned char *bins[1] = { bin };
    if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) != CL_SUCCESS) {
        free(bin);
        return;
    }
    cache_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, CACHE_MAGIC, 8);
    h.format = CACHE_FORMAT;
    h.key = key;
    h.size = size;
    h.checksum = fnv1a(FNV_BASIS, bin, size);
    unsigned char hb[CACHE_HEADER];
    header_encode(&h, hb);
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int ok = f != NULL;
    if (ok) ok = fwrite(hb, 1, sizeof hb, f) == sizeof hb && fwrite(bin, 1, size, f) == size;
    if (f && fclose(f) != 0) ok = 0;
    if (ok) ok = rename(tmp, path) == 0;
    if (!ok) unlink(tmp);
    else c->cache.stored++;
    free(bin);
}

/* ---- building ------------------------------------------------------------------------- */

/* The first lines of a build log that mention an error (else its start), on one line. */
static void log_summary(const char *log, char *buf, size_t n)
{
    const char *start = strstr(log, "error");
    if (start) {
        while (start > log && start[-1] != '\n') start--;
    } else {
        start = log;
    }
    size_t j = 0;
    int space = 0;
    for (const char *p = start; *p && j + 1 < n; p++) {
        char ch = *p == '\n' || *p == '\t' || *p == '\r' ? ' ' : *p;
        if (ch == ' ' && space) continue;
        space = ch == ' ';
        buf[j++] = ch;
    }
    if (n) buf[j] = '\0';
}

cc_status cc_ocl_build_source(ocl_ctx *c, const char *name, const char *src, cl_program *out, cc_err *err)
{
    cl_int e = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(c->context, 1, &src, NULL, &e);
    if (!p || e != CL_SUCCESS) return cc_ocl_fail(err, e, "clCreateProgramWithSource");
    e = clBuildProgram(p, 1, &c->device, c->options, NULL, NULL);
    if (e != CL_SUCCESS) {
        size_t n = 0;
        char summary[200] = "(no build log)";
        if (clGetProgramBuildInfo(p, c->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) == CL_SUCCESS && n > 1) {
            char *log = malloc(n + 1);
            if (log && clGetProgramBuildInfo(p, c->device, CL_PROGRAM_BUILD_LOG, n, log, NULL) == CL_SUCCESS) {
                log[n] = '\0';
                log_summary(log, summary, sizeof summary);
            }
            free(log);
        }
        clReleaseProgram(p);
        return cc_err_set(err, CC_ERR_DEVICE, "opencl: building program %s failed (%s): %s", name,
                          cc_ocl_error_name(e), summary);
    }
    *out = p;
    return CC_OK;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* mkdir -p; returns 0 when the folder exists afterwards. */
static int make_dirs(const char *path)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
    struct stat st;
    return stat(tmp, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

cc_status cc_ocl_program(ocl_ctx *c, const char *program, cl_program *out, cc_err *err)
{
    int prog = program_index(program);
    if (prog < 0) return cc_err_set(err, CC_ERR_INTERNAL, "opencl: no program '%s'", program);
    if (programs[prog].fp64 && !c->has_fp64)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "opencl: program %s computes in double: %s has no fp64 (cl_khr_fp64)",
                          program, c->device_name);
    if (c->programs[prog]) {
        *out = c->programs[prog];
        return CC_OK;
    }
    double t0 = now_seconds();
    char *src = NULL;
    cc_status st = program_source(prog, &src, err);
    if (st) return st;
    uint64_t key = program_key(c, src);
    char path[1200] = "";
    cl_program p = NULL;
    if (c->cache_dir[0] && make_dirs(c->cache_dir) == 0) {
        cache_file_name(c, prog, key, path, sizeof path);
        if (cache_load(c, path, key, &p) == 1) c->cache.loaded++;
    }
    if (!p) {
        st = cc_ocl_build_source(c, programs[prog].name, src, &p, err);
        if (st) {
            free(src);
            return st;
        }
        c->cache.built++;
        if (path[0]) {
            cache_store(c, path, key, p);
            cache_prune(c, prog, path);
        }
    }
    free(src);
    c->programs[prog] = p;
    c->build_seconds[prog] = now_seconds() - t0;
    *out = p;
    return CC_OK;
}
