// The zero C0 drops the term C0*der(v), but an assert still reads der(v): v stays
// differentiated (index reduction computes der(v) = cos(time) from v = sin(time)) instead
// of becoming an algebraic variable whose derivative nothing computes.
model StructuralZeroReadDer
  parameter Real C0 = 0 annotation(Evaluate = true);
  parameter Real R = 2;
  Real v(start = 1);
  Real i;
equation
  i = C0*der(v) + (v - sin(time))/R;
  i = 0;
  assert(der(v) < 10, "v rises too fast");
end StructuralZeroReadDer;
