within Modelica.Blocks.Math;
block Abs "y = |u|"
  parameter Boolean generateEvent = false "true: the sign change of u is a state event";
  extends Interfaces.SISO;
equation
  y = if generateEvent then (if u >= 0 then u else -u) else noEvent(if u >= 0 then u else -u);
end Abs;
