// Language features of fluid and media libraries (issue 15): models written for
// tests/test_langfluid.c.
package Fluid
  // Start values defined through each other, decided by an Evaluate parameter: only the
  // branch taken is a dependency.
  model Vessel
    parameter Boolean use_T_start = true annotation(Evaluate = true);
    parameter Real T_start = if use_T_start then T0 else h_start / 4000;
    parameter Real h_start = if use_T_start then 4000 * T_start else 1.6e6;
    parameter Real T0 = 300;
    Real T(start = T_start, fixed = true);
  equation
    der(T) = -(T - 290);
  end Vessel;

  model CrossDefined
    Vessel a;
    Vessel b(use_T_start = false);
    Real h = a.h_start + b.T_start;
  end CrossDefined;

  // The same cycle with a condition that is an ordinary parameter stays an error.
  model TrueCycle
    parameter Boolean flag = true;
    parameter Real p = if flag then 1 else q;
    parameter Real q = if flag then 2 * p else 3;
    Real x = p + q;
  end TrueCycle;
end Fluid;
