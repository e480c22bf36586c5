within Modelica.Math;
package Matrices "Functions on matrices (subset)"
  function isEqual "True if two matrices have the same size and all elements differ by at most eps"
    extends Modelica.Icons.Function;
    input Real M1[:, :];
    input Real M2[:, :];
    input Real eps(min=0) = 0 "Allowed difference per element";
    output Boolean result;
  algorithm
    result := size(M1, 1) == size(M2, 1) and size(M1, 2) == size(M2, 2);
    if result then
      for i in 1:size(M1, 1) loop
        for j in 1:size(M1, 2) loop
          if abs(M1[i, j] - M2[i, j]) > eps then
            result := false;
          end if;
        end for;
      end for;
    end if;
  end isEqual;
end Matrices;
