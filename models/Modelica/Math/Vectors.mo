within Modelica.Math;
package Vectors "Functions on vectors (subset)"
  function interpolate
    "Piecewise linear interpolation y(xi) in the points (x, y); linear extrapolation outside"
    extends Modelica.Icons.Function;
    input Real x[:] "Abscissas, increasing (equal neighbours mark a jump)";
    input Real y[size(x, 1)] "Ordinates";
    input Real xi "Where to interpolate";
    input Integer iLast = 1 "Segment to start the search from (a hint)";
    output Real yi "Interpolated value";
    output Integer iNew = 1 "Segment used (hint for the next call)";
  protected
    Integer n = size(x, 1);
    Integer i;
  algorithm
    if n <= 1 then
      yi := y[1];
      iNew := 1;
    else
      // start from the hint, step left while xi is left of the segment, then right while
      // it is right of it; stop at the outermost segments (extrapolation)
      i := min(max(iLast, 1), n - 1);
      while i > 1 and xi < x[i] loop
        i := i - 1;
      end while;
      while i < n - 1 and xi >= x[i + 1] loop
        i := i + 1;
      end while;
      if x[i + 1] > x[i] then
        yi := y[i] + (y[i + 1] - y[i])*(xi - x[i])/(x[i + 1] - x[i]);
      else
        yi := y[i + 1];
      end if;
      iNew := i;
    end if;
  end interpolate;
end Vectors;
