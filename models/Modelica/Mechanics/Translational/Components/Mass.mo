within Modelica.Mechanics.Translational.Components;
model Mass "Sliding mass of length L without friction: m*a = sum of flange forces"
  parameter SI.Mass m(min=0, start=1) "Mass";
  parameter StateSelect stateSelect = StateSelect.default "Priority of s and v as states"
    annotation (HideResult=true);
  extends Translational.Interfaces.PartialRigid(L=0, s(start=0, stateSelect=stateSelect));
  SI.Velocity v(start=0, stateSelect=stateSelect) "Absolute velocity (= der(s))";
  SI.Acceleration a(start=0) "Absolute acceleration (= der(v))";
equation
  v = der(s);
  a = der(v);
  m*a = flange_a.f + flange_b.f;
end Mass;
