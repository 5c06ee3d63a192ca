/* fuzz_npy.c — libFuzzer target for the .npy reader (harness/lib/npy.h): each input, as a
 * file, is read by cc_npy_read. Nothing may crash, leak or trip a sanitizer; a refusal is
 * one line; a tensor read holds as many elements as its shape says. Seeds:
 * harness/fuzz/corpus/npy/; run with scripts/fuzz.sh npy SECONDS. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/fuzz/fuzz_input.h"
#include "harness/lib/npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_path(data, size);
    cc_tensor t;
    cc_err err = { 0 };
    cc_status st = cc_npy_read(path, &t, &err);
    if (st != CC_OK) {
        fuzz_check_message("cc_npy_read", err.msg);
        return 0;
    }
    /* the data must be readable to its last byte, and no larger than the input */
    size_t bytes = (size_t)cc_tensor_bytes(&t);
    if (bytes > size * 2 + 64 || (bytes > 0 && !t.data)) {
        fprintf(stderr, "fuzz: cc_npy_read made %zu bytes of tensor from %zu bytes of input\n", bytes, size);
        abort();
    }
    volatile unsigned char sink = 0;
    for (size_t i = 0; i < bytes; i++) sink ^= ((const unsigned char *)t.data)[i];
    (void)sink;
    cc_tensor_free(&t);
    return 0;
}
