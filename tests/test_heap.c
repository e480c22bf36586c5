/* The command's heap on a transparent huge page (src/cli/heap.c): blocks allocated after the
 * set-up lie in the 2 MiB stretch it returns, and where the kernel offers transparent huge
 * pages on request, touching that stretch maps one huge page (AnonHugePages in smaps) rather
 * than 4 KiB pages one fault at a time. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"

#if defined(__SANITIZE_ADDRESS__)
#define ST_OTHER_MALLOC 1 /* the sanitizer's allocator: the set-up must step back */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ST_OTHER_MALLOC 1
#endif
#endif
#ifndef ST_OTHER_MALLOC
#define ST_OTHER_MALLOC 0
#endif

/* THP "always" or "madvise": a MADV_HUGEPAGE range gets huge pages on fault. */
static int thp_on_request(void) {
  FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  char line[128] = "";
  if (!f) return 0;
  if (!fgets(line, sizeof line, f)) line[0] = 0;
  fclose(f);
  return strstr(line, "[always]") || strstr(line, "[madvise]");
}

/* kB of AnonHugePages of the mapping that contains addr (/proc/self/smaps), or -1. */
static long anon_huge_kb(uintptr_t addr) {
  FILE *f = fopen("/proc/self/smaps", "r");
  char line[512];
  int inside = 0;
  long kb = -1;
  while (f && fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
      inside = addr >= lo && addr < hi;
    else if (inside && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
      break;
  }
  if (f) fclose(f);
  return kb;
}

START_TEST(blocks_after_setup_lie_on_a_huge_page) {
#if defined(__linux__) && defined(__GLIBC__)
  char *huge = st_cli_heap_setup();
  if (ST_OTHER_MALLOC) {
    ck_assert_ptr_null(huge);
    return;
  }
  ck_assert_ptr_nonnull(huge);
  ck_assert_uint_eq((uintptr_t)huge % (2u << 20), 0);
  /* larger than any free block left by the test harness: taken from the top of the heap */
  char *b = malloc(300000);
  ck_assert_ptr_nonnull(b);
  ck_assert_msg(b >= huge && b + 300000 <= huge + (2u << 20), "block %p, stretch %p", (void *)b,
                (void *)huge);
  memset(b, 1, 300000);
  if (thp_on_request()) ck_assert_int_eq(anon_huge_kb((uintptr_t)b), 2048);
  free(b);
#endif
}
END_TEST

int main(void) {
  Suite *s = suite_create("heap");
  TCase *tc = tcase_create("heap");
  tcase_add_test(tc, blocks_after_setup_lie_on_a_huge_page);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
