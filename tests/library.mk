# the Modelica library in models/: parses, flattens, and the MSL examples against the references.
check_PROGRAMS += tests/test_library

# every component of issue 5's list in small models with closed forms (tests/data/library/).
check_PROGRAMS += tests/test_library_parts

# `make check-msl MSL=DIR REFS=DIR [PACKAGES='Modelica.Blocks ...']`: every example of the
# genuine library that has a reference folder under REFS, simulated and checked against the
# reference (scripts/check-msl); not part of `make check`, skipped without MSL and REFS. The
# default packages are those issue 15 asks to run (Clocked, Fluid, Media, MultiBody: add them).
CHECK_MSL_PACKAGES = Modelica.Blocks Modelica.ComplexBlocks Modelica.Math Modelica.Utilities \
	Modelica.Mechanics.Rotational Modelica.Mechanics.Translational Modelica.Electrical.Analog \
	Modelica.Electrical.Digital Modelica.Electrical.Spice3 Modelica.Electrical.Batteries \
	Modelica.Electrical.Machines Modelica.Electrical.PowerConverters Modelica.Electrical.Polyphase \
	Modelica.Electrical.QuasiStatic Modelica.Magnetic.FluxTubes Modelica.Magnetic.FundamentalWave \
	Modelica.Magnetic.QuasiStatic Modelica.Thermal.HeatTransfer Modelica.Thermal.FluidHeatFlow \
	Modelica.StateGraph
PACKAGES = $(CHECK_MSL_PACKAGES)
check-msl: stiction$(EXEEXT)
	@if test -z '$(MSL)' || test -z '$(REFS)'; then \
	  echo "check-msl: skipped (give MSL=DIR, the library's folder, and REFS=DIR, its reference results)"; \
	else \
	  $(SHELL) '$(srcdir)/scripts/check-msl' ./stiction$(EXEEXT) '$(MSL)' '$(REFS)' $(PACKAGES); \
	fi
.PHONY: check-msl
