within ModelicaTest;
package Translational "Tests of Modelica.Mechanics.Translational"
  import SI = Modelica.Units.SI;
end Translational;
