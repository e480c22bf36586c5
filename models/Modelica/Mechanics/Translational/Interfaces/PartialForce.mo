within Modelica.Mechanics.Translational.Interfaces;
partial model PartialForce "Base of force sources: flange position relative to the support"
  extends PartialElementaryOneFlangeAndSupport2;
  SI.Position s "Distance between flange and support (= flange.s - support.s)";
  SI.Force f "Accelerating force acting at the flange (= -flange.f)";
equation
  s = flange.s - s_support;
  f = -flange.f;
end PartialForce;
