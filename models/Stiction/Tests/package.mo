within Stiction;
package Tests "Small set-ups that tests/test_stiction_lib.c checks against closed forms"
  import SI = Modelica.Units.SI;
end Tests;
