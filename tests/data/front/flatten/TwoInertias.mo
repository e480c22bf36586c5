// Two inertias coupled by a spring: a self-contained rotational mini-library (connectors
// with flow, partial classes with extends, modifiers with units), then the model.
package Mini
  type Angle = Real(final quantity = "Angle", final unit = "rad", displayUnit = "deg");
  type Torque = Real(final quantity = "Torque", final unit = "N.m");
  type Inertia = Real(final quantity = "MomentOfInertia", final unit = "kg.m2", min = 0);

  connector Flange "Rotational flange"
    Angle phi "Absolute rotation angle";
    flow Torque tau "Cut torque";
  end Flange;

  partial model TwoFlanges
    Flange flange_a;
    Flange flange_b;
  end TwoFlanges;

  model Inertia1 "Rigid inertia"
    extends TwoFlanges;
    parameter Inertia J(start = 1) "Moment of inertia";
    Angle phi(stateSelect = StateSelect.prefer);
    Real w(start = 0, fixed = true);
  equation
    phi = flange_a.phi;
    phi = flange_b.phi;
    w = der(phi);
    J*der(w) = flange_a.tau + flange_b.tau;
  end Inertia1;

  model Spring "Linear spring"
    extends TwoFlanges;
    parameter Real c(final unit = "N.m/rad") = 1e5 "Stiffness";
    parameter Angle phi_rel0 = 0;
    Angle phi_rel;
    Torque tau;
  equation
    phi_rel = flange_b.phi - flange_a.phi;
    flange_b.tau = tau;
    flange_a.tau = -tau;
    tau = c*(phi_rel - phi_rel0);
  end Spring;
end Mini;

model TwoInertias "Two inertias and a spring"
  parameter Real k = 2;
  Mini.Inertia1 J1(J = 1, phi(start = 1, fixed = true));
  Mini.Inertia1 J2(J = k*2);
  Mini.Spring spring(c = 1e4);
equation
  connect(J1.flange_b, spring.flange_a);
  connect(spring.flange_b, J2.flange_a);
  annotation(experiment(StopTime = 1.5, Interval = 0.001, Tolerance = 1e-6));
end TwoInertias;
