within;
package ModelicaTest "Test models of stiction's Modelica subset (own versions of the MSL's ModelicaTest friction tests)"
end ModelicaTest;
