within Modelica.Thermal.HeatTransfer;
package Sources "Temperature and heat flow sources (subset)"
end Sources;
