# friction tests: check_PROGRAMS += tests/test_friction ; TESTS += tests/test_friction
