/* The command's heap on a transparent huge page (Linux with glibc; elsewhere nothing).
 *
 * Why: a short run's process time was dominated by first touches of memory. On the
 * paravirtualized machines this project is measured on, a 4 KiB page fault costs about
 * 17 us (perf stat on a program touching 1000 fresh pages: 19.2 ms against 2.0 ms for none),
 * and CoupledClutches touches about 240 heap pages (1 MB: flat model, compiled programs,
 * solver memory) -- some 4 ms of its process time. One 2 MiB huge page, faulted once, costs
 * about 0.3 ms (the same program with MADV_HUGEPAGE: 2.07 ms for 512 pages).
 *
 * How: glibc's malloc takes memory from one contiguous brk heap. Its large blocks are
 * kept on that heap (no mmap per block), the heap is never trimmed and grows 4 MiB at a
 * time (address space only: untouched pages cost nothing); the next 2 MiB-aligned stretch
 * of it is marked MADV_HUGEPAGE, and a filler block that is never written to (only its
 * header) takes the heap up to it, so that the blocks allocated afterwards lie on it.
 * tests/test_heap.c checks the placement and that the kernel backs it with a huge page.
 * Any step that does not go as expected leaves the heap as it is: memory is still correct,
 * only the faults are not saved. */
#include "cli/commands.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#define ST_HUGE_PAGE ((uintptr_t)2 << 20)

void *st_cli_heap_setup(void) {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  if (!mallopt(M_MMAP_THRESHOLD, 64 << 20) || !mallopt(M_TRIM_THRESHOLD, 256 << 20) ||
      !mallopt(M_TOP_PAD, 4 << 20))
    return NULL;
  /* The huge page must be marked before anything is written into its range (a 4 KiB page
   * there would pin the range to small pages), so a first block reaching past the next
   * 2 MiB boundary by 2 MiB grows the heap -- malloc writes only at a block's two ends --
   * and is freed after the madvise, back into the top of the heap. */
  void *reach = malloc(2 * ST_HUGE_PAGE + 4096);
  if (!reach) return NULL;
  uintptr_t p = (uintptr_t)reach;
  uintptr_t a = (p + ST_HUGE_PAGE - 1) & ~(ST_HUGE_PAGE - 1);
  if (a - p < 4096) a += ST_HUGE_PAGE;
  int marked = madvise((void *)a, ST_HUGE_PAGE, MADV_HUGEPAGE) == 0;
  free(reach);
  if (!marked) return NULL;
  /* glibc: a block's header is the 16 bytes before it and its size n + 8 rounded up to a
   * multiple of 16, so a block of n = a - p + 8 bytes at p ends where the next header starts
   * at a: the blocks taken from the top of the heap afterwards lie on the huge page. The
   * filler is never written to but for its header and stays allocated (address space only).
   * Anywhere else (another allocator, a free block that fitted) it is given back. */
  void *filler = malloc(a - p + 8);
  if ((uintptr_t)filler == p) return (void *)a;
  free(filler);
#endif
  return NULL;
}
