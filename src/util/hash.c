#include "util/hash.h"

void st_hash_init(st_hash *h) {
  h->a = 0xcbf29ce484222325ULL; /* the FNV-1a offset basis */
  h->b = 0x84222325cbf29ce4ULL; /* the same, halves swapped: an independent second sum */
}

void st_hash_add(st_hash *h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    h->a = (h->a ^ p[i]) * 0x100000001b3ULL;
    h->b = (h->b ^ p[i]) * 0x100000001b3ULL;
  }
  /* the length too, so that moving bytes between two parts changes the sum */
  uint64_t len = n;
  for (int i = 0; i < 8; i++) {
    h->a = (h->a ^ ((len >> (8 * i)) & 0xff)) * 0x100000001b3ULL;
    h->b = (h->b ^ ((len >> (8 * i)) & 0xff)) * 0x100000001b3ULL;
  }
}
