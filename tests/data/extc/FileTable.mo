// A table object read from a file (tests/test_extc.c file_table): the matrix parameter is
// empty, fill(0.0, 0, 2), as in the MSL's tables on file; a parameter computed by C from the
// object; a file that cannot be read is an error naming it.
package FileTable
  class Table
    extends ExternalObject;
    function constructor
      input String fileName;
      input Real table[:, :];
      output Table t;
    external "C" t = extc_table_open(fileName, table, size(table, 1), size(table, 2))
      annotation(Include = "#include \"extc_table.c\"", IncludeDirectory = "modelica://FileTable/csrc");
    end constructor;

    function destructor
      input Table t;
    external "C" extc_table_close(t)
      annotation(Include = "#include \"extc_table.c\"", IncludeDirectory = "modelica://FileTable/csrc");
    end destructor;
  end Table;

  function value
    input Table t;
    input Real x;
    output Real y;
  external "C" y = extc_table_value(t, x)
    annotation(Include = "#include \"extc_table.c\"", IncludeDirectory = "modelica://FileTable/csrc");
  end value;

  function tmax
    input Table t;
    output Real y;
  external "C" y = extc_table_tmax(t)
    annotation(Include = "#include \"extc_table.c\"", IncludeDirectory = "modelica://FileTable/csrc");
  end tmax;

  partial model Base
    parameter String fileName;
    parameter Real table[:, :] = fill(0.0, 0, 2);
    parameter Table t = Table(if size(table, 1) > 0 then "" else fileName, table);
    parameter Real tEnd = tmax(t);
    Real tEndCopy = tEnd;
    Real y = value(t, time);
  end Base;

  model FromMatrix
    extends Base(fileName = "", table = [0, 0; 1, 2; 2, 0]);
  end FromMatrix;
end FileTable;
