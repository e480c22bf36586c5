within Modelica.Mechanics.Rotational;
package Examples "Rotational examples (stiction's own versions of the MSL friction examples)"
  extends Modelica.Icons.ExamplesPackage;
end Examples;
