// Stream connectors (Modelica 3.5 section 15): three volumes at a junction, one of them
// behind an outside connector, with fixed mass flows and outflow enthalpies.
package Stream
  connector Port
    Real p;
    flow Real m_flow "into the component";
    stream Real h_outflow;
    stream Real c_outflow[2];
  end Port;

  model Volume "fixed flow into the volume, fixed outflow enthalpy"
    parameter Real mflow;
    parameter Real h;
    Port port;
    Real hin = inStream(port.h_outflow);
    Real hact = actualStream(port.h_outflow);
    Real cin[2] = inStream(port.c_outflow);
  equation
    port.m_flow = mflow;
    port.h_outflow = h;
    port.c_outflow = {h, 2 * h};
  end Volume;

  model Open "the flow follows from the others"
    parameter Real h;
    Port port;
    Real hin = inStream(port.h_outflow);
    Real hact = actualStream(port.h_outflow);
    Real cin[2] = inStream(port.c_outflow);
  equation
    port.h_outflow = h;
    port.c_outflow = {h, 2 * h};
  end Open;

  model Wrapped "a volume seen through an outside connector"
    Port port;
    Volume v(mflow = 4, h = 300);
  equation
    connect(port, v.port);
  end Wrapped;

  model Junction
    Volume v1(mflow = -1, h = 100);
    Open v2(h = 200);
    Wrapped w;
  equation
    connect(v1.port, v2.port);
    connect(v1.port, w.port);
    v1.port.p = 1;
  end Junction;

  model BadStream
    Port port;
    Real x = inStream(port.p);
  equation
    port.h_outflow = 1;
    port.c_outflow = {1, 2};
  end BadStream;
end Stream;
