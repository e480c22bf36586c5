within Modelica.Mechanics.Rotational.Sources;
model EddyCurrentTorque "Eddy current brake: torque peaks at w_nominal, losses to an optional heat port"
  extends Rotational.Interfaces.PartialTorque;
  parameter SI.Torque tau_nominal "Largest torque (at w_nominal; negative brakes)";
  parameter SI.AngularVelocity w_nominal(min=Modelica.Constants.eps) "Speed of the largest torque";
  parameter SI.Temperature TRef(start=293.15) "Reference temperature of the resistance";
  parameter SI.LinearTemperatureCoefficient alpha20(start=0)
    "Temperature coefficient of the resistance at 20 degC";
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPort;
  SI.AngularVelocity w "Speed of the flange relative to the support";
  SI.Torque tau "Accelerating torque acting at the flange (= -flange.tau)";
  Real w_normalized "Speed over the (temperature-corrected) nominal speed";
equation
  w = der(phi);
  tau = -flange.tau;
  // the speed of the largest torque grows with the resistance of the material
  w_normalized = w/(w_nominal*(1 + alpha20*(TheatPort - TRef)));
  tau = 2*tau_nominal*w_normalized/(1 + w_normalized*w_normalized);
  lossPower = -tau*w;
end EddyCurrentTorque;
