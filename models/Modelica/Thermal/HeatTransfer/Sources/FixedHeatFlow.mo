within Modelica.Thermal.HeatTransfer.Sources;
model FixedHeatFlow "Fixed heat flow into the connected component"
  parameter SI.HeatFlowRate Q_flow "Heat flow into the connected component";
  parameter SI.Temperature T_ref = 293.15 "Reference temperature";
  parameter SI.LinearTemperatureCoefficient alpha = 0 "Temperature coefficient of the heat flow";
  Interfaces.HeatPort_b port;
equation
  port.Q_flow = -Q_flow*(1 + alpha*(port.T - T_ref));
end FixedHeatFlow;
