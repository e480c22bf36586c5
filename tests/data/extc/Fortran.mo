// External "FORTRAN 77" routines (extc_fortran.c: the trailing-underscore convention) and
// LAPACK's dgesv through a wrapper written here (Library = "lapack").
package Fortran
  function mat "a matrix in, its transpose, a weighted sum and an Integer matrix out"
    input Real A[:, :];
    input String label;
    input Integer K0[size(A, 1), size(A, 2)];
    output Real B[size(A, 2), size(A, 1)];
    output Real w;
    output Integer K[size(A, 1), size(A, 2)] = K0;
    output Integer info;
  protected
    Integer lda = size(A, 1);
  external "FORTRAN 77" extcmat(size(A, 1), size(A, 2), A, lda, B, w, K, label, info)
    annotation(Include = "#include \"extc_fortran.c\"", IncludeDirectory = "modelica://Fortran/csrc");
  end mat;

  function dot "a FUNCTION with a value, named in upper case in the clause"
    input Real x[:];
    input Real y[size(x, 1)];
    input Real s;
    output Real d;
  external "FORTRAN 77" d = EXTCDOT(size(x, 1), x, y, s)
    annotation(Include = "#include \"extc_fortran.c\"", IncludeDirectory = "modelica://Fortran/csrc");
  end dot;

  function solve "A X = B by LAPACK's dgesv (LU with partial pivoting)"
    input Real A[:, size(A, 1)];
    input Real B[size(A, 1), :];
    output Real X[size(A, 1), size(B, 2)] = B;
    output Integer info;
  protected
    Real LU[size(A, 1), size(A, 1)] = A "overwritten by the factors";
    Integer pivots[size(A, 1)];
  external "FORTRAN 77" dgesv(size(A, 1), size(B, 2), LU, size(A, 1), pivots, X, size(A, 1), info)
    annotation(Library = "lapack");
  end solve;

  model M
    Real A[2, 3] = [1, 2, 3; 4, 5, 6 + time];
    Real B[3, 2];
    Real w;
    Integer K[2, 3];
    Integer info;
    Real d = dot({1, 2, 3}, {4, 5, time}, 2);
  equation
    (B, w, K, info) = mat(A, "Tag", [0, 0, 0; 100, 100, 100]);
  end M;

  model Lapack "a matrix that needs pivoting and is not symmetric; X = {{1, time}, {2, -1}, {3, 0.5}}"
    Real A[3, 3] = [0, 2, 1; 3, 1 + time, 0; 1, 0, 4];
    Real Xt[3, 2] = [1, time; 2, -1; 3, 0.5];
    Real X[3, 2];
    Integer info;
  equation
    (X, info) = solve(A, A * Xt);
  end Lapack;

  model Singular "dgesv reports info = 2: U(2, 2) is exactly zero"
    Real X[2, 1];
    Integer info;
  equation
    (X, info) = solve([1, 2; 2, 4], [1; time]);
  end Singular;
end Fortran;
