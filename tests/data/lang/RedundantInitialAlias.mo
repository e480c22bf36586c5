// An initial equation on a variable that an equation makes equal to a parameter
// (a pipe's first pressure, connected to a boundary's pressure, with `p = p_start` among
// its initial equations): consistent, it is redundant and checked, not counted against the
// free states; x(t) = 2 - exp(-t) from x(0) = 1.
model RedundantInitialAlias
  parameter Real p0 = 2;
  parameter Real y0 = 2 "the initial value asked for y";
  Real x;
  Real y;
initial equation
  x = 1;
  y = y0;
equation
  y = p0;
  der(x) = y - x;
end RedundantInitialAlias;
