// Expandable connectors (Modelica 3.6 section 9.1.3): members made by the connections, a
// nested bus that gets its members from a component's own connections.
package Bus
  expandable connector ControlBus
    Real declared "declared, never connected: not present";
  end ControlBus;

  expandable connector SubBus
  end SubBus;

  connector RealOutput = output Real;
  connector RealInput = input Real;
  connector BooleanOutput = output Boolean;

  block Source
    parameter Real k = 1;
    RealOutput y;
  equation
    y = k * time;
  end Source;

  block Gain
    RealInput u;
    RealOutput y;
  equation
    y = 2 * u;
  end Gain;

  model Part
    SubBus sub;
    Source s(k = 3);
    BooleanOutput late;
  equation
    late = time > 0.5;
    connect(s.y, sub.signal);
    connect(late, sub.late);
  end Part;

  model Usage
    ControlBus bus;
    Source src;
    Gain g;
    Gain g2;
    Part part;
    Real z;
  equation
    connect(src.y, bus.a);
    connect(bus.a, g.u);
    connect(part.sub, bus.sub);
    connect(bus.sub.signal, g2.u);
    z = if bus.sub.late then 1 else 0;
  end Usage;

  model PassOn "buses connected whole: their declared members only meet each other"
    ControlBus bus1;
    ControlBus bus2;
    Source src;
    Gain g;
  equation
    connect(bus1, bus2);
    connect(src.y, bus1.a);
    connect(bus2.b, g.u);
    connect(bus1.b, bus1.a);
  end PassOn;

  model Unknown
    ControlBus bus1;
    ControlBus bus2;
    Gain g;
  equation
    connect(bus1.a, bus2.b);
  end Unknown;
end Bus;
