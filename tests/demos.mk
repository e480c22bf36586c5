# built-in demo models (src/demos) and `stiction demo`, against the benchmark reference numbers.
check_PROGRAMS += tests/test_demos
check_PROGRAMS += tests/test_demos_sim
check_PROGRAMS += tests/test_demos_cli
