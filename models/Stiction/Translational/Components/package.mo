within Stiction.Translational;
package Components "Regularized SupportFriction and Brake; LuGre element"
  import SI = Modelica.Units.SI;
end Components;
