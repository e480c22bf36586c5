within Modelica.Thermal;
package HeatTransfer "Lumped heat transfer (subset)"
end HeatTransfer;
