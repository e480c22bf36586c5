// A function called for its side effects as an equation of a when-equation (the MSL's
// `when terminal() then Streams.close(file); end when;`), tests/test_extc.c
// call_in_when_equation: it runs at the instant; its failure is a located error there.
package WhenCall
  function check "asserts u < 1"
    input Real u;
  algorithm
    assert(u < 1, "check: u = " + String(u) + " is not below 1");
  end check;

  function extc_log "prints x as a message: C with a side effect"
    input Real x;
  external "C" annotation(Include = "
#include \"ModelicaUtilities.h\"
void extc_log(double x) { ModelicaFormatMessage(\"extc_log: x = %g\\n\", x); }");
  end extc_log;

  model Passes
    Real x = time;
  equation
    when time >= 0.25 then
      extc_log(x);
    end when;
    when terminal() then
      extc_log(2 * x);
    end when;
  end Passes;

  model Fails
    Real x = 4 * time;
  equation
    when time >= 0.5 then
      check(x);
    end when;
  end Fails;
end WhenCall;
