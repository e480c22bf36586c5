// stateSelect in the choice of states (tests/test_compile_cli.c): inertia - rigid connection
// - inertia driven by a constant torque (as TwoInertiasRigid.mo) offers either inertia's
// phi and w as states; by default the first declared (J1) is kept. Closed form from rest:
// a = tau/(J1 + J2) = 0.5, phi(1) = 0.25.
model RigidPair
  parameter StateSelect s1 = StateSelect.default;
  parameter StateSelect s2 = StateSelect.default;
  Modelica.Mechanics.Rotational.Components.Inertia J1(J = 1, stateSelect = s1,
    phi(start = 0, fixed = true), w(start = 0, fixed = true));
  Modelica.Mechanics.Rotational.Components.Inertia J2(J = 3, stateSelect = s2);
  Modelica.Mechanics.Rotational.Sources.ConstantTorque torque(tau_constant = 2);
equation
  connect(torque.flange, J1.flange_a);
  connect(J1.flange_b, J2.flange_a);
  annotation(experiment(StopTime = 1));
end RigidPair;

model AvoidJ1
  extends RigidPair(s1 = StateSelect.avoid);
end AvoidJ1;

model NeverJ1
  extends RigidPair(s1 = StateSelect.never);
end NeverJ1;

model PreferJ2
  extends RigidPair(s2 = StateSelect.prefer);
end PreferJ2;

model AlwaysJ2
  extends RigidPair(s2 = StateSelect.always);
end AlwaysJ2;

model AvoidBothPreferJ2
  extends RigidPair(s1 = StateSelect.avoid, s2 = StateSelect.prefer);
end AvoidBothPreferJ2;

// Only one pair can be states: J2's derivatives become dummies, said by a warning.
model AlwaysBoth
  extends RigidPair(s1 = StateSelect.always, s2 = StateSelect.always);
end AlwaysBoth;

// x must be a state (nothing else is differentiated): a warning, and it is one.
model NeverButNeeded
  Real x(start = 1, fixed = true, stateSelect = StateSelect.never);
equation
  der(x) = -x;
  annotation(experiment(StopTime = 1));
end NeverButNeeded;

// y = 2x with always on x, whose der() does not occur: the equation is differentiated and x
// is the state (y = 2 exp(-t) from its fixed start).
model AlwaysUndifferentiated
  Real x(stateSelect = StateSelect.always);
  Real y(start = 2, fixed = true);
equation
  y = 2*x;
  der(y) = -y;
  annotation(experiment(StopTime = 1));
end AlwaysUndifferentiated;

// A component's variable with stateSelect = avoid whose der() occurs, equal to an outer one
// with always (MultiBody's RollingWheel does this with its joint's coordinates): the one
// variable is asked to be a state, so y, tied to it by y = 2 xi, is the dummy; no warning
// for x, an alias of the state.
model AliasAlways
  model Joint
    Real xi(stateSelect = StateSelect.avoid);
    Real vi;
  equation
    vi = der(xi);
  end Joint;
  Joint joint;
  Real x(start = 1, fixed = true, stateSelect = StateSelect.always);
  Real y;
equation
  joint.xi = x;
  y = 2*joint.xi;
  der(y) = -y;
  annotation(experiment(StopTime = 1));
end AliasAlways;

// Two avoided positions differentiated as written, tied through a lever r that is not:
// x1 = r, x2 = 2 r. A default variable is a state only if it appears differentiated
// (Modelica 3.6 section 4.9.7.1), so x1 (or x2) is the state, not r. x1 = cos(t/sqrt(2)).
model WrittenOverUnwritten
  Real x1(stateSelect = StateSelect.avoid, start = 1, fixed = true);
  Real x2(stateSelect = StateSelect.avoid);
  Real v1(start = 0, fixed = true);
  Real v2;
  Real r;
  Real f;
equation
  v1 = der(x1);
  v2 = der(x2);
  x1 = r;
  x2 = 2*r;
  der(v1) = -x1 + f;
  der(v2) = -2*f;
  annotation(experiment(StopTime = 1));
end WrittenOverUnwritten;

// Two masses on a spring whose elongation s_rel (der() written) and rate v_rel (der() not
// written) are preferred: both become states, with the first mass (fixed starts); the
// second mass follows. s_rel = 0.1 cos(w t), w^2 = c (1/m1 + 1/m2).
model PreferRelative
  parameter Real m1 = 1, m2 = 2, c = 100;
  Real s1(start = 0, fixed = true), v1(start = 0, fixed = true);
  Real s2, v2;
  Real s_rel(start = 0.1, fixed = true, stateSelect = StateSelect.prefer);
  Real v_rel(start = 0, fixed = true, stateSelect = StateSelect.prefer);
  Real f;
equation
  v1 = der(s1);
  m1*der(v1) = f;
  v2 = der(s2);
  m2*der(v2) = -f;
  s_rel = s2 - s1;
  v_rel = der(s_rel);
  f = c*s_rel;
  annotation(experiment(StopTime = 1));
end PreferRelative;

// A preferred variable tied to no state stays algebraic, without a warning.
model PreferUntied
  Real x(start = 1, fixed = true);
  Real u(stateSelect = StateSelect.prefer);
equation
  u = sin(time);
  der(x) = u - x;
  annotation(experiment(StopTime = 1));
end PreferUntied;

// The equation that ties the preferred u to x calls an impure function (not inlined), which
// cannot be differentiated: the states are chosen as written (x), without an error.
model PreferThroughImpure
  impure function twice
    input Real a;
    output Real b;
  algorithm
    if a > 0 then
      b := 2*a;
    else
      b := a + a;
    end if;
  end twice;
  Real x(start = 1, fixed = true);
  Real u(stateSelect = StateSelect.prefer);
equation
  u = twice(x);
  der(x) = -x;
  annotation(experiment(StopTime = 1));
end PreferThroughImpure;

// The same with always: a warning at the declaration says why it is not a state.
model AlwaysThroughImpure
  extends PreferThroughImpure(u(stateSelect = StateSelect.always));
end AlwaysThroughImpure;
