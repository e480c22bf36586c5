# TAMSI tests.
