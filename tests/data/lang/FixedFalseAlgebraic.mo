// Parameters with fixed = false whose initial equations read algebraic variables, known only
// once the initial system is solved (a prismatic joint's branch chosen from the positions the
// kinematics give): branch picks the root of d*d - r*r = 0 nearest the guess 1 (d = r = 2 x,
// x(0) = 1), and r0 holds r's initial value. Closed forms: d = 2 (1 + t), h = 2 r0 = 4.
model FixedFalseAlgebraic
  function nearest
    input Real a;
    input Real guess;
    output Boolean positive;
  algorithm
    positive := abs(a - guess) <= abs(-a - guess);
  end nearest;
  parameter Boolean branch(fixed = false);
  parameter Real r0(fixed = false);
  Real x(start = 1, fixed = true);
  Real r;
  Real d;
  Real h;
initial equation
  branch = nearest(r, 1);
  r0 = r;
equation
  der(x) = 1;
  r = 2 * x;
  d = if branch then r else -r;
  h = 2 * r0;
end FixedFalseAlgebraic;
