within Modelica.Thermal.HeatTransfer.Sources;
model PrescribedTemperature "Port temperature given by an input signal (in K)"
  Interfaces.HeatPort_b port;
  Modelica.Blocks.Interfaces.RealInput T(unit="K") "Temperature";
equation
  port.T = T;
end PrescribedTemperature;
