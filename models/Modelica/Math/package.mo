within Modelica;
package Math "Functions the library needs: table interpolation and comparisons"
end Math;
