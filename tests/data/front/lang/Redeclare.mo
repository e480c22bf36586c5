package Redeclare "replaceable and redeclared classes (Modelica 3.5 section 7.3)"
  package Interfaces
    partial package PartialMedium
      constant String mediumName = "unnamed";
      constant String substanceNames[:] = {mediumName};
      final constant Integer nS = size(substanceNames, 1);
      constant Real cp_const = 1;
      constant Real T_ref = 300;
      record State
        Real T;
      end State;
      record FluidConstants
        Real molarMass;
      end FluidConstants;
      constant FluidConstants fluidConstants[nS];
      final constant Real MM = fluidConstants[1].molarMass "a field of a constant record";
      replaceable partial function specificEnthalpy
        input State state;
        output Real h;
      end specificEnthalpy;
      function h_T "inherited: calls the replaceable one of the package it is used through"
        input Real T;
        output Real h;
      algorithm
        h := specificEnthalpy(State(T = T));
      end h_T;
    end PartialMedium;
  end Interfaces;

  package Linear "h = cp_const*(T - T_ref)"
    extends Interfaces.PartialMedium(mediumName = "linear", cp_const = 2,
      fluidConstants = {FluidConstants(molarMass = 0.5)});
    redeclare function extends specificEnthalpy
    algorithm
      h := cp_const*(state.T - T_ref);
    end specificEnthalpy;
  end Linear;

  package TwoSubstances "constants modified again one level further"
    extends Linear(substanceNames = {"a", "b"}, cp_const = 3,
      fluidConstants = {FluidConstants(molarMass = 0.25), FluidConstants(molarMass = 0.75)});
  end TwoSubstances;

  model Volume
    replaceable package Medium = Interfaces.PartialMedium;
    parameter Real T0 = 310;
    Real h;
    parameter Integer n = Medium.nS;
    parameter Real MM = Medium.MM;
    parameter Real MM_last = Medium.fluidConstants[Medium.nS].molarMass;
    Real x[Medium.nS];
  equation
    h = Medium.h_T(T0 + time);
    for i in 1:Medium.nS loop
      x[i] = i*Medium.cp_const;
    end for;
  end Volume;

  model Pipe
    replaceable package Medium = Interfaces.PartialMedium;
    Volume v(redeclare package Medium = Medium);
  end Pipe;

  model PipeLinear "redeclared in an extends clause: v.h = 2*(T0 + time - 300)"
    extends Pipe(redeclare package Medium = Linear);
  end PipeLinear;

  model PipeTwo "redeclared among the elements: v.h = 3*(T0 + time - 300), two substances"
    extends Pipe;
    redeclare package Medium = TwoSubstances;
  end PipeTwo;

  partial function Shape
    input Real x;
    output Real y;
  end Shape;

  function Square
    extends Shape;
  algorithm
    y := x*x;
  end Square;

  function Cube
    extends Shape;
  algorithm
    y := x*x*x;
  end Cube;

  model Surface
    replaceable function shape = Square constrainedby Shape;
    Real y = shape(2);
  end Surface;

  partial model PartialLaw
    parameter Real k = 1;
    Real y;
  end PartialLaw;

  model Gain
    extends PartialLaw;
  equation
    y = k*time;
  end Gain;

  model Offset
    extends PartialLaw;
  equation
    y = k + time;
  end Offset;

  model Element
    replaceable model Law = Gain constrainedby PartialLaw;
    Law law(k = 3);
  end Element;

  record Aux
    Real k;
  end Aux;

  function scaled "noDerivative names a record input: all its fields"
    input Real u;
    input Aux aux;
    output Real y;
  algorithm
    y := aux.k*u;
    annotation(derivative(noDerivative = aux) = scaled_der);
  end scaled;

  function scaled_der
    input Real u;
    input Aux aux;
    input Real du;
    output Real dy;
  algorithm
    dy := aux.k*du;
  end scaled_der;

  package Data "record constants given by modifiers; reductions"
    record Props
      Real a = 1;
      Real b = 2;
    end Props;
    constant Props p(b = 5);
    constant Props[2] ps(each a = 3);
    constant Real n[3] = array(1, 2, 3);
    function total
      input Real x;
      output Real y;
    algorithm
      y := sum(n[i]*x for i in 1:3);
    end total;
  end Data;

  record Pair
    Real p;
    Real q;
  end Pair;

  function mid
    input Real a;
    input Real b;
    output Real m;
  algorithm
    m := (a + b)/2;
  end mid;

  function pairOf "a record constructor whose fields are calls of one function"
    input Real x;
    output Pair r;
  algorithm
    r := Pair(p = mid(x, 0), q = mid(x, 2));
  end pairOf;

  record Flags
    Real a;
    Boolean b;
  end Flags;

  function flagsOf "a record result with fields of two types, assigned field by field"
    input Real x;
    output Flags f;
  algorithm
    f.a := x;
    f.b := x > 0;
  end flagsOf;

  model Classes "all of them in one model"
    PipeLinear lin;
    PipeTwo two;
    Pipe direct(redeclare package Medium = TwoSubstances);
    Surface s1;
    Surface s2(redeclare function shape = Cube);
    Element e1;
    Element e2(redeclare model Law = Offset);
    Real z = scaled(time, Aux(k = 2));
    parameter Real pb = Data.p.b;
    parameter Real psa = Data.ps[2].a;
    parameter Real psb = Data.ps[1].b;
    Real tot = Data.total(time);
    parameter Real s = sum(Data.n[i] for i in 1:3);
    parameter Real pr = product(Data.n[i] for i in 2:3);
    Pair pq = pairOf(time);
    parameter Flags fl = flagsOf(2);
  end Classes;
end Redeclare;
