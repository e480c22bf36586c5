within Lib.Sub;
block Tail
  extends Modelica.Blocks.Interfaces.SISO;
equation
  y = u;
end Tail;
