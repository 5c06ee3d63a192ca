/* fuzz_input.h — what every libFuzzer target of crosscheck shares: the input as a file, and
 * the one-line check on the messages the project returns.
 *
 * The readers under test take a path, so each input's bytes go to one memfd per process
 * (made on first use, resized and rewritten per input) that the reader opens as
 * /proc/self/fd/N: nothing touches the file system, and the reader sees exactly the
 * input's bytes. The fuzzer's own trouble (no memfd) aborts, so it is never mistaken for
 * a clean run. */
#ifndef CC_FUZZ_INPUT_H
#define CC_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

/* The path of a file that holds exactly data[0..size). Valid until the next call. */
static inline const char *fuzz_input_path(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("crosscheck-fuzz-input", MFD_CLOEXEC);
        if (fd < 0) {
            perror("fuzz: memfd_create");
            abort();
        }
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, (off_t)size) != 0) {
        perror("fuzz: ftruncate");
        abort();
    }
    for (size_t off = 0; off < size;) {
        ssize_t w = pwrite(fd, data + off, size - off, (off_t)off);
        if (w <= 0) {
            perror("fuzz: pwrite");
            abort();
        }
        off += (size_t)w;
    }
    return path;
}

/* Aborts, so that the fuzzer keeps the input, when a message returned by the code under
 * test breaks the project's rule that every message is one non-empty line with its
 * control characters escaped (README: "Every message is one line"). */
static inline void fuzz_check_message(const char *who, const char *msg)
{
    const char *why = NULL;
    if (!msg || !msg[0]) why = "an empty message";
    for (const unsigned char *p = (const unsigned char *)msg; !why && *p; p++)
        if (*p == '\n') why = "a multi-line message";
        else if (*p < 0x20 || *p == 0x7f) why = "a message with an unescaped control character";
    if (!why) return;
    fprintf(stderr, "fuzz: %s returned %s: \"%s\"\n", who, why, msg ? msg : "(null)");
    abort();
}

#endif
