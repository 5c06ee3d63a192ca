/* cctest.h — the few assertion macros every unit test uses. A failed CHECK prints
 * file:line and the expression and makes the test exit 1; CC_TEST_SKIP exits 77, which
 * ctest shows as skipped. */
#ifndef CC_CCTEST_H
#define CC_CCTEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int cc_test_failures;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);  \
            cc_test_failures++;                                                       \
        }                                                                             \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                          \
    do {                                                                               \
        double _a = (a), _b = (b), _t = (tol);                                         \
        if (!(fabs(_a - _b) <= _t)) {                                                  \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g, tol %g\n", \
                    __FILE__, __LINE__, #a, _a, #b, _b, _t);                           \
            cc_test_failures++;                                                        \
        }                                                                              \
    } while (0)

#define CHECK_OK(expr)                                                                 \
    do {                                                                               \
        cc_err _e = {0};                                                               \
        cc_status _s = (expr);                                                         \
        (void)_e;                                                                      \
        if (_s != CC_OK) {                                                             \
            fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #expr, (int)_s); \
            cc_test_failures++;                                                        \
        }                                                                              \
    } while (0)

#define CC_TEST_SKIP(why)                                                              \
    do {                                                                               \
        printf("skipped: %s\n", why);                                                  \
        exit(77);                                                                      \
    } while (0)

#define CC_TEST_RESULT() (cc_test_failures ? (fprintf(stderr, "%d check(s) failed\n", cc_test_failures), 1) : 0)

#endif
