within Modelica.Mechanics.Rotational.Components;
model IdealPlanetary "Ideal planetary gear (Willis equation), no inertia or losses"
  parameter Real ratio(start=100/50) "Number of ring teeth over number of sun teeth";
  Rotational.Interfaces.Flange_a sun "Sun wheel";
  Rotational.Interfaces.Flange_a carrier "Planet carrier";
  Rotational.Interfaces.Flange_b ring "Ring wheel";
equation
  // kinematics with the carrier held: sun and ring turn with ratio -ring/sun
  (1 + ratio)*carrier.phi = sun.phi + ratio*ring.phi;
  // torque balance of the massless gear (the power balance fixes the ratios)
  ring.tau = ratio*sun.tau;
  carrier.tau = -(1 + ratio)*sun.tau;
end IdealPlanetary;
