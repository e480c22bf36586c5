within Modelica.Mechanics.Rotational;
package Interfaces "Flanges and partial models of rotational components"
end Interfaces;
