within Modelica.Blocks;
package Interfaces "Connectors and partial blocks for signals"
end Interfaces;
