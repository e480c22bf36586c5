within Modelica;
package Electrical "Electrical library (subset: only the material constants the eddy current brakes use)"
  package Machines "Electric machines (subset)"
    package Thermal "Thermal data of machines (subset)"
      package Constants "Temperature coefficients of the resistance at 20 degC"
        import Modelica.Units.SI;
        constant SI.LinearTemperatureCoefficient alpha20Zero = 0 "No temperature dependency";
        constant SI.LinearTemperatureCoefficient alpha20Copper = 3.93e-3 "Copper";
        constant SI.LinearTemperatureCoefficient alpha20Aluminium = 4.03e-3 "Aluminium";
      end Constants;
    end Thermal;
  end Machines;
end Electrical;
