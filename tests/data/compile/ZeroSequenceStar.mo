// Three R-L branches joined at a floating star point, driven by a balanced three-phase
// source, with a zero-sequence current i0 = (i1 + i2 + i3)/3 through an inductor L0 and
// StateSelect.prefer on it. Kirchhoff's current law at the star makes i0 = 0: both
// constraints are differentiated, and their Jacobian on the derivatives of (i[1], i[2],
// i[3], i0) has rank 2 only with der(i0) among the dummies. A structural choice that keeps
// the preferred i0 as a state leaves i[2], i[3] singular. With the star voltage
// vs = mean(u) = 0, each current solves L di/dt + R i = u from rest.
model ZeroSequenceStar
  parameter Real L = 0.1;
  parameter Real R = 1;
  parameter Real L0 = 0.05;
  parameter Real w = 2*3.141592653589793*5;
  Real i[3](each start = 0, each fixed = true);
  Real i0(stateSelect = StateSelect.prefer) "zero-sequence current";
  Real u[3], v[3], vs, v0;
equation
  for k in 1:3 loop
    u[k] = sin(w*time - (k - 1)*2*3.141592653589793/3);
    v[k] = L*der(i[k]);
    u[k] = R*i[k] + v[k] + vs;
  end for;
  i[1] + i[2] + i[3] = 0;
  3*i0 = i[1] + i[2] + i[3];
  v0 = L0*der(i0);
end ZeroSequenceStar;
