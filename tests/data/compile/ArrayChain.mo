// N masses coupled by spring-dampers, written with arrays and for-loops (2N states); the first
// mass is driven by a sine force. The translation-scale benchmark's array family.
model ArrayChain
  parameter Integer N = 10;
  parameter Real m = 1, k = 1e3, d = 1;
  Real x[N](each start = 0, each fixed = true);
  Real v[N](each start = 0, each fixed = true);
  Real f[N + 1];
equation
  f[1] = 0;
  f[N + 1] = 0;
  for i in 2:N loop
    f[i] = k*(x[i] - x[i - 1]) + d*(v[i] - v[i - 1]);
  end for;
  for i in 1:N loop
    der(x[i]) = v[i];
    m*der(v[i]) = f[i + 1] - f[i] + (if i == 1 then sin(time) else 0);
  end for;
  annotation(experiment(StopTime = 1));
end ArrayChain;
