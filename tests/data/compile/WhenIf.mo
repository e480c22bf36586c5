model WhenIf "an if-equation inside a when-equation: each target chooses its branch's value"
  Real x(start = 0, fixed = true);
  discrete Real a(start = 0, fixed = true);
  discrete Real b(start = 0, fixed = true);
  Integer n(start = 0, fixed = true);
equation
  der(x) = 1;
  when sample(0.1, 0.1) then
    n = pre(n) + 1;
    if mod(n, 2) == 0 then
      a = x;
    elseif n == 3 then
      a = -1;
      b = x;
      reinit(x, 0);
    else
      assert(n < 5, "the fifth tick");
    end if;
  end when;
end WhenIf;
