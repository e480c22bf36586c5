// Algorithm sections in a model (tests/test_lang.c). x = exp(-t) through an algorithm output
// y; z uses an assigned value and an if-statement with a relation (an event at x = 0.5,
// t = ln 2); a while-loop with break sums 1..4; a second section counts samples with a
// when-statement (compared with the same count as a when-equation) and adds 10 once when
// x falls below 0.5; an assert that holds.
model Algorithm
  Real x(start = 1, fixed = true);
  Real y, z, s;
  Integer k;
  Integer n(start = 0, fixed = true);
  Integer n2(start = 0, fixed = true);
  Integer count(start = 0, fixed = true);
equation
  der(x) = -y;
  when sample(0, 0.5) then
    n2 = pre(n2) + 1;
  end when;
algorithm
  y := x;
  z := 2*y;
  if x > 0.5 then
    z := z + 1;
  else
    z := z - 1;
  end if;
  s := 0;
  k := 0;
  while true loop
    k := k + 1;
    s := s + k;
    if k >= 4 then
      break;
    end if;
  end while;
  assert(s > 0, "s must be positive");
algorithm
  when sample(0, 0.5) then
    n := n + 1;
  end when;
  when x < 0.5 then
    count := count + 10;
  elsewhen x < 0.25 then
    count := count + 100;
  end when;
  annotation(experiment(StopTime = 2, Interval = 0.25));
end Algorithm;
