within Modelica.Mechanics.Rotational.Sources;
model LinearSpeedDependentTorque "Torque proportional to the speed"
  extends Rotational.Interfaces.PartialTorque;
  parameter SI.Torque tau_nominal "Torque at w_nominal (negative brakes a forward motion)";
  parameter Boolean TorqueDirection = true
    "true: the same direction in both directions of rotation (|w|), false: odd in w";
  parameter SI.AngularVelocity w_nominal(min=Modelica.Constants.eps) "Nominal speed";
  SI.AngularVelocity w "Speed of the flange relative to the support";
  SI.Torque tau "Accelerating torque acting at the flange (= -flange.tau)";
equation
  w = der(phi);
  tau = -flange.tau;
  tau = if TorqueDirection then tau_nominal*abs(w/w_nominal) else tau_nominal*(w/w_nominal);
end LinearSpeedDependentTorque;
