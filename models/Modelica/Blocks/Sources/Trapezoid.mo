within Modelica.Blocks.Sources;
block Trapezoid "Periodic trapezoid: rise, hold, fall, rest, from startTime"
  parameter Real amplitude = 1 "Height of the trapezoid";
  parameter SI.Time rising(final min=0) = 0 "Rise time";
  parameter SI.Time width(final min=0) = 0.5 "Time at full amplitude";
  parameter SI.Time falling(final min=0) = 0 "Fall time";
  parameter SI.Time period(final min=Modelica.Constants.small, start=1) "Period";
  parameter Integer nperiod = -1 "Number of periods (< 0: unlimited)";
  extends Interfaces.SignalSource;
protected
  parameter SI.Time T_rising = rising;
  parameter SI.Time T_width = T_rising + width "End of the hold phase within a period";
  parameter SI.Time T_falling = T_width + falling "End of the fall within a period";
  discrete SI.Time T_start "Start of the current period";
  discrete Integer count "Index of the current period";
initial equation
  count = integer((time - startTime)/period);
  T_start = startTime + count*period;
equation
  when integer((time - startTime)/period) > pre(count) then
    count = pre(count) + 1;
    T_start = time;
  end when;
  y = offset + (if time < startTime or nperiod == 0 or (nperiod > 0 and count >= nperiod) then 0
    else if time < T_start + T_rising then amplitude*(time - T_start)/T_rising
    else if time < T_start + T_width then amplitude
    else if time < T_start + T_falling then amplitude*(T_start + T_falling - time)/(T_falling - T_width)
    else 0);
end Trapezoid;
