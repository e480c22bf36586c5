within Stiction.Interfaces;
partial model PartialFrictionLaw
  "The friction f_law of an element: the regularized sign times the magnitude g_law, or Karnopp's velocity band of width eps"
  extends Stiction.Interfaces.PartialRegularizedSign;
  parameter Real sigma0(min=0) = 1e4
    "LuGre bristle stiffness (force or torque per unit of v_law's displacement)" annotation (Dialog(enable=law == Stiction.Types.FrictionLaw.LuGre));
  parameter Real sigma1(min=0) = 200 "LuGre bristle damping" annotation (Dialog(enable=law == Stiction.Types.FrictionLaw.LuGre));
  Real z(start=0, fixed=law == Stiction.Types.FrictionLaw.LuGre)
    "LuGre bristle deflection, unloaded at the start (0 for the other laws)";
  Real a_law "Relative acceleration the law sees (set by the element: der(v_law))";
  Real g_law "Sliding friction magnitude at the present speed (set by the element)";
  Real f_max "Largest friction that holds the element inside the Karnopp band (set by the element)";
  Real f_law "Friction, positive when it brakes a forward motion (the element applies it)";
  Boolean inBand(start=false, fixed=true)
    "Karnopp: inside the band |v_law| < eps, or held there (false for the other laws)";
  Real sa(final unit="1")
    "Karnopp: the holding friction inside the band, the acceleration outside it (0 for the other laws)";
equation
  if law == Stiction.Types.FrictionLaw.Karnopp then
    // Karnopp 1985 (doc/friction.md, stiction_friction_karnopp): inside |v_law| < eps the
    // friction cancels the other forces sa up to f_max, outside it slides with g_law. sa is
    // the path parameter of the MSL PartialFriction: with f_law = clip(sa, -f_max, f_max)
    // inside the band, a_law = sa - f_law is 0 while held and the excess once it breaks away.
    // The band test is relations here, so entering and leaving the band are events (a call
    // makes none); inside, the C law sees v = 0, which is inside any band. Two relations, not
    // abs(v_law) < eps: a step that crosses the whole band changes the sign of one of them
    // (abs(v_law) - eps would be positive at both ends and the band would be missed).
    // Entering the band leaves v_law at its edge, where a drift at the solver's tolerance
    // would leave it again before the break-away: once inside, the band is left at twice its
    // width (a hysteresis of eps, which vanishes with eps as the band itself).
    inBand = if pre(inBand) then v_law < 2*eps and v_law > -2*eps else v_law < eps and v_law > -eps;
    f_law = -Stiction.Functions.karnopp(if inBand then 0 else v_law, sa, eps, f_max, g_law);
    a_law = if inBand then sa - f_law else sa;
    z = 0;
  elseif law == Stiction.Types.FrictionLaw.LuGre then
    // LuGre (Canudas de Wit et al. 1995, stiction_friction_lugre_g) with the element's
    // magnitude as the steady-state level: sliding steadily it gives g_law*sign(v_law). A
    // level of 0 (a clutch or brake without normal force) would make dz/dt infinite; below
    // 1e-9 the bristles see 1e-9 and relax at once.
    der(z) = Stiction.Functions.lugreZdotG(sigma0, sigma1, 0, noEvent(max(g_law, 1e-9)), z, v_law);
    f_law = Stiction.Functions.lugreForceG(sigma0, sigma1, 0, noEvent(max(g_law, 1e-9)), z, v_law);
    sa = 0;
    inBand = false;
  else
    f_law = s_law*g_law;
    sa = 0;
    inBand = false;
    z = 0;
  end if;
end PartialFrictionLaw;
