// Models of tests/test_langops.c: connected parameters, String tests decided while
// translating, operator records.
package Ops
  record Medium
    parameter Real rho = 1000;
    parameter Real cp = 4200;
  end Medium;

  connector Port
    parameter Medium medium;
    Real p;
    flow Real m_flow;
  end Port;

  model Source
    parameter Medium medium;
    parameter Real p0 = 2;
    Port port(medium = medium);
  equation
    port.p = p0;
  end Source;

  model Pipe
    parameter Medium medium;
    parameter Real k = 0.5;
    Port a(medium = medium), b(medium = medium);
  equation
    a.m_flow + b.m_flow = 0;
    a.m_flow = k * (a.p - b.p) / medium.rho;
  end Pipe;

  // connect() of ports that carry a parameter record: the parameters are checked, not solved
  model ConnectedParameters
    parameter Real rho2 = 1000;
    Source src(p0 = 3);
    Pipe pipe;
    Source sink(p0 = 1, medium(rho = rho2));
  equation
    connect(src.port, pipe.a);
    connect(pipe.b, sink.port);
  end ConnectedParameters;

  record Pair
    parameter Real a = 1;
    parameter Real v[2] = {10, 20};
    parameter Medium m;
    final parameter Real twice = 2 * a;
  end Pair;

  record Flags
    Boolean on = false;
    Real gain = 1;
  end Flags;

  function makeFlags
    input Real g;
    output Flags f;
  algorithm
    f.on := g > 1;
    f.gain := g;
  end makeFlags;

  // A record binding binds every field (nested records and arrays too) unless the field
  // has its own modifier; in arrays of records each element takes its part.
  model RecordBindings
    parameter Pair p(a = 3, v = {4, 5}, m(rho = 6));
    parameter Pair q = p;
    parameter Pair r(a = 7) = p;
    parameter Pair s = Pair(a = 8, v = {9, 10});
    parameter Pair t[2] = {p, s};
    Port port(medium = p.m);
    parameter Flags flags = makeFlags(2) "a Boolean field from a function's record result";
    Real x = q.a * time;
  equation
    port.p = r.a;
  end RecordBindings;

  // String parameters with a start value, conditional components and if-equations over
  // String tests: all decided while translating
  function substring "the library's substring, an external function of the C library"
    input String string;
    input Integer startIndex;
    input Integer endIndex;
    output String result;
    external "C" result = ModelicaStrings_substring(string, startIndex, endIndex);
  end substring;

  model StringChoices
    constant String group = "Dy01";
    parameter String c1 = substring(group, 1, 1);
    parameter String c2 = substring(group, 2, 3);
    final parameter Real k1 = if c1 == "D" then 1 else 3;
    final parameter Real k2 = if c2 == "y0" then 4 else 5;
    parameter String layout = "D";
    parameter String connection(start = "Y") = layout;
    Real y(start = 1, fixed = true) if connection <> "D";
    Real z(start = 1, fixed = true) if connection == "D";
    Real w;
  equation
    if connection == "D" then
      der(z) = -z;
      w = 2;
    else
      der(y) = -2 * y;
      w = 3;
    end if;
  end StringChoices;

  // A machine's shaft: phiM and wM = der(phiM) carry fixed start values while the load's
  // phi and w are the states; an initial equation sets the electrical state i. The squared
  // norm comes from a function over the vector with .^ (sum over it).
  model FixedShaft
    function rms
      input Real x[:];
      output Real y;
    algorithm
      y := sqrt(sum(x .^ 2 / size(x, 1)));
    end rms;
    parameter Real phi0 = 0;
    Real phi, w, i;
    Real support = phi0;
    Real phiM(fixed = true, start = 1) = phi - support;
    Real wM(fixed = true, start = 2) = der(phiM);
    Real iv[2] = {i, -i};
    Real r = rms(iv);
  initial equation
    der(i) = 0;
  equation
    w = der(phi);
    der(w) = -phi;
    der(i) = 3 - i;
  end FixedShaft;

  operator record Cplx "a complex number with its operators"
    replaceable Real re;
    replaceable Real im;
    encapsulated operator 'constructor'
      function fromReal
        import Ops.Cplx;
        input Real re;
        input Real im = 0;
        output Cplx result(re = re, im = im);
      algorithm
        annotation(Inline = true);
      end fromReal;
    end 'constructor';
    encapsulated operator '-'
      function negate
        import Ops.Cplx;
        input Cplx a;
        output Cplx b;
      algorithm
        b := Cplx(-a.re, -a.im);
      end negate;
      function subtract
        import Ops.Cplx;
        input Cplx a;
        input Cplx b;
        output Cplx c;
      algorithm
        c := Cplx(a.re - b.re, a.im - b.im);
      end subtract;
    end '-';
    encapsulated operator function '+'
      import Ops.Cplx;
      input Cplx a;
      input Cplx b;
      output Cplx c;
    algorithm
      c := Cplx(a.re + b.re, a.im + b.im);
      annotation(Inline = true);
    end '+';
    encapsulated operator function '*'
      import Ops.Cplx;
      input Cplx a;
      input Cplx b;
      output Cplx c;
    algorithm
      c := Cplx(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
    end '*';
    encapsulated operator function '/'
      import Ops.Cplx;
      input Cplx a;
      input Cplx b;
      output Cplx c;
    protected
      Real d = b.re^2 + b.im^2;
    algorithm
      c := Cplx((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d);
    end '/';
  end Cplx;

  function cabs
    input Cplx c;
    output Real r;
  algorithm
    r := sqrt(c.re^2 + c.im^2);
  end cabs;

  function rotate "operators inside a function body"
    input Cplx c;
    input Real w;
    output Cplx r;
  algorithm
    r := c * Cplx(cos(w), sin(w)) - Cplx(0);
  end rotate;

  // Complex arithmetic in equations: v = z i with z = R + j w L, the constructor with a
  // default, a number converted by the constructor, negation, division, .re/.im
  model ComplexCircuit
    parameter Real R = 2;
    parameter Real L = 0.5;
    parameter Cplx z = Cplx(R, L);
    Cplx i = Cplx(1 + time);
    Cplx v;
    Cplx u = -(2 * v) / z;
    Cplx s = rotate(i, time);
    Real a = cabs(v - Cplx(0, 1) * i);
    parameter Boolean flip = true;
    Cplx w = if flip then -i else i "an if-expression over records";
    Cplx k[2] = {Cplx(1, 0), Cplx(0, 1)};
    Cplx us[2] = {i, v};
    Cplx dot = k * us "the sum of the products: i + j v";
    Cplx twice[2] = us + us;
    Cplx scaled[2] = 2 * us;
    Cplx prod[2] = k .* us "element-wise: {i, j v}";
    Cplx quot[2] = us ./ k "element-wise: {i, v / j}";
    Cplx neg[2] = -us; Cplx total = sum(us); Cplx prodall = product(k) "j"; Cplx mk[2] = {{k[1], k[2]}, {k[2], k[1]}} * us;
  equation
    v = z * i + Cplx(0, 0);
  end ComplexCircuit;

  record Sizes
    parameter Integer n = 2;
  end Sizes;

  model Many
    parameter Sizes sizes(n = 3);
    Real y[300] = fill(time, 300);
  end Many;

  // An array size from a record binding to a component declared later: evaluating it
  // instantiates that component (300 variables) while the size is being worked out.
  model LaterRecord
    parameter Sizes s = later.sizes;
    Real x[s.n] = fill(1, s.n);
    Many later;
  end LaterRecord;

  record Wide "80 fields: a call with two of them has 160 argument elements"
    parameter Real p1 = 1;
    parameter Real p2 = 2;
    parameter Real p3 = 3;
    parameter Real p4 = 4;
    parameter Real p5 = 5;
    parameter Real p6 = 6;
    parameter Real p7 = 7;
    parameter Real p8 = 8;
    parameter Real p9 = 9;
    parameter Real p10 = 10;
    parameter Real p11 = 11;
    parameter Real p12 = 12;
    parameter Real p13 = 13;
    parameter Real p14 = 14;
    parameter Real p15 = 15;
    parameter Real p16 = 16;
    parameter Real p17 = 17;
    parameter Real p18 = 18;
    parameter Real p19 = 19;
    parameter Real p20 = 20;
    parameter Real p21 = 21;
    parameter Real p22 = 22;
    parameter Real p23 = 23;
    parameter Real p24 = 24;
    parameter Real p25 = 25;
    parameter Real p26 = 26;
    parameter Real p27 = 27;
    parameter Real p28 = 28;
    parameter Real p29 = 29;
    parameter Real p30 = 30;
    parameter Real p31 = 31;
    parameter Real p32 = 32;
    parameter Real p33 = 33;
    parameter Real p34 = 34;
    parameter Real p35 = 35;
    parameter Real p36 = 36;
    parameter Real p37 = 37;
    parameter Real p38 = 38;
    parameter Real p39 = 39;
    parameter Real p40 = 40;
    parameter Real p41 = 41;
    parameter Real p42 = 42;
    parameter Real p43 = 43;
    parameter Real p44 = 44;
    parameter Real p45 = 45;
    parameter Real p46 = 46;
    parameter Real p47 = 47;
    parameter Real p48 = 48;
    parameter Real p49 = 49;
    parameter Real p50 = 50;
    parameter Real p51 = 51;
    parameter Real p52 = 52;
    parameter Real p53 = 53;
    parameter Real p54 = 54;
    parameter Real p55 = 55;
    parameter Real p56 = 56;
    parameter Real p57 = 57;
    parameter Real p58 = 58;
    parameter Real p59 = 59;
    parameter Real p60 = 60;
    parameter Real p61 = 61;
    parameter Real p62 = 62;
    parameter Real p63 = 63;
    parameter Real p64 = 64;
    parameter Real p65 = 65;
    parameter Real p66 = 66;
    parameter Real p67 = 67;
    parameter Real p68 = 68;
    parameter Real p69 = 69;
    parameter Real p70 = 70;
    parameter Real p71 = 71;
    parameter Real p72 = 72;
    parameter Real p73 = 73;
    parameter Real p74 = 74;
    parameter Real p75 = 75;
    parameter Real p76 = 76;
    parameter Real p77 = 77;
    parameter Real p78 = 78;
    parameter Real p79 = 79;
    parameter Real p80 = 80;
  end Wide;

  function wideSum
    input Wide a;
    input Wide b;
    input Real x;
    output Real y;
  algorithm
    y := (a.p80 + b.p1) * x;
  end wideSum;

  model WideCall
    parameter Wide a;
    parameter Wide b(p1 = 2);
    final parameter Real k = wideSum(a, b, 1);
    Real y = wideSum(a, b, time);
  end WideCall;

  // An if-equation inside an if-equation with non-parameter conditions (a switch with an
  // arc: off, then quenched): residual by residual
  model NestedIf
    Real v, i;
    Boolean off = time > 0.5;
    Boolean quenched = time > 0.7;
  equation
    if off then
      if quenched then
        i = 0.1 * v;
      else
        v = 2 * i + 1;
      end if;
    else
      v = 3 * i;
    end if;
    v + i = 1 + time;
  end NestedIf;

  // A short class of an operator record that redeclares its fields (the units of a complex
  // quantity); components of it bound to an expression in an inherited partial model: the
  // binding binds each field although the short class modifies it.
  operator record Flux = Cplx(redeclare Real re(unit = "Wb"), redeclare Real im(unit = "Wb"))
    "a complex flux";

  connector MagneticPort
    Cplx V;
    flow Flux Phi;
  end MagneticPort;

  partial model MagneticTwoPort
    MagneticPort p, n;
    Flux Phi = p.Phi;
    Cplx V = p.V - n.V;
  equation
    p.Phi + n.Phi = Cplx(0, 0);
  end MagneticTwoPort;

  model Reluctance
    extends MagneticTwoPort;
    parameter Real k = 2;
  equation
    V = k * Phi;
  end Reluctance;

  model MagneticSource
    extends MagneticTwoPort;
  equation
    V = Cplx(1 + time, 2);
  end MagneticSource;

  model MagneticGround
    MagneticPort p;
  equation
    p.V = Cplx(0, 0);
  end MagneticGround;

  model MagneticCircuit
    MagneticSource s;
    Reluctance r(k = 4);
    MagneticGround g;
  equation
    connect(s.p, r.p);
    connect(r.n, s.n);
    connect(s.n, g.p);
  end MagneticCircuit;

  // Arrays of records as function inputs (one array per field inside the function: u[k].re,
  // u[k] as a record, size(u, 1)), and a function of one record called with an array of
  // records (one call per element, Modelica 3.5 section 12.4.6).
  function rms
    input Cplx u[:];
    output Real y;
  protected
    Integer m = size(u, 1);
  algorithm
    y := sum({sqrt(u[k].re^2 + u[k].im^2) for k in 1:m}) / m;
  end rms;

  function realProduct
    input Cplx a;
    input Cplx b;
    output Real r;
  algorithm
    r := a.re * b.re - a.im * b.im;
  end realProduct;

  function power
    input Cplx v[:];
    input Cplx i[size(v, 1)];
    output Real p;
  algorithm
    p := sum({realProduct(v[k], i[k]) for k in 1:size(v, 1)});
  end power;

  model RecordArrayCalls
    Cplx a[2];
    Real r = rms(a);
    Real p = power(a, {Cplx(1, 0), Cplx(0, 1)});
    Real magnitudes[2] = cabs(a);
    Real products[2] = realProduct(a, {Cplx(2, 0), Cplx(0, 1)});
  equation
    a[1] = Cplx(3 * time, 4 * time);
    a[2] = Cplx(0, 5 * time);
  end RecordArrayCalls;

  function pair "an array of records as an output"
    input Real x;
    output Cplx y[2];
  algorithm
    y := {Cplx(x), Cplx(x)};
  end pair;

  model RecordArrayOutput
    Real r = rms(pair(time));
  end RecordArrayOutput;

  // Scalar inputs given arrays (Modelica 3.5 section 12.4.6): one call per element, also
  // for matrices, a record result, and a function of the library declared external "builtin"
  function scaledSquare
    input Real x;
    input Real k = 1;
    output Real y;
  algorithm
    y := k * x * x;
  end scaledSquare;

  function polar
    input Real len;
    input Real phi;
    output Cplx c;
  algorithm
    c := Cplx(len * cos(phi), len * sin(phi));
  end polar;

  function builtinSin
    input Real u;
    output Real y;
  external "builtin" y = sin(u);
  end builtinSin;

  model VectorizedCalls
    Real z[2] = scaledSquare({time, 2 * time}, 3);
    Real w[2, 2] = scaledSquare({{1, 2}, {3, time}});
    Cplx c[3] = polar(fill(2, 3), {0, time, 2 * time});
    Real s[2] = builtinSin({time, 2 * time});
  end VectorizedCalls;

  package ComplexFunctions
    function abs "hides the built-in abs where it is imported"
      input Cplx c;
      output Real r;
    algorithm
      r := sqrt(c.re^2 + c.im^2);
    end abs;
  end ComplexFunctions;

  model ImportedAbs
    import Ops.ComplexFunctions.abs;
    Cplx v = Cplx(3 * time, -4 * time);
    Real m = abs(v);
    Real n;
  equation
    n = abs(v) + 1;
  end ImportedAbs;

  function re "the real part"
    input Cplx c;
    output Real r;
  algorithm
    r := c.re;
  end re;

  function activePower "a scalar-record function over a comprehension of records"
    input Cplx v[:];
    input Cplx i[size(v, 1)];
    output Real p;
  algorithm
    p := sum(re({v[k] * i[k] for k in 1:size(v, 1)}));
  end activePower;

  model ComprehensionCalls
    Cplx a[2] = {Cplx(3 * time, 4 * time), Cplx(0, 5 * time)};
    Real p = activePower(a, {Cplx(1, 0), Cplx(0, 1)});
    Real q[2] = scaledSquare({k * time for k in 1:2});
  end ComprehensionCalls;

  function rotations "an array of records as an output, assigned element by element"
    input Integer m;
    input Real w;
    output Cplx t[m, m];
  algorithm
    for i in 1:m loop
      for j in 1:m loop
        t[i, j] := polar(i, w * j);
      end for;
    end for;
  end rotations;

  model RecordArrayResults
    parameter Integer m = 2;
    final parameter Cplx p[m, m] = rotations(m, 0.5);
    Cplx v[m, m] = rotations(m, time);
    Real y = p[2, 1].im;
  end RecordArrayResults;
  record MatBase
    parameter Real a = 1;
    parameter Real b = 1;
    final parameter Real c = a * b "reads the other fields";
  end MatBase;
  record MatDerived
    extends MatBase(a = 4, b = 0.5);
  end MatDerived;
  record Holder
    parameter Real k = 3;
    MatBase m(a = k) "a field's modifier reads an outer field";
  end Holder;
  function derivedC
    input Real u;
    output Real c;
  protected
    MatDerived d;
  algorithm
    c := d.c + u;
  end derivedC;

  model ExtendedRecordValues "record values take the defaults their extends clauses give"
    parameter MatBase d = MatDerived();
    parameter MatBase e = MatDerived(b = 2);
    parameter Holder h = Holder();
    Real y = d.c;
    Real z = e.c + e.a;
    Real w = h.m.c;
    Real v = derivedC(time);
  end ExtendedRecordValues;

  model NegativeStart "a time event at a negative start time, another after it"
    Real y = if time < -1 then 0 else time + 1;
    Real u = if time < -0.5 then 1 else 2;
    annotation(experiment(StartTime = -1, StopTime = 1));
  end NegativeStart;
  model StructuralIf "an if-expression on an Evaluate = true flag is its taken branch"
    parameter Boolean nonlinear = false annotation(Evaluate = true);
    parameter Real k = 2;
    Real mu, g, r, b;
  equation
    mu = if nonlinear then 1 + b^2 else k;
    g = 3 * mu;
    r = 1 / g;
    b = (1 + time) * r;
  end StructuralIf;
  record TagA
    constant String kind = "a";
  end TagA;
  record TagB
    constant String kind = "a";
  end TagB;
  record Cell
    extends TagA;
    parameter Real R = 1;
  end Cell;
  record Pack "an array of records in a record, an element inherited twice"
    extends TagA;
    extends TagB;
    parameter Integer n = 2;
    parameter Cell cells[n] = {Cell(R = 2), Cell(R = 3)};
    parameter Real q = 1;
  end Pack;
  model PackUser
    parameter Pack p;
    Real y = p.cells[2].R + p.q;
    Real z = sum(p.cells.R);
  end PackUser;
  model RecordArrayFields
    function sum "hides the built-in here; .sum is the built-in"
      input Real v[:];
      output Real s = 2 * .sum(v);
    end sum;
    parameter Pack d(q = 5);
    PackUser u(p = d);
    Real w = sum({1, time});
  end RecordArrayFields;

  model GuardedAssert "an assert in a branch that varies holds only there"
    parameter Real x0 = 0;
    Real x(start = x0, fixed = true);
  equation
    if time < 0.5 then
      der(x) = 1;
      assert(x < 0.6, "x left its range in the first half");
    else
      der(x) = -1;
    end if;
  end GuardedAssert;
  // A table of 2 x 700 parameter elements as a function argument (a time table's constructor
  // takes its table so): every element goes on the evaluator's stack, more than its first
  // 1024 entries; in a parameter binding and in an algebraic loop (the call's tangent).
  function tableSum
    input Real t[:, 2];
    input Real x;
    output Real y;
  algorithm
    y := 0;
    for i in 1:size(t, 1) loop
      y := y + t[i, 1] * x + t[i, 2];
    end for;
  end tableSum;

  model WideTable
    parameter Integer n = 700;
    parameter Real table[n, 2] = {{i, 1} for i in 1:n};
    final parameter Real k = tableSum(table, 2);
    Real y, z = k * time;
  equation
    y + 1e-6 * tableSum(table, y) = time;
  end WideTable;

  // x(fixed = true) is computed from the state s, whose start 0 makes the gap 0
  // and the force F*v/x^2 + F/x^2 not a number (0/0, as a flux tube's force at l = 0):
  // the fixed start of x sets s before the initial Newton evaluates anything else.
  model FixedGap
    parameter Real F = 1e-6;
    Real s(start = 0), v(start = 0, fixed = true);
    Real x(start = 0.005, fixed = true) = 2*s;
    Real f = F*v/x^2 + F/x^2, fc "force between two rigidly joined masses";
  equation
    der(s) = v;
    der(v) = f - fc;
    2*der(v) = fc;
  end FixedGap;
end Ops;
