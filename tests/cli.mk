# cli tests: check_PROGRAMS += tests/test_cli ; TESTS += tests/test_cli
