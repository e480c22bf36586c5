within Modelica.Mechanics.Rotational.Interfaces;
connector Support "Support (housing) of a component"
  extends Flange;
end Support;
