// cardinality() counts the connect-equations of a connector (also elements of connector
// arrays), known before the component's own equations; an if-expression whose condition is
// a for-index picks its branch (the other indexes out of range). Closed forms in
// test_lang_func.c: u[1] = 1 + 10 (one connection) ..., c0 = 0, c2 = 2.
package Cardinality
  connector In = input Real;
  connector Out = output Real;

  block Source
    Out y[2];
  equation
    y[1] = 10 * time;
    y[2] = 20 * time;
  end Source;

  block Sink
    In u[3];
    Real c[3];
    Real chain[3];
  equation
    for i in 1:3 loop
      c[i] = cardinality(u[i]);
      if cardinality(u[i]) == 0 then
        u[i] = -1;
      end if;
      chain[i] = if i == 1 then u[i] else chain[i - 1] + u[i];
    end for;
  end Sink;

  model Test
    Source s;
    Sink a, b;
    Real cy = cardinality(s.y[1]);
    Real z "an equation before the connections is translated once";
  equation
    z = 2 * time;
    connect(s.y[1], a.u[1]);
    connect(s.y[2], a.u[2]);
    connect(s.y[1], b.u[3]);
  end Test;
end Cardinality;
