// The simple friction element of the MSL friction documentation as a block
// (doc/benchmarks.md section 7): stuck while |sa| <= 1, sliding forward/backward otherwise.
block FrictionBlock
  parameter Real m = 1 "mass";
  parameter Real f0 = 1 "sliding friction force";
  parameter Real f1 = 0.1 "viscous coefficient";
  parameter Real U = 1.5 "amplitude of the driving force";
  parameter Real freq = 0.5 "frequency of the driving force";
  constant Integer Forward = 1, Stuck = 0, Backward = -1;
  Real x(start = 0, fixed = true);
  Real v(start = 0, fixed = true);
  Real a, f, sa, u;
  Boolean startFor(start = false, fixed = true);
  Boolean startBack(start = false, fixed = true);
  Integer mode(start = Stuck, fixed = true);
equation
  u = U*sin(2*Modelica.Constants.pi*freq*time);
  der(x) = v;
  a = der(v);
  m*der(v) = u - f;
  startFor = pre(mode) == Stuck and sa > 1;
  startBack = pre(mode) == Stuck and sa < -1;
  f = if pre(mode) == Forward or startFor then f0 + f1*v
      elseif pre(mode) == Backward or startBack then -f0 + f1*v
      else f0*sa;
  a = if pre(mode) == Forward or startFor then sa - 1
      elseif pre(mode) == Backward or startBack then sa + 1
      else 0;
  mode = if (pre(mode) == Forward or startFor) and v > 0 then Forward
         elseif (pre(mode) == Backward or startBack) and v < 0 then Backward
         else Stuck;
  annotation(experiment(StopTime = 10, Interval = 0.01));
end FrictionBlock;
