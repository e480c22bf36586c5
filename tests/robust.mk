# robustness: bad input fails cleanly (mutants found by tests/fuzz_models.py, issue 21 crashes and hangs)
check_PROGRAMS += tests/test_robust
EXTRA_DIST += tests/fuzz_models.py
