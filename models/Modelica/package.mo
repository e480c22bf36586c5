within;
package Modelica "stiction's own implementation of a subset of the Modelica Standard Library 4.0"
  annotation (version="4.0.0", Documentation(info="<html>
<p>This is <b>not</b> the Modelica Standard Library. It is stiction's own, independently
written implementation of a small subset of it: the class paths, parameter names, defaults
and equations follow MSL 4.0 so that models (and the MSL friction examples) written against
the MSL run unchanged, but every class here was written from stiction's own description of the
MSL's friction elements (doc/library.md), not copied from the MSL text.</p>
<p>Contents: Units.SI, Constants, Icons, Math (table interpolation), Blocks (interfaces,
sources, math), Mechanics.Rotational and Mechanics.Translational (components, sources,
friction elements with the stuck/forward/backward state machine, examples) and the basic
Thermal.HeatTransfer classes needed for optional heat ports.</p>
</html>"));
end Modelica;
