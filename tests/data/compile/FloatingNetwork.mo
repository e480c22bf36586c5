// Two grounded sine sources drive inductors L1 and L2 into a network with no path to
// ground: a resistor and a capacitor in parallel between the inductors' ends. Its node
// equations add up to L1.i + L2.i = 0, yet each branch current occurs in two of them with
// opposite signs, so no equation shows the constraint and a structural analysis makes both
// currents states (the node potentials are then singular, and the initial equation below
// names only one of them). iRef, vRef solve the same circuit as an ODE written by hand:
// the loop gives u1 - u2 = 2 L di/dt + v with i = v/R + C dv/dt.
model FloatingNetwork
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  partial model OnePort
    Pin p, n;
    Real v, i;
  equation
    v = p.v - n.v;
    0 = p.i + n.i;
    i = p.i;
  end OnePort;
  model Resistor
    extends OnePort;
    parameter Real R;
  equation
    v = R*i;
  end Resistor;
  model Capacitor
    extends OnePort;
    parameter Real C;
  equation
    i = C*der(v);
  end Capacitor;
  model Inductor
    extends OnePort;
    parameter Real L;
  equation
    L*der(i) = v;
  end Inductor;
  model SineVoltage
    extends OnePort;
    parameter Real V, f, phase;
  equation
    v = V*sin(2*3.141592653589793*f*time + phase);
  end SineVoltage;
  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;
  parameter Real L = 0.1, R = 10, C = 1e-3;
  SineVoltage u1(V = 10, f = 5, phase = 0), u2(V = 10, f = 5, phase = 2.0943951023931953);
  Inductor L1(L = L), L2(L = L);
  Resistor res(R = R);
  Capacitor cap(C = C);
  Ground g;
  Real iRef(start = 0, fixed = true), vRef(start = 0, fixed = true);
initial equation
  L1.i = 0;
  cap.v = 0;
equation
  connect(g.p, u1.n);
  connect(g.p, u2.n);
  connect(u1.p, L1.p);
  connect(u2.p, L2.p);
  connect(L1.n, res.p);
  connect(L1.n, cap.p);
  connect(L2.n, res.n);
  connect(L2.n, cap.n);
  u1.v - u2.v = 2*L*der(iRef) + vRef;
  iRef = vRef/R + C*der(vRef);
end FloatingNetwork;
