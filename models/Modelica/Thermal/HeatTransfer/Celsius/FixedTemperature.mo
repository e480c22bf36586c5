within Modelica.Thermal.HeatTransfer.Celsius;
model FixedTemperature "Port held at a fixed temperature T given in degC"
  parameter SI.CelsiusTemperature T "Fixed temperature at the port [degC]";
  Interfaces.HeatPort_b port;
equation
  // 0 degC = 273.15 K (definition of the Celsius scale)
  port.T = T + 273.15;
end FixedTemperature;
