within Pkg;
package Components
  import Pkg.Interfaces.*;
  model Mass
    extends PartialTwo;
    parameter SI.Force m = 1;
    SI.Length s;
    Real v;
  equation
    s = a.s;
    s = b.s;
    v = der(s);
    m*der(v) = a.f + b.f;
  end Mass;
  model Spring
    import L = Pkg.Units.Length;
    extends Pkg.Interfaces.PartialTwo;
    parameter Real c = 2*pi;
    L ds;
  equation
    ds = b.s - a.s;
    b.f = c*ds;
    a.f = -b.f;
  end Spring;
  encapsulated model Fixed
    import Pkg.Interfaces.Flange;
    parameter Real s0 = 0;
    Flange flange;
  equation
    flange.s = s0;
  end Fixed;
end Components;
