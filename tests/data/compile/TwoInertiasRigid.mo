// Inertia - rigid connection - inertia, driven by a constant torque: an index-3 system
// (J2.phi = J1.phi through the connections). Closed form: a = tau/(J1 + J2).
model TwoInertiasRigid
  Modelica.Mechanics.Rotational.Components.Inertia J1(J = 1, phi(start = 0, fixed = true),
    w(start = 0, fixed = true));
  Modelica.Mechanics.Rotational.Components.Inertia J2(J = 3);
  Modelica.Mechanics.Rotational.Sources.ConstantTorque torque(tau_constant = 2);
equation
  connect(torque.flange, J1.flange_a);
  connect(J1.flange_b, J2.flange_a);
  annotation(experiment(StopTime = 1));
end TwoInertiasRigid;
