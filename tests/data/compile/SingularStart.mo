// h*h = 4 + t from h = 0: the Jacobian 2h is 0 there and the minimum-norm step is 0, which
// is no solution (the residual stays -4). It was taken for one: h = 0 for the whole run,
// silently. Now the Newton starts again beside h = 0 and finds h = 2.
model SingularStart
  Real h;
equation
  h * h = 4 + time;
end SingularStart;
