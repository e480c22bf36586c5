// expect: 5:5: 'end Wrong' does not match the class name 'Right'
model Right
equation
  x = 1;
end Wrong;
