model StateMachineInnerTicks "ticksInState() of an inner state counts the ticks its machine runs: s1 is left for s2 for three ticks and resumed without reset"
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
      i = previous(i) + 100;
    end B;
    B b;
  equation
    initialState(a);
    transition(a, b, ticksInState() >= 4, immediate = false);
  end Inner;
  Inner s1;
  block Pause
    outer output Integer i;
  equation
    i = previous(i);
  end Pause;
  Pause s2;
  Integer k(start = 0) "the ticks so far";
equation
  when Clock(1, 10) then
    k = previous(k) + 1;
  end when;
  initialState(s1);
  transition(s1, s2, k == 2, immediate = false, reset = false);
  transition(s2, s1, k == 5, immediate = false, reset = false);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end StateMachineInnerTicks;
