/* rng.h — the deterministic random generator behind every generated input.
 * xoshiro256** seeded through splitmix64: the same seed gives the same bits everywhere. */
#ifndef CC_RNG_H
#define CC_RNG_H

#include <stdint.h>

typedef struct cc_rng {
    uint64_t s[4];
} cc_rng;

void cc_rng_seed(cc_rng *r, uint64_t seed);
uint64_t cc_rng_next(cc_rng *r);
/* Uniform double in [0, 1). */
double cc_rng_uniform(cc_rng *r);
/* Uniform integer in [lo, hi] (inclusive). */
int64_t cc_rng_int(cc_rng *r, int64_t lo, int64_t hi);
/* Standard normal (Box-Muller). */
double cc_rng_normal(cc_rng *r);
/* 64-bit FNV-1a hash of a string, for deriving per-case seeds. */
uint64_t cc_hash_str(const char *s);

#endif
