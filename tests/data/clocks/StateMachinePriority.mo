model StateMachinePriority "immediate and delayed transitions, priorities, reset, ticksInState, activeState"
  inner Integer y(start = 0) "n in a, -m in b";
  Real t = sample(time, Clock(1, 10));
  Boolean inA = activeState(a);
  block A
    outer output Integer y;
    Integer n(start = 0) "ticks of a, from 0 again after a reset transition";
  equation
    n = previous(n) + 1;
    y = n;
  end A;
  block B
    outer output Integer y;
    Integer m(start = 10);
  equation
    m = previous(m) + 1;
    y = -m;
  end B;
  A a;
  B b;
equation
  initialState(a);
  transition(a, b, ticksInState() >= 3, immediate = false, reset = false);
  transition(b, a, ticksInState() >= 4, reset = false);
  transition(b, a, t > 1.05 and t < 1.15 or t > 1.65 and t < 1.75, priority = 2);
  annotation(experiment(StopTime = 2, Interval = 0.025));
end StateMachinePriority;
