// N masses coupled by N - 1 spring-dampers, whose relative position and speed are the
// preferred states: each mass position is the one before plus a relative state, so it depends
// on every state before it, though no derivative reads it (pattern.c builds no set for it).
model ComponentChain
  import T = Modelica.Mechanics.Translational;
  parameter Integer N = 20;
  T.Components.Mass mass[N](each m = 1, each s(start = 0, fixed = true),
    each v(start = 0, fixed = true));
  T.Components.SpringDamper sd[N - 1](each c = 1e3, each d = 1);
  T.Sources.Force force;
  Modelica.Blocks.Sources.Sine sine(f = 1);
equation
  connect(sine.y, force.f);
  connect(force.flange, mass[1].flange_a);
  for i in 1:N - 1 loop
    connect(mass[i].flange_b, sd[i].flange_a);
    connect(sd[i].flange_b, mass[i + 1].flange_a);
  end for;
  annotation(experiment(StopTime = 1));
end ComponentChain;
