// Functions called as statements (tests/test_func_compile.c, statement_calls_compiled): a
// function without outputs that only asserts (as table checks do) called from an initial
// algorithm and from another function, and a function with outputs called for nothing.
// FunctionsStatementsBad's table is not increasing: its assert fails at initialization.
model FunctionsStatements
  function check "asserts that the table is strictly increasing"
    input Real table[:];
  protected
    Integer n = size(table, 1);
  algorithm
    for i in 2:n loop
      assert(table[i] > table[i - 1], "table not increasing at " + String(i));
    end for;
  end check;

  function twice "two outputs"
    input Real x;
    output Real a;
    output Real b;
  algorithm
    a := 2*x;
    b := 3*x;
  end twice;

  function use "calls check and twice as statements, then twice for its second output"
    input Real x;
    output Real y;
  protected
    Real a;
  algorithm
    check({1, 2, 3 + x});
    twice(x);
    (a, y) := twice(x);
    y := y + a;
  end use;

  parameter Real table[3] = {0, 1, 2};
  Real y = use(time);
initial algorithm
  check(table);
end FunctionsStatements;

model FunctionsStatementsBad
  extends FunctionsStatements(table = {0, 2, 1});
end FunctionsStatementsBad;
