within Stiction;
package Examples "Stick-slip benchmarks (spec/benchmarks.md)"
  extends Modelica.Icons.ExamplesPackage;
end Examples;
