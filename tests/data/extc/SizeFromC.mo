// Array sizes known only by calling C with parameters (the MSL's readMatrixSize and
// readRealMatrix): the calls run while translating.
package SizeFromC
  function shape "rows = the characters of the name that are not blanks (isspace: the C
    library's ctype tables, which a statically linked stiction once left unset), cols = 2"
    input String name;
    output Integer dim[2];
  external "C" sizefromc_shape(name, dim) annotation(Include =
    "#include <ctype.h>\nvoid sizefromc_shape(const char *name, int *dim) { int n = 0; for (const char *p = name; *p; p++) n += !isspace((unsigned char)*p); dim[0] = n; dim[1] = 2; }");
  end shape;

  function table "a[i, j] = 10 i + j"
    input String name;
    input Integer nrow;
    input Integer ncol;
    output Real a[nrow, ncol];
  external "C" sizefromc_table(name, a, size(a, 1), size(a, 2)) annotation(Include =
    "#include <stddef.h>\nvoid sizefromc_table(const char *name, double *a, size_t m, size_t n) { (void)name; for (size_t i = 0; i < m; i++) for (size_t j = 0; j < n; j++) a[i * n + j] = 10.0 * (i + 1) + (j + 1); }");
  end table;

  impure function shapeImpure "shape, impure as the MSL's readMatrixSize"
    input String name;
    output Integer dim[2];
  external "C" sizefromc_shape(name, dim) annotation(Include =
    "#include <ctype.h>\nvoid sizefromc_shape(const char *name, int *dim) { int n = 0; for (const char *p = name; *p; p++) n += !isspace((unsigned char)*p); dim[0] = n; dim[1] = 2; }");
  end shapeImpure;

  impure function tableImpure "table, impure as the MSL's readRealMatrix"
    input String name;
    input Integer nrow;
    input Integer ncol;
    output Real a[nrow, ncol];
  external "C" sizefromc_table(name, a, size(a, 1), size(a, 2)) annotation(Include =
    "#include <stddef.h>\nvoid sizefromc_table(const char *name, double *a, size_t m, size_t n) { (void)name; for (size_t i = 0; i < m; i++) for (size_t j = 0; j < n; j++) a[i * n + j] = 10.0 * (i + 1) + (j + 1); }");
  end tableImpure;

  model Impure "impure functions give sizes too (a size is fixed by translation); the size is
    declared after the array it sizes, as in the MSL's ReadRealMatrixFromFile"
    parameter String name = "a b c";
    final parameter Real A[:, :] = tableImpure(name, dim[1], dim[2]);
    final parameter Integer dim[2] = shapeImpure(name);
    Real s = sum(A) * time;
  end Impure;

  model M
    parameter String name = "a b c";
    final parameter Integer dim[2] = shape(name);
    final parameter Real A[:, :] = table(name, dim[1], dim[2]);
    Real s = sum(A) * time;
  end M;
end SizeFromC;
