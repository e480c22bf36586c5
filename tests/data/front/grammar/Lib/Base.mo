within Lib;
partial model Base
  parameter Integer n = 1;
  parameter Real k[:] = {1};
  replaceable package Medium = Lib.Sub.Air;
end Base;
