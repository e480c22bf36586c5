model VariableSubSample "subSample of a clock of variable interval"
  Integer k(start = 1);
  Integer j;
equation
  when Clock(k, 100) then
    k = previous(k) + 1;
  end when;
  j = subSample(k, 2);
end VariableSubSample;
