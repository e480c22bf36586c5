within Modelica.Thermal.HeatTransfer.Interfaces;
partial model PartialElementaryConditionalHeatPort
  "Optional heat port that carries the loss power; a fixed temperature T when it is absent"
  parameter Boolean useHeatPort = false "true: the heat port is present"
    annotation (Evaluate=true, HideResult=true);
  parameter SI.Temperature T = 293.15 "Device temperature when useHeatPort = false";
  HeatPort_a heatPort(final T=TheatPort, final Q_flow=-lossPower) if useHeatPort
    "Losses flow out of this port";
  SI.Power lossPower "Loss power leaving the component as heat";
protected
  SI.Temperature TheatPort "Temperature of the heat port (or T without one)";
equation
  if not useHeatPort then
    TheatPort = T;
  end if;
end PartialElementaryConditionalHeatPort;
