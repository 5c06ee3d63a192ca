/* cc.h — status codes and the caller-owned error record used by every module.
 *
 * Every fallible function returns a cc_status and takes a `cc_err *err` as its last
 * parameter; on failure it fills err (when err is non-NULL) with the code and a
 * one-line message and leaves its output parameters untouched. */
#ifndef CC_CC_H
#define CC_CC_H

#include <stddef.h>
#include <stdint.h>

typedef enum cc_status {
    CC_OK = 0,
    CC_ERR_ARG,          /* the caller's arguments or input data are wrong */
    CC_ERR_NOMEM,        /* an allocation failed */
    CC_ERR_UNSUPPORTED,  /* valid request, not implemented by this component */
    CC_ERR_DEVICE,       /* the device or its driver failed or is absent */
    CC_ERR_IO,           /* a file could not be read or written */
    CC_ERR_DB,           /* the results database failed */
    CC_ERR_ABI,          /* a backend's ABI version or struct size does not match */
    CC_ERR_INTERNAL      /* a bug in crosscheck itself */
} cc_status;

typedef struct cc_err {
    cc_status code;
    char msg[256];
} cc_err;

/* Copies src to dst (n bytes, NUL-terminated, cut at a whole character) with every control
 * character escaped (\n, \t, \r, \xNN), so that text from input (a case id, a file's
 * bytes) prints as one line and never reaches a terminal as an escape sequence. */
void cc_escape_controls(char *dst, size_t n, const char *src);

/* Fills err (if non-NULL) with code and a printf-formatted message, control characters
 * escaped (cc_escape_controls) so that it is one line; returns code. */
cc_status cc_err_set(cc_err *err, cc_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Resets err to CC_OK with an empty message. Accepts NULL. */
void cc_err_clear(cc_err *err);

/* Short stable name of a status ("arg", "nomem", ...). Never NULL. */
const char *cc_status_name(cc_status s);

#endif
