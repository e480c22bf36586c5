within Modelica.Blocks.Sources;
block Ramp "Linear ramp from offset to offset + height over duration, from startTime"
  parameter Real height = 1 "Height of the ramp";
  parameter SI.Time duration(min=0.0, start=2) "Time the ramp takes";
  extends Interfaces.SignalSource;
equation
  y = offset + (if time < startTime then 0
    else if time < startTime + duration then (time - startTime)*height/duration
    else height);
end Ramp;
