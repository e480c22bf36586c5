// A relation decided within rounding at its crossing must still fire when its operand
// then leaves the other way. x_false = 1e-9*(1 - u^2) crosses zero upwards at t = 1; with
// b true x sits 6e-8 lower, inside the crossing's window (1e-7), so b is taken true there.
// x then falls with u^2 and leaves the window at u^2 = 41 (t = 2 + sqrt(41)): b must turn
// false at that second state event, where x_false = -4e-8 agrees.
model CrossedBack
  Real u(start = -2, fixed = true);
  Boolean b;
  Real x;
equation
  der(u) = 1;
  b = x > 0;
  x = 1e-9*(1 - u^2) - (if b then 6e-8 else 0);
end CrossedBack;
