/* Built into an archive by tests/test_extc.c (a Library found in LibraryDirectory). */
double extc_arch_twice(double x) { return 2 * x; }
