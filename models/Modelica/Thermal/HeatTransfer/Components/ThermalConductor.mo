within Modelica.Thermal.HeatTransfer.Components;
model ThermalConductor "Heat conduction without storage: Q_flow = G*dT"
  parameter SI.ThermalConductance G "Thermal conductance";
  SI.HeatFlowRate Q_flow "Heat flow from port_a to port_b";
  SI.TemperatureDifference dT "port_a.T - port_b.T";
  Interfaces.HeatPort_a port_a;
  Interfaces.HeatPort_b port_b;
equation
  dT = port_a.T - port_b.T;
  port_a.Q_flow = Q_flow;
  port_b.Q_flow = -Q_flow;
  Q_flow = G*dT;
end ThermalConductor;
