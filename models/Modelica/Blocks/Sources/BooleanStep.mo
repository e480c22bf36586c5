within Modelica.Blocks.Sources;
block BooleanStep "Boolean step: startValue before startTime, its negation from startTime"
  parameter SI.Time startTime = 0 "Time of the step";
  parameter Boolean startValue = false "Output before startTime";
  extends Interfaces.BooleanSO;
equation
  y = if time >= startTime then not startValue else startValue;
end BooleanStep;
