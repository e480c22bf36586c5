// Two inertias coupled rigidly through phi2 = g(phi1) = 2 phi1, where g has a loop in its
// algorithm (so it cannot be inlined) and annotation(derivative = g_der); g_der has a loop too
// and its own derivative g_der2. Index reduction differentiates the constraint twice through
// the annotations (tests/test_lang.c). With tau = 3, J1 = 1, J2 = 0.5, the torque f on J2 and
// 2 f on J1: a1 = tau/(J1 + 4 J2) = 1, so phi1 = t^2/2, w1 = t, phi2 = t^2, w2 = 2t, f = 1.
// A nonlinear loop through cube (loop body, derivative cube_der): y^3 + y = (1 + 2t)^3 + 1 + 2t
// with y = 1 + 2t.
model IndexDerivative
  function g
    input Real u;
    output Real y;
  algorithm
    y := 0;
    for i in 1:2 loop
      y := y + u;
    end for;
    annotation(derivative = g_der);
  end g;
  function g_der
    input Real u;
    input Real du;
    output Real dy;
  algorithm
    dy := 0;
    for i in 1:2 loop
      dy := dy + du;
    end for;
    annotation(derivative(zeroDerivative = u) = g_der2);
  end g_der;
  function g_der2
    input Real u;
    input Real du;
    input Real ddu;
    output Real ddy;
  algorithm
    ddy := 0;
    for i in 1:2 loop
      ddy := ddy + ddu;
    end for;
  end g_der2;
  function cube
    input Real u;
    output Real y;
  algorithm
    y := 1;
    for i in 1:3 loop
      y := y*u;
    end for;
    annotation(derivative = cube_der);
  end cube;
  function cube_der
    input Real u;
    input Real du;
    output Real dy;
  algorithm
    dy := 3*u*u*du;
  end cube_der;
  parameter Real J1 = 1, J2 = 0.5, tau = 3;
  Real phi1(start = 0, fixed = true), w1(start = 0, fixed = true);
  Real phi2, w2, f;
  Real y(start = 1);
equation
  der(phi1) = w1;
  der(phi2) = w2;
  J1*der(w1) = tau - 2*f;
  J2*der(w2) = f;
  phi2 = g(phi1);
  cube(y) + y = 2 + 8*time + 12*time^2 + 8*time^3;
  annotation(experiment(StopTime = 2, Interval = 0.25, Tolerance = 1e-10));
end IndexDerivative;
