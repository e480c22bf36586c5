within Modelica.Mechanics.Translational.Sources;
model ConstantForce "Constant force, independent of speed"
  extends Translational.Interfaces.PartialForce;
  parameter SI.Force f_constant "Constant force (positive accelerates the flange)";
  SI.Velocity v "Velocity of the flange relative to the support";
equation
  v = der(s);
  f = f_constant;
end ConstantForce;
