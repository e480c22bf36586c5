within Modelica.Mechanics.Rotational.Sources;
model Position "Flange angle given by an input signal (exactly, or through a 2nd-order filter)"
  extends Rotational.Interfaces.PartialElementaryOneFlangeAndSupport2;
  parameter Boolean exact = false "true: phi = phi_ref exactly; false: filtered with f_crit";
  parameter SI.Frequency f_crit = 50 "Cut-off frequency of the filter (exact = false)";
  SI.Angle phi(start=0, fixed=not exact, stateSelect=StateSelect.prefer)
    "Angle of the flange relative to the support";
  SI.AngularVelocity w(start=0, fixed=not exact, stateSelect=StateSelect.prefer)
    "Speed of the flange relative to the support";
  SI.AngularAcceleration a "Acceleration of the flange relative to the support";
  Modelica.Blocks.Interfaces.RealInput phi_ref(unit="rad") "Reference angle";
protected
  parameter SI.AngularFrequency w_crit = 2*Modelica.Constants.pi*f_crit "Filter corner";
  // critically damped second-order filter written as a Bessel-like pair of coefficients
  constant Real af = 1.3617 "s coefficient of the filter";
  constant Real bf = 0.6180 "s*s coefficient of the filter";
equation
  phi = flange.phi - phi_support;
  w = der(phi);
  a = der(w);
  if exact then
    phi = phi_ref;
  else
    a = ((phi_ref - phi)*w_crit - af*w)*(w_crit/bf);
  end if;
end Position;
