within Modelica.Math;
function tempInterpol2
  "Values of several table columns at abscissa u (each as tempInterpol1)"
  extends Modelica.Icons.Function;
  input Real u "Abscissa, looked up in the first column";
  input Real table[:, :] "Table; first column increasing";
  input Integer icol[:] "Columns whose values are wanted";
  output Real y[1, size(icol, 1)] "Interpolated values";
algorithm
  for j in 1:size(icol, 1) loop
    y[1, j] := Modelica.Math.tempInterpol1(u, table, icol[j]);
  end for;
end tempInterpol2;
