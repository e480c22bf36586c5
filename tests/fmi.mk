# FMI 2.0 export: `stiction fmu` and the FMU's library, run by the test's own importer.
check_PROGRAMS += tests/test_fmu
tests_test_fmu_SOURCES = tests/test_fmu.c tests/testutil.h
tests_test_fmu_CFLAGS = $(TEST_CFLAGS) -pthread
tests_test_fmu_LDADD = $(TEST_LIBS) -ldl -lpthread
# the flat model saved in FMUs (front/flat_io.h): round trips, damaged and foreign files
check_PROGRAMS += tests/test_flat_io
