within Modelica.Mechanics;
package Translational "1-dimensional translational mechanics with friction elements (subset)"
  import Modelica.Units.SI;
  annotation (Documentation(info="<html>
<p>stiction's own implementation of a subset of Modelica.Mechanics.Translational (MSL 4.0
names and equations). SupportFriction and Brake use Interfaces.PartialFriction;
MassWithStopAndFriction has the same machine plus hard stops (doc/library.md).</p>
</html>"));
end Translational;
