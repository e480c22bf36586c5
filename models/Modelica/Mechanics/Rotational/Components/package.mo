within Modelica.Mechanics.Rotational;
package Components "Rotational components: inertia, compliance, gears, friction elements"
end Components;
