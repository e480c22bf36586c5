# robustness: mutants of the examples found by tests/fuzz_models.py (not run by make check)
check_PROGRAMS += tests/test_robust
EXTRA_DIST += tests/fuzz_models.py
