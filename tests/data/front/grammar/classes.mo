// Every class kind and class prefix of the grammar, long and short forms.
within;
encapsulated package Classes "All kinds of classes"
  import Modelica.Units.SI;

  partial model PartialTwoFlanges "Two flanges and nothing else"
    Flange a "left";
    Flange b "right";
  end PartialTwoFlanges;

  model Spring "Linear spring"
    extends PartialTwoFlanges;
    parameter SI.RotationalSpringConstant c(final min = 0, start = 1e5) = 1e5;
  equation
    a.tau = c * (a.phi - b.phi);
    a.tau + b.tau = 0;
  end Spring;

  block Gain
    input Real u;
    output Real y;
    parameter Real k = 1;
  equation
    y = k * u;
  end Gain;

  connector Flange "Rotational flange"
    Real phi;
    flow Real tau;
  end Flange;

  connector FluidPort
    Real p;
    flow Real m_flow;
    stream Real h_outflow;
  end FluidPort;

  expandable connector Bus "Signal bus"
  end Bus;

  record Data "Parameter record"
    parameter Real J = 1;
    parameter Real d = 0.1;
  end Data;

  type Angle = Real(final quantity = "Angle", final unit = "rad", displayUnit = "deg");
  type Position3 = Real[3](each unit = "m") "a position vector";
  type RealInput = input Real "an input signal";
  type Mode = enumeration(
      Stuck "sticking",
      Forward "sliding forward",
      Backward "sliding backward") "friction mode";
  type Unspecified = enumeration(:);
  type Empty = enumeration();

  function square "Square of a number"
    input Real x;
    output Real y;
  algorithm
    y := x * x;
    annotation(derivative = square_der, Inline = true);
  end square;

  function square_der
    input Real x;
    input Real dx;
    output Real dy;
  algorithm
    dy := 2 * x * dx;
  end square_der;

  function dsquare = der(square, x) "derivative of square";

  pure function pureSin
    input Real x;
    output Real y;
  external "C" y = sin(x);
  end pureSin;

  impure function counter
    output Integer n;
  external "C" n = counterNext() annotation(Library = "counter", Include = "#include \"counter.h\"");
    annotation(Documentation(info = "<html>impure</html>"));
  end counter;

  function defaultExternal
    input Real u[:];
    output Real y;
  external;
  end defaultExternal;

  function fortranCall
    input Real a[:, :];
    output Real b[size(a, 1), size(a, 2)];
  external "FORTRAN 77" dgecopy(a, size(a, 1), size(a, 2), b) annotation(Library = "lapack");
  end fortranCall;

  operator record Complex "Complex number"
    Real re;
    Real im;
    encapsulated operator 'constructor'
      import Classes.Complex;
      function fromReal
        input Real re;
        input Real im = 0;
        output Complex c(re = re, im = im);
      algorithm
        annotation(Inline = true);
      end fromReal;
    end 'constructor';
    encapsulated operator function '+'
      import Classes.Complex;
      input Complex a;
      input Complex b;
      output Complex c;
    algorithm
      c := Complex(a.re + b.re, a.im + b.im);
    end '+';
    pure operator function '*'
      input Complex a;
      input Complex b;
      output Complex c;
    algorithm
      c := Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
    end '*';
  end Complex;

  class Generic "plain class"
    Real x = 1;
  end Generic;

  model Extended
    extends Spring(c = 2e4);
  end Extended;

  replaceable partial model Base
  end Base;

  model extends Base "class extends with a modification"
    Real extra;
  end Base;

  package Nested
    constant Real g = 9.81;
    final package Frozen
    end Frozen;
  end Nested;
  annotation(Documentation(info = "<html><p>Classes</p></html>"), version = "1.0");
end Classes;

final model TopFinal
end TopFinal;

partial block TopPartial
end TopPartial;
