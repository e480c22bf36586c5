// Tuple equations and calls with named and default arguments (tests/test_lang.c).
// polar(x, y, scale) = (scale*sqrt(x^2 + y^2), atan2(y, x)).
model Tuple
  function polar "Radius and angle of (x, y), the radius scaled"
    input Real x;
    input Real y = 0;
    input Real scale = 1;
    output Real r;
    output Real phi;
  algorithm
    r := scale*sqrt(x^2 + y^2);
    phi := atan2(y, x);
  end polar;
  Real r "2 (radius of (cos t, sin t), scaled by 2)";
  Real phi "t";
  Real r2 "5: named arguments y = 3, x = 4, default scale";
  Real q "atan(t): second output only";
  Real z(start = 1) "z = |(z - 3, 4)|, so z = 25/6: Newton through the call";
  Real a, b "an algorithm tuple assignment: a = 2, b = t";
  Real x(start = 0, fixed = true) "der(x) = r2, x = 5 t";
equation
  (r, phi) = polar(cos(time), sin(time), scale = 2);
  (r2, ) = polar(y = 3, x = 4);
  (, q) = polar(1, time);
  (z, ) = polar(z - 3, 4);
  der(x) = r2;
algorithm
  (a, b) := polar(cos(time), sin(time), 2);
  annotation(experiment(StopTime = 3, Interval = 0.5));
end Tuple;
