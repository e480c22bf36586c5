// expect: 7:1: unexpected 'end', expecting ';'
// expect: 9:11: unexpected ';', expecting ',' or ']'
// expect: 14:21: positional argument after named arguments
// expect: 15:17: unexpected ')'
model M "the missing ';' makes recovery swallow 'end M;': no extra end-of-file error"
  Real x
end M;
model N
  Real y[2;
equation
  y = {1, 2};
end N;
model O
  Real w = g(a = 1, 2);
  Real z = f(x, );
end O;
