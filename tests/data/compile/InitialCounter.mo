model InitialCounter
  "A period counter like Blocks.Sources.Pulse: the initial equations give the when-assigned
   count and T_start their start values (count = -1, T_start = -1.0 at t = 0); the counter
   then advances at t = 0.3 and t = 1.6"
  parameter Real period = 1.3;
  parameter Real startTime = 0.3;
  parameter Real width = 0.65;
  Real x(start = 0, fixed = true);
  discrete Integer count;
  discrete Real T_start;
  Real y;
initial equation
  count = integer((time - startTime)/period);
  T_start = startTime + count*period;
equation
  der(x) = 1;
  when integer((time - startTime)/period) > pre(count) then
    count = pre(count) + 1;
    T_start = time;
  end when;
  y = if time < T_start + width then 1 else 0;
end InitialCounter;
