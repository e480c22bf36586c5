// An input whose default is a call returning an array (a quaternion's from_T with
// Q_guess = nullRotation()): left out in a model, in a parameter binding, a time-varying
// equation and an array result, and given explicitly for comparison.
model DefaultCallArgument
  function unitY
    output Real u[2];
  algorithm
    u := {0, 1};
  end unitY;
  function scaled
    input Real a;
    input Real u[2] = unitY();
    output Real y;
  algorithm
    y := a*u[2] + u[1];
  end scaled;
  function both
    input Real a;
    input Real u[2] = unitY();
    output Real y[2];
  algorithm
    y := a*u + {1, 0};
  end both;
  parameter Real p = scaled(3);
  Real x = scaled(time + 2);
  Real y[2] = both(time);
  Real given = scaled(time + 2, {1, 2});
  Real z(start = 0, fixed = true);
equation
  der(z) = p;
end DefaultCallArgument;
