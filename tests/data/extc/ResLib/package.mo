// A library with a resource file (tests/test_extc.c load_resource): the path loadResource
// gives reaches C (its length), and a URI naming no file is a located error. twice inherits
// the same inputs and outputs from two bases (as Files.loadResource does): one of each.
package ResLib
  partial function Interface
    input Real x;
    output Real y;
  end Interface;

  function Implementation
    extends Interface;
  algorithm
    y := 2 * x;
  end Implementation;

  function twice
    extends Interface;
    extends Implementation;
  end twice;

  model UsesFile
    Real y = twice(3);
    parameter String file = ModelicaServices.ExternalReferences.loadResource(
      "modelica://ResLib/Resources/data.txt");
    parameter Integer n = Stateful.nameLength(file);
    Integer nCopy = n;
  end UsesFile;

  model MissingFile
    parameter String file = ModelicaServices.ExternalReferences.loadResource(
      "modelica://ResLib/Resources/none.txt");
    parameter Integer n = Stateful.nameLength(file);
    Integer nCopy = n;
  end MissingFile;
end ResLib;
