// Language features of fluid and media libraries (issue 15): models written for
// tests/test_langfluid.c.
package Fluid
  // Start values defined through each other, decided by an Evaluate parameter: only the
  // branch taken is a dependency.
  model Vessel
    parameter Boolean use_T_start = true annotation(Evaluate = true);
    parameter Real T_start = if use_T_start then T0 else h_start / 4000;
    parameter Real h_start = if use_T_start then 4000 * T_start else 1.6e6;
    parameter Real T0 = 300;
    Real T(start = T_start, fixed = true);
  equation
    der(T) = -(T - 290);
  end Vessel;

  model CrossDefined
    Vessel a;
    Vessel b(use_T_start = false);
    Real h = a.h_start + b.T_start;
  end CrossDefined;

  // The same cycle with a condition that is an ordinary parameter stays an error.
  model TrueCycle
    parameter Boolean flag = true;
    parameter Real p = if flag then 1 else q;
    parameter Real q = if flag then 2 * p else 3;
    Real x = p + q;
  end TrueCycle;

  // Functional input arguments (Modelica 3.5 section 12.4.2).
  partial function Scalar
    input Real u;
    output Real y;
  end Scalar;

  function line
    extends Scalar;
    input Real a = 1;
    input Real b = 0;
  algorithm
    y := a * u + b;
  end line;

  function cube
    extends Scalar;
  algorithm
    y := u ^ 3;
  end cube;

  // the root of f in [lo, hi] by bisection
  function root
    input Scalar f;
    input Real lo;
    input Real hi;
    output Real x;
  protected
    Real a = lo, b = hi, m;
  algorithm
    for i in 1:200 loop
      m := (a + b) / 2;
      if f(a) * f(m) <= 0 then
        b := m;
      else
        a := m;
      end if;
    end for;
    x := (a + b) / 2;
  end root;

  // the trapezoidal integral of f over [lo, hi] with n steps, halving recursively: f passed on
  function integral
    input Scalar f;
    input Real lo;
    input Real hi;
    input Integer n = 64;
    output Real s;
  algorithm
    if n > 1 then
      s := integral(f, lo, (lo + hi) / 2, div(n, 2)) + integral(f, (lo + hi) / 2, hi, div(n, 2));
    else
      s := (hi - lo) * (f(lo) + f(hi)) / 2;
    end if;
  end integral;

  model FunctionArguments
    parameter Real k = 2;
    Real x = root(function line(a = k, b = -time - 1), -10, 10);
    Real c = root(cube, -1, 3 + time) "cube has no bound arguments: its root 0";
    final parameter Real s = integral(function line(b = 1, a = k), 0, 1);
    Real z = integral(hi = 2, f = cube, lo = 0, n = 8);
    Real sv = s;
  end FunctionArguments;

  model MissingFunction
    Real x = root(lo = 0, hi = 1);
  end MissingFunction;

  // Functions called as equations for their asserts (Fluid's checkBoundary).
  function check
    input Real lo;
    input Real x;
  algorithm
    assert(x >= lo, "x below its limit");
  end check;

  model CallEquations
    parameter Real lo = 0;
    parameter Real p = 1;
    Real x(start = 1, fixed = true);
  equation
    check(lo, p);
    check(lo - 1, x);
    der(x) = -1;
  end CallEquations;

  // An input sized by itself: a square matrix (Modelica.Math.Matrices.solve's A).
  function trace
    input Real A[:, size(A, 1)];
    output Real t = 0;
  algorithm
    for i in 1:size(A, 1) loop
      t := t + A[i, i];
    end for;
  end trace;

  model SelfSized
    Real t = trace({{1, 2}, {3, time}});
  end SelfSized;

  // Asserts among initial equations: checked with the initial values, not later.
  model InitialAssert
    parameter Real d = 2;
    parameter Real lim = 0;
    Real a = 0.25 * d ^ 2;
    Real x(start = 1, fixed = true);
  initial equation
    for i in 1:2 loop
      assert(abs(a - 0.25 * d ^ 2) < 1e-12 * i, "a is not set");
    end for;
    assert(x > lim, "x too small");
  equation
    der(x) = -2;
  end InitialAssert;

  // An output sized by an expression of the inputs (Polynomials.fitting's p[n + 1]).
  function powers
    input Real u;
    input Integer n;
    output Real p[n + 1];
  algorithm
    for i in 1:n + 1 loop
      p[i] := u ^ (i - 1);
    end for;
  end powers;

  model SizedOutput
    Real p[3] = powers(time + 1, 2);
  end SizedOutput;

  // An element or a row of a discrete array assigned at a variable index (Blocks.Math.RealFFT,
  // Digital's RAM).
  model IndexedAssign
    parameter Integer ns = 4;
    Real buf[ns](start = fill(-1, ns), each fixed = true);
    Real mem[ns, 2](each start = -1, each fixed = true);
    Integer tick(start = 0, fixed = true);
  algorithm
    when sample(0, 0.1) then
      tick := pre(tick) + 1;
      if tick <= ns then
        buf[tick] := 10 * time;
        mem[tick, 1:2] := {tick, -tick};
      end if;
    end when;
  end IndexedAssign;

  // der() of expressions (FluxTubes' der(hystR - mu0*Hstat)): differentiated to der() of
  // variables, an algebraic one (h) by index reduction.
  model DerExpression
    parameter Real c = 2;
    Real x(start = 1, fixed = true);
    Real h = x ^ 2;
    Real y = der(c * x + sin(time));
    Real z = der(x * x / c + exp(-time));
    Real w = der(h - c * x);
    Real v = der(if x > 1.5 then sqrt(x) else log(x));
  equation
    der(x) = 1;
  end DerExpression;

  // States without start values whose default 0 divides (a vessel's u = U/m): the initial
  // Newton starts them again from 1.
  model UnsetStarts
    parameter Real V = 2;
    Real m;
    Real U;
    Real u = U / m;
  initial equation
    m = 1000 * V;
    u = 5;
  equation
    der(m) = -0.1;
    der(U) = -0.1 * u;
  end UnsetStarts;

  // A replaceable function redeclared with modifiers that read the instance's parameters
  // (Machines.ControlledPump's flowCharacteristic).
  model PumpBase
    replaceable function curve = line;
    Real y = curve(time);
  end PumpBase;

  model Pump
    parameter Real k0 = 3;
    extends PumpBase(redeclare function curve = line(a = k0, b = 1));
  end Pump;

  model Pumps
    Pump pump(k0 = 5);
  end Pumps;

  // The branch a parameter condition does not take is invalid for that value (Fluid's
  // ps_start = if n > 1 then linspace(...) else ...).
  model UntakenBranch
    parameter Integer n = 1;
    parameter Real ps[n] = if n > 1 then linspace(1, 2, n) else {5};
    Real y = ps[1] * time;
  end UntakenBranch;

  // A record result declared in the base of `function extends` (a medium's setState_phX),
  // bound to a record input of a component by a modifier.
  partial package PartialMedium
    replaceable record State
    end State;

    replaceable partial function setState
      input Real p;
      input Real h;
      output State state;
    end setState;
  end PartialMedium;

  package SimpleMedium
    extends PartialMedium;

    redeclare record extends State
      Real p;
      Real T;
    end State;

    redeclare function extends setState
    algorithm
      state := State(p = p, T = h / 4000 + 0 * p);
    end setState;
  end SimpleMedium;

  model Monitor
    replaceable package Medium = PartialMedium;
    input Medium.State state_in;
    Real T = state_in.T;
  end Monitor;

  model Monitored
    package Medium = SimpleMedium;
    Real p = 1e5 + time;
    Monitor monitor(redeclare package Medium = Medium, state_in = Medium.setState(p, 1.2e6 * (1 + time)));
  end Monitored;

  // Index reduction through min() and max() (MoistAir's p_steam_sat = min(psat(T), 0.999*p)).
  model DiffMinMax
    Real x1(start = 0, fixed = true);
    Real x2;
    Real x3;
    Real v;
    Real w;
  equation
    der(x1) = 1;
    der(x2) = v;
    der(x3) = w;
    x2 = min(x1, 0.5) + x1;
    x3 = max(2 * x1, 1);
  end DiffMinMax;

  // A package given constants by a short class's modifier (Medium = MoistAir(
  // extraPropertiesNames = {"CO2"})), sizes from them; an index that is a parameter computed
  // by an initial algorithm (Fluid's TraceSubstances sensor).
  package Substances
    constant String names[:] = fill("", 0);
    constant Integer nC = size(names, 1);
    constant Real k = 1;
  end Substances;

  model ModifiedPackage
    package Medium = Substances(names = {"H2O", "CO2"}, k = 3);
    parameter String substance = "CO2";
    parameter Integer ind(fixed = false);
    Real c[Medium.nC] = {Medium.k * i * time for i in 1:Medium.nC};
    Real C = c[ind];
  initial algorithm
    ind := 0;
    for i in 1:Medium.nC loop
      if Medium.names[i] == substance then
        ind := i;
      end if;
    end for;
  end ModifiedPackage;

  // A type modified by a package's extends clause (Modelica 3.6 section 7.2: R134a_ph's
  // extends PartialTwoPhaseMedium(SpecificEnthalpy(start = h_default), h_default = 420e3)):
  // every component of the type starts there; h_default is the package's own value (3, not
  // the base's -1), so the loop h*h = 4 + t starts on its positive root.
  partial package TypedBase
    type Enthalpy = Real(nominal = 1);
    constant Enthalpy h_default = -1;
    model Props
      Enthalpy h;
    equation
      h * h = 4 + time;
    end Props;
  end TypedBase;
  package TypedMedium
    extends TypedBase(Enthalpy(start = h_default), h_default = 3);
  end TypedMedium;
  model ModifiedPackageType
    TypedMedium.Props props;
  end ModifiedPackageType;

  model ModifiedPackageWater
    extends ModifiedPackage(substance = "H2O");
  end ModifiedPackageWater;

  // A vessel whose states are its mass and energy (u = U/m) and whose initial equations fix
  // p and h: the block solving p, h, T from d = m/V and u has no solution for u >= 0 (h -
  // R*T(h) < 0 everywhere), so it fails at the default m = U = 0 and at m = U = 1; only the
  // initial system solved together with that block starts (from p0, h0).
  model JointVessel
    parameter Real V = 1e-3, R = 287, T0 = 250, h1 = 1e5;
    parameter Real p0 = 2e5, h0 = 5e4, mflow = 1e-6;
    Real m, U, d, u, p, h, T(start = 300);
  initial equation
    p = p0;
    h = h0;
  equation
    der(m) = mflow;
    der(U) = mflow * h0;
    m = V * d;
    U = m * u;
    u = h - p / d;
    d = p / (R * T);
    T = T0 * exp(h / h1);
  end JointVessel;
  // JointVessel whose failing block is mixed: a Boolean of the loop picks T's formula. Its real
  // part has no solution at the start point either, so the block joins the initial system
  // with warm held; warm is settled from the joint solution afterwards.
  model JointMixedVessel
    parameter Real V = 1e-3, R = 287, T0 = 250, h1 = 1e5;
    parameter Real p0 = 2e5, h0 = 5e4, mflow = 1e-6;
    Real m, U, d, u, p, h, T(start = 300);
    Boolean warm;
  initial equation
    p = p0;
    h = h0;
  equation
    der(m) = mflow;
    der(U) = mflow * h0;
    m = V * d;
    U = m * u;
    u = h - p / d;
    d = p / (R * T);
    warm = h > 0;
    T = if warm then T0 * exp(h / h1) else T0 * (1 + h / h1);
  end JointMixedVessel;
end Fluid;
