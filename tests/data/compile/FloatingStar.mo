// m R-L branches from grounded sine sources into a star point that has no path to ground.
// The star's connection set sums the branch currents to zero, yet through the pins: only a
// combination of m + 1 equations shows the constraint among the m inductor currents, a row
// of m states (long rows keep a position index in constraints.c). The sources form a
// balanced set, so the star stays at 0 V and each current solves L di/dt + R i = u from rest.
model FloatingStar
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
  model Inductor
    extends OnePort;
    parameter Real L;
  equation
    L*der(i) = v;
  end Inductor;
  model SineVoltage
    extends OnePort;
    parameter Real f, phase;
  equation
    v = sin(2*3.141592653589793*f*time + phase);
  end SineVoltage;
  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;
  parameter Integer m = 40;
  parameter Real L = 0.1, R = 1;
  SineVoltage u[m](each f = 5, phase = {-2*3.141592653589793*(k - 1)/m for k in 1:m});
  Resistor res[m](each R = R);
  Inductor ind[m](each L = L);
  Ground g;
initial equation
  for k in 1:m - 1 loop
    ind[k].i = 0;
  end for;
equation
  for k in 1:m loop
    connect(g.p, u[k].n);
    connect(u[k].p, res[k].p);
    connect(res[k].n, ind[k].p);
    connect(ind[k].n, ind[1].n);
  end for;
end FloatingStar;
