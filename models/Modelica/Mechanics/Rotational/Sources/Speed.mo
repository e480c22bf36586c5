within Modelica.Mechanics.Rotational.Sources;
model Speed "Flange speed given by an input signal (exactly, or through a first-order filter)"
  extends Rotational.Interfaces.PartialElementaryOneFlangeAndSupport2;
  parameter Boolean exact = false "true: w = w_ref exactly; false: filtered with f_crit";
  parameter SI.Frequency f_crit = 50 "Cut-off frequency of the filter (exact = false)";
  SI.Angle phi(start=0, fixed=true, stateSelect=StateSelect.prefer)
    "Angle of the flange relative to the support";
  SI.AngularVelocity w(start=0, fixed=not exact, stateSelect=StateSelect.prefer)
    "Speed of the flange relative to the support";
  SI.AngularAcceleration a "Acceleration of the flange relative to the support";
  Modelica.Blocks.Interfaces.RealInput w_ref(unit="rad/s") "Reference speed";
protected
  parameter SI.AngularFrequency w_crit = 2*Modelica.Constants.pi*f_crit "Filter corner";
equation
  phi = flange.phi - phi_support;
  w = der(phi);
  a = der(w);
  if exact then
    w = w_ref;
  else
    a = (w_ref - w)*w_crit;
  end if;
end Speed;
