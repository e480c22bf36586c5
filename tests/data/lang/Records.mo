// Records in expressions and functions (Modelica 3.6 section 12.6): record components in
// equations, record constructors with positional, named and default fields, nested records,
// record inputs and outputs of functions, record locals assigned whole and by field.
// Closed forms in test_lang_func.c.
package Records
  record Point
    Real x;
    Real y;
  end Point;

  record Segment
    Point a;
    Point b;
    Real w;
  end Segment;

  record Scale "its default is used by the constructor Scale()"
    Real k = 3;
  end Scale;

  function scaled
    input Point p;
    input Scale s = Scale();
    output Real r;
  algorithm
    r := s.k * p.x;
  end scaled;

  function len
    input Segment s;
    output Real l;
  algorithm
    l := s.w * sqrt((s.b.x - s.a.x)^2 + (s.b.y - s.a.y)^2);
  end len;

  function mid
    input Segment s;
    output Point p;
  protected
    Point q;
  algorithm
    q := Point(s.a.x + s.b.x, y = s.a.y + s.b.y);
    p.x := q.x / 2;
    p.y := q.y / 2;
  end mid;

  function shift
    input Point p;
    input Real d = 1;
    output Point q;
    output Real n;
  algorithm
    q := Point(x = p.x + d, y = p.y);
    n := 2;
  end shift;

  model Test
    Point p(x = time, y = 2);
    Segment s;
    Point m;
    Point sh;
    Real L;
    Real L2 = len(Segment(Point(0, 0), Point(3, 4), 2));
    Real n;
    Real sc = scaled(p);
    Real sc2 = scaled(p, Scale(k = 5));
  equation
    s.a = p;
    s.b = Point(y = 0, x = 2 * time);
    s.w = 1;
    L = len(s);
    m = mid(s);
    sh = shift(m, d = 10);
    (, n) = shift(p);
  end Test;
end Records;
