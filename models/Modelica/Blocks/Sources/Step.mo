within Modelica.Blocks.Sources;
block Step "Step of given height at startTime (a time event)"
  parameter Real height = 1 "Height of the step";
  extends Interfaces.SignalSource;
equation
  y = offset + (if time < startTime then 0 else height);
end Step;
