within Modelica;
package Thermal "Thermal library (subset: lumped heat transfer for heat ports)"
  import Modelica.Units.SI;
end Thermal;
