within Stiction;
package Types "Types of the Stiction package"
  type FrictionLaw = enumeration(
      EventDriven "Set-valued Coulomb law: stuck/slip modes with events (exact model)",
      Arctan "Smooth sign: (2/pi)*atan(v/eps)",
      Tanh "Smooth sign: tanh(v/eps)",
      Karnopp "Velocity band |v| < eps counted as stuck (Karnopp 1985)",
      LuGre "Bristle model (Canudas de Wit et al. 1995)",
      Exp "MSL SignTorque Exp: 2/(1 + exp(-v/(0.01*eps))) - 1 = tanh(v/(0.02*eps))",
      Linear "MSL SignTorque Linear: v/eps inside |v| < eps, sign(v) outside")
    "How dry friction is modelled";
end Types;
