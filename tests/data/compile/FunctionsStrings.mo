// Strings as values of the function machine (tests/test_func_compile.c): a String input with a
// default literal, a String local bound to it, passed on to another function; the numbers are
// computed on the machine (no call site or body refused). y = 2 time + 1 when
// the unit is given, z = 2 time without it; w has sizeOf("abc", 2) = 3 elements.
model FunctionsStrings
  function factor
    input Real x;
    input String name;
    input Boolean given;
    output Real y;
  algorithm
    y := 2 * x;
    if given then
      y := y + 1;
    end if;
  end factor;

  function scaled "a String input passed on through a String local"
    input Real x;
    input String unit = "m";
    input Boolean given = false;
    output Real y;
  protected
    String u = unit;
    String v;
  algorithm
    v := u;
    y := factor(x, v, given);
  end scaled;

  function sizeOf "an array size computed while flattening from a String argument"
    input String name;
    input Integer k;
    output Integer n;
  protected
    String s = name;
  algorithm
    n := k + 1;
  end sizeOf;

  parameter Integer m = sizeOf("abc", 2);
  Real w[m] = fill(time, m);
  Real y = scaled(time, "km", true);
  Real z = scaled(time);
end FunctionsStrings;
