model StateMachineNested "a state that is itself a state machine (delayed transitions, reset entry)"
  inner Integer i(start = 0);
  block Inner
    outer output Integer i;
    block A
      outer output Integer i;
    equation
      i = previous(i) + 1;
    end A;
    A a;
    block B
      outer output Integer i;
    equation
      i = previous(i) + 10;
    end B;
    B b;
  equation
    initialState(a);
    transition(a, b, i >= 3, immediate = false);
    transition(b, a, i >= 30, immediate = false);
  end Inner;
  Inner s1;
  block Down
    outer output Integer i;
  equation
    i = previous(i) - 5;
  end Down;
  Down s2;
  Integer u = sample(1, Clock(1, 10));
  Boolean inB = activeState(s1.b);
equation
  initialState(s1);
  transition(s1, s2, i > 40 and u > 0, immediate = false);
  transition(s2, s1, i < 5, immediate = false);
  annotation(experiment(StopTime = 3, Interval = 0.1));
end StateMachineNested;
