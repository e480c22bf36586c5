within Modelica.Mechanics.Translational;
package Examples "Translational examples (stiction's own versions of the MSL friction examples)"
  extends Modelica.Icons.ExamplesPackage;
end Examples;
