within Modelica.Mechanics.Rotational.Sources;
model ConstantTorque "Constant torque, independent of speed"
  extends Rotational.Interfaces.PartialTorque;
  parameter SI.Torque tau_constant "Constant torque (positive accelerates the flange)";
  SI.AngularVelocity w "Speed of the flange relative to the support";
  SI.Torque tau "Accelerating torque acting at the flange (= -flange.tau)";
equation
  w = der(phi);
  tau = -flange.tau;
  tau = tau_constant;
end ConstantTorque;
