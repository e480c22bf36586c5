model EventBack "backSample of an event clock before its first tick"
  Integer n(start = 0);
  Integer nb;
equation
  when Clock(time > 0.5) then
    n = previous(n) + 1;
  end when;
  nb = backSample(n, 1);
end EventBack;
