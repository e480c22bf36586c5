model EventSubShift "sub- and shift-sampling of an event clock: they take some of its ticks"
  Clock e = Clock(sin(6.283185307179586*time) > 0.5) "ticks once per second, near k + 1/12";
  Integer n(start = 0) "ticks of e";
  Integer ns "n on e shifted by 2 ticks";
  Integer nss(start = 0) "counts the ticks of ns's clock";
  Integer nsub "n on every third tick of e";
  Integer nsh "nsub on its clock shifted by two of its ticks";
  Integer nb "nsh on its clock moved back by one tick of it";
equation
  when e then
    n = previous(n) + 1;
  end when;
  ns = shiftSample(n, 2);
  nss = previous(nss) + 1 + 0*ns;
  nsub = subSample(n, 3);
  nsh = shiftSample(nsub, 2);
  nb = backSample(nsh, 1);
  annotation(experiment(StopTime = 10, Interval = 0.05));
end EventSubShift;
