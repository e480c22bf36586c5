// A chain of N connectors connected one to the next in a for-loop: each connect names one
// element of the array, so resolving it must not take memory for the whole array.
model ConnectChain
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  parameter Integer N = 10;
  Pin p[N];
  Real u;
equation
  for i in 1:N - 1 loop
    connect(p[i], p[i + 1]);
  end for;
  p[1].v = u;
  u = sin(time);
end ConnectChain;
