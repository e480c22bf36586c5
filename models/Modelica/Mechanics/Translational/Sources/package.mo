within Modelica.Mechanics.Translational;
package Sources "Sources of force, position and speed (subset)"
end Sources;
