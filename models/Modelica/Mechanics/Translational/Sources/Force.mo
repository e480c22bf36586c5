within Modelica.Mechanics.Translational.Sources;
model Force "Force given by an input signal, accelerating the flange (reaction on the support)"
  extends Translational.Interfaces.PartialElementaryOneFlangeAndSupport2;
  Modelica.Blocks.Interfaces.RealInput f(unit="N") "Accelerating force acting at the flange (= -flange.f)";
equation
  flange.f = -f;
end Force;
