/* Every expression form of the grammar.
   Comments may hold Unicode: ω = 2π·f, ∂x/∂t, „quotes" and /* is not nested here.
*/
model Expressions
  // numbers: integers, reals, exponents, leading zeros, trailing dot
  Real n1 = 0;
  Real n2 = 42;
  Real n3 = 3.14159;
  Real n4 = 1e3;
  Real n5 = 2.5E-3;
  Real n6 = 7.;
  Real n7 = 1.e+2;
  Real n8 = 007;
  Real n9 = .5;
  Real n10 = .25e-1;
  // strings: escapes and Unicode
  String s1 = "plain";
  String s2 = "quote \" backslash \\ newline \n tab \t single \' question \? bell \a";
  String s3 = "more escapes: \b \f \r \v";
  String s4 = "Unicode: Ω, µ, 温度, 😀";
  String s5 = "multi
line string";
  String s6 = "con" + "cat" + "enation";
  Boolean b1 = true;
  Boolean b2 = false;
  // quoted identifiers
  Real 'x.y' = 1;
  Real 'with space' = 'x.y' * 2;
  Real 'esc\'aped' = 0;
  // operators with precedence
  Real e1 = 1 + 2 * 3 ^ 2 - 4 / 2;
  Real e2 = -2 ^ 2;
  Real e3 = +n1 - (-0);
  Real e4[3] = {1, 2, 3} .* {4, 5, 6} ./ {1, 1, 1} .+ {0, 0, 0} .- {1, 1, 1};
  Real e5[3] = {1, 2, 3} .^ 2;
  Real e6[3] = .-{1, 2, 3};
  Boolean e7 = n1 < n2 and n2 <= n3 or not n3 > n4;
  Boolean e8 = n1 >= n2 or n1 == n2 and n1 <> n2;
  // if-expressions, nested and with elseif
  Real e9 = if b1 then 1 elseif b2 then 2 else 3;
  Real e10 = if if b1 then b2 else b1 then 1 else 2;
  Real e11 = 1 + (if b1 then 2 else 3);
  // ranges
  Real r1[5] = 1:5;
  Real r2[3] = 1:2:5;
  Real r3[3] = 1.0:0.5:2.0;
  // arrays, comprehensions, matrices
  Real a0[0] = {};
  Real a1[2, 2] = {{1, 2}, {3, 4}};
  Real a2[3] = {i ^ 2 for i in 1:3};
  Real a3[2, 3] = {i * j for i in 1:2, j in 1:3};
  Real a4[2, 2] = [1, 2; 3, 4];
  Real a5[1, 3] = [1, 2, 3];
  Real a6[2, 1] = [1; 2];
  Real a7[2, 4] = [a4, a4];
  Real a8 = a1[end, end - 1] + a2[end] + a4[1, :] * a2[1:2];
  Real a9[2] = a3[:, end];
  Real a10 = a1[size(a1, 1), [1, 2] * {1, 0}];
  // function calls: positional, named, reduction, partial application, der/initial/pure
  Real f1 = sin(n1) + Modelica.Math.atan2(n1, n2);
  Real f2 = sum(a2[i] for i in 1:3);
  Real f3 = max(a2[i] * a2[j] for i in 1:3, j in 1:3);
  Real f4 = integrate(function square(scale = 2), 0, 1, tolerance = 1e-6);
  Real f5 = solve(f = function Modelica.Math.sin(), x0 = 0);
  Real f6 = der(n1) + pure(counter()) + (if initial() then 0 else 1);
  Real f7 = .Modelica.Constants.pi;
  Real f8 = noArgs();
  Real f9 = a.b[1].c.f(2);
  Real f10 = String(n1, format = "%g");
  Real f11 = (n1);
  Real f12 = ((n1 + n2) * (n3));
end Expressions;
