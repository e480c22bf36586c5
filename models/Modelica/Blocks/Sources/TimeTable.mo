within Modelica.Blocks.Sources;
block TimeTable "Piecewise linear function of time given by a table [t, y]"
  parameter Real table[:, 2] = [0, 0] "Rows [time, value]; equal times mark a jump";
  parameter Real timeScale(final min=Modelica.Constants.eps) = 1 "Time unit of the first column";
  extends Interfaces.SignalSource;
equation
  // linear interpolation, linear extrapolation through the outermost two points
  y = offset + (if time < startTime then 0
    else Modelica.Math.tempInterpol1((time - startTime)/timeScale, table, 2));
end TimeTable;
