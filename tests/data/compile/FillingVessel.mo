// A vessel filled from nearly empty at a constant mass flow of enthalpy h_in, its
// temperature and level preferred as states (as a lumped vessel of a fluid library): the
// mass and energy balances are differentiated for der(T) = m_flow (h_in - u)/(m cv), whose
// eigenvalue -m_flow/m is -3.8e8 1/s at the start and -38 1/s at t = 1. The mixed-in
// internal energy u = U/m = (m0 u0 + m_flow h_in t)/(m0 + m_flow t) rises monotonically from
// u0 to h_in, so T ends at 273.15 + h_in/cv (293.156214 K) and never falls below T_start.
model FillingVessel
  parameter Real cv = 4184 "specific heat capacity";
  parameter Real d = 1000 "density";
  parameter Real A = 1 "cross area";
  parameter Real m_flow = 38 "inflow";
  parameter Real h_in = 83706 "specific enthalpy of the inflow";
  Real level(stateSelect = StateSelect.prefer, start = 1e-10, fixed = true);
  Real T(stateSelect = StateSelect.prefer, start = 293.15, fixed = true);
  Real u, m, U, V;
equation
  u = cv*(T - 273.15);
  V = A*level;
  m = V*d;
  U = m*u;
  der(m) = m_flow;
  der(U) = m_flow*h_in;
end FillingVessel;
