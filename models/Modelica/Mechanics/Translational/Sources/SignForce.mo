within Modelica.Mechanics.Translational.Sources;
model SignForce "Constant-magnitude force with a regularised sign of the speed (no events)"
  import Modelica.Constants.pi;
  import Modelica.Blocks.Types.Regularization;
  extends Translational.Interfaces.PartialForce;
  parameter SI.Force f_nominal "Force for |v| well above v0 (negative brakes)";
  parameter Regularization reg = Regularization.Exp "Shape of the sign regularisation";
  parameter SI.Velocity v0(final min=Modelica.Constants.eps, start=0.1) "Regularisation width";
  SI.Velocity v "Velocity of the flange relative to the support";
equation
  v = der(s);
  // as Rotational.Sources.SignTorque
  if reg == Regularization.Exp then
    f = f_nominal*(2/(1 + exp(-v/(0.01*v0))) - 1);
  elseif reg == Regularization.Sine then
    f = f_nominal*smooth(1, noEvent(if abs(v) >= v0 then sign(v) else sin(pi/2*v/v0)));
  elseif reg == Regularization.Linear then
    f = f_nominal*smooth(0, noEvent(if abs(v) >= v0 then sign(v) else v/v0));
  else
    f = f_nominal*smooth(1, noEvent(if abs(v) >= v0 then sign(v) else sign(v)*(1 - cos(pi/2*v/v0))));
  end if;
end SignForce;
