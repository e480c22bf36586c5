within Modelica.Thermal.HeatTransfer.Interfaces;
partial model PartialElementaryConditionalHeatPortWithoutT
  "Optional heat port that carries the loss power (the losses do not depend on temperature)"
  parameter Boolean useHeatPort = false "true: the heat port is present"
    annotation (Evaluate=true, HideResult=true);
  HeatPort_a heatPort(final Q_flow=-lossPower) if useHeatPort "Losses flow out of this port";
  SI.Power lossPower "Loss power leaving the component as heat";
end PartialElementaryConditionalHeatPortWithoutT;
