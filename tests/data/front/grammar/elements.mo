within Lib.Sub;
model Elements "imports, extends, components and modifications"
  import Modelica.Units.SI "qualified";
  import Cv = Modelica.Units.Conversions;
  import Modelica.Math.*;
  import Modelica.Constants.{pi, eps, inf};
  import .Modelica.Blocks "global name";
  import Modelica.Math. * "wildcard written with a separate dot";

  extends Base(final n = 2, each k = {1, 2}, redeclare package Medium = Air);
  extends .Lib.Other annotation(IconMap(primitivesVisible = false));

  parameter Real k = 1 "gain";
  constant Integer n = 3;
  discrete Real sampled;
  input Real u;
  output Real y;
  flow Real f;
  parameter input Real pu = 2;
  Real x, v(start = 0, fixed = true), a "acceleration";
  Real[3] r = {1, 2, 3};
  Real A[2, 3] = [1, 2, 3; 4, 5, 6];
  Real B[n, :] = fill(0.0, n, 0);
  SI.Torque tau_max(displayUnit = "N.m") = 10;
  Support support if useSupport "optional support";
  Modelica.Blocks.Interfaces.RealInput ref if not useConstant annotation(Placement(transformation(extent = {{-140, -20}, {-100, 20}})));
  replaceable Spring spring(c = 10) constrainedby PartialTwoFlanges(k = 1) "exchangeable" annotation(choicesAllMatching = true);
  replaceable package Medium = Modelica.Media.Air constrainedby Modelica.Media.Interfaces.PartialMedium;
  inner Environment env;
  outer Environment outerEnv;
  inner outer World world;
  final parameter Real fixedValue = 2;
  redeclare final Real redeclared = 1;
  Real assigned := 3;
  Real brk(start = break) = break;
  Gain g1(redeclare Real u, final k = 2, each y(start = 0));
  Gain g2(redeclare replaceable model M = Other constrainedby Base, each final k = 3);
  Gain g3(replaceable Real w = 1, final replaceable type T = Real);
  Gain g4(k(start = 1, fixed = false) = 2 "gain with description");
  Gain g5(x.y.z = 1, 'quoted mod' = 2);
  Gain g6(redeclare each parameter Real p[2] = {1, 2} "redeclared array");
  Sub sub(break b, break connect(a, b), c = 1);
  Gain g7();
protected
  Real hidden;
  parameter Real hp = 2;
public
  Real visible;
equation
  der(x) = v;
  der(v) = a;
end Elements;
