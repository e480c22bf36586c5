within Modelica.Thermal.HeatTransfer;
package Components "Lumped thermal components (subset)"
end Components;
