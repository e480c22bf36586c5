within Modelica.Blocks.Sources;
block ExpSine "Exponentially damped sine wave from startTime"
  import Modelica.Constants.pi;
  parameter Real amplitude = 1 "Amplitude at startTime";
  parameter SI.Frequency f(start=2) "Frequency of the sine";
  parameter SI.Angle phase = 0 "Phase at startTime";
  parameter SI.Damping damping(start=1) "Decay rate of the amplitude";
  extends Interfaces.SignalSource;
equation
  y = offset + (if time < startTime then 0
    else amplitude*exp(-(time - startTime)*damping)*sin(2*pi*f*(time - startTime) + phase));
end ExpSine;
