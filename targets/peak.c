/* peak.c — the host CPU's FP32 peak, measured: a loop of independent fused multiply-adds
 * on the widest vectors the CPU has, on as many threads as the backend uses. Flops per
 * cycle are not assumed: AVX-512 is double-pumped on some cores (Zen 4 retires half of
 * Intel's 512-bit FMAs per cycle), clocks under a hypervisor are not what /proc/cpuinfo
 * says, and turbo depends on how many cores are busy. Measured once per process and
 * thread count.
 *
 * On a loaded machine a thread is preempted now and then; each thread therefore times
 * many short repetitions and keeps its fastest, and the peak is the sum over threads.
 * A repetition that ran undisturbed measures the core, not the load. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "target.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_X86 1
#endif

/* ACC independent chains per kernel: more than FMA latency x FMA pipes on current cores
 * (4 x 2), and few enough to stay in registers (32 zmm; 16 ymm with the two constants). */
enum { REPS = 12, ITERS = 200000, ACC = 16, ACC_AVX2 = 12 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile float sink;

#ifdef HAVE_X86
__attribute__((target("avx512f"))) static double fma_avx512(void)
{
    __m512 acc[ACC], a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
    for (int k = 0; k < ACC; k++) acc[k] = _mm512_set1_ps((float)k);
    for (long i = 0; i < ITERS; i++)
        for (int k = 0; k < ACC; k++) acc[k] = _mm512_fmadd_ps(acc[k], a, b);
    __m512 s = acc[0];
    for (int k = 1; k < ACC; k++) s = _mm512_add_ps(s, acc[k]);
    sink = _mm512_reduce_add_ps(s);
    return (double)ITERS * ACC * 16 * 2;
}

__attribute__((target("avx2,fma"))) static double fma_avx2(void)
{
    __m256 acc[ACC_AVX2], a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
    for (int k = 0; k < ACC_AVX2; k++) acc[k] = _mm256_set1_ps((float)k);
    for (long i = 0; i < ITERS; i++)
        for (int k = 0; k < ACC_AVX2; k++) acc[k] = _mm256_fmadd_ps(acc[k], a, b);
    __m256 s = acc[0];
    for (int k = 1; k < ACC_AVX2; k++) s = _mm256_add_ps(s, acc[k]);
    float f[8];
    _mm256_storeu_ps(f, s);
    sink = f[0] + f[7];
    return (double)ITERS * ACC_AVX2 * 8 * 2;
}
#endif

/* Plain C: a multiply and an add per element (the compiler may vectorise it). */
static double mul_add_c(void)
{
    float acc[ACC];
    for (int k = 0; k < ACC; k++) acc[k] = (float)k;
    for (long i = 0; i < ITERS; i++)
        for (int k = 0; k < ACC; k++) acc[k] = acc[k] * 0.999999f + 1e-7f;
    float s = 0;
    for (int k = 0; k < ACC; k++) s += acc[k];
    sink = s;
    return (double)ITERS * ACC * 2;
}

typedef double (*kernel_fn)(void);

static void pick(kernel_fn *fn, const char **name)
{
#ifdef HAVE_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        *fn = fma_avx512;
        *name = "AVX-512 FMA";
        return;
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        *fn = fma_avx2;
        *name = "AVX2 FMA";
        return;
    }
#endif
    *fn = mul_add_c;
    *name = "scalar C";
}

typedef struct probe_thread {
    kernel_fn fn;
    double best;   /* flops per second of the fastest repetition */
} probe_thread;

static void *probe_main(void *arg)
{
    probe_thread *p = arg;
    p->fn(); /* warm-up: clocks up, code and data in cache */
    for (int r = 0; r < REPS; r++) {
        double t = now();
        double flops = p->fn();
        double dt = now() - t;
        if (dt > 0 && flops / dt > p->best) p->best = flops / dt;
    }
    return NULL;
}

double cc_host_fp32_peak(int threads, char *source, size_t source_size)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static int cached_threads;
    static double cached;
    static char cached_source[96];
    if (threads < 1) threads = 1;
    if (threads > 256) threads = 256;
    pthread_mutex_lock(&lock);
    if (cached_threads != threads) {
        kernel_fn fn;
        const char *name;
        pick(&fn, &name);
        static probe_thread p[256];
        pthread_t tid[256];
        int started[256];
        memset(p, 0, sizeof p[0] * (size_t)threads);
        for (int i = 0; i < threads; i++) {
            p[i].fn = fn;
            started[i] = pthread_create(&tid[i], NULL, probe_main, &p[i]) == 0;
            if (!started[i]) probe_main(&p[i]);
        }
        double total = 0;
        for (int i = 0; i < threads; i++) {
            if (started[i]) pthread_join(tid[i], NULL);
            total += p[i].best;
        }
        cached = total * 1e-9;
        cached_threads = threads;
        snprintf(cached_source, sizeof cached_source, "measured: %s loop, %d thread%s", name, threads,
                 threads == 1 ? "" : "s");
    }
    double peak = cached;
    if (source && source_size) snprintf(source, source_size, "%s", cached_source);
    pthread_mutex_unlock(&lock);
    return peak;
}
