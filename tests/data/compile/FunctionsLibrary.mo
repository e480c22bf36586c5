// Calls every function of the library in models/ so that tests/test_func_compile.c can compile
// each one and check its tangent (the values here are not checked).
model FunctionsLibrary
  parameter Real tab[3, 2] = {{0, 1}, {1, 3}, {2, 2}};
  parameter Real t2[1, 2] = Modelica.Math.tempInterpol2(0.5, tab, {1, 2});
  parameter Real st[5, 2] = Modelica.Mechanics.Translational.Examples.Utilities.GenerateStribeckFrictionTable(
    1, 2, 3, 4, 5, 5);
  parameter Boolean same = Modelica.Math.Matrices.isEqual(tab, tab, 1e-9);
  Real a = Modelica.Math.tempInterpol1(time, tab, 2);
  Real b = Modelica.Math.Vectors.interpolate({0, 1, 2}, {1, 3, 2}, time);
  Real c = Modelica.Units.Conversions.from_degC(time) + Modelica.Units.Conversions.to_degC(time)
    + Modelica.Units.Conversions.from_rpm(time) + Modelica.Units.Conversions.to_rpm(time);
  Boolean d = Modelica.Math.isEqual(time, 1, 0.5);
end FunctionsLibrary;
