within Modelica.Mechanics.Translational.Sources;
model Speed "Flange velocity given by an input signal (exactly, or through a first-order filter)"
  extends Translational.Interfaces.PartialElementaryOneFlangeAndSupport2;
  parameter Boolean exact = false "true: v = v_ref exactly; false: filtered with f_crit";
  parameter SI.Frequency f_crit = 50 "Cut-off frequency of the filter (exact = false)";
  SI.Position s(start=0, fixed=true, stateSelect=StateSelect.prefer)
    "Distance between flange and support";
  SI.Velocity v(start=0, fixed=not exact, stateSelect=StateSelect.prefer)
    "Velocity of the flange relative to the support";
  SI.Acceleration a "Acceleration of the flange relative to the support";
  Modelica.Blocks.Interfaces.RealInput v_ref(unit="m/s") "Reference velocity";
protected
  parameter SI.AngularFrequency w_crit = 2*Modelica.Constants.pi*f_crit "Filter corner";
equation
  s = flange.s - s_support;
  v = der(s);
  a = der(v);
  if exact then
    v = v_ref;
  else
    a = (v_ref - v)*w_crit;
  end if;
end Speed;
