within Modelica.Mechanics.Translational.Examples.Utilities;
function GenerateStribeckFrictionTable
  "Table [v, f] of the Stribeck curve f = F_Coulomb + F_prop*v + F_Stribeck*exp(-fexp*v), v in 0..v_max"
  extends Modelica.Icons.Function;
  input Real F_prop(final unit="N.s/m", final min=0) "Viscous friction coefficient";
  input SI.Force F_Coulomb "Coulomb friction force";
  input SI.Force F_Stribeck "Stribeck excess at v = 0";
  input Real fexp(final unit="s/m", final min=0) "Decay of the Stribeck excess";
  input SI.Velocity v_max "Largest speed in the table";
  input Integer nTable(final min=2) = 100 "Number of rows (equidistant speeds)";
  output Real table[nTable, 2] "Rows [v, f]";
algorithm
  for i in 1:nTable loop
    table[i, 1] := v_max*(i - 1)/(nTable - 1);
    table[i, 2] := F_Coulomb + F_prop*table[i, 1] + F_Stribeck*exp(-fexp*table[i, 1]);
  end for;
end GenerateStribeckFrictionTable;
