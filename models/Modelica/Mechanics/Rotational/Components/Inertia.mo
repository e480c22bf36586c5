within Modelica.Mechanics.Rotational.Components;
model Inertia "Rigid shaft with moment of inertia J: J*a = sum of flange torques"
  Rotational.Interfaces.Flange_a flange_a "Left flange";
  Rotational.Interfaces.Flange_b flange_b "Right flange";
  parameter SI.Inertia J(min=0, start=1) "Moment of inertia";
  parameter StateSelect stateSelect = StateSelect.default "Priority of phi and w as states"
    annotation (HideResult=true);
  SI.Angle phi(stateSelect=stateSelect) "Absolute rotation angle";
  SI.AngularVelocity w(stateSelect=stateSelect) "Absolute angular velocity (= der(phi))";
  SI.AngularAcceleration a "Absolute angular acceleration (= der(w))";
equation
  phi = flange_a.phi;
  phi = flange_b.phi;
  w = der(phi);
  a = der(w);
  J*a = flange_a.tau + flange_b.tau;
end Inertia;
