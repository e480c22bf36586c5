within Modelica.Mechanics.Rotational.Sources;
model SignTorque "Constant-magnitude torque with a regularised sign of the speed (no events)"
  import Modelica.Constants.pi;
  import Modelica.Blocks.Types.Regularization;
  extends Rotational.Interfaces.PartialTorque;
  parameter SI.Torque tau_nominal "Torque for |w| well above w0 (negative brakes)";
  parameter Regularization reg = Regularization.Exp "Shape of the sign regularisation";
  parameter SI.AngularVelocity w0(final min=Modelica.Constants.eps, start=0.1)
    "Regularisation width";
  SI.AngularVelocity w "Speed of the flange relative to the support";
  SI.Torque tau "Accelerating torque acting at the flange (= -flange.tau)";
equation
  w = der(phi);
  tau = -flange.tau;
  // Exp equals tau_nominal*tanh(w/(0.02*w0)) and saturates near 0.05*w0
  if reg == Regularization.Exp then
    tau = tau_nominal*(2/(1 + exp(-w/(0.01*w0))) - 1);
  elseif reg == Regularization.Sine then
    tau = tau_nominal*smooth(1, noEvent(if abs(w) >= w0 then sign(w) else sin(pi/2*w/w0)));
  elseif reg == Regularization.Linear then
    tau = tau_nominal*smooth(0, noEvent(if abs(w) >= w0 then sign(w) else w/w0));
  else
    tau = tau_nominal*smooth(1, noEvent(if abs(w) >= w0 then sign(w) else sign(w)*(1 - cos(pi/2*w/w0))));
  end if;
end SignTorque;
