within Modelica.Mechanics.Translational.Examples;
package Utilities "Functions used by the examples"
  extends Modelica.Icons.UtilitiesPackage;
end Utilities;
