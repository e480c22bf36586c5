model StateMachineNoInitial "a state machine without initialState()"
  Real t = sample(time, Clock(1, 10));
  block A
    Integer n(start = 0);
  equation
    n = previous(n) + 1;
  end A;
  A a;
  A b;
equation
  transition(a, b, t > 0.5);
end StateMachineNoInitial;
