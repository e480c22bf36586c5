within Modelica.Mechanics.Rotational.Interfaces;
connector Flange_b "Flange of a shaft (empty icon in the MSL)"
  extends Flange;
end Flange_b;
