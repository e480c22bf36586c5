within Lib;
model Other "a model in its own file"
  import Lib.Sub.*;
  parameter Real p = Lib.k;
end Other;
