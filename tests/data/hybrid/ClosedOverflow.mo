// Two closed overflow ports joined by a pipe with a head c: with no flow the pipe's pressure
// is undetermined (a singular real part). A port opens when its s > 0; closed, s grows with
// the pressure above ambient. The least s values (s1 = -0.4, s2 = 0.2) open port 2; opened,
// it has no flow and closes again. Only pressures p1 <= pa - c keep both closed.
model ClosedOverflow
  parameter Real pa = 1 "ambient pressure";
  parameter Real c = 0.5 "head of the pipe: p2 - p1 at no flow";
  parameter Real k = 1 "friction of the pipe";
  parameter Real a = 1, b = 2 "how s grows with the pressure of a closed port";
  Boolean open1(start = false), open2(start = false);
  Real s1, s2, p1, p2, m1, m2;
  Real h(start = 0, fixed = true);
equation
  m1 + m2 = 0;
  p2 - p1 = c + k*m1;
  if open1 then
    p1 = pa;
    s1 = m1;
  else
    m1 = 0;
    s1 = (p1 - pa)*a;
  end if;
  if open2 then
    p2 = pa;
    s2 = m2;
  else
    m2 = 0;
    s2 = (p2 - pa)*b;
  end if;
  open1 = s1 > 0;
  open2 = s2 > 0;
  der(h) = p1;
  annotation(experiment(StopTime = 1));
end ClosedOverflow;
