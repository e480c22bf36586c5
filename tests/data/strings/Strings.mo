// String values in function bodies and messages (Modelica 3.6 section 3.7.4.9: String()).
package Strings
  function lengths "C sees both texts: string, and fileName with its default"
    input String string = "";
    input String fileName = "";
    output Integer n;
  external "C" n = strings_lengths(string, fileName) annotation(Include =
    "#include <string.h>\nint strings_lengths(const char *s, const char *f) { return (int)(strlen(s) + 100 * strlen(f)); }");
  end lengths;

  function report "a String input; the text is built from it"
    input Real t;
    input String name;
    output Integer n;
  algorithm
    n := lengths("at " + name);
  end report;

  function same "1 when the texts are equal"
    input String a;
    input String b;
    output Integer eq;
  external "C" eq = strings_same(a, b) annotation(Include =
    "#include <string.h>\nint strings_same(const char *a, const char *b) { return strcmp(a, b) == 0; }");
  end same;

  function formats "String() of a Real, an Integer and a Boolean, with its options"
    input Real x;
    input Integer i;
    input Boolean b;
    input String expected;
    output Integer eq;
  protected
    String s;
  algorithm
    s := String(x) + "|" + String(x, significantDigits = 3) + "|" + String(i, minimumLength = 4) +
         "|" + String(i, minimumLength = 4, leftJustified = false) + "|" + String(b) + "|" +
         String(x, format = "8.2f") + "|" + String(i, format = "x") + "|" + String(x, 10, 0, true);
    eq := same(s, expected);
    if s == expected and s < expected + "z" then
      eq := eq + 1;
    end if;
  end formats;

  function firstWord "a String output C writes through its pointer"
    input String s;
    output Integer n;
    output String word;
  external "C" strings_first_word(s, n, word) annotation(Include =
    "#include <string.h>\n#include \"ModelicaUtilities.h\"\nvoid strings_first_word(const char *s, int *n, const char **w) { size_t k = strcspn(s, \" \"); char *t = ModelicaAllocateString(k); memcpy(t, s, k); t[k] = 0; *n = (int)k; *w = t; }");
  end firstWord;

  function wordCheck "1 when the first word of s is expected"
    input String s;
    input String expected;
    output Integer ok;
  protected
    Integer n;
    String w;
  algorithm
    (n, w) := firstWord(s);
    ok := if w == expected and n == lengths(expected) then 1 else 0;
  end wordCheck;

  model OutputText
    Integer ok = wordCheck("hello world" + String(time > 2), "hello");
  end OutputText;

  function totalLength "a String array reaches C as its texts"
    input String words[:];
    output Integer n;
  external "C" n = strings_total(words, size(words, 1)) annotation(Include =
    "#include <string.h>\nint strings_total(const char **w, int n) { int t = 0; for (int i = 0; i < n; i++) t += (int)strlen(w[i]); return t; }");
  end totalLength;

  function position "String arrays: a default, elements compared and assigned, fill()"
    input String key;
    input String choices[:] = {",", "=", ";"};
    output Integer k = 0;
  protected
    String copy[size(choices, 1)];
    String blanks[2] = fill("  ", 2);
  algorithm
    for i in 1:size(choices, 1) loop
      copy[i] := choices[i] + "!";
    end for;
    for i in 1:size(choices, 1) loop
      if copy[i] == key + "!" then
        k := 10 * i + totalLength(copy) + totalLength(blanks) - 10;
      end if;
    end for;
  end position;

  model TextArrays
    Integer k = position(if time > 0.5 then "=" else ";");
  end TextArrays;

  model ParameterText "a String parameter concatenated in an equation: its text"
    parameter String base = "data";
    Integer n = lengths(base + ".txt", base);
  end ParameterText;

  function greeting
    input Real x;
    output String s = "x = " + String(x);
  end greeting;

  model PassedOn "a String made while running passed on in an equation: refused"
    Integer n = lengths(greeting(time));
  end PassedOn;

  model DefaultText
    parameter String name = "xy";
    Integer k = report(time, name);
  end DefaultText;

  model Formats
    parameter Real x = 2 / 3;
    Integer eq = formats(x + 0 * time, 42, true,
      "0.666667|0.667|42  |  42|true|    0.67|2a|0.6666666667");
    String folded = String(1.5, significantDigits = 2) + String(7, minimumLength = 3);
  end Formats;

  function checked "compiled body: the machine builds the failed assert's message"
    input Real x;
    output Real y;
  algorithm
    assert(x < 0.5, "x (= " + String(x, significantDigits = 4) + ") is too large");
    y := x;
  end checked;

  model FunctionMessage
    Real y = checked(time);
  end FunctionMessage;

  model ModelMessage
    Real x = time;
    parameter Real L = 0.25;
  equation
    assert(x <= L, "x (= " + String(x, significantDigits = 3) + ") <= L (= " + String(L) +
      ", " + String(2, minimumLength = 3, leftJustified = false) + ")");
  end ModelMessage;
end Strings;
