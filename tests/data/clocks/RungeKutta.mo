model RungeKutta "x' = -x, y' = x (an algebraic v between) discretized on 0.1 s clocks by the explicit midpoint rule and the classical Runge-Kutta method"
  Real xm(start = 1), ym(start = 0), vm;
  Real xr(start = 1), yr(start = 0), vr;
  Real hxm, hym, hxr, hyr;
equation
  when Clock(Clock(1, 10), solverMethod = "ExplicitMidPoint2") then
    vm = -xm;
    der(xm) = vm;
    der(ym) = xm;
  end when;
  when Clock(Clock(1, 10), solverMethod = "ExplicitRungeKutta4") then
    vr = -xr;
    der(xr) = vr;
    der(yr) = xr;
  end when;
  hxm = hold(xm);
  hym = hold(ym);
  hxr = hold(xr);
  hyr = hold(yr);
  annotation(experiment(StopTime = 1, Interval = 0.05));
end RungeKutta;
