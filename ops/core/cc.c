/* cc.c — status names and error-record helpers. */
#include "cc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void cc_escape_controls(char *dst, size_t n, const char *src)
{
    if (!n) return;
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)src; *p; p++) {
        char esc[8];
        if (*p == '\n') snprintf(esc, sizeof esc, "\\n");
        else if (*p == '\t') snprintf(esc, sizeof esc, "\\t");
        else if (*p == '\r') snprintf(esc, sizeof esc, "\\r");
        else if (*p < 0x20 || *p == 0x7f) snprintf(esc, sizeof esc, "\\x%02x", *p);
        else esc[0] = (char)*p, esc[1] = '\0';
        size_t k = strlen(esc);
        if (o + k >= n) break;
        memcpy(dst + o, esc, k);
        o += k;
    }
    dst[o] = '\0';
}

cc_status cc_err_set(cc_err *err, cc_status code, const char *fmt, ...)
{
    if (err) {
        char raw[1024];
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        cc_escape_controls(err->msg, sizeof err->msg, raw);
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
