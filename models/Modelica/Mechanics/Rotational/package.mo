within Modelica.Mechanics;
package Rotational "1-dimensional rotational mechanics with friction elements (subset)"
  import Modelica.Units.SI;
  annotation (Documentation(info="<html>
<p>stiction's own implementation of a subset of Modelica.Mechanics.Rotational (MSL 4.0 names
and equations). The friction elements (BearingFriction, Clutch, Brake) share the
stuck/forward/backward state machine of Interfaces.PartialFriction; OneWayClutch and LossyGear
have their own machines (doc/library.md).</p>
</html>"));
end Rotational;
