within Modelica.Blocks;
package Types "Types used by blocks and by the regularised sign sources"
  type Regularization = enumeration(
      Exp "Exponential: 2/(1+exp(-x/(0.01*x0)))-1",
      Sine "Sine below x0",
      Linear "Linear below x0",
      CoSine "Cosine-based below x0") "How sign(x) is smoothed around x = 0";
  type Smoothness = enumeration(
      LinearSegments "Piecewise linear",
      ContinuousDerivative "Continuous first derivative",
      ConstantSegments "Piecewise constant",
      MonotoneContinuousDerivative1 "Monotone, C1 (Fritsch-Butland)",
      MonotoneContinuousDerivative2 "Monotone, C1 (Steffen)",
      ModifiedContinuousDerivative "Modified Akima") "Interpolation of tables";
  type Extrapolation = enumeration(
      HoldLastPoint "Hold the first/last value",
      LastTwoPoints "Extrapolate through the first/last two points",
      Periodic "Repeat the table",
      NoExtrapolation "Error outside the table") "Extrapolation of tables";
  type Init = enumeration(
      NoInit "No initialization",
      SteadyState "Steady state",
      InitialState "Initialize the states",
      InitialOutput "Initialize the output") "Initialization of blocks";
end Types;
