within Modelica.Mechanics.Rotational.Interfaces;
partial model PartialCompliant "Compliant connection of two flanges (relative angle, one torque)"
  SI.Angle phi_rel(start=0) "Relative rotation angle (= flange_b.phi - flange_a.phi)";
  SI.Torque tau "Torque between the flanges (= flange_b.tau)";
  Flange_a flange_a "Left flange";
  Flange_b flange_b "Right flange";
equation
  phi_rel = flange_b.phi - flange_a.phi;
  flange_b.tau = tau;
  flange_a.tau = -tau;
end PartialCompliant;
