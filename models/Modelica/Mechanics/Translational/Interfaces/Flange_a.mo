within Modelica.Mechanics.Translational.Interfaces;
connector Flange_a "Flange of a translational component (filled icon in the MSL)"
  extends Flange;
end Flange_a;
