# io tests: check_PROGRAMS += tests/test_io ; TESTS += tests/test_io
