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
protected
  final parameter Integer signLaw = Stiction.Functions.signLaw(law)
    "The law as the C library numbers it (stiction_sign_law)";
equation
  // stiction_friction_sign of include/stiction/friction.h (doc/friction.md section 1): the Exp
  // law is evaluated as its identity tanh(v/(0.02*eps)), so exp() cannot overflow; Linear is
  // C0 at |v| = eps. The call makes no events: the laws are continuous, without modes.
  s_law = Stiction.Functions.regularizedSign(signLaw, v_law, eps);
end PartialRegularizedSign;
