within Pkg.Examples;
model Oscillator
  import Pkg.Components.{Mass, Spring};
  import Pkg.Components.Fixed;
  Fixed fixed(s0 = 1);
  Spring spring;
  Mass mass(m = 2, s(start = 1.5, fixed = true));
equation
  connect(fixed.flange, spring.a);
  connect(spring.b, mass.a);
end Oscillator;
