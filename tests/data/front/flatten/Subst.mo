package Subst "Class substitution (st_front_flatten_substituted)"
  model A
    parameter Real k = 1;
    parameter Real y = k;
  end A;
  model B "A with another equation and one more parameter"
    parameter Real k = 1;
    parameter Real g = 2;
    parameter Real y = g*k;
  end B;
  model C "No k: the declaration's modifier k = 3 cannot apply"
    parameter Real y = 1;
  end C;
  model Inner
    A a(k = 3);
  end Inner;
  model Top
    Inner i;
    A top(k = 5);
  end Top;
end Subst;
