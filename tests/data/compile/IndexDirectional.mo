// Index reduction through functions that have neither annotation(derivative = ...) nor a body
// of plain assignments, so it differentiates them by their directional derivative (forward
// mode through the body; tests/test_lang.c):
// - pair(u) returns a record: a = 2 u through an if statement, b = cubeLoop(u), n an Integer;
// - cubeLoop(u) = u^3 by a for loop;
// - poly(u) = 3 u^3 calls cubeLoop in a while loop.
// Rigid coupling phi2 = p.a, p = pair(phi1), as in IndexDerivative.mo (differentiated twice): with
// tau = 3, J1 = 1, J2 = 0.5: phi1 = t^2/2, w1 = t, phi2 = t^2, w2 = 2 t, f = 1. And
// yc = pair(1 + t).b, z = poly(t) with their der(): dy = 3 (1 + t)^2, dz = 9 t^2.
model IndexDirectional
  record St
    Real a;
    Real b;
    Integer n;
  end St;
  function cubeLoop
    input Real u;
    output Real y;
  algorithm
    y := 1;
    for i in 1:3 loop
      y := y*u;
    end for;
  end cubeLoop;
  function pair
    input Real u;
    output St s;
  algorithm
    if u > -1e10 then
      s.a := 2*u;
    else
      s.a := 0;
    end if;
    s.b := cubeLoop(u);
    s.n := 1;
  end pair;
  function poly
    input Real u;
    output Real y;
  protected
    Integer k;
  algorithm
    y := 0;
    k := 0;
    while k < 2 loop
      k := k + 1;
      y := y + k*cubeLoop(u);
    end while;
  end poly;
  parameter Real J1 = 1, J2 = 0.5, tau = 3;
  Real phi1(start = 0, fixed = true), w1(start = 0, fixed = true);
  Real phi2, w2, f;
  St p, s;
  Real yc, z, dy, dz;
equation
  der(phi1) = w1;
  der(phi2) = w2;
  J1*der(w1) = tau - 2*f;
  J2*der(w2) = f;
  p = pair(phi1);
  phi2 = p.a;
  s = pair(1 + time);
  yc = s.b;
  dy = der(yc);
  z = poly(time);
  dz = der(z);
  annotation(experiment(StopTime = 2, Interval = 0.25, Tolerance = 1e-10));
end IndexDirectional;
