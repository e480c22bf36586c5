# TAMSI tests: limiter cases, solver scenarios of Drake's own tests (doc/tamsi.md, Tests), CLI and box demo.
check_PROGRAMS += tests/test_tamsi_limiter tests/test_tamsi_solver
check_PROGRAMS += tests/test_tamsi_box tests/test_tamsi_cli
