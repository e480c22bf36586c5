# the Modelica library in models/: parses, flattens, and the MSL examples against the references.
check_PROGRAMS += tests/test_library

# every component of issue 5's list in small models with closed forms (tests/data/library/).
check_PROGRAMS += tests/test_library_parts
