// Locals of open size ([:]) sized by the first value assigned to them, where that value
// reads other locals declared after them: the redeclared `fractions` assigns its output
// from a protected `q` declared below it, and `first` sizes X from a call and Y from X.
package FunctionsAssignedSize
  record State
    Real p;
    Real T;
  end State;
  partial package Base
    replaceable partial function fractions
      input State state;
      output Real[:] X;
    end fractions;
    function first
      input State state;
      output Real y;
    protected
      Real[:] Y;
      Real[:] X;
    algorithm
      X := fractions(state);
      Y := 2 * X;
      y := Y[1] + X[2];
    end first;
  end Base;
  package Impl
    extends Base;
    redeclare function extends fractions
    protected
      Real q;
    algorithm
      q := state.p / (2 * state.T);
      X := {q, 1 - q};
    end fractions;
  end Impl;
  model Use
    State s(p = 1, T = time + 1);
    Real y = Impl.first(s);
  end Use;
end FunctionsAssignedSize;
