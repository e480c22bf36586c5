within Modelica.Mechanics.Translational.Interfaces;
partial model PartialCompliant "Compliant connection of two flanges (relative distance, one force)"
  extends PartialTwoFlanges;
  SI.Position s_rel(start=0) "Relative distance (= flange_b.s - flange_a.s)";
  SI.Force f "Force between the flanges (positive in tension; = flange_b.f)";
equation
  s_rel = flange_b.s - flange_a.s;
  flange_b.f = f;
  flange_a.f = -f;
end PartialCompliant;
