// A break in a for-loop of a model algorithm leaves that loop, not the algorithm: k = 1
// before t = 0.5 and 2 after, so n[1] = 1, n[2] = 0 then 2, n[3] = 0 throughout, and after
// the loop `after` = 7 in every row. An enumeration without a start attribute starts at its
// first literal: e = E.a = 1 until t = 0.75, then E.c = 3.
model AlgorithmBreak
  type E = enumeration(a, b, c);
  E e;
  Integer k;
  Integer n[3](each start = 0);
  Integer after;
equation
  k = if time < 0.5 then 1 else 2;
  when time > 0.75 then
    e = E.c;
  end when;
algorithm
  for i in 1:3 loop
    if i > k then
      break;
    end if;
    n[i] := i;
  end for;
  after := 7;
end AlgorithmBreak;
