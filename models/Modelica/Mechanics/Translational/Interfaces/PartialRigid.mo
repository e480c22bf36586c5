within Modelica.Mechanics.Translational.Interfaces;
partial model PartialRigid "Rigid component of length L; s is the position of its centre"
  extends PartialTwoFlanges;
  SI.Position s "Absolute position of the centre (= flange_a.s + L/2 = flange_b.s - L/2)";
  parameter SI.Length L = 0 "Length of the component (distance between the flanges)";
equation
  flange_a.s = s - L/2;
  flange_b.s = s + L/2;
end PartialRigid;
