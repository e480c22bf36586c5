model BouncingBall
  parameter Real g = 9.81;
  parameter Real e = 0.8 "coefficient of restitution";
  Real h(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(h) = v;
  der(v) = -g;
  when h < 0 then
    reinit(v, -e*pre(v));
  end when;
  annotation(experiment(StopTime = 3, Interval = 0.01));
end BouncingBall;
