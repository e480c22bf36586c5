within Modelica.Thermal.HeatTransfer.Components;
model HeatCapacitor "Lumped heat capacity C: C*dT/dt = heat flow into the port"
  parameter SI.HeatCapacity C "Heat capacity";
  SI.Temperature T(start=293.15, displayUnit="degC") "Temperature of the element";
  SI.TemperatureSlope der_T(start=0) "Time derivative of T";
  Interfaces.HeatPort_a port;
equation
  T = port.T;
  der_T = der(T);
  C*der(T) = port.Q_flow;
end HeatCapacitor;
