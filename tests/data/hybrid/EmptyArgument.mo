// A function called with an array of size 0 (a StateGraph step with no output transitions
// passes the empty vector outPort.reset): the call sees size 0 and runs no loop iteration.
model EmptyArgument
  function anyOf
    input Boolean b[:];
    output Boolean r = false;
  algorithm
    for i in 1:size(b, 1) loop
      r := r or b[i];
    end for;
  end anyOf;
  function total
    input Real x[:];
    output Real s = 10;
  algorithm
    s := s + size(x, 1);
    for i in 1:size(x, 1) loop
      s := s + x[i];
    end for;
  end total;
  connector Port
    Boolean reset;
    Real v;
  end Port;
  parameter Integer n = 0;
  Port port[n];
  Boolean active;
  Real k;
equation
  active = time > 0.5 and not anyOf(port.reset);
  k = total(port.v) + time;
end EmptyArgument;
