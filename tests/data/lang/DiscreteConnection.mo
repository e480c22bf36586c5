// Connected Boolean and Integer signals: the connection equation d1 = d2 between two
// discrete variables determines whichever is not assigned elsewhere, and an initial
// equation pre(d) = value gives a discrete variable's value before the initial event.
model DiscreteConnection
  connector BooleanIn = input Boolean;
  connector BooleanOut = output Boolean;
  connector IntegerIn = input Integer;
  connector IntegerOut = output Integer;
  block Step
    BooleanOut y;
    IntegerOut m;
  equation
    y = time > 0.5;
    m = if y then 7 else 3;
  end Step;
  block Use
    BooleanIn u[2];
    IntegerIn i;
    Real z;
    Boolean rising;
  initial equation
    pre(u) = fill(true, 2);
  equation
    z = if u[1] then i else -i;
    rising = edge(u[2]);
  end Use;
  Step a, b;
  Use c;
equation
  connect(a.y, c.u[1]);
  connect(c.u[2], b.y);
  connect(c.i, a.m);
end DiscreteConnection;
