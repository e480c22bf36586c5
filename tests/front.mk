# front tests, first half: the Modelica parser (grammar corpus in tests/data/front/grammar,
# AST spot checks, robustness on broken input, `stiction parse`).
check_PROGRAMS += tests/test_parse
