// Small models for the lookup, modifier, connect and conditional-component tests
// (tests/test_flatten.c checks the flat variables and equations they give).
package Cases
  connector Pin
    Real v;
    flow Real i;
  end Pin;

  model Resistor
    parameter Real R = 1;
    Pin p;
    Pin n;
  equation
    p.v - n.v = R*p.i;
    p.i + n.i = 0;
  end Resistor;

  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;

  model ThreeWay "r1.p, r2.p, r3.p in one connection set"
    Resistor r1, r2, r3;
    Ground g;
  equation
    connect(r1.p, r2.p);
    connect(r2.p, r3.p);
    connect(r1.n, g.p);
  end ThreeWay;

  model Composite "pin is an outside connector here"
    Pin pin;
    Resistor r;
  equation
    connect(pin, r.p);
  end Composite;

  model UseComposite
    Composite c;
    Ground g;
  equation
    connect(c.pin, g.p);
  end UseComposite;

  model Base
    parameter Real a = 1;
    parameter Real b = 2;
    parameter Real c = 3;
    Real x(start = 0.5);
  end Base;

  model Mid
    extends Base(a = 10, b = 20);
  end Mid;

  model Outer "m.a from the extends modifier, m.b and m.x.start from outside"
    Mid m(b = 200, x(start = 7));
  equation
    der(m.x) = -m.x;
  end Outer;

  model Finals
    Base f(final a = 5);
  end Finals;

  model EachArray
    Base arr[3](each c = 4, a = {1, 2, 3});
  end EachArray;

  model WithSupport
    parameter Boolean useSupport = false;
    Pin flange;
    Pin support if useSupport;
    Pin fixedSupport if not useSupport;
  equation
    connect(flange, support);
    flange.v = 0;
    if not useSupport then
      fixedSupport.v = 0;
    end if;
  end WithSupport;

  model Cond1
    WithSupport w(useSupport = true);
  end Cond1;

  model Cond0
    WithSupport w;
  end Cond0;

  package Consts
    constant Real g = 9.81;
    type Mode = enumeration(off, slow, fast);
  end Consts;

  model LookupEnclosing
    model Inner
      parameter Real q = Consts.g;
    end Inner;
    Inner i;
    parameter Real twice = 2*i.q;
    parameter Consts.Mode mode = Consts.Mode.fast;
  end LookupEnclosing;

  encapsulated model Enc
    import Cases.Consts.g;
    import C = Cases.Consts;
    parameter Real h = g;
    parameter Real h2 = C.g;
  end Enc;

  model LateParam "conditions and sizes from parameters declared after their use"
    Pin p if use;
    Real x[n];
    parameter Boolean use = true;
    parameter Integer n = 2 annotation(Evaluate = true);
  end LateParam;

  model ForLoop
    parameter Integer n = 3;
    Real x[n];
  equation
    for i in 1:n loop
      x[i] = i*time;
    end for;
  end ForLoop;

  function square
    input Real u;
    output Real y;
  protected
    Real t;
  algorithm
    t := u;
    y := t*t;
  end square;

  model CallsFunction
    Real y = square(time);
  end CallsFunction;

  function table "rows [i, scale*i^2], i = 1..n"
    input Integer n = 3;
    input Real scale;
    output Real t[n, 2];
  algorithm
    for i in 1:n loop
      t[i, 1] := i;
      t[i, 2] := scale*i^2;
    end for;
  end table;

  model TableParam "a parameter table from a function call, its size from the value"
    parameter Real tab[:, 2] = table(scale = 2);
    parameter Integer rows = size(tab, 1);
  end TableParam;
end Cases;
