/* host.c — buffer helpers for backends whose memory is the host's (ref, cpu): a buffer is
 * a 64-byte aligned block and upload/download are copies. */
#include <stdlib.h>
#include <string.h>

#include "target.h"

cc_status cc_host_buffer_alloc(void *ctx, size_t bytes, void **buf, cc_err *err)
{
    (void)ctx;
    size_t padded = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, padded ? padded : 64);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "out of memory allocating %zu bytes", bytes);
    *buf = p;
    return CC_OK;
}

void cc_host_buffer_free(void *ctx, void *buf)
{
    (void)ctx;
    free(buf);
}

cc_status cc_host_upload(void *ctx, void *buf, const void *src, size_t bytes, cc_err *err)
{
    (void)ctx;
    (void)err;
    memcpy(buf, src, bytes);
    return CC_OK;
}

cc_status cc_host_download(void *ctx, const void *buf, void *dst, size_t bytes, cc_err *err)
{
    (void)ctx;
    (void)err;
    memcpy(dst, buf, bytes);
    return CC_OK;
}

cc_status cc_host_sync(void *ctx, cc_err *err)
{
    (void)ctx;
    (void)err;
    return CC_OK;
}
