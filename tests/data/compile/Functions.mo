// User functions called from equations (tests/test_compile_functions.c): a table sweep with
// a for loop, a Newton solve through a call, a while-loop look-up, a default argument, and a
// while condition whose `and` must short-circuit.
model Functions
  function polyCol "Value at u of the polynomial whose coefficients are column icol of table"
    input Real u;
    input Real table[:, :];
    input Integer icol = 2;
    output Real y;
  protected
    Integer n = size(table, 1);
  algorithm
    y := 0;
    for i in 1:n loop
      y := y + table[i, icol]*u^(i - 1);
    end for;
  end polyCol;

  function lookup "Piecewise linear interpolation in column 2 over column 1 (clamped)"
    input Real u;
    input Real table[:, 2];
    output Real y;
  protected
    Integer k = 1;
  algorithm
    if u <= table[1, 1] then
      y := table[1, 2];
      return;
    end if;
    while k < size(table, 1) - 1 and u > table[k + 1, 1] loop
      k := k + 1;
    end while;
    y := table[k, 2] + (table[k + 1, 2] - table[k, 2])*min(1, (u - table[k, 1])
      /(table[k + 1, 1] - table[k, 1]));
  end lookup;

  function countBelow "Number of leading elements of v below u"
    input Real u;
    input Real v[:];
    output Real n;
  protected
    Integer i = 1;
  algorithm
    // `and` must short-circuit: v[i] does not exist once i > size(v, 1)
    while i <= size(v, 1) and v[i] < u loop
      i := i + 1;
    end while;
    n := i - 1;
  end countBelow;

  // column 2: 1 - x (so der(x) = 1 - x, x = 1 - exp(-t)); column 3: z^2 - 2
  parameter Real c[3, 3] = {{0, 1, -2}, {0, -1, 0}, {0, 0, 1}};
  parameter Real tab[4, 2] = {{0, 0}, {1, 2}, {2, 2}, {3, -1}};
  Real x(start = 0, fixed = true);
  Real z(start = 1);
  Real w;
  Real v;
  Real nb;
equation
  der(x) = polyCol(x, c);
  polyCol(z, c, 3) = time;
  w = lookup(time, tab);
  v = lookup(-1 - time, tab);
  nb = countBelow(10, {0, 1, 2, 3});
end Functions;
