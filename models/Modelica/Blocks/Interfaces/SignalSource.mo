within Modelica.Blocks.Interfaces;
partial block SignalSource "Real source with an offset and a start time"
  extends SO;
  parameter Real offset = 0 "Added to the output signal";
  parameter SI.Time startTime = 0 "The signal starts at this time (offset only before)";
end SignalSource;
