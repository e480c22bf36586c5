within Modelica.Thermal.HeatTransfer;
package Celsius "Sources with temperatures given in degree Celsius (subset)"
end Celsius;
