// One connection set of N + 1 pins (tests/test_compile_cli.c large_connection_set): its flow
// sum has N + 1 terms and the compiler asks its coefficient of each of them; that must stay
// linear per question (it was a walk of the sum at every level: N^3 over the set).
// The conductances are k = 1 .. N, so the source delivers s.p.i = -N (N + 1) / 2 * sin(time).
model ConnectionSet
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  model Conductance
    parameter Real g = 1;
    Pin p;
  equation
    p.i = g * p.v;
  end Conductance;
  model Source
    Pin p;
  equation
    p.v = sin(time);
  end Source;
  parameter Integer N = 10;
  Conductance c[N](g = {k for k in 1:N});
  Source s;
equation
  connect(s.p, c[1].p);
  for k in 1:N - 1 loop
    connect(c[k].p, c[k + 1].p);
  end for;
end ConnectionSet;
