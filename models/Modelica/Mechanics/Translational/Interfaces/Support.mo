within Modelica.Mechanics.Translational.Interfaces;
connector Support "Support (housing) of a component"
  extends Flange;
end Support;
