connector Pin
  Real v;
  flow Real i;
end Pin;

connector Flange
  Real phi;
  flow Real tau;
end Flange;

model Part
  Pin p;
  Flange f;
end Part;

model BadConnect
  Part a, b;
equation
  connect(a.p, b.f);
end BadConnect;
