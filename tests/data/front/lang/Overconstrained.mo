package Overconstrained "overconstrained connectors (Modelica 3.5 section 9.4)"
  record Ref "a reference angle: connecting it in a loop would over-determine it"
    Real theta;
    function equalityConstraint
      input Ref r1;
      input Ref r2;
      output Real residue[0];
    algorithm
    end equalityConstraint;
  end Ref;

  connector Pin
    Ref ref;
    Real v;
    flow Real i;
  end Pin;

  model Source
    Pin p;
  equation
    Connections.root(p.ref);
    p.ref.theta = time;
    p.v = 1;
  end Source;

  model TwoPin "passes the reference on; y tells which side is closer to the root"
    Pin p, n;
    Real y;
  equation
    Connections.branch(p.ref, n.ref);
    p.ref.theta = n.ref.theta;
    p.v - n.v = p.i;
    p.i + n.i = 0;
    y = if Connections.rooted(p.ref) then 1 else 0;
  end TwoPin;

  model Mass "a potential root: defines the reference only when it is chosen"
    parameter Integer priority = 0;
    Pin p;
    Real r;
  equation
    Connections.potentialRoot(p.ref, priority);
    if Connections.isRoot(p.ref) then
      p.ref.theta = 2*time;
    end if;
    r = if Connections.isRoot(p.ref) then 1 else 0;
    p.v = 0;
  end Mass;

  model Loop "a loop of connections: one is broken; a second tree chooses its root"
    Source s;
    TwoPin a, b, d;
    Mass m1(priority = 1), m2(priority = 0);
    TwoPin e;
  equation
    connect(s.p, a.p);
    connect(a.n, b.p);
    connect(b.n, s.p);
    connect(d.n, s.p);
    connect(m1.p, e.p);
    connect(e.n, m2.p);
  end Loop;

  model TwoRoots "two trees with a Connections.root each, joined through a branch: the
    connection that would put both roots in one tree is broken"
    Source s1, s2;
    TwoPin a;
  equation
    connect(s1.p, a.p);
    connect(a.n, s2.p);
  end TwoRoots;

  record RefC "a residue of one element"
    Real theta;
    function equalityConstraint
      input RefC r1;
      input RefC r2;
      output Real residue[1];
    algorithm
      residue := {r1.theta - r2.theta};
      annotation(Inline = true);
    end equalityConstraint;
  end RefC;

  connector PinC
    RefC ref;
  end PinC;

  model SourceC
    PinC p;
  equation
    Connections.root(p.ref);
    p.ref.theta = time;
  end SourceC;

  model TwoPinC
    PinC p, n;
  equation
    Connections.branch(p.ref, n.ref);
    p.ref.theta = n.ref.theta;
  end TwoPinC;

  model LoopC "the broken connection gives 0 = equalityConstraint(...)"
    SourceC s;
    TwoPinC a;
  equation
    connect(s.p, a.p);
    connect(a.n, s.p);
  end LoopC;

  model NoRoot
    TwoPinC a;
  end NoRoot;
end Overconstrained;
