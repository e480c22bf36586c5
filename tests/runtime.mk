# runtime tests: check_PROGRAMS += tests/test_runtime ; TESTS += tests/test_runtime
