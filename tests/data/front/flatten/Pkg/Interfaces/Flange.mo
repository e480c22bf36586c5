within Pkg.Interfaces;
connector Flange
  SI.Length s;
  flow SI.Force f;
end Flange;
