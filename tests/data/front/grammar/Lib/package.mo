within;
package Lib "A package stored as a directory"
  extends Modelica.Icons.Package;
  constant Real k = 2;
  annotation(uses(Modelica(version = "4.0.0")));
end Lib;
