within Modelica.Thermal.HeatTransfer.Interfaces;
connector HeatPort_a "Thermal port (filled icon in the MSL)"
  extends HeatPort;
end HeatPort_a;
