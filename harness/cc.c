/* cc.c — status names and error-record helpers. */
#include "cc.h"

#include <stdarg.h>
#include <stdio.h>

cc_status cc_err_set(cc_err *err, cc_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

void cc_err_clear(cc_err *err)
{
    if (err) {
        err->code = CC_OK;
        err->msg[0] = '\0';
    }
}

const char *cc_status_name(cc_status s)
{
    switch (s) {
    case CC_OK: return "ok";
    case CC_ERR_ARG: return "arg";
    case CC_ERR_NOMEM: return "nomem";
    case CC_ERR_UNSUPPORTED: return "unsupported";
    case CC_ERR_DEVICE: return "device";
    case CC_ERR_IO: return "io";
    case CC_ERR_DB: return "db";
    case CC_ERR_ABI: return "abi";
    case CC_ERR_INTERNAL: return "internal";
    }
    return "unknown";
}
