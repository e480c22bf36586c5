within Modelica.Blocks.Sources;
block Sine "Sine wave: offset + amplitude*sin(2*pi*f*(t - startTime) + phase) from startTime"
  import Modelica.Constants.pi;
  parameter Real amplitude = 1 "Amplitude of the sine";
  parameter SI.Frequency f(start=1) "Frequency of the sine";
  parameter SI.Angle phase = 0 "Phase at startTime";
  extends Interfaces.SignalSource;
equation
  y = offset + (if time < startTime then 0 else amplitude*sin(2*pi*f*(time - startTime) + phase));
end Sine;
