within Stiction.Rotational;
package Components "Regularized BearingFriction, Clutch, Brake; Stribeck and LuGre elements"
  import SI = Modelica.Units.SI;
end Components;
