// Call sites of functions with array outputs in equations (tests/test_func_compile.c,
// call_sites_compiled): an element of an array output (T = spin(time)), a call whose array
// output is the argument of another call (an explicit unitQ() and the same as a default),
// all run on compiled bodies. Closed forms by hand in the test.
model FunctionsCallSites
  function unitQ "the quaternion of no rotation"
    output Real q[4];
  algorithm
    q := {0, 0, 0, 1};
  end unitQ;

  function aligned "Q, or -Q when Q points away from the guess"
    input Real Q[4];
    input Real guess[4] = unitQ();
    output Real R[4];
  algorithm
    R := Q;
    if Q*guess < 0 then
      R := -Q;
    end if;
  end aligned;

  function spin "rotation by a in the plane"
    input Real a;
    output Real T[2, 2];
  algorithm
    T := {{cos(a), sin(a)}, {-sin(a), cos(a)}};
  end spin;

  function trace2 "the trace of a 2 x 2 matrix"
    input Real T[2, 2];
    output Real t;
  algorithm
    t := T[1, 1] + T[2, 2];
  end trace2;

  Real q[4] = aligned({time, 0, 0, -1}, unitQ());
  Real r[4] = aligned({time, 0, 0, -1});
  Real T[2, 2] = spin(time);
  Real tr = trace2(spin(2*time));
  Real x(start = 1, fixed = true);
equation
  der(x) = -tr*x;
end FunctionsCallSites;
