// homotopy() at initialization and in index reduction (doc/compiler.md, Initialization).
package Homotopy
  model Fallback "sqrt(x - 2) cannot be evaluated at the start x = 0: Newton fails there;
    the path from the simplified x - 2.5 (x = 2.5) reaches the actual root x = 3"
    Real x(start = 0);
  equation
    0 = homotopy(actual = sqrt(x - 2) - 1, simplified = x - 2.5);
  end Fallback;
  model Plain "the same without homotopy(): the initial system has no solution"
    Real x(start = 0);
  equation
    0 = sqrt(x - 2) - 1;
  end Plain;
  model Differentiated "y = homotopy(2 x, x) is a constraint between the states x and y:
    index reduction differentiates it to der(y) = homotopy(2 der(x), der(x)); then
    der(x) = (1 - x)/3, x = 1 - exp(-t/3), y = 2 x, z = der(y)"
    Real x(start = 0, fixed = true);
    Real y, z;
  equation
    der(x) = 1 - x - z;
    der(y) = z;
    y = homotopy(actual = 2 * x, simplified = x);
  end Differentiated;
  model SchmittStart "an amplifier limited at +-15 in positive feedback (a Schmitt
    trigger): at t = 0 the loop has three solutions, +-15 and the unstable 0; the start
    value of i2 (through R2 from the input to the output) is that of out = -15"
    parameter Real V0 = 15000, Vps = 15, R1 = 1000, R2 = 1500;
    Real out, inp, i1, i2(start = Vps / R2);
    Real u = 5 * time "the drive; the trigger flips when u reaches Vps R2/R1 = 10";
  equation
    out = smooth(0, if V0 * inp > Vps then Vps else if V0 * inp < -Vps then -Vps else V0 * inp);
    inp - out = R2 * i2;
    inp - u = R1 * i1;
    i1 + i2 = 0;
  end SchmittStart;
end Homotopy;
