// An initial algorithm that assigns a variable the equations determine: a located error.
model InitialAlgorithmBad
  Real x;
initial algorithm
  x := 1;
equation
  x = time;
end InitialAlgorithmBad;
