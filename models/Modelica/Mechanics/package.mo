within Modelica;
package Mechanics "1-dimensional mechanics (subset): rotational and translational"
  import Modelica.Units.SI;
end Mechanics;
