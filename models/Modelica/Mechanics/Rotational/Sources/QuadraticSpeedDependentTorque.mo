within Modelica.Mechanics.Rotational.Sources;
model QuadraticSpeedDependentTorque "Torque proportional to the square of the speed"
  extends Rotational.Interfaces.PartialTorque;
  parameter SI.Torque tau_nominal "Torque at w_nominal (negative brakes a forward motion)";
  parameter Boolean TorqueDirection = true
    "true: the same direction in both directions of rotation, false: signed square (odd in w)";
  parameter SI.AngularVelocity w_nominal(min=Modelica.Constants.eps) "Nominal speed";
  SI.AngularVelocity w "Speed of the flange relative to the support";
  SI.Torque tau "Accelerating torque acting at the flange (= -flange.tau)";
equation
  w = der(phi);
  tau = -flange.tau;
  tau = if TorqueDirection then tau_nominal*(w/w_nominal)^2
    else tau_nominal*smooth(1, if w >= 0 then (w/w_nominal)^2 else -(w/w_nominal)^2);
end QuadraticSpeedDependentTorque;
