within Modelica.Thermal.HeatTransfer.Components;
model Convection "Convection between a solid and a fluid with input conductance Gc"
  SI.HeatFlowRate Q_flow "Heat flow from solid to fluid";
  SI.TemperatureDifference dT "solid.T - fluid.T";
  Modelica.Blocks.Interfaces.RealInput Gc(unit="W/K") "Convective thermal conductance";
  Interfaces.HeatPort_a solid;
  Interfaces.HeatPort_b fluid;
equation
  dT = solid.T - fluid.T;
  solid.Q_flow = Q_flow;
  fluid.Q_flow = -Q_flow;
  Q_flow = Gc*dT;
end Convection;
