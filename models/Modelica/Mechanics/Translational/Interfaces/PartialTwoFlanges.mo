within Modelica.Mechanics.Translational.Interfaces;
partial model PartialTwoFlanges "Component with two translational flanges"
  Flange_a flange_a "Left flange";
  Flange_b flange_b "Right flange";
end PartialTwoFlanges;
