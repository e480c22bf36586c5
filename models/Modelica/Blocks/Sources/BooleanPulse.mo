within Modelica.Blocks.Sources;
block BooleanPulse "Boolean pulse train: true during width % of every period, from startTime"
  parameter Real width(final min=Modelica.Constants.small, final max=100) = 50
    "Pulse width in % of the period";
  parameter SI.Time period(final min=Modelica.Constants.small, start=1) "Period";
  parameter SI.Time startTime = 0 "Start of the first pulse";
  extends Interfaces.BooleanSO;
protected
  parameter SI.Time Twidth = period*width/100 "Pulse duration";
  discrete SI.Time pulseStart "Start of the current period";
  discrete Integer count "Index of the current period";
initial equation
  count = integer((time - startTime)/period);
  pulseStart = startTime + count*period;
equation
  when integer((time - startTime)/period) > pre(count) then
    count = pre(count) + 1;
    pulseStart = time;
  end when;
  y = time >= startTime and time < pulseStart + Twidth;
end BooleanPulse;
