within Modelica.Mechanics.Translational.Components;
model Rod "Rigid massless rod of length L"
  extends Translational.Interfaces.PartialRigid;
equation
  0 = flange_a.f + flange_b.f;
end Rod;
