within Stiction.Interfaces;
partial model PartialRegularizedSign
  "A smooth replacement s_law of sign(v_law) of width eps, chosen by law (doc/friction.md section 1)"
  import Stiction.Types.FrictionLaw;
  parameter FrictionLaw law = FrictionLaw.Tanh
    "Regularization: Arctan, Tanh, Exp or Linear (the other laws are not continuous; they use Tanh)"
    annotation (Evaluate=true);
  parameter Real eps(min=1e-15) = 1e-3 "Regularization width, in the unit of v_law (rad/s or m/s)";
  Real v_law "Relative speed the law sees (set by the element)";
  Real s_law(final unit="1") "Regularized sign(v_law), in [-1, 1]";
equation
  // The Exp form is written as its identity tanh(v/(0.02*eps)) (msl-friction.md 5.9), so that
  // exp() cannot overflow for large negative speeds. Linear is C0 at |v| = eps; noEvent keeps
  // the solver from stopping there (the law is continuous, no mode changes).
  s_law = if law == FrictionLaw.Arctan then 2/Modelica.Constants.pi*atan(v_law/eps)
    else if law == FrictionLaw.Exp then tanh(v_law/(0.02*eps))
    else if law == FrictionLaw.Linear then noEvent(if abs(v_law) >= eps then sign(v_law) else v_law/eps)
    else tanh(v_law/eps);
end PartialRegularizedSign;
