/* Shared by the libFuzzer harnesses: hands an input to APIs that take a path without writing
 * any file. The bytes go into an anonymous memory file (memfd_create) that is read back as
 * /proc/self/fd/N; each call makes a new one and the caller closes it after the run, so
 * nothing outlives one input. */
#ifndef ST_FUZZ_UTIL_H
#define ST_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* Returns the descriptor (close it when done) and the path in path[0..size), or -1. */
static inline int st_fuzz_memfile(const uint8_t *data, size_t len, char *path, size_t size) {
  int fd = memfd_create("stiction-fuzz", MFD_CLOEXEC);
  if (fd < 0) return -1;
  size_t done = 0;
  while (done < len) {
    ssize_t n = write(fd, data + done, len - done);
    if (n <= 0) {
      close(fd);
      return -1;
    }
    done += (size_t)n;
  }
  snprintf(path, size, "/proc/self/fd/%d", fd);
  return fd;
}

#endif
