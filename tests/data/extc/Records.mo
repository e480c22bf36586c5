// Records passed to C as structs by address (Modelica 3.6 section 12.9.1.3; tests/
// test_extc.c records_as_structs): a Real, an Integer (padding after it) and a Real, as an
// input of the explicit form, and an input and an output of the default form.
package Records
  record P
    Real a;
    Integer n;
    Real b;
  end P;

  function combine "a * n + b"
    input P p;
    output Real y;
  external "C" y = extc_combine(p) annotation(Include = "
typedef struct { double a; int n; double b; } extc_P;
double extc_combine(const extc_P *p) { return p->a * p->n + p->b; }");
  end combine;

  function scaled "p with a and b times k and n + 1 (the default form: p, k, then q)"
    input P p;
    input Real k;
    output P q;
  external "C" extc_scaled(p, k, q) annotation(Include = "
typedef struct { double a; int n; double b; } extc_P;
void extc_scaled(const extc_P *p, double k, extc_P *q) {
  q->a = k * p->a; q->n = p->n + 1; q->b = k * p->b;
}");
  end scaled;

  function extc_shift "the default form: void extc_shift(const P *p, P *q), q = p + 1 each"
    input P p;
    output P q;
  external "C" annotation(Include = "
typedef struct { double a; int n; double b; } extc_P;
void extc_shift(const extc_P *p, extc_P *q) { q->a = p->a + 1; q->n = p->n + 1; q->b = p->b + 1; }");
  end extc_shift;

  model Use
    parameter P p(a = 2, n = 3, b = 0.5);
    Real y = combine(p);
    P q = scaled(p, time + 1);
    P r = extc_shift(p);
  end Use;

  // Records C cannot take as a struct (yet): a record inside the record, an array field. The
  // call is a located error naming the field, never values read from the wrong place.
  record S
    Real x;
  end S;

  record Outer
    Real a;
    S s;
  end Outer;

  record WithArray
    Real a;
    Real v[2];
  end WithArray;

  function first "the explicit form"
    input Outer p;
    output Real y;
  external "C" y = extc_first(p) annotation(Include = "
double extc_first(const double *p) { return p[0]; }");
  end first;

  function extc_first_a "the default form"
    input WithArray p;
    output Real y;
  external "C" annotation(Include = "
double extc_first_a(const double *p) { return p[0]; }");
  end extc_first_a;

  model Nested
    parameter Outer p(a = 2, s(x = 3));
    Real y = first(p) + time;
  end Nested;

  model ArrayField
    parameter WithArray p(a = 2, v = {3, 4});
    Real y = extc_first_a(p);
  end ArrayField;
end Records;
