within Pkg.Interfaces;
partial model PartialTwo
  Flange a;
  Flange b;
end PartialTwo;
