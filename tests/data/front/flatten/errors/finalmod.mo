model Base
  parameter Real a = 1;
end Base;

model FinalMod
  Base f(final a = 5);
end FinalMod;

model Violation
  extends FinalMod(f(a = 6));
end Violation;
