within Modelica.Mechanics.Translational.Sources;
model EddyCurrentForce "Eddy current brake: force peaks at v_nominal, losses to an optional heat port"
  extends Translational.Interfaces.PartialForce;
  parameter SI.Force f_nominal "Largest force (at v_nominal; negative brakes)";
  parameter SI.Velocity v_nominal(min=Modelica.Constants.eps) "Speed of the largest force";
  parameter SI.Temperature TRef(start=293.15) "Reference temperature of the resistance";
  parameter SI.LinearTemperatureCoefficient alpha20(start=0)
    "Temperature coefficient of the resistance at 20 degC";
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPort;
  SI.Velocity v "Velocity of the flange relative to the support";
  Real v_normalized "Speed over the (temperature-corrected) nominal speed";
equation
  v = der(s);
  v_normalized = v/(v_nominal*(1 + alpha20*(TheatPort - TRef)));
  f = 2*f_nominal*v_normalized/(1 + v_normalized*v_normalized);
  lossPower = -f*v;
end EddyCurrentForce;
