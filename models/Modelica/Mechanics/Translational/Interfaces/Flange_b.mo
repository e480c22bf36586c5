within Modelica.Mechanics.Translational.Interfaces;
connector Flange_b "Flange of a translational component (empty icon in the MSL)"
  extends Flange;
end Flange_b;
