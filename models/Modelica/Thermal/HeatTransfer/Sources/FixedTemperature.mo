within Modelica.Thermal.HeatTransfer.Sources;
model FixedTemperature "Port held at a fixed temperature T"
  parameter SI.Temperature T "Fixed temperature at the port";
  Interfaces.HeatPort_b port;
equation
  port.T = T;
end FixedTemperature;
