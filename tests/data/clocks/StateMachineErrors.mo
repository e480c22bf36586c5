model StateMachineErrors "two transitions of one priority leave state a"
  Real t = sample(time, Clock(1, 10));
  block A
    Integer n(start = 0);
  equation
    n = previous(n) + 1;
  end A;
  A a;
  A b;
equation
  initialState(a);
  transition(a, b, t > 0.5);
  transition(a, b, t > 0.7);
end StateMachineErrors;
