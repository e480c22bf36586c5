package StationaryStart
  function loss "A loss whose slope is 0 at zero flow, a branch for each direction"
    input Real m;
    output Real dp;
  algorithm
    dp := 0.5*m^2*(if m > 0 then -0.5 else -3);
  end loss;

  model Single
    Real m(start = 0);
  equation
    -1e4 = loss(m);
    annotation(experiment(StopTime = 1));
  end Single;

  model Torn
    Real m(start = 0);
    Real d, q;
  equation
    d = loss(m);
    d = -1e4 + 0.01*q;
    q = 0.5*m^2 + 0.001*d^2;
    annotation(experiment(StopTime = 1));
  end Torn;
  model Torn2
    Real m(start = 0);
    Real pa(start = 0), pb(start = 0);
    Real d, e;
  equation
    d = loss(m);
    d = pa - pb;
    pa = -5e3 + 1e-6*e*pb;
    pb = 5e3 + 1e-6*e*pa;
    e = m^2 + d;
    annotation(experiment(StopTime = 1));
  end Torn2;
end StationaryStart;
