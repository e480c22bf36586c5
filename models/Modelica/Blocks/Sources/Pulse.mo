within Modelica.Blocks.Sources;
block Pulse "Rectangular pulse train: amplitude during width % of every period, from startTime"
  parameter Real amplitude = 1 "Height of the pulses";
  parameter Real width(final min=Modelica.Constants.small, final max=100) = 50
    "Pulse width in % of the period";
  parameter SI.Time period(final min=Modelica.Constants.small, start=1) "Period of the pulses";
  parameter Integer nperiod = -1 "Number of periods (< 0: unlimited)";
  extends Interfaces.SignalSource;
protected
  parameter SI.Time T_width = period*width/100 "Pulse duration";
  discrete SI.Time T_start "Start of the current period";
  discrete Integer count "Index of the current period";
initial equation
  // the period the start lies in (negative before startTime)
  count = integer((time - startTime)/period);
  T_start = startTime + count*period;
equation
  // a new period begins when the period index computed from time passes the stored one
  when integer((time - startTime)/period) > pre(count) then
    count = pre(count) + 1;
    T_start = time;
  end when;
  y = offset + (if time < startTime or nperiod == 0 or (nperiod > 0 and count >= nperiod) then 0
    else if time < T_start + T_width then amplitude else 0);
end Pulse;
