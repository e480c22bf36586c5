within Modelica.Units;
package Conversions "Conversion of non-SI units (degC, rpm) to and from SI"
  import Modelica.Units.SI;
  function from_degC "Celsius to Kelvin"
    input Real Celsius(unit="degC");
    output SI.Temperature Kelvin;
  algorithm
    Kelvin := Celsius + 273.15;
  end from_degC;
  function to_degC "Kelvin to Celsius"
    input SI.Temperature Kelvin;
    output Real Celsius(unit="degC");
  algorithm
    Celsius := Kelvin - 273.15;
  end to_degC;
  function from_rpm "Revolutions per minute to rad/s"
    input Real rpm(unit="rev/min");
    output SI.AngularVelocity w;
  algorithm
    w := rpm*(2*3.14159265358979323846/60);
  end from_rpm;
  function to_rpm "rad/s to revolutions per minute"
    input SI.AngularVelocity w;
    output Real rpm(unit="rev/min");
  algorithm
    rpm := w*(60/(2*3.14159265358979323846));
  end to_rpm;
end Conversions;
