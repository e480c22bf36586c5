// Small models for the Modelica language features the genuine library needs (redeclaration,
// declaration order, inner/outer, ...); tests/test_frontlang.c checks what they flatten to.
package Lang
  block MultiOut "an output vector sized by a parameter"
    parameter Integer nout = 1;
    output Real y[nout];
  end MultiOut;

  block Gains "the base class's size comes from a component declared after the extends"
    extends MultiOut(final nout = size(k, 1));
    parameter Real k[:] = {1, 2, 3};
  equation
    for i in 1:nout loop
      y[i] = k[i]*time;
    end for;
  end Gains;

  model Holder
    parameter Integer n = 1;
    Real v[n];
  equation
    v = fill(1.0, n);
  end Holder;

  model DeclOrder "sizes from elements declared later, also inside other components"
    Gains g(k = {4, 5});
    Real z[h.n](each start = 1);
    Real w[size(g.y, 1) + m];
    Holder h(n = m + 1);
    parameter Integer m = 2;
  equation
    for i in 1:h.n loop
      der(z[i]) = -z[i];
    end for;
    w = fill(time, size(w, 1));
  end DeclOrder;

  model DeclCycle "an array size that depends on itself"
    Real x[n];
    parameter Integer n = size(x, 1);
  equation
    x = fill(0.0, n);
  end DeclCycle;

  model Box "components present depending on a String parameter"
    parameter String conn(start = "Y") "Y or D";
    Real star = 1 if conn <> "D";
    Real delta = 2 if conn == "D";
    Real order = if conn < "E" then 1 else 2;
  end Box;

  model StringConditions
    Box d(conn = "D");
    Box y;
  end StringConditions;

  connector Pin
    Real v;
    flow Real i;
  end Pin;

  connector Plug
    parameter Integer m = 3;
    Pin pin[m];
  end Plug;

  model Res
    parameter Real R = 1;
    Pin p, n;
  equation
    p.v - n.v = R*p.i;
    p.i + n.i = 0;
  end Res;

  model ArrayConnects "connectors reached through arrays of components"
    Res r[3](R = {1, 2, 3});
    Plug plug;
    Pin g;
  equation
    connect(r.p, plug.pin);
    connect(r[1:2].n, r[2:end].p);
    connect(r[3].n, g);
    g.v = 0;
    plug.pin[1].v = sin(time);
  end ArrayConnects;

  partial block Source
    parameter Real offset = 0;
    output Real y;
  end Source;

  block Const
    extends Source;
    parameter Real k = 1;
  equation
    y = offset + k;
  end Const;

  block Ramp
    extends Source;
    parameter Real slope = 1;
  equation
    y = offset + slope*time;
  end Ramp;

  model VSource "a replaceable source keeps its declaration's modifier when redeclared"
    parameter Real offset = 0;
    replaceable Source signal(final offset = offset);
    Real v;
  equation
    v = signal.y;
  end VSource;

  model RampSource
    extends VSource(redeclare Ramp signal(slope = 2), offset = 1);
  end RampSource;

  model RampSourceModel "rs.v = offset + slope*time = 1 + 2*time"
    RampSource rs;
  end RampSourceModel;

  model Constrained
    replaceable Const c(k = 5) constrainedby Source(offset = 3);
  end Constrained;

  model BodyRedeclare "a redeclaration among the elements of a derived class"
    extends Constrained;
    redeclare Ramp c(slope = 4);
  end BodyRedeclare;

  model Several
    replaceable Source s[2];
  end Several;

  model Redeclares
    RampSource rs;
    VSource vs(redeclare Const signal(k = 7));
    BodyRedeclare b;
    Constrained c2(redeclare Ramp c);
    Several sev(redeclare each Const s(k = 2));
  end Redeclares;

  model Fixed
    Const s;
  end Fixed;

  model NotReplaceable
    Fixed f(redeclare Ramp s);
  end NotReplaceable;

  model ClassRedeclare
    VSource v(redeclare model M = Ramp);
  end ClassRedeclare;

  model Subscripts "slices, vectors and run-time indices as subscripts"
    Real x[4] = {1, 2, 3, 4}*time;
    Real m[2, 3] = [1, 2, 3; 4, 5, 6]*time;
    Real s[2];
    Real v[2];
    Real row[3];
    Real pick;
    discrete Integer k(start = 1, fixed = true);
  equation
    s = x[2:3];
    v = x[{4, 1}];
    row = m[k, :];
    pick = x[k + 1];
    when sample(1, 1) then
      k = 2;
    end when;
  end Subscripts;

  model VectorWhen "when {a, b}: fires when either becomes true"
    Boolean a = time > 0.5;
    Boolean b = time > 0.7;
    Integer y(start = 0, fixed = true);
    Integer z(start = 0, fixed = true);
  equation
    when {a, b} then
      y = pre(y) + 1;
    end when;
  algorithm
    when {a, b} then
      z := pre(z) + 2;
    end when;
  end VectorWhen;

  package Tables
    type Level = enumeration(low, mid, high);
    constant Integer Next[Level, Level] = [2, 3, 1; 3, 1, 2; 1, 2, 3];
    partial model Base
      parameter Integer k = 4;
    end Base;
  end Tables;

  model EnumTable "a constant table sized and indexed by an enumeration"
    import T = Lang.Tables;
    extends T.Base(k = 5);
    T.Level x = if time < 0.5 then T.Level.low else T.Level.high;
    Integer n = T.Next[x, T.Level.mid];
    Integer sizes[T.Level] = {1, 2, 3};
  end EnumTable;

  model Matrices "the matrix constructor concatenates promoted elements"
    parameter Real v[2] = {1, 2};
    parameter Real a[2, 2] = [3, 4; 5, 6];
    parameter Real b[2, 3] = [v, a];
    parameter Real c[3, 2] = [a; 7, 8];
    parameter Real d[2, 2, 2] = [{{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}];
    constant Tables.Level levels[:] = Tables.Level.mid:Tables.Level.high;
  end Matrices;

  model ArrayAlgorithm "array assignments in a model algorithm"
    discrete Real x[3](each start = 0, each fixed = true);
    Real y[2];
  algorithm
    when sample(0.5, 1) then
      x := pre(x) + {1, 2, 3};
    end when;
    y := x[2:3]*time;
  end ArrayAlgorithm;

  model ArraySwap
    Real x[2];
  algorithm
    x := {time, 2*time};
    x := x[{2, 1}];
  end ArraySwap;

  model World
    parameter Real g = 9.81;
    Real t = time;
  end World;

  model Mount
    outer World world;
    Real f = 2*world.g + world.t;
  end Mount;

  model Plant
    Mount m1, m2;
  end Plant;

  model InnerOuter "every outer world is the inner one above it"
    inner World world(g = 10);
    Plant p;
    Mount m3;
  end InnerOuter;

  model MissingInner "a default inner world is added at the top level"
    Plant p;
  end MissingInner;

  type TypeReal "a type derived from Real by extends"
    extends Real;
  end TypeReal;

  type TypeString
    extends String;
  end TypeString;

  type Label = TypeString;
  type Axis = TypeReal[3](each final unit = "1");
  type Length = TypeReal(unit = "m");

  model DerivedTypes
    parameter Label label = "x";
    parameter Axis n = {0, 0, 1};
    parameter Axis two[2] = {{1, 0, 0}, {0, 1, 0}};
    Length s(start = 1);
  equation
    der(s) = n[3];
  end DerivedTypes;

  model IfArrays "if-expressions with array branches"
    parameter Boolean linear = false;
    parameter Real table[:, 2] = [0, 1; 1, 2; 2, 3];
    final parameter Real used[:, 2] = if linear then [0, 0; 1, 1] else table;
    Real y[2] = if time > 0.5 then {1, 2} else {3, 4};
  end IfArrays;

  expandable connector Bus
    Real speed;
  end Bus;

  connector RealOut = output Real;

  block Emit
    RealOut y = time;
  end Emit;

  model ExpandableBus "a member inside a bus member no connection makes is refused by name"
    Bus bus;
    Emit e;
  equation
    connect(e.y, bus.drive.speed);
  end ExpandableBus;

  class Handle "an external object"
    extends ExternalObject;
  end Handle;

  model UsesExternalObject
    parameter Handle h;
  end UsesExternalObject;

  block Coefficients
    parameter Real b[:] = {1};
    parameter Real k = 0;
  end Coefficients;

  model EachArrays "each gives every component the whole array value"
    parameter Integer n = 2;
    Coefficients c[n](each final b = {-1, 1}, k = {1, 2});
  end EachArrays;

  connector FluidPort "a parameter record in a connector, as FluidHeatFlow's medium"
    parameter Coefficients medium;
    Real p;
    flow Real m_flow;
  end FluidPort;

  model Tank
    parameter Coefficients medium;
    FluidPort port(medium = medium);
    Real p;
  equation
    port.p = p;
  end Tank;

  model ParameterConnectors "connecting parameters gives no equations"
    Tank a(medium(k = 2), p = time);
    Tank b(medium(k = 2));
  equation
    connect(a.port, b.port);
    a.port.m_flow = 1;
  end ParameterConnectors;

  model Rotor "a component present only when the outer world says so"
    outer World world;
    parameter Real x = 1 if world.g > 5;
    parameter Real y = 2 if world.g < 5;
  end Rotor;

  model OuterCondition
    Rotor r "instantiated before the inner world: the outer is looked up then";
    inner World world(g = 10);
  end OuterCondition;

  model Scale
    parameter Real k = 1;
  end Scale;

  model Leaf
    outer Scale scale;
    Real y;
  equation
    y = scale.k*time;
  end Leaf;

  model Group "inner outer: its own reference finds the enclosing scale (k = 2), its leaf the
    group's inner part, which takes the modifier (k = 3)"
    inner outer Scale scale(k = 3);
    Leaf leaf;
    Real own;
  equation
    own = scale.k*time;
  end Group;

  model InnerOuterBoth
    inner Scale scale(k = 2);
    Group g;
    Leaf top;
  end InnerOuterBoth;
end Lang;
