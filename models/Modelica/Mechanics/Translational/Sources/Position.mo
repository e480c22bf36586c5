within Modelica.Mechanics.Translational.Sources;
model Position "Flange position given by an input signal (exactly, or through a 2nd-order filter)"
  extends Translational.Interfaces.PartialElementaryOneFlangeAndSupport2;
  parameter Boolean exact = false "true: s = s_ref exactly; false: filtered with f_crit";
  parameter SI.Frequency f_crit = 50 "Cut-off frequency of the filter (exact = false)";
  SI.Position s(start=0, fixed=not exact, stateSelect=StateSelect.prefer)
    "Distance between flange and support";
  SI.Velocity v(start=0, fixed=not exact, stateSelect=StateSelect.prefer)
    "Velocity of the flange relative to the support";
  SI.Acceleration a "Acceleration of the flange relative to the support";
  Modelica.Blocks.Interfaces.RealInput s_ref(unit="m") "Reference position";
protected
  parameter SI.AngularFrequency w_crit = 2*Modelica.Constants.pi*f_crit "Filter corner";
  constant Real af = 1.3617 "s coefficient of the filter";
  constant Real bf = 0.6180 "s*s coefficient of the filter";
equation
  s = flange.s - s_support;
  v = der(s);
  a = der(v);
  if exact then
    s = s_ref;
  else
    a = ((s_ref - s)*w_crit - af*v)*(w_crit/bf);
  end if;
end Position;
