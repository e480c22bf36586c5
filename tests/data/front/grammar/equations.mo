model Equations "every kind of equation"
  parameter Integer n = 4;
  Real x[n](each start = 1), y, z;
  Boolean stuck(start = true);
  Integer count;
  Flange a, b, c[n];
initial equation
  y = 0;
  pre(count) = 0;
equation
  // simple equations, including a tuple and a string comment
  der(x) = -x "decay";
  y + z = 2 annotation(__stiction_note = "comment with annotation");
  (y, z) = twoOutputs(x[1]);
  // if-equation with elseif and else
  if n > 3 then
    z = 1;
  elseif n == 3 then
    z = 2;
  elseif n < 0 then
    z = 3;
  else
    z = 4;
  end if;
  if stuck then
  end if;
  // for-equations, nested, with implicit range and several indices
  for i in 1:n loop
    for j in 1:2:i loop
    end for;
  end for;
  for i loop
    c[i].phi = x[i];
  end for;
  for i in 1:n, j in {1, 2} loop
  end for;
  // connections
  connect(a, b);
  connect(a, c[1]) annotation(Line(points = {{-60, 0}, {-40, 0}}, color = {0, 0, 0}));
  for i in 1:n - 1 loop
    connect(c[i], c[i + 1]);
  end for;
  connect(bus.signal[2], .Global.port);
  // when-equations with elsewhen, reinit, pre, edge, change
  when {y > 1, sample(0, 0.1)} then
    count = pre(count) + 1;
    reinit(x[1], 0);
  elsewhen edge(stuck) then
    count = 0;
  elsewhen change(y > 2) and initial() then
    terminate("done");
  end when;
  // function-call equations
  assert(y > -1, "y out of range: " + String(y), level = AssertionLevel.warning);
  Modelica.Utilities.Streams.print("message");
  stuck = noEvent(abs(der(y)) < 1e-6) "with description";
end Equations;
