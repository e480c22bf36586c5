// Two winding currents in a frame turning at the speed w, in the steady state der(i) = 0 at
// the speed w = w0 an initial equation gives; the induced voltages k*w*i are products of
// speed and current. From the start values (all 0) Newton's joint step overshoots the
// currents by the factor k*w0/R and damping crept without converging; with w = w0 first
// the rest is linear: R*i1 - k*w0*i2 = U, R*i2 + k*w0*i1 = 0.
model SpeedFirst
  parameter Real U = 100, R = 1e-4, k = 0.1, L = 0.01, J = 1, c = 0.1, w0 = 157;
  Real i1, i2, w;
initial equation
  w = w0;
  der(i1) = 0;
  der(i2) = 0;
equation
  L*der(i1) = U - R*i1 + k*w*i2;
  L*der(i2) = -R*i2 - k*w*i1;
  J*der(w) = -c*w;
end SpeedFirst;
