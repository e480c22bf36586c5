within Modelica.Mechanics.Rotational.Interfaces;
partial model PartialTwoFlanges "Component with two rotational flanges"
  Flange_a flange_a "Flange of the left shaft";
  Flange_b flange_b "Flange of the right shaft";
end PartialTwoFlanges;
