within Modelica.Mechanics.Translational.Sources;
model QuadraticSpeedDependentForce "Force proportional to the square of the speed"
  extends Translational.Interfaces.PartialForce;
  parameter SI.Force f_nominal "Force at v_nominal (negative brakes a forward motion)";
  parameter Boolean ForceDirection = true
    "true: the same direction in both directions of motion, false: signed square (odd in v)";
  parameter SI.Velocity v_nominal(min=Modelica.Constants.eps) "Nominal speed";
  SI.Velocity v "Velocity of the flange relative to the support";
equation
  v = der(s);
  f = if ForceDirection then f_nominal*(v/v_nominal)^2
    else f_nominal*smooth(1, if v >= 0 then (v/v_nominal)^2 else -(v/v_nominal)^2);
end QuadraticSpeedDependentForce;
