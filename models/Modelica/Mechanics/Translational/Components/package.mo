within Modelica.Mechanics.Translational;
package Components "Translational components: masses, compliance, contacts, friction elements"
end Components;
