within Modelica.Math;
function tempInterpol1
  "Value of column icol of a table at abscissa u: piecewise linear, linear extrapolation"
  extends Modelica.Icons.Function;
  input Real u "Abscissa, looked up in the first column";
  input Real table[:, :] "Table; first column increasing";
  input Integer icol "Column whose value is wanted";
  output Real y "Interpolated value";
protected
  Integer n = size(table, 1);
  Integer k;
algorithm
  if n <= 1 then
    // a single row is a constant characteristic
    y := table[1, icol];
  else
    // segment k..k+1: the first whose right end lies beyond u; below the table the first
    // segment and above it the last one, so that values outside extrapolate linearly
    // through the two outermost points (the MSL's T(x))
    k := 1;
    while k < n - 1 and u >= table[k + 1, 1] loop
      k := k + 1;
    end while;
    if table[k + 1, 1] > table[k, 1] then
      y := table[k, icol] + (table[k + 1, icol] - table[k, icol])*(u - table[k, 1])
        /(table[k + 1, 1] - table[k, 1]);
    else
      // zero-width last segment (a jump at the end): hold the last value
      y := table[k + 1, icol];
    end if;
  end if;
end tempInterpol1;
