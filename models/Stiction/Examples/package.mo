within Stiction;
package Examples "Stick-slip benchmarks (doc/benchmarks.md)"
  extends Modelica.Icons.ExamplesPackage;
end Examples;
