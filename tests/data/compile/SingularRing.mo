// A cyclic linear loop of N unknowns (N even) whose matrix is singular, each equation a
// difference of neighbours (any constant added to all x[i] solves it too), and consistent
// (the steps alternate +1, -1 around the ring: their sum is 0). Large and sparse, so KLU
// factors it: the last pivot is an exact zero (all entries are 0 or +-1), and the block
// takes its minimum-norm solution (solve.c singular_step) in a dense matrix grown for it:
// x[i] = 0.5 for even i, -0.5 for odd i, so s = t / 2 (tests/test_compile.c).
model SingularRing
  parameter Integer N = 50;
  Real x[N](start = {i for i in 1:N});
  Real s(start = 0, fixed = true);
equation
  x[1] - x[N] = -1;
  for i in 2:N loop
    x[i] - x[i - 1] = if mod(i, 2) == 0 then 1 else -1;
  end for;
  der(s) = 1 + x[1];
end SingularRing;
