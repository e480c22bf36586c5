within Modelica.Thermal.HeatTransfer;
package Interfaces "Heat ports and conditional heat-port bases"
end Interfaces;
