within Modelica.Mechanics.Rotational.Sources;
model Torque "Torque given by an input signal, accelerating the flange (reaction on the support)"
  extends Rotational.Interfaces.PartialElementaryOneFlangeAndSupport2;
  Modelica.Blocks.Interfaces.RealInput tau(unit="N.m")
    "Accelerating torque acting at the flange (= -flange.tau)";
equation
  flange.tau = -tau;
end Torque;
