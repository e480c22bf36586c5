within;
package Annotations "MSL-like annotations"
  extends Modelica.Icons.Package;

  model Clutch "Clutch-like component with graphics and documentation"
    extends Modelica.Mechanics.Rotational.Interfaces.PartialCompliantWithRelativeStates(
      phi_rel(stateSelect = StateSelect.prefer), w_rel(stateSelect = StateSelect.prefer));
    parameter Real mu_pos[:, 2] = [0, 0.5] "friction coefficient table"
      annotation(Dialog(tab = "Friction", group = "Table"));
    parameter Real peak(final min = 1) = 1.1;
    Modelica.Blocks.Interfaces.RealInput f_normalized annotation(Placement(
      transformation(origin = {0, 110}, extent = {{20, -20}, {-20, 20}}, rotation = 90)));
  equation
    0 = f_normalized;
    annotation(
      defaultComponentName = "clutch",
      Icon(coordinateSystem(preserveAspectRatio = true, extent = {{-100, -100}, {100, 100}}),
        graphics = {
          Rectangle(extent = {{-100, 10}, {-30, -10}}, fillColor = {192, 192, 192},
            fillPattern = FillPattern.HorizontalCylinder),
          Polygon(points = {{-30, 40}, {-60, 50}, {-60, 60}}, lineColor = {0, 0, 127}),
          Line(points = {{0, 90}, {0, 40}}, color = {0, 0, 127}, thickness = 0.5,
            smooth = Smooth.None),
          Text(extent = {{-150, -110}, {150, -70}}, textString = "%name", lineColor = {0, 0, 255}),
          Ellipse(extent = {{-10, 10}, {10, -10}}, startAngle = 0, endAngle = 360)}),
      Documentation(info = "<html>
<p>A clutch with a <strong>friction table</strong>: &mu; = f(w) &gt; 0,
see <a href=\"modelica://Modelica.Mechanics.Rotational\">Rotational</a>.</p>
<pre>
  tau = mu*f_n    // not a comment, a string
</pre>
</html>", revisions = "<html><ul><li>2026: first version</li></ul></html>"),
      experiment(StartTime = 0, StopTime = 1.2, Interval = 0.001, Tolerance = 1e-6),
      __Dymola_experimentSetupOutput(equidistant = false),
      Diagram(graphics));
  end Clutch;

  model OldStyle "annotations between elements, accepted as many tools do"
    Real x;
    annotation(Icon(graphics = {Text(textString = "old")}));
    Real y;
  equation
    x = 1;
    annotation(Diagram(graphics));
    y = 2;
  end OldStyle;
  annotation(uses(Modelica(version = "4.0.0")), version = "0.1", conversion(noneFromVersion = "0.0"));
end Annotations;
