model ParametersOnly "no variable: the result holds the parameters"
  parameter Real a = 2;
  parameter Real b = 3 * a;
end ParametersOnly;
