# io tests: writers and reader (test_io), the csv-compare tube rule (test_compare), and the
# plot/compare commands (test_io_cli).
check_PROGRAMS += tests/test_io
check_PROGRAMS += tests/test_compare
check_PROGRAMS += tests/test_io_cli
# test_io again with the portable digit conversion of shortest.c (no SSE2): the program's own
# copy of st_format_shortest comes before the library's in the link.
check_PROGRAMS += tests/test_io_scalar
tests_test_io_scalar_SOURCES = tests/test_io.c tests/testutil.h src/io/shortest.c
tests_test_io_scalar_CFLAGS = $(TEST_CFLAGS) -DST_SHORTEST_NO_SIMD
# Output files never destroy what they replace (util/outfile.h, the writers, the commands).
check_PROGRAMS += tests/test_outputs

