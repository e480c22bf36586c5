# the Modelica library in models/: parses, flattens, and the MSL examples against the references.
