model TypeMismatch
  parameter Real x = true;
end TypeMismatch;
