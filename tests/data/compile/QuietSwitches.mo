// Switches that need no event: m_flow*actualStream(h) of one port (the product is
// continuous where the stream switches) and the relations inside smooth(). The flow
// changes sign ten times in t = 0 .. pi/2; the plain actualStream, smooth(0, ...) and the
// plain if make events. U(pi/2) = 5 periods of (5 - 1) * 0.1 = 2, and with x^2 for x
// (Smooth) 5 periods of (5 + 1) * pi/40 = 3 pi/4.
package QuietSwitches
  connector Port
    Real p;
    flow Real m_flow;
    stream Real h_outflow;
  end Port;
  model Source "sets the flow into the volume: sin(20 t); offers h = 5"
    Port port;
  equation
    port.m_flow = -sin(20 * time);
    port.h_outflow = 5;
  end Source;
  model Volume "offers h = 1; U integrates the enthalpy flow in"
    Port port;
    Real U(start = 0, fixed = true);
  equation
    port.h_outflow = 1;
    der(U) = port.m_flow * actualStream(port.h_outflow);
  end Volume;
  model Stream
    Source source;
    Volume volume;
  equation
    connect(source.port, volume.port);
    source.port.p = 1;
  end Stream;
  model StreamMonitored "the same, and the port's actual enthalpy on its own: events"
    extends Stream;
    Real h = actualStream(volume.port.h_outflow);
  end StreamMonitored;
  model Smooth "continuously differentiable (5 x^2 and x^2 meet with slope 0): no events"
    Real x = sin(20 * time);
    Real U(start = 0, fixed = true);
  equation
    der(U) = smooth(1, if x > 0 then 5 * x ^ 2 else x ^ 2);
  end Smooth;
  model SmoothZero "smooth(0, ...) keeps its events: the switch may decide an algebraic loop's
    branch (an opamp's limits in a Schmitt trigger)"
    Real x = sin(20 * time);
    Real U(start = 0, fixed = true);
  equation
    der(U) = smooth(0, if x > 0 then 5 * x else x);
  end SmoothZero;
  model Plain "the same without smooth(): events"
    Real x = sin(20 * time);
    Real U(start = 0, fixed = true);
  equation
    der(U) = if x > 0 then 5 * x else x;
  end Plain;
end QuietSwitches;
