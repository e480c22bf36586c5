within Modelica.Blocks;
package Sources "Signal sources (subset)"
  import Modelica.Blocks.Interfaces;
end Sources;
