// As GearInertias, but J1 avoids its angle and speed as states (also through their aliases, the flange angles and gear.phi_a: doc/compiler.md). Two inertias through an ideal gear of ratio 2, driven by a constant torque on the first:
// flange_a.phi = ratio*flange_b.phi. Closed form: a2 = tau*ratio/(J1*ratio^2 + J2), a1 = ratio*a2.
model GearInertiasAvoid
  Modelica.Mechanics.Rotational.Components.Inertia J1(J = 1, stateSelect = StateSelect.avoid, phi(start = 0, fixed = true),
    w(start = 0, fixed = true));
  Modelica.Mechanics.Rotational.Components.IdealGear gear(ratio = 2);
  Modelica.Mechanics.Rotational.Components.Inertia J2(J = 3);
  Modelica.Mechanics.Rotational.Sources.ConstantTorque torque(tau_constant = 2);
equation
  connect(torque.flange, J1.flange_a);
  connect(J1.flange_b, gear.flange_a);
  connect(gear.flange_b, J2.flange_a);
  annotation(experiment(StopTime = 1));
end GearInertiasAvoid;
