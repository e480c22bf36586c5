within Stiction;
package Functions
  "The friction laws of stiction's C library (include/stiction/friction.h, bam.h) as external functions"
  // Each function is bound by the compiler to the library entry its external clause names
  // (doc/library.md, External functions): no C code is loaded, and the Jacobians use the
  // partial derivatives the library returns. Arguments are passed in the order written.

  function regularizedSign "Regularized sign(v) of width w (stiction_friction_sign)"
    input Integer law "stiction_sign_law: 0 exact, 1 MSL Exp, 2 MSL Sine, 3 MSL Linear, 4 MSL CoSine, 5 tanh, 6 arctan";
    input Real v "Speed";
    input Real w "Width (> 0), in the unit of v";
    output Real s "Regularized sign, in [-1, 1]";
  external "C" s = stiction_friction_sign(law, v, w) annotation (Library="stiction");
  end regularizedSign;

  function signLaw "The stiction_sign_law number of a Stiction.Types.FrictionLaw (non-continuous laws: tanh)"
    input Stiction.Types.FrictionLaw law;
    output Integer cLaw;
  algorithm
    cLaw := if law == Stiction.Types.FrictionLaw.Arctan then 6
      elseif law == Stiction.Types.FrictionLaw.Exp then 1
      elseif law == Stiction.Types.FrictionLaw.Linear then 3
      else 5;
  end signLaw;

  function stribeckMagnitude "Stribeck magnitude g(v) = Fc + (Fs - Fc)*exp(-|v/vs|^alpha) (stiction_friction_stribeck_g)"
    input Real Fc "Coulomb level";
    input Real Fs "Static level";
    input Real vs "Stribeck speed (> 0)";
    input Real alpha "Shape exponent (> 0)";
    input Real v "Speed";
    output Real g;
  external "C" g = stiction_friction_stribeck_g(Fc, Fs, vs, alpha, v) annotation (Library="stiction");
  end stribeckMagnitude;

  function leineSlip "Leine et al. 1998 slip friction Fs/(1 + delta*|v|) (stiction_friction_leine_g)"
    input Real Fs "Static level";
    input Real delta "Decay (s/m)";
    input Real v "Relative speed";
    output Real g;
  external "C" g = stiction_friction_leine_g(Fs, delta, v) annotation (Library="stiction");
  end leineSlip;

  function karnopp "Karnopp velocity band: the friction force on the body (stiction_friction_karnopp)"
    input Real v "Relative speed";
    input Real f_app "The other forces on the body";
    input Real dv "Band half-width: |v| < dv counts as stuck";
    input Real fs "Static limit";
    input Real fk "Kinetic magnitude at the present |v|";
    output Real f "-clip(f_app, -fs, fs) inside the band, -sign(v)*fk outside";
  external "C" f = stiction_friction_karnopp(v, f_app, dv, fs, fk) annotation (Library="stiction");
  end karnopp;

  function lugreZdot "LuGre bristle rate dz/dt = v - sigma0*|v|*z/g(v) with the Stribeck g (stiction_friction_lugre)"
    input Real sigma0;
    input Real sigma1;
    input Real sigma2;
    input Real Fc;
    input Real Fs;
    input Real vs;
    input Real alpha;
    input Real z "Bristle deflection";
    input Real v "Relative speed";
    output Real zdot;
  external "C" zdot = stiction_friction_lugre_zdot(sigma0, sigma1, sigma2, Fc, Fs, vs, alpha, z, v)
    annotation (Library="stiction");
  end lugreZdot;

  function lugreForce "LuGre force sigma0*z + sigma1*dz/dt + sigma2*v with the Stribeck g (stiction_friction_lugre)"
    input Real sigma0;
    input Real sigma1;
    input Real sigma2;
    input Real Fc;
    input Real Fs;
    input Real vs;
    input Real alpha;
    input Real z "Bristle deflection";
    input Real v "Relative speed";
    output Real f "Friction force (acts as -f on the moving side)";
  external "C" f = stiction_friction_lugre_force(sigma0, sigma1, sigma2, Fc, Fs, vs, alpha, z, v)
    annotation (Library="stiction");
  end lugreForce;

  function lugreZdotG "LuGre bristle rate with a given steady-state level g (stiction_friction_lugre_g)"
    input Real sigma0;
    input Real sigma1;
    input Real sigma2;
    input Real g "Steady-state friction level g(v) > 0";
    input Real z;
    input Real v;
    output Real zdot;
  external "C" zdot = stiction_friction_lugre_g_zdot(sigma0, sigma1, sigma2, g, z, v)
    annotation (Library="stiction");
  end lugreZdotG;

  function lugreForceG "LuGre force with a given steady-state level g (stiction_friction_lugre_g)"
    input Real sigma0;
    input Real sigma1;
    input Real sigma2;
    input Real g "Steady-state friction level g(v) > 0";
    input Real z;
    input Real v;
    output Real f;
  external "C" f = stiction_friction_lugre_g_force(sigma0, sigma1, sigma2, g, z, v)
    annotation (Library="stiction");
  end lugreForceG;

  function bamFrictionloss "BAM budget without the viscous part, models M1..M6 (stiction_bam_friction, doc/bam.md section 3)"
    input Integer bamModel "1..6";
    input Real Kc;
    input Real Kcs;
    input Real w_s;
    input Real alpha;
    input Real Kl;
    input Real Kls;
    input Real Km;
    input Real Ke;
    input Real Kms;
    input Real Kes;
    input Real Kmq;
    input Real Keq;
    input Real tau_m "Motor torque";
    input Real tau_e "External torque";
    input Real w "Joint speed";
    output Real frictionloss;
  external "C" frictionloss = stiction_bam_frictionloss(bamModel, Kc, Kcs, w_s, alpha, Kl, Kls,
    Km, Ke, Kms, Kes, Kmq, Keq, tau_m, tau_e, w) annotation (Library="stiction");
  end bamFrictionloss;
end Functions;
