within ModelicaTest;
package Rotational "Tests of Modelica.Mechanics.Rotational"
  import SI = Modelica.Units.SI;
end Rotational;
