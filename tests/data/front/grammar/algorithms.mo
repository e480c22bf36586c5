function Algorithms "every kind of statement"
  input Real u[:];
  input Integer n = size(u, 1);
  output Real y;
  output Real z[2] = {0, 0};
protected
  Integer i;
  Real tmp[:, :];
  Boolean done;
algorithm
  y := 0;
  z[1] := u[1] "assignment with description";
  (y, z) := twoOutputs(u);
  (, z) := twoOutputs(u);
  (y, ) := twoOutputs(u);
  () := sideEffect(u);
  print("side effect");
  Modelica.Utilities.Streams.print(String(y, significantDigits = 3));
  for k in 1:n loop
    y := y + u[k];
    if y > 10 then
      break;
    elseif y < -10 then
      return;
    else
      z[2] := z[2] + 1;
    end if;
  end for;
  for k in 1:n, m in 1:2 loop
    tmp[k, m] := u[k] * m;
  end for;
  i := 0;
  while i < n and not done loop
    i := i + 1;
    done := u[i] > 0;
  end while;
  if done then
  end if;
  when initial() then
    y := 1;
  elsewhen terminal() then
    y := 2;
  end when;
initial algorithm
  y := 0;
algorithm
  assert(n > 0, "empty input");
  annotation(Inline = false, smoothOrder = 2);
end Algorithms;
