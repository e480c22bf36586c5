# leine-belt-smooth and `stiction study` (issue 6): benchmark periods and the CLI table.
check_PROGRAMS += tests/test_study
