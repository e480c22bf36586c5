// An external "builtin" function whose name stiction does not know: a located error.
model ExternalBuiltinBad
  function besselJ0
    input Real u;
    output Real y;
  external "builtin" y = j0(u);
  end besselJ0;
  Real y = besselJ0(time);
end ExternalBuiltinBad;
