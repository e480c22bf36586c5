within Modelica.Blocks;
package Math "Mathematical blocks (subset)"
  import Modelica.Blocks.Interfaces;
end Math;
