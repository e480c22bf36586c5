within;
package Stiction "stiction's own Modelica classes beside the MSL-compatible subset: friction-law examples"
  import SI = Modelica.Units.SI;
  annotation (version="0.1", Documentation(info="<html>
<p>Classes of the stiction project itself (not part of the MSL): the friction-law selection
type and the stick-slip benchmark examples of doc/benchmarks.md, written in plain Modelica
equations so that the event-driven and the regularised laws run on the same system.</p>
</html>"));
end Stiction;
