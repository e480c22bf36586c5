within Modelica.Mechanics.Rotational.Components;
model Spring "Linear torsion spring: tau = c*(phi_rel - phi_rel0)"
  extends Rotational.Interfaces.PartialCompliant;
  parameter SI.RotationalSpringConstant c(final min=0, start=1.0e5) "Spring constant";
  parameter SI.Angle phi_rel0 = 0 "Unstretched relative angle";
equation
  tau = c*(phi_rel - phi_rel0);
end Spring;
