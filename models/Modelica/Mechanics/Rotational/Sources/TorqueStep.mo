within Modelica.Mechanics.Rotational.Sources;
model TorqueStep "Constant torque with a step at startTime"
  extends Rotational.Interfaces.PartialTorque;
  parameter SI.Torque stepTorque(start=1) "Height of the torque step";
  parameter SI.Torque offsetTorque(start=0) "Torque before the step";
  parameter SI.Time startTime = 0 "Time of the step";
  SI.AngularVelocity w "Speed of the flange relative to the support";
  SI.Torque tau "Accelerating torque acting at the flange (= -flange.tau)";
equation
  w = der(phi);
  tau = -flange.tau;
  tau = offsetTorque + (if time < startTime then 0 else stepTorque);
end TorqueStep;
