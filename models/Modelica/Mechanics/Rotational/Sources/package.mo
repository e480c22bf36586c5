within Modelica.Mechanics.Rotational;
package Sources "Sources of torque, angle and speed (subset)"
end Sources;
