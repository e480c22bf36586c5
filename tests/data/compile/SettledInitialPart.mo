// Two independent parts of one initial system. The first needs Newton (a + b^2 = 2,
// a = b, from 0). The second already holds at its start y = 0 and its residual is flat
// there (any y <= 1 solves it): the joint Newton matrix had a zero column, was singular,
// and the initial system "had no solution". Solved part by part, y stays at its start.
model SettledInitialPart
  Real a(start = 0);
  Real b(start = 0);
  Real y(start = 0);
equation
  der(a) = 0;
  der(b) = 0;
  der(y) = 0;
initial equation
  a + b * b = 2;
  a = b;
  noEvent(max(y - 1, 0)) = 0;
end SettledInitialPart;
