within Modelica;
package Units "SI units and conversions (subset)"
end Units;
