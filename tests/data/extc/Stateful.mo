// What the MSL's noise blocks use, with C code written here (tests/test_extc.c
// noise_like_generator): a tuple equation (and assignment) in a when-clause whose outputs are
// a Real and an Integer array (declared `Integer[2] s`), a function calling an impure C function as a
// statement, and getInstanceName() passed to C.
package Stateful
  function step "the next state of a small linear congruential generator and its number in [0, 1)"
    input Integer[2] stateIn;
    output Real r;
    output Integer[2] stateOut;
  external "C" extc_lcg(stateIn, stateOut, r) annotation(Include = "
void extc_lcg(const int *in, int *out, double *r) {
  out[0] = (int)((1103515245u * (unsigned)in[0] + 12345u) & 0x7fffffffu);
  out[1] = in[1] + 1;
  *r = out[0] / 2147483648.0;
}");
  end step;

  impure function remember "stores a value in the C code's own state"
    input Integer x;
  external "C" extc_remember(x) annotation(Include = "
static int extc_memory;
void extc_remember(int x) { extc_memory = x; }
int extc_recall(void) { return extc_memory; }");
  end remember;

  impure function recall
    output Integer x;
  external "C" x = extc_recall() annotation(Include = "
static int extc_memory;
void extc_remember(int x) { extc_memory = x; }
int extc_recall(void) { return extc_memory; }");
  end recall;

  function initialize "calls remember as a statement"
    input Integer seed;
    output Integer id;
  algorithm
    remember(seed);
    id := recall() + 1;
  end initialize;

  function nameLength
    input String name;
    output Integer n;
  external "C" n = extc_strlen(name) annotation(Include = "
#include <string.h>
int extc_strlen(const char *s) { return (int)strlen(s); }");
  end nameLength;

  function sameText "1 when the two strings are equal, as C compares them"
    input String a;
    input String b;
    output Integer same;
  external "C" same = extc_same_text(a, b) annotation(Include = "
#include <string.h>
int extc_same_text(const char *a, const char *b) { return strcmp(a, b) == 0; }");
  end sameText;

  function hashIsJenkins "1 when external C code is built with uthash's default hash, as the MSL's is"
    output Integer jen;
  external "C" jen = extc_hash_is_jenkins() annotation(Include = "
#include <string.h>
#define EXTC_TEXT(x) #x
#define EXTC_VALUE(x) EXTC_TEXT(x)
int extc_hash_is_jenkins(void) {
#ifdef HASH_FUNCTION
  return strcmp(EXTC_VALUE(HASH_FUNCTION), \"HASH_JEN\") == 0;
#else
  return 0;
#endif
}");
  end hashIsJenkins;

  model Generator
    parameter String expectedName = "";
    parameter Integer nameMatches = sameText(getInstanceName(), expectedName);
    parameter Integer jenkins = hashIsJenkins();
    Integer nameMatchesCopy = nameMatches;
    Integer jenkinsCopy = jenkins;
    parameter Integer id = initialize(41);
    parameter Integer nameLen = nameLength(getInstanceName());
    Integer idCopy = id;
    Integer nameLenCopy = nameLen;
    discrete Real r(start = 0, fixed = true);
    discrete Integer s[2](start = {7, 0}, each fixed = true);
  equation
    when sample(0, 0.1) then
      (r, s) = step(pre(s));
    end when;
  end Generator;

  model Two
    Generator gen(expectedName = "Two.gen");
  end Two;

  impure function tick "the number of calls so far, counted in C"
    output Integer n;
  external "C" n = extc_tick() annotation(Include = "
static int extc_calls;
int extc_tick(void) { return ++extc_calls; }");
  end tick;

  model ImpureCounter "an impure call in a when-clause active at initialization"
    discrete Integer n;
  equation
    when {initial(), sample(0.1, 0.1)} then
      n = tick();
    end when;
  end ImpureCounter;

  model InAlgorithm "the same generator stepped by a tuple assignment in an algorithm"
    discrete Real r(start = 0, fixed = true);
    discrete Integer s[2](start = {7, 0}, each fixed = true);
  algorithm
    when sample(0, 0.1) then
      (r, s) := step(pre(s));
    end when;
  end InAlgorithm;
end Stateful;
