within Stiction.Examples;
model BurridgeKnopoff
  "Chain of N blocks with velocity-weakening stick-slip friction, loaded by a slowly moving plate (Burridge-Knopoff, Carlson-Langer 1989)"
  parameter Integer N = 10 "Number of blocks";
  parameter Real l = 10 "Stiffness ratio: neighbour springs l^2 against unit plate springs";
  parameter Real alpha = 2.5 "Velocity weakening of the slip friction";
  parameter Real nu = 0.01 "Speed of the loading plate";
  parameter Real x0[N] = {-0.5 + 0.002*sin(i*i) for i in 1:N}
    "Initial positions: slightly uneven, so that the blocks do not all slip together";
  constant Integer Forward = 1, Stuck = 0;
  Real x[N](start = x0, each fixed = true) "Block positions";
  Real v[N](each start = 0, each fixed = true) "Block velocities";
  Real F[N] "Spring forces on each block (neighbours and plate)";
  Real f[N] "Friction forces (static limit 1)";
  Real a[N] "Accelerations";
  Real sa[N] "Free variables of the stuck/slip curves (the sa parameterization of the MSL friction elements)";
  Boolean startFor[N](each start = false, each fixed = true);
  Integer mode[N](each start = Stuck, each fixed = true) "Stuck or Forward (no backward slip)";
equation
  // Dimensionless Carlson-Langer equations in absolute positions: unit masses, unit plate
  // springs pulled at nu*time, neighbour springs l^2, free chain ends.
  F[1] = l^2*(x[2] - x[1]) + nu*time - x[1];
  F[N] = l^2*(x[N - 1] - x[N]) + nu*time - x[N];
  for i in 2:N - 1 loop
    F[i] = l^2*(x[i + 1] - 2*x[i] + x[i - 1]) + nu*time - x[i];
  end for;
  for i in 1:N loop
    der(x[i]) = v[i];
    a[i] = der(v[i]);
    a[i] = F[i] - f[i];
    // Stuck: a = 0 and f = sa holds any force up to 1. Slipping: f = 1/(1 + 2 alpha v), the
    // velocity-weakening law; at the start of a slip it is taken at v = 0 (f = 1), so that a
    // block restarting from a velocity of -1e-10 does not see a friction above its static limit.
    startFor[i] = pre(mode[i]) == Stuck and sa[i] > 1;
    f[i] = if startFor[i] then 1 elseif pre(mode[i]) == Forward then 1/(1 + 2*alpha*v[i]) else sa[i];
    a[i] = if pre(mode[i]) == Forward or startFor[i] then sa[i] - 1 else 0;
    mode[i] = if (pre(mode[i]) == Forward or startFor[i]) and v[i] > 0 then Forward else Stuck;
  end for;
  annotation (experiment(StopTime = 200, Interval = 0.1), Documentation(info="<html>
<p>Benchmark 4 of doc/benchmarks.md (scaling study; defaults l = 10, alpha = 2.5, nu = 0.01).
The friction is unidirectional as in Carlson and Langer's model: a block cannot slide
backwards. With l = 0 the blocks are independent and each slip starts exactly when
nu*t - x = 1, which the tests check. No published trajectories exist (the system is chaotic);
use it to measure events and cost against N: <code>stiction simulate
Stiction.Examples.BurridgeKnopoff -p N=30</code>.</p>
</html>"));
end BurridgeKnopoff;
