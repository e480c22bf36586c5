// Terms that evaluated zero parameters make 0, and the variables they define: c is 0 for
// every v, so i = c*der(v) + ... is no equation for der(v) and v is no state (v = sin(time)).
// Kept, der(v) = ((v - sin(time))/R - i)/c divided 0 by 0.
model StructuralZeros
  parameter Real C0 = 0 annotation(Evaluate = true);
  parameter Real tau = 0 annotation(Evaluate = true);
  parameter Real R = 2;
  Real v(start = 1);
  Real cj "zero through C0";
  Real c "zero through tau and cj";
  Real i;
equation
  cj = smooth(1, C0*(1 + v^2));
  c = noEvent(if v > 0 then tau*exp(v)/R + cj else -cj);
  i = c*der(v) + (v - sin(time))/R;
  i = 0;
end StructuralZeros;
