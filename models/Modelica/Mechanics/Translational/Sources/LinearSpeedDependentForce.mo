within Modelica.Mechanics.Translational.Sources;
model LinearSpeedDependentForce "Force proportional to the speed"
  extends Translational.Interfaces.PartialForce;
  parameter SI.Force f_nominal "Force at v_nominal (negative brakes a forward motion)";
  parameter Boolean ForceDirection = true
    "true: the same direction in both directions of motion (|v|), false: odd in v";
  parameter SI.Velocity v_nominal(min=Modelica.Constants.eps) "Nominal speed";
  SI.Velocity v "Velocity of the flange relative to the support";
equation
  v = der(s);
  f = if ForceDirection then f_nominal*abs(v/v_nominal) else f_nominal*(v/v_nominal);
end LinearSpeedDependentForce;
