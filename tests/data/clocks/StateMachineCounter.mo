model StateMachineCounter "two states writing one outer output, delayed transitions, on a 1 s clock"
  inner Integer i(start = 0);
  Integer u = sample(1, Clock(1, 1));
  block State1
    outer output Integer i;
  equation
    i = previous(i) + 2;
  end State1;
  State1 state1;
  block State2
    outer output Integer i;
  equation
    i = previous(i) - 1;
  end State2;
  State2 state2;
equation
  initialState(state1);
  transition(state1, state2, i > 10 and u > 0, immediate = false);
  transition(state2, state1, i < 1, immediate = false);
  annotation(experiment(StopTime = 30, Interval = 0.5));
end StateMachineCounter;
