// A parameter condition choosing between 0 and L*der(i) decides whether i is a state: qs
// (quasiStatic = true) has no derivative, i = 1/2 algebraically; dyn integrates
// L di/dt = 1 - 2 i from i(0) = 0.
model QuasiStatic
  model Inductor
    parameter Real L = 1;
    parameter Boolean quasiStatic(start = false) = false;
    Real v, i(start = 0);
  equation
    v = if quasiStatic then 0 else L*der(i);
  end Inductor;
  Inductor qs(quasiStatic = true);
  Inductor dyn(i(fixed = true));
equation
  qs.v + 2*qs.i = 1;
  dyn.v + 2*dyn.i = 1;
end QuasiStatic;
