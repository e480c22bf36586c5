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

  // Records inside records and array fields of fixed size are laid out as a C compiler lays
  // out the struct (tests/test_extc.c nested_records_as_structs): a member struct is aligned
  // to its widest field and padded to a multiple of it.
  record S
    Integer k;
    Real x;
  end S;

  record Outer
    Integer n "4 bytes, then padding: s starts at 8";
    S s;
    Integer m[3];
    Real v[2];
    Integer tail "after v; the struct is padded to 48";
  end Outer;

  function first "the explicit form: the fields as C sees them"
    input Outer p;
    output Real y;
  external "C" y = extc_first(p) annotation(Include = "
#include <stddef.h>
typedef struct { int k; double x; } extc_S;
typedef struct { int n; extc_S s; int m[3]; double v[2]; int tail; } extc_Outer;
double extc_first(const extc_Outer *p) {
  return p->n + 10 * p->s.k + 100 * p->s.x + 1000 * (p->m[0] + p->m[1] + p->m[2])
         + 1e4 * (p->v[0] + p->v[1]) + 1e5 * p->tail;
}");
  end first;

  function extc_swap "the default form: an input and an output with records inside"
    input Outer p;
    output Outer q;
  external "C" annotation(Include = "
typedef struct { int k; double x; } extc_S;
typedef struct { int n; extc_S s; int m[3]; double v[2]; int tail; } extc_Outer;
void extc_swap(const extc_Outer *p, extc_Outer *q) {
  q->n = p->tail; q->tail = p->n; q->s.k = 2 * p->s.k; q->s.x = -p->s.x;
  for (int i = 0; i < 3; i++) q->m[i] = p->m[2 - i];
  q->v[0] = p->v[1]; q->v[1] = p->v[0];
}");
  end extc_swap;

  model Nested
    parameter Outer p(n = 1, s(k = 2, x = 3), m = {1, 2, 3}, v = {0.25, 0.5}, tail = 4);
    Real y = first(p) + time;
    Outer q = extc_swap(p);
  end Nested;

  // A record C cannot take as a struct: a String array field. The call is a located error
  // naming the field, never values read from the wrong place.
  record WithArray
    Real a;
    String v[2];
  end WithArray;

  function extc_first_a "the default form"
    input WithArray p;
    output Real y;
  external "C" annotation(Include = "
double extc_first_a(const double *p) { return p[0]; }");
  end extc_first_a;

  model ArrayField
    parameter WithArray p(a = 2, v = {"x", "y"});
    Real y = extc_first_a(p);
  end ArrayField;
end Records;
