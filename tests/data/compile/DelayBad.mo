// delay() without delayMax needs a parameter delay time (tests/test_lang.c)
model DelayBad
  Real x(start = 1, fixed = true);
equation
  der(x) = -delay(x, 0.5 + x);
end DelayBad;
