within;
package Pkg "A directory package"
  import SI = Pkg.Units;
  constant Real pi = 3.14159265358979;
  package Units
    type Length = Real(unit = "m");
    type Force = Real(unit = "N");
  end Units;
end Pkg;
