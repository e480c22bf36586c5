// Eight RC stages, each charging through a diode in series with a resistor: per stage a
// nonlinear loop (the diode's current through a function call, torn by the compiler), and
// each stage's capacitor feeds the next. A column group of a difference-quotient Jacobian
// that moves one capacitor voltage reaches its stage and the next one only (partial.c).
model DiodeLadder
  function diode "Shockley diode current"
    input Real v;
    input Real Is;
    input Real Vt;
    output Real i;
  algorithm
    i := Is * (exp(v / Vt) - 1);
  end diode;
  parameter Integer n = 8;
  parameter Real R = 100;
  parameter Real C = 1e-6;
  parameter Real Is = 1e-12;
  parameter Real Vt = 0.025;
  Real u[n](each start = 0, each fixed = true) "capacitor voltages";
  Real vd[n] "diode voltages";
  Real i[n] "stage currents";
  Real src = 1 + 0.5 * sin(1000 * time);
equation
  vd[1] + R * i[1] = src - u[1];
  for k in 2:n loop
    vd[k] + R * i[k] = u[k - 1] - u[k];
  end for;
  for k in 1:n loop
    i[k] = diode(vd[k], Is, Vt);
    C * der(u[k]) = i[k] - (if k < n then i[k + 1] else 0) - u[k] / 1e4;
  end for;
end DiodeLadder;
