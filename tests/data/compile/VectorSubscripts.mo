// Ranges and index vectors as subscripts of arrays read in a function (tests/test_lang.c
// vector_subscripts), as the MSL's random generators do (state[i - 2:i - 1]); run by the
// function machine.
model VectorSubscripts
  function pick
    input Real v[:];
    input Integer i;
    output Real y;
  protected
    Real w[2];
    Real u[2];
  algorithm
    w := v[i - 1:i];
    u := v[{size(v, 1), 1}];
    y := w[1] + 10 * w[2] + 100 * u[1] + 1000 * u[2];
  end pick;
  Real y = pick({1, 2, 3, 4} * (1 + time), 3);
end VectorSubscripts;
