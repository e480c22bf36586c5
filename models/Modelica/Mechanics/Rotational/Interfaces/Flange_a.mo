within Modelica.Mechanics.Rotational.Interfaces;
connector Flange_a "Flange of a shaft (filled icon in the MSL)"
  extends Flange;
end Flange_a;
