within Modelica.Thermal.HeatTransfer.Interfaces;
connector HeatPort_b "Thermal port (empty icon in the MSL)"
  extends HeatPort;
end HeatPort_b;
