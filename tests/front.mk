# front tests: check_PROGRAMS += tests/test_front ; TESTS += tests/test_front
