model BeltBearing
  "Leine's belt in rotation: an inertia on a torsion spring, rubbing in an MSL BearingFriction
   whose support turns at 0.2 rad/s; friction 1 - 0.5|w| N.m (a velocity-weakening table)"
  Modelica.Mechanics.Rotational.Components.Inertia inertia(J=1, phi(start=1, fixed=true),
    w(start=0.2, fixed=true)) "Starts stuck at break-away: spring torque = tau0_max = 1";
  Modelica.Mechanics.Rotational.Components.Spring spring(c=1);
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Modelica.Mechanics.Rotational.Components.BearingFriction bearing(tau_pos=[0, 1; 1, 0.5],
    useSupport=true, useHeatPort=true, w_small=1e10)
    "Heat port and w_small as an MSL model may have them (the substitute must accept them)";
  Modelica.Thermal.HeatTransfer.Components.HeatCapacitor housing(C=1, T(start=293.15, fixed=true));
  Modelica.Mechanics.Rotational.Sources.Speed belt(exact=true);
  Modelica.Blocks.Sources.Constant beltSpeed(k=0.2);
  Real x = inertia.phi - 0.65
    "The measured signal: the angle about the middle of the cycle (crosses 0 upwards once a
     period, while stuck)";
equation
  connect(fixed.flange, spring.flange_a);
  connect(spring.flange_b, inertia.flange_a);
  connect(inertia.flange_b, bearing.flange_a);
  connect(bearing.support, belt.flange);
  connect(beltSpeed.y, belt.w_ref);
  connect(bearing.heatPort, housing.port);
  annotation (experiment(StopTime=42.2, Tolerance=1e-6));
end BeltBearing;
