within Modelica.Mechanics.Translational.Interfaces;
partial connector Flange "Translational flange: absolute position and cut force"
  SI.Position s "Absolute position of the flange";
  flow SI.Force f "Cut force in the flange";
end Flange;
