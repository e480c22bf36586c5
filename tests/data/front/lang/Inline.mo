// Functions with annotation(Inline = true) whose bodies are array expressions, as
// MultiBody's Frames functions: inlined while flattening, so index reduction differentiates
// q = p[1] = cos(phi) through them. phi = t, so p = {cos t, sin t}, u = der(q) = -sin t.
// a = atan2(p[2], p[1]) = t, differentiated: da = 1. A Real bound to an Integer input of
// another component is determined by that binding.
model Inline
  record Rot
    Real T[2, 2];
    Real w;
  end Rot;
  function rot "a rotation by an array expression"
    input Real phi;
    input Real w;
    output Rot R;
  algorithm
    R := Rot(T = [cos(phi), -sin(phi); sin(phi), cos(phi)], w = w);
    annotation(Inline = true);
  end rot;
  function apply
    input Rot R;
    input Real v[2];
    output Real y[2];
  protected
    Real s = 1;
  algorithm
    y := s*R.T*v;
    annotation(Inline = true);
  end apply;
  function ang "inlined: InlineAfterIndexReduction, differentiated through atan2"
    input Real s;
    input Real c;
    output Real a;
  algorithm
    a := atan2(s, c);
    annotation(InlineAfterIndexReduction = true);
  end ang;
  model Source
    input Integer k[2] = {2, 3};
  end Source;
  model Sink
    input Real c[2] = {0, 0};
  end Sink;
  Real phi(start = 0, fixed = true);
  Real p[2];
  Rot R;
  Real q(start = 1);
  Real u;
  Source src;
  Sink snk(c = src.k);
  Real a(start = 0);
  Real da;
  parameter Integer sel = 1;
  parameter Rot Rp = if sel > 0 then rot(0.5, 1) else rot(2, 1) "an if-expression of records";
equation
  der(a) = da;
  a = ang(p[2], p[1]);
  der(phi) = 1;
  R = rot(phi, der(phi));
  p = apply(R, {1, 0});
  der(q) = u;
  q = p[1];
  annotation(experiment(StopTime = 1, Interval = 0.25));
end Inline;
