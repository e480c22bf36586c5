within Modelica;
package Blocks "Input/output blocks (subset): interfaces, sources, math"
  import Modelica.Units.SI;
end Blocks;
