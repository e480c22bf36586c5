# compile tests: check_PROGRAMS += tests/test_compile ; TESTS += tests/test_compile
