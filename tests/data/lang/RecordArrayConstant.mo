// A package constant array of records read in functions with an index known only when the
// body runs (MixtureGasNasa's data[j].MM, h_T(data[i], T) for i in 1:nX) and as a whole
// field, data.MM; and an if-expression whose record branches have arrays of sizes known
// only then. Closed forms with M = {2, 4}, c = {{1, 10}, {2, 20}}:
// meanM(X) = 1 / sum(X[j] / M[j]), total(T) = sum(c[i,1] + c[i,2] T) = 3 + 30 T,
// weighted = M * {1, 1} = 6, picked(n) = sum of the X of the record chosen = 1 or 0.3.
package RecordArrayConstant
  record Data
    String name;
    Real M;
    Real c[2];
  end Data;
  constant Data[2] data = {Data(name = "a", M = 2, c = {1, 10}), Data(name = "b", M = 4, c = {2, 20})};
  record State
    Real p;
    Real X[:];
  end State;
  function h
    input Data d;
    input Real T;
    output Real y;
  algorithm
    y := d.c[1] + d.c[2] * T;
  end h;
  function meanM
    input Real X[:];
    output Real m;
  algorithm
    m := 1 / sum(X[j] / data[j].M for j in 1:size(X, 1));
  end meanM;
  function total
    input Real T;
    output Real y;
  protected
    Real e[2] = {h(data[i], T) for i in 1:2};
  algorithm
    y := sum(e);
  end total;
  function weighted
    output Real y;
  algorithm
    y := data.M * {1, 1};
  end weighted;
  function picked
    input Real X[:];
    output Real y;
  protected
    State s;
  algorithm
    s := if size(X, 1) == 0 then State(p = 1, X = {0.1, 0.2}) else State(p = 2, X = X);
    y := sum(s.X);
  end picked;
  model Test
    Real x = 0.5 + 0.5 * time;
    Real m = meanM({x, 1 - x});
    Real t = total(time);
    Real w = weighted();
    Real p1 = picked({x, 1 - x});
    Real p0 = picked(fill(0.0, 0));
  end Test;
end RecordArrayConstant;
