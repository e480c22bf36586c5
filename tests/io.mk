# io tests: writers and reader (test_io), the csv-compare tube rule (test_compare), and the
# plot/compare commands (test_io_cli).
check_PROGRAMS += tests/test_io
TESTS += tests/test_io
tests_test_io_SOURCES = tests/test_io.c tests/testutil.h
tests_test_io_CFLAGS = $(TEST_CFLAGS)
tests_test_io_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_compare
TESTS += tests/test_compare
tests_test_compare_SOURCES = tests/test_compare.c tests/testutil.h
tests_test_compare_CFLAGS = $(TEST_CFLAGS)
tests_test_compare_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_io_cli
TESTS += tests/test_io_cli
tests_test_io_cli_SOURCES = tests/test_io_cli.c tests/testutil.h
tests_test_io_cli_CFLAGS = $(TEST_CFLAGS)
tests_test_io_cli_LDADD = $(TEST_LIBS)
# test_io again with the portable digit conversion of shortest.c (no SSE2): the program's own
# copy of st_format_shortest comes before the library's in the link.
check_PROGRAMS += tests/test_io_scalar
TESTS += tests/test_io_scalar
tests_test_io_scalar_SOURCES = tests/test_io.c tests/testutil.h src/io/shortest.c
tests_test_io_scalar_CFLAGS = $(TEST_CFLAGS) -DST_SHORTEST_NO_SIMD
tests_test_io_scalar_LDADD = $(TEST_LIBS)
# Output files never destroy what they replace (util/outfile.h, the writers, the commands).
check_PROGRAMS += tests/test_outputs
TESTS += tests/test_outputs
tests_test_outputs_SOURCES = tests/test_outputs.c tests/testutil.h
tests_test_outputs_CFLAGS = $(TEST_CFLAGS)
tests_test_outputs_LDADD = $(TEST_LIBS)
