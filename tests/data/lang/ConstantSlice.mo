// A package constant array sliced by a range whose bound is a package constant, inside a
// function body (Media.Incompressible's s_T: poly_Cp[1:npol] came out as one element chosen
// by `if (1:2) == 1 then ...`, and the entropy NaN).
package ConstantSlice
  constant Real c[4] = {1, 10, 100, 1000};
  constant Integer n = 3;

  function sum3 "the first n elements, weighted by x"
    input Real x;
    output Real y;
  algorithm
    y := x * sum(c[1:n]) + sum(c[2:2:4]);
  end sum3;

  model Test
    Real y = sum3(time);
  end Test;
end ConstantSlice;
