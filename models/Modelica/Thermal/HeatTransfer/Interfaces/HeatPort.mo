within Modelica.Thermal.HeatTransfer.Interfaces;
partial connector HeatPort "Thermal port: temperature and heat flow into the component"
  SI.Temperature T "Port temperature";
  flow SI.HeatFlowRate Q_flow "Heat flow rate, positive into the component";
end HeatPort;
