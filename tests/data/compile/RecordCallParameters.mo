// A record parameter bound to one call of a record function: each field is bound to a call of
// its own (the output that field is) on the same arguments. The front end translates the
// call once and gives each field a node of its own over the shared arguments; the compiler
// emits the arguments once and copies that program for the other fields (classify.c
// compile_param_progs, emit.c st_emit_again), their call sites sharing shapes and bodies.
model RecordCallParameters
  record Card
    Real a;
    Real b;
    Real c;
  end Card;
  function init
    input Real x;
    input Real y;
    input Real z;
    output Card card;
  algorithm
    card.a := x + y;
    card.b := x*z;
    card.c := y - z;
  end init;
  model Device
    parameter Real x = 1;
    parameter Real y = 2;
    parameter Real z = 3;
    final parameter Card card = init(x, y, z);
    Real v(start = 1, fixed = true);
  equation
    der(v) = -card.a*v + card.b - card.c;
  end Device;
  Device d1;
  Device d2(x = 2);
end RecordCallParameters;
