// expect: 3:21: unexpected '<', expecting ';'
model Chain
  Boolean b = 1 < 2 < 3;
end Chain;
