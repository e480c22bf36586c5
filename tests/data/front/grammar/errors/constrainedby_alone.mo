// expect: 3:10: 'constrainedby' is only allowed on a replaceable element
model CB
  Real x constrainedby Real;
end CB;
